//! Everything that can go wrong while hashing a package, as values.

/// Why a package could not be hashed. Texts follow Go's `archive/zip`, `dirhash` and
/// go-getter (Terraform's extractor) where those have one, plus the entry name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// A file name contains a newline (Go's dirhash refuses to hash it).
    #[error("dirhash: filenames with newlines are not supported")]
    NewlineInName,
    /// The bytes are not a zip archive (no end-of-central-directory record, bad signatures).
    #[error("zip: not a valid zip file ({detail})")]
    Format {
        /// What exactly was wrong.
        detail: String,
    },
    /// The end-of-central-directory comment length points past the end of the file.
    #[error("zip: invalid comment length")]
    InvalidCommentLength,
    /// An entry uses a compression method other than stored (0) or deflate (8).
    #[error("zip: unsupported compression algorithm (entry {name:?} uses method {method})")]
    UnsupportedCompression {
        /// Entry name.
        name: String,
        /// The zip compression method number.
        method: u16,
    },
    /// An entry is encrypted (general-purpose flag bit 0).
    #[error("zip: entry {name:?} is encrypted, which is not supported")]
    Encrypted {
        /// Entry name.
        name: String,
    },
    /// An entry's CRC-32 does not match its header (Go's `ErrChecksum`).
    #[error("zip: checksum error (entry {name:?})")]
    Checksum {
        /// Entry name.
        name: String,
    },
    /// An entry's data ends early, or decompresses to a different size than its header says.
    #[error("zip: entry {name:?} is truncated or corrupt: {detail}")]
    CorruptEntry {
        /// Entry name.
        name: String,
        /// What exactly was wrong.
        detail: String,
    },
    /// The input ended before the archive did.
    #[error("zip: unexpected end of input ({detail})")]
    Truncated {
        /// Where the input ended.
        detail: String,
    },
    /// Terraform's extractor (go-getter) refuses names with a `..` path element.
    #[error("entry contains '..': {name}")]
    EntryContainsDotDot {
        /// Entry name.
        name: String,
    },
    /// Extracting the zip would fail: a file where a directory is needed or the reverse.
    #[error("entry {name:?} cannot be extracted: {detail}")]
    ExtractConflict {
        /// Entry name.
        name: String,
        /// The conflict.
        detail: String,
    },
    /// The uncompressed contents exceed the configured total.
    #[error("zip: uncompressed contents exceed the limit of {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The uncompressed contents are more than `limit` times the archive size (overlapping
    /// entries or another zip bomb).
    #[error("zip: uncompressed contents are more than {limit} times the archive size")]
    RatioTooHigh {
        /// The ratio limit.
        limit: u64,
    },
    /// More entries than the configured maximum.
    #[error("zip: more than {limit} entries")]
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// The central directory (or a header) is larger than the configured maximum.
    #[error("zip: central directory larger than {limit} bytes")]
    CentralDirectoryTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The streaming hasher saw something it cannot reconcile with the central directory
    /// without random access (local headers that disagree with it, data between entries,
    /// stored entries with a data descriptor, prepended bytes). Hash the archive with
    /// [`crate::hash::hash_zip`] or [`crate::hash::hash_zip_reader`] instead; they read it
    /// the way Go does.
    #[error("zip cannot be hashed as a stream: {reason}")]
    NeedsRandomAccess {
        /// What the stream could not reconcile.
        reason: String,
    },
    /// `update` or `finish` was called after an earlier error.
    #[error("zip hasher already failed")]
    AlreadyFailed,
    /// Reading from the host's reader failed.
    #[error("read error: {0}")]
    Io(String),
}

impl HashError {
    pub(crate) fn format(detail: impl Into<String>) -> HashError {
        HashError::Format {
            detail: detail.into(),
        }
    }

    pub(crate) fn stream(reason: impl Into<String>) -> HashError {
        HashError::NeedsRandomAccess {
            reason: reason.into(),
        }
    }

    /// Whether [`HashError::NeedsRandomAccess`]: the host may retry with random access.
    pub fn needs_random_access(&self) -> bool {
        matches!(self, HashError::NeedsRandomAccess { .. })
    }
}
