//! The verified hash cache: its key, its entries, and which packages may be written to it
//! (the CLI's files and the npm `cache` store them; core decides what goes in).

/// Was a package verified in this run (only those are written).
pub use crate::install::verified;
/// The key of a package's entry, and an entry.
pub use crate::install::{cache_key, CachedHashes};
