//! Lock coverage: which platforms each provider's recorded hashes let `init` install on.
//!
//! Dependabot and Renovate download every platform's package to find this out; with
//! per-platform hashes from a registry's `packages`, a mirror's `<version>.json` or packages
//! the caller hashed, it is a set intersection.

use crate::addrs::{Platform, Provider};
use crate::collections::SortedMap;
use crate::diag::Diagnostic;
use crate::flavor::Flavor;
use crate::hash::PackageHash;
use crate::install::{SourceError, SourceErrorKind, SourcePackage};
use crate::lockfile::Locks;
use crate::protocol::package_name;
use crate::protocol::sha256sums::Sha256Sums;
use crate::version::Version;

/// Known hashes per provider, then per platform.
pub type KnownHashes = SortedMap<Provider, SortedMap<Platform, Vec<PackageHash>>>;

/// Coverage of one locked provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderCoverage {
    /// The provider.
    pub provider: Provider,
    /// Its locked version.
    pub version: Version,
    /// Wanted platforms for which some recorded hash is known to belong to that platform.
    pub covered: Vec<String>,
    /// Wanted platforms no recorded hash covers: `init` there would fail the checksum check.
    pub missing: Vec<String>,
    /// Platforms (wanted or not) each recorded hash belongs to; hashes no source
    /// attributes to a platform map to an empty list.
    pub hash_platforms: Vec<(PackageHash, Vec<String>)>,
}

/// The coverage report for a lock file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Coverage {
    /// One entry per locked provider, in lock order.
    pub providers: Vec<ProviderCoverage>,
}

impl Coverage {
    /// True when every wanted platform is covered for every provider.
    pub fn complete(&self) -> bool {
        self.providers.iter().all(|p| p.missing.is_empty())
    }
}

/// Maps each locked hash to the platforms `known` attributes it to, and reports the
/// `wanted` platforms each provider lacks.
pub fn lock_coverage(locks: &Locks, known: &KnownHashes, wanted: &[Platform]) -> Coverage {
    let empty = SortedMap::new();
    let providers = locks
        .providers()
        .map(|lock| {
            let per_platform = known.get(lock.addr()).unwrap_or(&empty);
            let hash_platforms: Vec<(PackageHash, Vec<String>)> = lock
                .hashes()
                .iter()
                .map(|h| {
                    let platforms = per_platform
                        .iter()
                        .filter(|(_, hashes)| hashes.contains(h))
                        .map(|(p, _)| p.to_string())
                        .collect();
                    (h.clone(), platforms)
                })
                .collect();
            let (covered, missing): (Vec<String>, Vec<String>) = wanted
                .iter()
                .map(ToString::to_string)
                .partition(|p| hash_platforms.iter().any(|(_, ps)| ps.contains(p)));
            ProviderCoverage {
                provider: lock.addr().clone(),
                version: lock.version().clone(),
                covered,
                missing,
                hash_platforms,
            }
        })
        .collect();
    Coverage { providers }
}

/// Adds to `out` (hashes per platform) every hash `pkg` says belongs to a platform: a
/// registry's `packages` (OpenTofu) and its signed `SHA256SUMS` lines, whose file names
/// name their platform; a network mirror's per-platform hashes. Filesystem packages say
/// nothing about other platforms. A name that is not a platform attributes nothing: the
/// sources refuse such names in `packages`, and no wanted platform could match one.
pub fn learn_hashes(pkg: &SourcePackage, out: &mut SortedMap<Platform, Vec<PackageHash>>) {
    let mut add = |platform: &str, hash: &str| {
        if let (Ok(p), Ok(h)) = (Platform::parse(platform), PackageHash::parse(hash)) {
            let list = out.entry(p).or_default();
            if !list.contains(&h) {
                list.push(h);
            }
        }
    };
    match pkg {
        SourcePackage::Registry {
            meta, sha256sums, ..
        } => {
            for (platform, entry) in &meta.packages {
                for h in &entry.hashes {
                    add(platform, h);
                }
            }
            if let Ok(sums) = Sha256Sums::parse(sha256sums) {
                for line in sums.lines() {
                    if let Some(name) = package_name::parse(&line.filename) {
                        add(&name.platform, &format!("zh:{}", hex::encode(line.sha256)));
                    }
                }
            }
        }
        SourcePackage::NetworkMirror { hashes, .. } => {
            for (platform, h) in hashes {
                add(platform, h);
            }
        }
        SourcePackage::LocalArchive { .. } | SourcePackage::LocalDir { .. } => {}
    }
}

