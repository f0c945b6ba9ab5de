//! Hash a provider package: `h1:` over a zip (streamed or random-access) or a directory,
//! `zh:` over the archive, and a host's own SHA-256 plugged in.

/// Does a package match any of the given hashes.
pub use crate::hash::package_matches_any_hash;
/// Why a package could not be hashed.
pub use crate::hash::HashError;
/// Hash a zip as it streams in.
pub use crate::hash::ZipHasher;
/// Hash a directory's files (`h1:` of an unpacked package).
pub use crate::hash::{hash_files, ContentHasher, DirHasher};
/// Hash a whole zip in memory, from a reader, or with a given SHA-256.
pub use crate::hash::{hash_zip, hash_zip_reader, hash_zip_with, ZipLimits};
/// A host's SHA-256 (a thread, `node:crypto`), and core's own.
pub use crate::hash::{CoreSha256, FileDigest, Sha256Engine, Sha256Provider};
/// A package hash (`h1:…`, `zh:…`), and the hashes a zip has.
pub use crate::hash::{PackageHash, PackageHashes, ZipHashes};
