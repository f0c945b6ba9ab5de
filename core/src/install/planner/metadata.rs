//! `-metadata-hashes` ([`HashSource::Metadata`]): every platform's `h1:` from the source's
//! metadata, with one package downloaded per provider.
//!
//! A platform whose source lists exactly one `h1:` and a `zh:` for its package (OpenTofu's
//! `packages`, a network mirror's `hashes`, the edge mirror's documents) waits as
//! [`Step::Described`]. Once every platform is located, the first described one (in the
//! order of the target platforms, so a repeated run finds it in the hash cache) is fetched
//! as the anchor. If its package hashes to the `h1:` the metadata claims, each other
//! described platform is accepted from its metadata as if its package had been downloaded
//! with exactly those hashes, so the source's own checks still run: a registry's `zh:`
//! against the signed `SHA256SUMS` and its signature, OpenTofu's `packages` consistency.
//! The lock is then the one a download of every platform writes. If the anchor fails or
//! hashes to anything else, the metadata is not trusted and the others are downloaded.

use super::phase::{Anchor, Selected, Step};
use super::turn::Turn;
use crate::addrs::Platform;
use crate::hash::{PackageHash, ZipHashes};
use crate::install::needs::{FetchedPackage, SourcePackage};
use crate::install::options::HashSource;
use crate::version::Version;

/// What the source's metadata says about one platform's package: enough to stand for a
/// download of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Described {
    /// The one `h1:` the metadata lists for the platform.
    pub h1: PackageHash,
    /// The package as a download with those hashes would have been seen.
    pub package: FetchedPackage,
}

/// The metadata `source` gives for `platform`'s package, when it lists exactly one `h1:`
/// and a `zh:` for it (several `h1:` could not say which one a download would compute).
pub(super) fn describe(source: &SourcePackage, platform: &Platform) -> Option<Described> {
    let platform = platform.to_string();
    match source {
        SourcePackage::Registry { meta, .. } => {
            if meta.platform != platform {
                return None;
            }
            let entry = meta.packages.get(&platform)?;
            let h1 = single_h1(entry.hashes.iter().map(String::as_str))?;
            let zh = PackageHash::parse(&format!("zh:{}", hex::encode(meta.sha256))).ok()?;
            let size = u64::try_from(entry.package_size).ok()?;
            Some(archive(h1, zh, meta.sha256, size))
        }
        SourcePackage::NetworkMirror { hashes, .. } => {
            // With `trust_all_hashes` the list spans platforms: only this one's count.
            let own = || {
                hashes
                    .iter()
                    .filter(|(p, _)| *p == platform)
                    .map(|(_, h)| h.as_str())
            };
            let h1 = single_h1(own())?;
            let zh = own().find(|h| h.starts_with("zh:"))?;
            let sha256 = decode_sha256(zh.strip_prefix("zh:")?)?;
            let zh = PackageHash::parse(zh).ok()?;
            // A mirror states no size, and nothing checks one for it.
            Some(archive(h1, zh, sha256, 0))
        }
        SourcePackage::LocalArchive { .. } | SourcePackage::LocalDir { .. } => None,
    }
}

fn single_h1<'a>(mut hashes: impl Iterator<Item = &'a str>) -> Option<PackageHash> {
    let mut h1s = hashes.by_ref().filter(|h| h.starts_with("h1:"));
    let first = h1s.next()?;
    if h1s.next().is_some() {
        return None;
    }
    PackageHash::parse(first).ok()
}

fn decode_sha256(hex_digest: &str) -> Option<[u8; 32]> {
    hex::decode(hex_digest).ok()?.try_into().ok()
}

fn archive(h1: PackageHash, zh: PackageHash, sha256: [u8; 32], size: u64) -> Described {
    let hashes = ZipHashes {
        h1: h1.clone(),
        zh,
        // The checks accept either form of `h1:`; the metadata has one.
        h1_archive: h1.clone(),
    };
    Described {
        h1,
        package: FetchedPackage::Archive {
            hashes,
            sha256,
            size,
        },
    }
}

impl Turn<'_> {
    /// Moves the described platforms on, once every platform is located: fetches the anchor,
    /// then, once it is in, takes the others from metadata (it matched) or fetches them too.
    pub(super) fn settle_described(&mut self, selected: &mut Selected) {
        if self.opts.hash_source != HashSource::Metadata {
            return;
        }
        let locating = |s: &Step| matches!(s, Step::Checking(_) | Step::Locating);
        if selected.platforms.iter().any(locating) {
            return;
        }
        let described: Vec<usize> = (0..selected.platforms.len())
            .filter(|&i| matches!(selected.platforms[i], Step::Described(_)))
            .collect();
        let Some(&first) = described.first() else {
            return;
        };
        let Some(anchor) = selected.anchor.clone() else {
            let claimed = match &selected.platforms[first] {
                Step::Described(source) => describe(source, self.platform(first)).map(|d| d.h1),
                _ => None,
            };
            if let Some(claimed_h1) = claimed {
                selected.anchor = Some(Anchor {
                    platform: first,
                    claimed_h1,
                });
            }
            selected.advance(first, |version, preferred, step| match step {
                Step::Described(source) => self.fetch(version, preferred, first, *source),
                step => step,
            });
            return;
        };
        let trusted = match &selected.platforms[anchor.platform] {
            Step::Fetching(_) => return,
            Step::Obtained(o) => o.local_h1 == anchor.claimed_h1,
            _ => false,
        };
        for i in described {
            selected.advance(i, |version, preferred, step| match step {
                Step::Described(source) if trusted => {
                    self.take_metadata(version, preferred, i, *source)
                }
                Step::Described(source) => self.fetch(version, preferred, i, *source),
                step => step,
            });
        }
    }

    /// Accepts platform `i` from `source`'s metadata as a download with those hashes.
    fn take_metadata(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        source: SourcePackage,
    ) -> Step {
        let Some(described) = describe(&source, self.platform(i)) else {
            // `on_location` lets only described sources wait; were one not, download it.
            return self.fetch(version, preferred, i, source);
        };
        self.judge(version, i, &source, &described.package, true)
    }
}
