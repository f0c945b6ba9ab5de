//! A content-addressed cache of package hashes keyed by `zh:`, shared by every run and every
//! working directory: once a zip has been downloaded and verified, `providers lock` never
//! downloads it again to learn its `h1:`.
//!
//! Entries are written only for packages the planner accepted (authenticated against the
//! registry's signed checksums or the mirror's hashes), so the cache never vouches for
//! anything that was not verified once; the planner re-authenticates cached answers anyway.

use super::atomic::{write_atomic, FileMode};
use std::path::PathBuf;
use tflock_core::api::hash::PackageHash;
use tflock_core::api::hash_cache::{cache_key, CachedHashes};
use tflock_core::api::FetchedPackage;
use tflock_core::api::{Platform, SortedMap};

/// The on-disk cache.
#[derive(Debug, Clone)]
pub struct HashCache {
    dir: PathBuf,
}

impl HashCache {
    /// `$XDG_CACHE_HOME/tflock/zh` (or `~/.cache/tflock/zh`); `TFLOCK_CACHE_DIR` overrides.
    pub fn default_location() -> Option<HashCache> {
        let root = std::env::var_os("TFLOCK_CACHE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("tflock")))?;
        Some(HashCache::at(root.join("zh")))
    }

    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> HashCache {
        HashCache { dir: dir.into() }
    }

    /// The entry's file: core's key (`install::cache_key`, the npm `cache`'s too) + `.json`.
    fn path(&self, zh: &PackageHash) -> Option<PathBuf> {
        cache_key(zh).map(|key| self.dir.join(format!("{key}.json")))
    }

    /// The cached hashes of the archive whose SHA-256 is `zh`, as a fetched package.
    pub fn get(&self, zh: &PackageHash) -> Option<FetchedPackage> {
        let bytes = std::fs::read(self.path(zh)?).ok()?;
        serde_json::from_slice::<CachedHashes>(&bytes)
            .ok()?
            .package(zh)
    }

    /// Adds to each platform's known hashes the `h1:` of every `zh:` the cache has verified:
    /// the only place the Terraform registry's platforms get an `h1:` without a download.
    pub fn add_h1s(&self, per_platform: &mut SortedMap<Platform, Vec<PackageHash>>) {
        for hashes in per_platform.values_mut() {
            let extra: Vec<PackageHash> = hashes
                .iter()
                .filter(|h| h.is_zh())
                .filter_map(|zh| self.get(zh))
                .map(|f| match f {
                    FetchedPackage::Archive { hashes, .. } => hashes.h1,
                    FetchedPackage::Dir { h1 } => h1,
                })
                .collect();
            for h in extra {
                if !hashes.contains(&h) {
                    hashes.push(h);
                }
            }
        }
    }

    /// Records a verified archive's hashes.
    pub fn put(&self, package: &FetchedPackage) -> anyhow::Result<()> {
        let FetchedPackage::Archive { hashes, .. } = package else {
            return Ok(());
        };
        let (Some(path), Some(entry)) = (self.path(&hashes.zh), CachedHashes::of(package)) else {
            return Ok(());
        };
        std::fs::create_dir_all(&self.dir)?;
        Ok(write_atomic(
            &path,
            &serde_json::to_vec(&entry)?,
            FileMode::Fixed(0o644),
        )?)
    }
}
