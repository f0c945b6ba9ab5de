//! Which platforms a lock's hashes cover, and which hashes belong to which platform as a
//! source's metadata says (`learn_hashes`).

pub use crate::install::{
    coverage_query_failure, learn_hashes, lock_coverage, Coverage, KnownHashes, ProviderCoverage,
};