/// The error for a platform whose package metadata could not be retrieved, or `None` when
/// the source answered that it has no package for the platform: that is a real answer (the
/// platform is missing), while any other failure leaves the platform's coverage unknown and
/// must not pass for "not covered".
pub fn coverage_query_failure(
    provider: &Provider,
    version: &Version,
    platform: &Platform,
    err: &SourceError,
    flavor: Flavor,
) -> Option<Diagnostic> {
    if matches!(err.kind, SourceErrorKind::PlatformNotSupported { .. }) {
        return None;
    }
    Some(Diagnostic::error(
        "Failed to query provider package metadata",
        format!(
            "Could not retrieve the package metadata of {} v{version} for {platform}: {}\n\nThe checksums recorded for this platform could not be checked, so its coverage is unknown.",
            provider.for_display(flavor),
            err.message
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_answer_teaches_each_platform_its_hashes_once() {
        let zh = format!("zh:{}", "ab".repeat(32));
        let pkg = SourcePackage::NetworkMirror {
            mirror_url: "https://m/".into(),
            url: "https://m/x.zip".into(),
            hashes: vec![
                ("linux_amd64".into(), zh.clone()),
                ("linux_amd64".into(), zh.clone()),
                ("darwin_arm64".into(), "not a hash".into()),
            ],
            trust_all_hashes: true,
        };
        let mut out = SortedMap::new();
        learn_hashes(&pkg, &mut out);
        learn_hashes(&SourcePackage::LocalDir { path: "d".into() }, &mut out);
        let learned: Vec<(String, Vec<String>)> = out
            .iter()
            .map(|(p, hs)| (p.to_string(), hs.iter().map(ToString::to_string).collect()))
            .collect();
        assert_eq!(learned, [("linux_amd64".to_string(), vec![zh])]);
    }

    #[test]
    fn a_name_that_is_no_platform_attributes_no_hash() {
        let zh = format!("zh:{}", "ab".repeat(32));
        let pkg = SourcePackage::NetworkMirror {
            mirror_url: "https://m/".into(),
            url: "https://m/x.zip".into(),
            hashes: vec![("linux".into(), zh.clone()), ("linux_arm_64".into(), zh)],
            trust_all_hashes: true,
        };
        let mut out = SortedMap::new();
        learn_hashes(&pkg, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }

    fn parts() -> (Provider, Version, Platform) {
        (
            Provider::parse("hashicorp/aws", Flavor::Terraform).expect("address"),
            Version::parse("5.1.0").expect("version"),
            Platform::parse("linux_amd64").expect("platform"),
        )
    }

    #[test]
    fn an_unreachable_source_is_an_error_naming_provider_platform_and_cause() {
        let (p, v, pl) = parts();
        let err = SourceError::other("connection refused");
        let d = coverage_query_failure(&p, &v, &pl, &err, Flavor::Terraform).expect("an error");
        assert_eq!(d.severity, crate::diag::Severity::Error);
        assert!(
            d.detail
                .contains("hashicorp/aws v5.1.0 for linux_amd64: connection refused"),
            "{}",
            d.detail
        );
    }

    #[test]
    fn a_platform_the_source_does_not_offer_is_missing_not_an_error() {
        let (p, v, pl) = parts();
        let err = SourceError {
            kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
            message: "no package".into(),
        };
        assert!(coverage_query_failure(&p, &v, &pl, &err, Flavor::Terraform).is_none());
    }
}
