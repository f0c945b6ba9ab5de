//! Byte layouts of the zip records tflock reads (APPNOTE 4.3), parsed from slices.

use super::HashError;

/// `PK\x03\x04`: local file header.
pub(crate) const LOCAL_SIG: u32 = 0x0403_4b50;
/// `PK\x01\x02`: central directory file header.
pub(crate) const CENTRAL_SIG: u32 = 0x0201_4b50;
/// `PK\x05\x06`: end of central directory.
pub(crate) const EOCD_SIG: u32 = 0x0605_4b50;
/// `PK\x06\x06`: zip64 end of central directory.
pub(crate) const EOCD64_SIG: u32 = 0x0606_4b50;
/// `PK\x06\x07`: zip64 end of central directory locator.
pub(crate) const EOCD64_LOC_SIG: u32 = 0x0706_4b50;
/// `PK\x07\x08`: optional data descriptor signature.
pub(crate) const DESCRIPTOR_SIG: u32 = 0x0807_4b50;

pub(crate) const LOCAL_LEN: usize = 30;
pub(crate) const CENTRAL_LEN: usize = 46;
pub(crate) const EOCD_LEN: usize = 22;
pub(crate) const EOCD64_LOC_LEN: usize = 20;
pub(crate) const EOCD64_LEN: usize = 56;

/// General-purpose flag bit 0: encrypted.
pub(crate) const FLAG_ENCRYPTED: u16 = 1;
/// General-purpose flag bit 3: sizes and CRC follow the data in a data descriptor.
pub(crate) const FLAG_DESCRIPTOR: u16 = 1 << 3;

pub(crate) const METHOD_STORED: u16 = 0;
pub(crate) const METHOD_DEFLATE: u16 = 8;

const ZIP64_EXTRA: u16 = 0x0001;

pub(crate) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Lossy text of a raw entry name, for messages.
pub(crate) fn show(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}

/// The fixed part of a local file header plus its name and extra lengths.
#[derive(Debug, Clone)]
pub(crate) struct LocalHeader {
    pub flags: u16,
    pub method: u16,
    pub compressed: u64,
    pub uncompressed: u64,
    pub name_len: usize,
    pub extra_len: usize,
    /// Whether the extra field holds a zip64 record (then descriptors use 8-byte sizes).
    pub zip64: bool,
}

impl LocalHeader {
    /// Parses the 30 fixed bytes (signature already checked by the caller).
    pub fn parse_fixed(b: &[u8]) -> LocalHeader {
        LocalHeader {
            flags: u16_at(b, 6),
            method: u16_at(b, 8),
            compressed: u64::from(u32_at(b, 18)),
            uncompressed: u64::from(u32_at(b, 22)),
            name_len: usize::from(u16_at(b, 26)),
            extra_len: usize::from(u16_at(b, 28)),
            zip64: false,
        }
    }

    /// Total header length including name and extra field.
    pub fn len(&self) -> usize {
        LOCAL_LEN + self.name_len + self.extra_len
    }

    /// Applies a zip64 extra field, if any. In a local header the record holds both sizes
    /// (uncompressed first) whenever either 32-bit field is saturated.
    pub fn apply_extra(&mut self, extra: &[u8]) {
        for (tag, body) in extra_fields(extra) {
            if tag != ZIP64_EXTRA {
                continue;
            }
            self.zip64 = true;
            let mut at = 0;
            if self.uncompressed == u64::from(u32::MAX) && body.len() >= at + 8 {
                self.uncompressed = u64_at(body, at);
                at += 8;
            }
            if self.compressed == u64::from(u32::MAX) && body.len() >= at + 8 {
                self.compressed = u64_at(body, at);
            }
        }
    }
}

/// One central directory record, as Go's `readDirectoryHeader` reads it.
#[derive(Debug, Clone)]
pub(crate) struct CentralEntry {
    pub creator_version: u16,
    pub flags: u16,
    pub method: u16,
    pub crc32: u32,
    pub compressed: u64,
    pub uncompressed: u64,
    pub external_attrs: u32,
    pub header_offset: u64,
    pub name: Vec<u8>,
}

/// Outcome of reading one central record, mirroring the errors Go's loop distinguishes.
pub(crate) enum CentralRead {
    /// A record and its total length.
    Entry(CentralEntry, usize),
    /// Not a central header signature (Go: `ErrFormat`, which ends the loop).
    BadSignature,
    /// Not enough bytes (Go: `io.ErrUnexpectedEOF`, which also ends the loop).
    Short,
    /// A zip64 field is missing (Go returns `ErrFormat` here too).
    MissingZip64,
}

