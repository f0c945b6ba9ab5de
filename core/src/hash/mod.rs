//! Provider package hashes: the `h1:` (Go dirhash Hash1) and `zh:` (zip SHA-256) schemes.
//!
//! - [`PackageHash`]: the `scheme:value` string, parsed as Terraform's `ParseHash`.
//! - [`hash_files`], [`DirHasher`]: `h1:` of an unpacked package (files in memory, or
//!   streamed one by one by a host walking a directory).
//! - [`hash_zip`], [`hash_zip_reader`], [`ZipHasher`]: `zh:` and both `h1:` forms of a zip,
//!   from bytes, a seekable reader, or a stream of chunks.
//! - [`package_matches_any_hash`]: Terraform's matching rules.
//!
//! Fidelity (checked against Go's `dirhash` and `archive/zip` in `tests/`):
//! - the archive form is `dirhash.HashZip` exactly, reading the zip as Go's `archive/zip`
//!   does (central directory first, base offset for prepended data, CRC and size checks);
//! - the lock-file form models what Terraform's installer extracts (see `extract_model`);
//!   differences: an empty zip hashes as an empty directory (go-getter refuses it with
//!   `empty archive`), and names no file system accepts (NUL, elements over 255 bytes) are
//!   errors here rather than OS errors;
//! - entries flagged as encrypted are refused (Go ignores the flag and then usually fails
//!   on the ciphertext);
//! - [`hash_zip`] fails if either `h1:` form fails, so one call gives all three or an error;
//! - the streaming [`ZipHasher`] answers exactly like [`hash_zip`] or returns
//!   [`HashError::NeedsRandomAccess`] (see `zip_stream` for when); with overlapping entries
//!   (one local entry listed many times) it reuses the digest, where the random-access
//!   reader stops at [`ZipLimits::max_ratio`].

mod central_directory;
mod dirhash;
mod entry_digest;
mod error;
mod extract_model;
mod limits;
mod matching;
mod package_hash;
mod sha256;
mod zip_random;
mod zip_records;
mod zip_stream;

pub use dirhash::{hash_files, ContentHasher, DirHasher, FileDigest};
pub use error::HashError;
pub use limits::ZipLimits;
pub use matching::{package_matches_any_hash, package_matches_hash, MatchError, PackageHashes};
pub use package_hash::{preferred_hashes, HashParseError, PackageHash, SCHEME_H1, SCHEME_ZH};
pub use sha256::{CoreSha256, Sha256Engine, Sha256Provider};
pub use zip_random::{hash_zip, hash_zip_reader, hash_zip_with, hash_zip_with_limits};
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
