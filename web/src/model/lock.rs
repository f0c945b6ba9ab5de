//! Panel 3: a pasted `.terraform.lock.hcl` → diagnostics, the canonical text `init` would
//! write (`tflock lockfile fmt`), and per provider which platforms its hashes cover.

use super::diagnostics::{rows, DiagnosticRow};
use tflock_core::api::coverage::{lock_coverage, KnownHashes};
use tflock_core::api::hash::PackageHash;
use tflock_core::api::lock_file::{
    header_flavor, load_locks, write_locks, LoadOptions, Locks, ProviderLock, LOCK_FILE_NAME,
};
use tflock_core::api::parse::PackageFileName;
use tflock_core::api::Platform;
use tflock_core::Flavor;

/// A package hashed in the page: its name (for provider type, version and platform) and
/// its hashes.
#[derive(Debug, Clone, PartialEq)]
pub struct HashedPackage {
    /// Parsed from the file name.
    pub name: PackageFileName,
    /// `h1:` and `zh:` (and the archive-form `h1:` when it differs).
    pub hashes: Vec<PackageHash>,
}

/// Coverage of one locked provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderRow {
    /// Provider address.
    pub provider: String,
    /// Locked version.
    pub version: String,
    /// Recorded constraints (may be empty).
    pub constraints: String,
    /// Recorded `h1:` hashes.
    pub h1: usize,
    /// Recorded `zh:` hashes.
    pub zh: usize,
    /// Wanted platforms some recorded hash is known to belong to.
    pub covered: Vec<String>,
    /// Wanted platforms no recorded hash is known to belong to.
    pub missing: Vec<String>,
}

/// Everything panel 3 shows for one lock text.
#[derive(Debug, Clone, PartialEq)]
pub struct LockReport {
    /// The flavour used (from the header unless chosen).
    pub flavor: Flavor,
    /// Parse diagnostics, with ranges in `.terraform.lock.hcl`.
    pub diagnostics: Vec<DiagnosticRow>,
    /// The canonical text, or `None` when the file has errors (as `lockfile fmt` refuses).
    pub formatted: Option<String>,
    /// True when `formatted` differs from the input.
    pub differs: bool,
    /// One row per locked provider, in lock order.
    pub providers: Vec<ProviderRow>,
    /// Platforms asked for that are not `os_arch`.
    pub bad_platforms: Vec<String>,
}

/// Parses the lock text with `flavor` (default: the header's), formats it and checks the
/// coverage of `platforms` (`os_arch`, separated by spaces or commas), attributing hashes
/// to platforms from the packages hashed in the page.
pub fn check(
    text: &str,
    flavor: Option<Flavor>,
    platforms: &str,
    hashed: &[HashedPackage],
) -> LockReport {
    let flavor = flavor.unwrap_or_else(|| header_flavor(text));
    let (locks, diags) = load_locks(text, &LoadOptions::new(LOCK_FILE_NAME, flavor));
    let formatted = (!diags.has_errors()).then(|| write_locks(&locks.normalized(), flavor));
    let differs = formatted.as_deref().is_some_and(|f| f != text);
    let mut wanted = Vec::new();
    let mut bad_platforms = Vec::new();
    for p in platforms
        .split([' ', ',', '\n', '\t'])
        .filter(|p| !p.is_empty())
    {
        match Platform::parse(p) {
            Ok(p) if !wanted.contains(&p) => wanted.push(p),
            Ok(_) => {}
            Err(_) => bad_platforms.push(p.to_string()),
        }
    }
    let known = known_hashes(&locks, hashed);
    let coverage = lock_coverage(&locks, &known, &wanted);
    let providers = locks
        .providers()
        .zip(coverage.providers)
        .map(|(l, c)| ProviderRow {
            provider: l.addr().to_string(),
            version: l.version().to_string(),
            constraints: l.constraints_string(),
            h1: count(l, "h1:"),
            zh: count(l, "zh:"),
            covered: c.covered,
            missing: c.missing,
        })
        .collect();
    LockReport {
        flavor,
        diagnostics: rows(diags.iter()),
        formatted,
        differs,
        providers,
        bad_platforms,
    }
}

fn count(l: &ProviderLock, scheme: &str) -> usize {
    l.hashes()
        .iter()
        .filter(|h| h.to_string().starts_with(scheme))
        .count()
}

/// Hashed packages attributed to the locked providers whose type and version they match.
fn known_hashes(locks: &Locks, hashed: &[HashedPackage]) -> KnownHashes {
    let mut known = KnownHashes::new();
    for l in locks.providers() {
        for p in hashed {
            // A name whose platform part is no platform (white space) matches no wanted one.
            let Ok(platform) = Platform::parse(&p.name.platform) else {
                continue;
            };
            if p.name.provider_type == l.addr().r#type && p.name.version == l.version().to_string()
            {
                known
                    .entry(l.addr().clone())
                    .or_default()
                    .entry(platform)
                    .or_default()
                    .extend(p.hashes.iter().cloned());
            }
        }
    }
    known
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::LOCK_FILE;
    use tflock_core::api::parse::package_file_name_parts;

    #[test]
    fn sample_lock_is_valid_but_unformatted() {
        let r = check(LOCK_FILE, None, "linux_amd64", &[]);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert!(r.differs);
        assert_eq!(r.providers.len(), 2);
        assert!(r.providers.iter().all(|p| p.missing == ["linux_amd64"]));
    }

    #[test]
    fn hashed_package_covers_its_platform() {
        let h1 = PackageHash::parse("h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=").unwrap();
        let pkg = HashedPackage {
            name: package_file_name_parts("terraform-provider-null_2.1.0_linux_amd64.zip").unwrap(),
            hashes: vec![h1],
        };
        let r = check(LOCK_FILE, None, "linux_amd64 darwin_arm64", &[pkg]);
        let null = r.providers.iter().find(|p| p.provider.ends_with("/null"));
        assert_eq!(null.unwrap().covered, ["linux_amd64"]);
    }
}
