//! Reading the central directory the way Go's `zip.Reader.init` does.

use super::zip_records::{CentralEntry, CentralRead};
use super::{HashError, ZipLimits};

/// How the walk over central records ended.
pub(crate) enum WalkEnd {
    /// The next bytes were not a central record (Go: `ErrFormat`).
    NotARecord,
    /// The bytes ran out mid-record (Go: `io.ErrUnexpectedEOF`).
    Short,
}

/// Reads central records from the start of `buf` until one fails, as Go does; the count
/// read must equal the end record's count modulo 65536, else Go's loop error is returned.
/// `capped` says `buf` was cut at the memory limit (running short then is that limit).
pub(crate) fn walk(
    buf: &[u8],
    expected_records: u64,
    limits: &ZipLimits,
    capped: bool,
) -> Result<(Vec<CentralEntry>, WalkEnd), HashError> {
    let mut entries = Vec::new();
    let mut pos = 0usize;
    let end = loop {
        match CentralEntry::read(&buf[pos..]) {
            CentralRead::Entry(e, n) => {
                if entries.len() >= limits.max_entries {
                    return Err(HashError::TooManyEntries {
                        limit: limits.max_entries,
                    });
                }
                entries.push(e);
                pos += n;
            }
            CentralRead::BadSignature | CentralRead::MissingZip64 => break WalkEnd::NotARecord,
            CentralRead::Short => break WalkEnd::Short,
        }
    };
    if entries.len() as u16 == expected_records as u16 {
        return Ok((entries, end));
    }
    Err(match end {
        WalkEnd::Short if capped => HashError::CentralDirectoryTooLarge {
            limit: limits.max_central_directory,
        },
        WalkEnd::Short => HashError::Truncated {
            detail: "central directory ends mid-record".into(),
        },
        WalkEnd::NotARecord => HashError::format(format!(
            "central directory holds {} records, end record says {}",
            entries.len(),
            expected_records
        )),
    })
}
