//! Hashing a zip with random access (a byte slice or any `Read + Seek`), reading it exactly
//! the way Go's `archive/zip` does: the central directory is the truth, each entry's data
//! is found through its local header offset, and sizes and CRCs are checked as Go checks them.

use super::central_directory::walk;
use super::entry_digest::EntryDigester;
use super::extract_model::{archive_h1, extracted_h1, DigestedEntry};
use super::sha256::{CoreSha256, Sha256Engine, Sha256Provider};
use super::zip_records::{
    find_end_record, read_end_record, show, u16_at, u32_at, CentralEntry, CentralRead,
    DESCRIPTOR_SIG, EOCD64_LEN, FLAG_DESCRIPTOR, FLAG_ENCRYPTED, LOCAL_LEN, LOCAL_SIG,
    METHOD_DEFLATE, METHOD_STORED,
};
use super::{HashError, PackageHash, ZipHashes, ZipLimits};
use std::io::{Cursor, Read, Seek, SeekFrom};

/// Go searches the last 65 KiB for the end record.
const END_SEARCH: u64 = 65 * 1024;
/// Read size for entry data.
const CHUNK: usize = 256 * 1024;

/// Hashes a whole zip held in memory, with the default limits.
pub fn hash_zip(bytes: &[u8]) -> Result<ZipHashes, HashError> {
    hash_zip_with_limits(bytes, &ZipLimits::default())
}

/// Hashes a whole zip held in memory.
pub fn hash_zip_with_limits(bytes: &[u8], limits: &ZipLimits) -> Result<ZipHashes, HashError> {
    hash_zip_with(bytes, limits, &CoreSha256)
}

/// Hashes a whole zip held in memory, running SHA-256 on `sha`.
pub fn hash_zip_with<P: Sha256Provider>(
    bytes: &[u8],
    limits: &ZipLimits,
    sha: &P,
) -> Result<ZipHashes, HashError> {
    let mut whole = sha.start();
    whole.update(bytes);
    let zh = PackageHash::zh_from_digest(&whole.finish());
    let (h1, h1_archive) = h1_of_reader(&mut Cursor::new(bytes), limits, sha)?;
    Ok(ZipHashes { h1, zh, h1_archive })
}

/// Hashes a zip through a seekable reader with bounded memory: one pass for `zh:`, then the
/// central directory and each entry for `h1:`.
pub fn hash_zip_reader<R: Read + Seek>(
    r: &mut R,
    limits: &ZipLimits,
) -> Result<ZipHashes, HashError> {
    r.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut sha = CoreSha256.start();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = r.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        sha.update(&buf[..n]);
    }
    let zh = PackageHash::zh_from_digest(&sha.finish());
    let (h1, h1_archive) = h1_of_reader(r, limits, &CoreSha256)?;
    Ok(ZipHashes { h1, zh, h1_archive })
}

fn io(e: std::io::Error) -> HashError {
    HashError::Io(e.to_string())
}

/// Reads up to `len` bytes at `at` (fewer at the end of the input).
fn read_at<R: Read + Seek>(r: &mut R, at: u64, len: usize) -> Result<Vec<u8>, HashError> {
    r.seek(SeekFrom::Start(at)).map_err(io)?;
    let mut out = Vec::with_capacity(len.min(1 << 20));
    r.take(len as u64).read_to_end(&mut out).map_err(io)?;
    Ok(out)
}

/// The lock-file and archive-form `h1:` of the zip behind `r`.
pub(crate) fn h1_of_reader<R: Read + Seek, P: Sha256Provider>(
    r: &mut R,
    limits: &ZipLimits,
    sha: &P,
) -> Result<(PackageHash, PackageHash), HashError> {
    let entries = read_entries(r, limits, sha)?;
    Ok((extracted_h1(&entries)?, archive_h1(&entries)?))
}

fn read_entries<R: Read + Seek, P: Sha256Provider>(
    r: &mut R,
    limits: &ZipLimits,
    sha: &P,
) -> Result<Vec<DigestedEntry>, HashError> {
    let size = r.seek(SeekFrom::End(0)).map_err(io)?;
    let block_start = size - size.min(END_SEARCH);
    let block = read_at(r, block_start, (size - block_start) as usize)?;
    let at = find_end_record(&block)
        .ok_or_else(|| HashError::format("no end of central directory record"))?;
    let mut zip64_at = |p: u64| {
        if p.checked_add(EOCD64_LEN as u64).is_none_or(|e| e > size) {
            return Err(HashError::format("zip64 end record lies outside the file"));
        }
        read_at(&mut *r, p, EOCD64_LEN)
    };
    let end = read_end_record(&block, at, block_start, &mut zip64_at)?;
    let base = i128::from(end.end_offset) - i128::from(end.dir_size) - i128::from(end.dir_offset);
    let dir_start = base + i128::from(end.dir_offset);
    if dir_start < 0 || dir_start >= i128::from(size) {
        return Err(HashError::format("central directory offset out of range"));
    }
    let (mut central, first_bad) = read_central(r, dir_start as u64, size, end.records, limits)?;
    let mut base = base;
    if first_bad && base != 0 {
        // Go retries with a zero base offset when the first record is not where the
        // prepended-data arithmetic says (compatibility with other zip programs).
        central = read_central(r, end.dir_offset, size, end.records, limits)?.0;
        base = 0;
    }
    let entries = central?;
    let mut total = 0u64;
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let offset = i128::from(e.header_offset) + base;
        let digest = digest_entry(r, &e, offset, size, limits, &mut total, sha.start())?;
        out.push(DigestedEntry {
            is_dir: e.is_dir(),
            name: e.name,
            digest,
        });
    }
    Ok(out)
}

