//! Provider package hashes: the `h1:` (Go dirhash Hash1) and `zh:` (zip SHA-256) schemes.
//!
//! - [`PackageHash`]: the `scheme:value` string, parsed as Terraform's `ParseHash`.
//! - [`hash_files`], [`DirHasher`]: `h1:` of an unpacked package (files in memory, or
//!   streamed one by one by a host walking a directory).
//! - [`hash_zip`], [`hash_zip_reader`], [`ZipHasher`]: `zh:` and both `h1:` forms of a zip,
//!   from bytes, a seekable reader, or a stream of chunks.
//! - [`package_matches_any_hash`]: Terraform's matching rules.

mod central_directory;
mod dirhash;
mod entry_digest;
mod error;
mod extract_model;
mod limits;
mod matching;
mod package_hash;
mod zip_random;
mod zip_records;
mod zip_stream;

pub use dirhash::{hash_files, ContentHasher, DirHasher, FileDigest};
pub use error::HashError;
pub use limits::ZipLimits;
pub use matching::{package_matches_any_hash, package_matches_hash, MatchError, PackageHashes};
pub use package_hash::{preferred_hashes, HashParseError, PackageHash, SCHEME_H1, SCHEME_ZH};
pub use zip_random::{hash_zip, hash_zip_reader, hash_zip_with_limits};
pub use zip_stream::ZipHasher;

/// The hashes of one provider zip.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ZipHashes {
    /// The `h1:` Terraform writes to lock files: Go's `HashDir` of the directory the zip
    /// extracts to (directory entries contribute nothing).
    pub h1: PackageHash,
    /// `zh:`: lowercase hex SHA-256 of the archive bytes.
    pub zh: PackageHash,
    /// The `h1:` of Go's `dirhash.HashZip` (what Terraform checks a local archive against):
    /// every entry name counts, directory entries as empty files.
    pub h1_archive: PackageHash,
}
