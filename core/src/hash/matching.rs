//! Terraform's `PackageMatchesHash` / `PackageMatchesAnyHash`.

use super::{PackageHash, ZipHashes};
use crate::Flavor;

/// The computed hashes of a package, by kind: Terraform checks `zh:` only for archives and
/// `h1:` for both (for an archive, the `HashZip` form).
#[derive(Debug, Clone, Copy)]
pub enum PackageHashes<'a> {
    /// A local `.zip` (Terraform's `PackageLocalArchive`).
    Archive(&'a ZipHashes),
    /// An unpacked directory (`PackageLocalDir`) with its `h1:`.
    Unpacked(&'a PackageHash),
}

impl PackageHashes<'_> {
    /// Terraform's `PackageHashV1`: `HashZip` for an archive, `HashDir` for a directory.
    pub fn h1(&self) -> &PackageHash {
        match self {
            PackageHashes::Archive(z) => &z.h1_archive,
            PackageHashes::Unpacked(h) => h,
        }
    }
}

/// Why a single hash could not be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// `zh:` against an unpacked directory.
    #[error("ziphash scheme (\"zh:\" prefix) is not supported for unpacked provider packages")]
    ZipHashOfDirectory,
    /// A scheme this version does not know.
    #[error("unsupported hash format (this may require a newer version of {product})")]
    UnsupportedFormat {
        /// `Terraform` or `OpenTofu`.
        product: &'static str,
    },
}

/// `PackageMatchesHash`: whether the package matches `want`, or why it cannot be checked.
pub fn package_matches_hash(
    pkg: PackageHashes<'_>,
    want: &PackageHash,
    flavor: Flavor,
) -> Result<bool, MatchError> {
    if want.is_h1() {
        return Ok(pkg.h1() == want);
    }
    if want.is_zh() {
        return match pkg {
            PackageHashes::Archive(z) => Ok(&z.zh == want),
            PackageHashes::Unpacked(_) => Err(MatchError::ZipHashOfDirectory),
        };
    }
    Err(MatchError::UnsupportedFormat {
        product: flavor.product(),
    })
}

/// `PackageMatchesAnyHash`: true on the first allowed hash that matches; `zh:` is skipped
/// for directories and unknown schemes are skipped.
pub fn package_matches_any_hash(pkg: PackageHashes<'_>, allowed: &[PackageHash]) -> bool {
    allowed
        .iter()
        .any(|want| package_matches_hash(pkg, want, Flavor::Terraform) == Ok(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> PackageHash {
        PackageHash::parse(s).unwrap()
    }

    fn zip() -> ZipHashes {
        ZipHashes {
            h1: h("h1:lock"),
            zh: h("zh:abc"),
            h1_archive: h("h1:archive"),
        }
    }

    #[test]
    fn archives_match_zh_and_the_hashzip_form_of_h1() {
        let z = zip();
        let pkg = PackageHashes::Archive(&z);
        assert!(package_matches_any_hash(pkg, &[h("zh:abc")]));
        assert!(package_matches_any_hash(pkg, &[h("x:1"), h("h1:archive")]));
        assert!(!package_matches_any_hash(pkg, &[h("h1:lock")]));
        assert!(!package_matches_any_hash(pkg, &[]));
    }

    #[test]
    fn directories_skip_zh_in_any_and_error_in_single() {
        let d = h("h1:dir");
        let pkg = PackageHashes::Unpacked(&d);
        assert!(!package_matches_any_hash(pkg, &[h("zh:abc")]));
        assert!(package_matches_any_hash(pkg, &[h("zh:abc"), h("h1:dir")]));
        assert_eq!(
            package_matches_hash(pkg, &h("zh:abc"), Flavor::Terraform)
                .unwrap_err()
                .to_string(),
            "ziphash scheme (\"zh:\" prefix) is not supported for unpacked provider packages"
        );
        assert_eq!(
            package_matches_hash(pkg, &h("h9:x"), Flavor::OpenTofu)
                .unwrap_err()
                .to_string(),
            "unsupported hash format (this may require a newer version of OpenTofu)"
        );
    }
}