type Central = Result<Vec<CentralEntry>, HashError>;

/// Reads the central directory at `start`; the flag says the very first record is not one
/// (the case in which Go retries with base offset zero).
fn read_central<R: Read + Seek>(
    r: &mut R,
    start: u64,
    size: u64,
    records: u64,
    limits: &ZipLimits,
) -> Result<(Central, bool), HashError> {
    let avail = size.saturating_sub(start);
    let cap = limits.max_central_directory as u64;
    let buf = read_at(r, start, avail.min(cap) as usize)?;
    let first_bad = matches!(
        CentralEntry::read(&buf),
        CentralRead::BadSignature | CentralRead::MissingZip64
    );
    let walked = walk(&buf, records, limits, avail > cap).map(|(entries, _)| entries);
    Ok((walked, first_bad))
}

fn digest_entry<R: Read + Seek, E: Sha256Engine>(
    r: &mut R,
    e: &CentralEntry,
    offset: i128,
    size: u64,
    limits: &ZipLimits,
    total: &mut u64,
    sha: E,
) -> Result<[u8; 32], HashError> {
    let name = show(&e.name);
    let eof = |detail: &str| HashError::CorruptEntry {
        name: name.clone(),
        detail: detail.to_owned(),
    };
    if offset < 0 || offset >= i128::from(size) {
        return Err(eof("local header offset outside the file"));
    }
    let offset = offset as u64;
    let head = read_at(r, offset, LOCAL_LEN)?;
    if head.len() < LOCAL_LEN {
        return Err(eof("unexpected EOF in local header"));
    }
    if u32_at(&head, 0) != LOCAL_SIG {
        return Err(HashError::format(format!(
            "entry {name:?}: no local file header at offset {offset}"
        )));
    }
    let body =
        offset + LOCAL_LEN as u64 + u64::from(u16_at(&head, 26)) + u64::from(u16_at(&head, 28));
    if e.method != METHOD_STORED && e.method != METHOD_DEFLATE {
        return Err(HashError::UnsupportedCompression {
            name,
            method: e.method,
        });
    }
    if e.flags & FLAG_ENCRYPTED != 0 {
        return Err(HashError::Encrypted { name });
    }
    let mut d = EntryDigester::new(e.method, name.clone(), sha);
    let start_total = *total;
    let declared = e.uncompressed;
    let mut on_output = |produced: u64| {
        if produced > declared {
            return Err(HashError::CorruptEntry {
                name: name.clone(),
                detail: format!("more data than the {declared} bytes its header says"),
            });
        }
        limits.check_output(start_total + produced, size)
    };
    r.seek(SeekFrom::Start(body)).map_err(io)?;
    let mut left = e.compressed;
    let mut buf = vec![0u8; CHUNK.min(e.compressed as usize).max(1)];
    while left > 0 && !d.is_finished() {
        let want = buf.len().min(left as usize);
        let n = r.read(&mut buf[..want]).map_err(io)?;
        if n == 0 {
            return Err(eof("unexpected EOF in entry data"));
        }
        left -= n as u64;
        // Consumes everything unless the deflate stream ends first; Go ignores the rest.
        d.feed(&buf[..n], &mut on_output)?;
    }
    if e.method == METHOD_DEFLATE && !d.is_finished() {
        // Drain anything zlib still holds, then insist on the end of the stream.
        d.feed(&[], &mut on_output)?;
        if !d.is_finished() {
            return Err(eof("unexpected EOF in deflate data"));
        }
    }
    *total = start_total + d.produced();
    if d.produced() != e.uncompressed {
        return Err(eof("unexpected EOF: fewer bytes than its header says"));
    }
    let crc = d.crc32();
    if e.flags & FLAG_DESCRIPTOR != 0 {
        // Go reads an optional signature, then CRC and two sizes it ignores (12 bytes).
        let at = body + e.compressed;
        let first = read_at(r, at, 4)?;
        let desc = if first.len() == 4 && u32_at(&first, 0) == DESCRIPTOR_SIG {
            read_at(r, at + 4, 12)?
        } else {
            read_at(r, at, 12)?
        };
        if desc.len() < 12 {
            return Err(eof("unexpected EOF in data descriptor"));
        }
        if u32_at(&desc, 0) != e.crc32 || crc != e.crc32 {
            return Err(HashError::Checksum { name });
        }
    } else if e.crc32 != 0 && crc != e.crc32 {
        return Err(HashError::Checksum { name });
    }
    Ok(d.finish())
}
