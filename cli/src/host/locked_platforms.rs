//! Learns which platforms a lock file covers, for `-platform=locked` and `providers lock`'s
//! default: one package-metadata request per locked provider (a registry's signed
//! `SHA256SUMS` and `packages`, a mirror's `<version>.json`, each list every platform) and
//! the verified hash cache's `h1:` of each `zh:`. No package is downloaded; core decides.

use super::hash_cache::HashCache;
use super::sources::Sources;
use tflock_core::api::coverage::{learn_hashes, KnownHashes};
use tflock_core::api::lock_file::Locks;
use tflock_core::api::platforms::{locked_platforms, probe_platforms, LockedPlatforms};
use tflock_core::api::Platform;
use tflock_core::api::SortedMap;
use tflock_core::api::SourceErrorKind;

/// The platforms `locks` covers, as far as the sources' metadata and the cache tell.
pub fn learn(locks: &Locks, sources: &Sources, cache: Option<&HashCache>) -> LockedPlatforms {
    let mut known = KnownHashes::new();
    for lock in locks.providers() {
        let mut per_platform = SortedMap::new();
        // Any platform's answer lists them all; one the release lacks answers "not
        // supported", so the next is asked. Any other failure ends the probing: its
        // checksums stay unnamed, and the default falls back to this machine's platform.
        for probe in probe_platforms(&Platform::current()) {
            match sources.package_meta(lock.addr(), lock.version(), &probe) {
                Ok(pkg) => {
                    learn_hashes(&pkg, &mut per_platform);
                    break;
                }
                Err(e) if matches!(e.kind, SourceErrorKind::PlatformNotSupported { .. }) => {}
                Err(_) => break,
            }
        }
        if let Some(cache) = cache {
            cache.add_h1s(&mut per_platform);
        }
        known.insert(lock.addr().clone(), per_platform);
    }
    locked_platforms(locks, &known)
}
