//! The verified hash cache's rules, shared by every host (the CLI's `~/.cache/tflock/zh`
//! files, the npm package's caller-supplied `cache: { get, put }`): what an entry is keyed
//! by, what it holds, and which packages of a run may be written to it.
//!
//! An entry is keyed by the archive's `zh:` (its SHA-256), so it holds for every provider,
//! version and source that serves the same bytes; the planner asks for a package with the
//! `zh:` its source announced (`Need::Package::known_zh`), and a hit answers it without a
//! download. Only packages the planner authenticated are written, and the planner
//! re-authenticates a cached answer as if it had been downloaded.

use super::outcome::Outcome;
use super::FetchedPackage;
use crate::addrs::{Platform, Provider};
use crate::hash::{PackageHash, ZipHashes};

/// The cache key of the archive whose SHA-256 is `zh`: its 64 lowercase hex digits, or
/// `None` for anything but a well-formed `zh:` (never a key a hostile lock could steer
/// into a path).
pub fn cache_key(zh: &PackageHash) -> Option<String> {
    let value = zh.value();
    let valid = zh.is_zh() && value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit());
    valid.then(|| value.to_ascii_lowercase())
}

/// What the cache keeps for one archive: the hashes a download would compute besides its
/// `zh:` (which is the key), and its size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CachedHashes {
    /// `h1:` of the unpacked package.
    pub h1: String,
    /// `h1:` of the archive as Terraform hashes a zip it does not unpack.
    pub h1_archive: String,
    /// The archive's size in bytes.
    pub size: u64,
}

impl CachedHashes {
    /// The entry for a downloaded archive (`None` for an unpacked directory).
    pub fn of(package: &FetchedPackage) -> Option<CachedHashes> {
        match package {
            FetchedPackage::Archive { hashes, size, .. } => Some(CachedHashes {
                h1: hashes.h1.to_string(),
                h1_archive: hashes.h1_archive.to_string(),
                size: *size,
            }),
            FetchedPackage::Dir { .. } => None,
        }
    }

    /// The archive with SHA-256 `zh` as a download of it is seen, or `None` when the entry
    /// does not parse (a damaged entry is a miss, never an error).
    pub fn package(&self, zh: &PackageHash) -> Option<FetchedPackage> {
        let mut sha256 = [0u8; 32];
        hex::decode_to_slice(zh.value(), &mut sha256).ok()?;
        let h1 = PackageHash::parse(&self.h1)
            .ok()
            .filter(PackageHash::is_h1)?;
        let h1_archive = PackageHash::parse(&self.h1_archive)
            .ok()
            .filter(PackageHash::is_h1)?;
        Some(FetchedPackage::Archive {
            hashes: ZipHashes {
                h1,
                zh: zh.clone(),
                h1_archive,
            },
            sha256,
            size: self.size,
        })
    }
}

/// Whether a package of `provider` for `platform` fetched during the run that produced
/// `outcome` was authenticated, and so may be written to the cache.
pub fn verified(outcome: &Outcome, provider: &Provider, platform: &Platform) -> bool {
    outcome
        .providers
        .iter()
        .any(|r| &r.provider == provider && r.auth.iter().any(|(p, _)| p == platform))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zh(hex: &str) -> PackageHash {
        PackageHash::parse(&format!("zh:{hex}")).unwrap()
    }

    #[test]
    fn cache_key_is_the_lowercase_digest_of_a_well_formed_zh_only() {
        let upper = "AB".repeat(32);
        assert_eq!(cache_key(&zh(&upper)), Some("ab".repeat(32)));
        assert_eq!(cache_key(&zh(&"ab".repeat(31))), None);
        assert_eq!(cache_key(&zh(&format!("../{}", "a".repeat(61)))), None);
        let h1 = PackageHash::parse("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap();
        assert_eq!(cache_key(&h1), None);
    }

    #[test]
    fn cached_hashes_round_trip_to_the_downloaded_package() {
        let hashes = ZipHashes {
            h1: PackageHash::parse("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap(),
            zh: zh(&"cd".repeat(32)),
            h1_archive: PackageHash::parse("h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=")
                .unwrap(),
        };
        let package = FetchedPackage::Archive {
            hashes: hashes.clone(),
            sha256: [0xcd; 32],
            size: 42,
        };
        let entry = CachedHashes::of(&package).unwrap();
        assert_eq!(entry.package(&hashes.zh), Some(package));
    }

    #[test]
    fn a_damaged_entry_is_a_miss() {
        let entry = CachedHashes {
            h1: format!("zh:{}", "ab".repeat(32)),
            h1_archive: "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into(),
            size: 1,
        };
        assert_eq!(entry.package(&zh(&"ab".repeat(32))), None);
    }
}
