//! Caps that keep hashing a hostile zip bounded in time and memory.

/// Limits applied while hashing zips. The defaults fit every real provider package (the
/// largest are well under 1 GiB unpacked) with a wide margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZipLimits {
    /// Maximum total uncompressed bytes over all entries.
    pub max_total_uncompressed: u64,
    /// Maximum ratio of total uncompressed bytes to archive bytes (checked once more than
    /// [`ZipLimits::RATIO_FLOOR`] bytes were produced). A single deflate stream cannot
    /// exceed about 1032:1, so anything above the default means overlapping entries.
    pub max_ratio: u64,
    /// Maximum number of central-directory entries.
    pub max_entries: usize,
    /// Maximum bytes of central directory (and end records) held in memory.
    pub max_central_directory: usize,
}

impl ZipLimits {
    /// Below this many uncompressed bytes the ratio is not checked.
    pub const RATIO_FLOOR: u64 = 1 << 20;

    /// Errors if `total` uncompressed bytes from `archive_len` archive bytes break a limit.
    pub(crate) fn check_output(
        &self,
        total: u64,
        archive_len: u64,
    ) -> Result<(), super::HashError> {
        if total > self.max_total_uncompressed {
            return Err(super::HashError::TooLarge {
                limit: self.max_total_uncompressed,
            });
        }
        if total > Self::RATIO_FLOOR && total / archive_len.max(1) >= self.max_ratio {
            return Err(super::HashError::RatioTooHigh {
                limit: self.max_ratio,
            });
        }
        Ok(())
    }
}

impl Default for ZipLimits {
    fn default() -> Self {
        ZipLimits {
            max_total_uncompressed: 8 << 30,
            max_ratio: 1100,
            max_entries: 100_000,
            max_central_directory: 16 << 20,
        }
    }
}