impl CentralEntry {
    /// Reads the record at the start of `b`.
    pub fn read(b: &[u8]) -> CentralRead {
        // Go reads the whole fixed part before looking at the signature.
        if b.len() < CENTRAL_LEN {
            return CentralRead::Short;
        }
        if u32_at(b, 0) != CENTRAL_SIG {
            return CentralRead::BadSignature;
        }
        let name_len = usize::from(u16_at(b, 28));
        let extra_len = usize::from(u16_at(b, 30));
        let comment_len = usize::from(u16_at(b, 32));
        let total = CENTRAL_LEN + name_len + extra_len + comment_len;
        if b.len() < total {
            return CentralRead::Short;
        }
        let c32 = u32_at(b, 20);
        let u32_ = u32_at(b, 24);
        let off32 = u32_at(b, 42);
        let mut e = CentralEntry {
            creator_version: u16_at(b, 4),
            flags: u16_at(b, 8),
            method: u16_at(b, 10),
            crc32: u32_at(b, 16),
            compressed: u64::from(c32),
            uncompressed: u64::from(u32_),
            external_attrs: u32_at(b, 38),
            header_offset: u64::from(off32),
            name: b[CENTRAL_LEN..CENTRAL_LEN + name_len].to_vec(),
        };
        let extra = &b[CENTRAL_LEN + name_len..CENTRAL_LEN + name_len + extra_len];
        let mut need_u = u32_ == u32::MAX;
        let mut need_c = c32 == u32::MAX;
        let mut need_off = off32 == u32::MAX;
        for (tag, body) in extra_fields(extra) {
            if tag != ZIP64_EXTRA {
                continue;
            }
            // Go consumes the saturated fields in order; a short record is ErrFormat.
            let mut at = 0;
            for (need, slot) in [
                (&mut need_u, &mut e.uncompressed),
                (&mut need_c, &mut e.compressed),
                (&mut need_off, &mut e.header_offset),
            ] {
                if *need {
                    *need = false;
                    if body.len() < at + 8 {
                        return CentralRead::MissingZip64;
                    }
                    *slot = u64_at(body, at);
                    at += 8;
                }
            }
        }
        if need_c || need_off {
            return CentralRead::MissingZip64;
        }
        CentralRead::Entry(e, total)
    }

    /// Whether Go's `FileInfo().IsDir()` is true: a trailing slash, or directory mode bits
    /// in the external attributes for Unix/macOS or MS-DOS/NTFS/VFAT creators.
    pub fn is_dir(&self) -> bool {
        if self.name.last() == Some(&b'/') {
            return true;
        }
        match self.creator_version >> 8 {
            3 | 19 => (self.external_attrs >> 16) & 0o170000 == 0o040000,
            0 | 11 | 14 => self.external_attrs & 0x10 != 0,
            _ => false,
        }
    }
}

/// The end-of-central-directory facts Go uses.
#[derive(Debug, Clone)]
pub(crate) struct DirectoryEnd {
    pub records: u64,
    pub dir_size: u64,
    pub dir_offset: u64,
    /// Offset (within the searched block) of the record Go uses to compute the base offset:
    /// the zip64 end record when there is one, else the classic one.
    pub end_offset: u64,
}

/// Finds the end record in `block` (the last bytes of the file, starting at file offset
/// `block_start`) as Go's `findSignatureInBlock`: the last signature whose comment fits.
pub(crate) fn find_end_record(block: &[u8]) -> Option<usize> {
    if block.len() < EOCD_LEN {
        return None;
    }
    (0..=block.len() - EOCD_LEN).rev().find(|&i| {
        block[i..i + 4] == [b'P', b'K', 5, 6]
            && usize::from(u16_at(block, i + EOCD_LEN - 2)) + EOCD_LEN + i <= block.len()
    })
}

/// Reads the classic end record at `at` in `block`; `zip64_at` resolves the locator's
/// absolute offset to a slice of at least [`EOCD64_LEN`] bytes, or says it is unreachable.
pub(crate) fn read_end_record(
    block: &[u8],
    at: usize,
    block_start: u64,
    zip64_at: &mut dyn FnMut(u64) -> Result<Vec<u8>, HashError>,
) -> Result<DirectoryEnd, HashError> {
    let b = &block[at..];
    let comment_len = usize::from(u16_at(b, 20));
    if comment_len > b.len() - EOCD_LEN {
        return Err(HashError::InvalidCommentLength);
    }
    let mut d = DirectoryEnd {
        records: u64::from(u16_at(b, 10)),
        dir_size: u64::from(u32_at(b, 12)),
        dir_offset: u64::from(u32_at(b, 16)),
        end_offset: block_start + at as u64,
    };
    // Go's test (including its comparison of the 32-bit size with 0xffff).
    let maybe_zip64 = d.records == 0xffff || d.dir_size == 0xffff || d.dir_offset == 0xffff_ffff;
    if maybe_zip64 && at >= EOCD64_LOC_LEN {
        let loc = &block[at - EOCD64_LOC_LEN..at];
        if u32_at(loc, 0) == EOCD64_LOC_SIG && u32_at(loc, 4) == 0 && u32_at(loc, 16) == 1 {
            let p = u64_at(loc, 8);
            let rec = zip64_at(p)?;
            if rec.len() < EOCD64_LEN || u32_at(&rec, 0) != EOCD64_SIG {
                return Err(HashError::format("bad zip64 end of central directory"));
            }
            d.records = u64_at(&rec, 32);
            d.dir_size = u64_at(&rec, 40);
            d.dir_offset = u64_at(&rec, 48);
            d.end_offset = p;
        }
    }
    Ok(d)
}

/// Iterates `(tag, body)` over an extra field, stopping at the first truncated record.
pub(crate) fn extra_fields(mut extra: &[u8]) -> impl Iterator<Item = (u16, &[u8])> {
    std::iter::from_fn(move || {
        if extra.len() < 4 {
            return None;
        }
        let tag = u16_at(extra, 0);
        let size = usize::from(u16_at(extra, 2));
        if extra.len() < 4 + size {
            return None;
        }
        let body = &extra[4..4 + size];
        extra = &extra[4 + size..];
        Some((tag, body))
    })
}
