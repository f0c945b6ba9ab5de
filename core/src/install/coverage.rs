//! Lock coverage: which platforms each provider's recorded hashes let `init` install on.
//!
//! Dependabot and Renovate download every platform's package to find this out; with
//! per-platform hashes from a registry's `packages`, a mirror's `<version>.json` or packages
//! the caller hashed, it is a set intersection.

use crate::addrs::{Platform, Provider};
use crate::collections::SortedMap;
use crate::hash::PackageHash;
use crate::lockfile::Locks;
use crate::version::Version;

/// Known hashes per provider, then per platform (`os_arch`).
pub type KnownHashes = SortedMap<Provider, SortedMap<String, Vec<PackageHash>>>;

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
                        .map(|(p, _)| p.clone())
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
