//! Hashing a zip as its bytes arrive, without random access and without holding the
//! archive or any whole entry.
//!
//! Local headers are parsed as they stream by and each entry is inflated and digested
//! incrementally. The central directory comes last; at [`ZipHasher::finish`] it is read and
//! every entry it lists is matched, by local header offset, with what was seen: method,
//! flags, sizes and CRC must agree. Go's `archive/zip` (which Terraform uses) trusts the
//! central directory and reads each entry at its local header offset, so when they agree
//! the streamed digests are exactly what Go reads. When they cannot be reconciled from the
//! stream alone, [`HashError::NeedsRandomAccess`] says why, and the host hashes the bytes
//! with [`super::hash_zip_reader`] instead. Cases that need it:
//! - a stored entry with a data descriptor (flag bit 3): its length is known only from the
//!   central directory;
//! - bytes before the first entry or between entries (self-extracting stubs, padding);
//! - central records pointing at offsets where no local header was seen (overlapping
//!   entries) or disagreeing with the local header;
//! - a data descriptor that matches neither the 32- nor the 64-bit layout;
//! - a size, ratio or entry-count limit reached while streaming: local headers the central
//!   directory may not list count there, so only random access can say whether Go would
//!   read that much (the stream still stops, so its work stays bounded).

use super::central_directory::walk;
use super::entry_digest::EntryDigester;
use super::extract_model::{archive_h1, extracted_h1, DigestedEntry};
use super::sha256::{CoreSha256, Sha256Engine, Sha256Provider};
use super::zip_records::{
    find_end_record, read_end_record, show, u32_at, u64_at, CentralEntry, CentralRead, LocalHeader,
    CENTRAL_SIG, DESCRIPTOR_SIG, EOCD64_LEN, EOCD64_SIG, EOCD_SIG, FLAG_DESCRIPTOR, FLAG_ENCRYPTED,
    LOCAL_LEN, LOCAL_SIG, METHOD_DEFLATE, METHOD_STORED,
};
use super::{FileDigest, HashError, PackageHash, ZipHashes, ZipLimits};
use crate::collections::SortedMap;

/// Go searches the last 65 KiB of the file for the end record.
const END_SEARCH: usize = 65 * 1024;
/// The longest data descriptor: signature, CRC, two 8-byte sizes.
const DESCRIPTOR_MAX: usize = 24;

/// An entry whose data was streamed: what the central directory must agree with.
struct SeenEntry {
    method: u16,
    flags: u16,
    compressed: u64,
    uncompressed: u64,
    crc32: u32,
    /// The digest, or why the data could not be read (reported only if the central
    /// directory lists this entry, as Go would only fail then).
    digest: Result<FileDigest, HashError>,
}

/// An entry whose data is streaming by.
struct Active<E> {
    offset: u64,
    name: Vec<u8>,
    header: LocalHeader,
    digester: Option<EntryDigester<E>>,
    /// Compressed bytes of the entry not yet taken from the stream, when known.
    left: Option<u64>,
    /// Why the data cannot be digested (it is skipped instead).
    unreadable: Option<HashError>,
}

enum State<E> {
    /// Collecting a 4-byte record signature.
    Signature,
    /// Collecting a local header (fixed part, then name and extra field).
    Local,
    /// Entry data.
    Data(Box<Active<E>>),
    /// Collecting the data descriptor after a deflated entry with flag bit 3.
    Descriptor(Box<Active<E>>),
    /// Central directory and end records (kept, bounded, for `finish`).
    Tail { start: u64 },
}

/// Incremental `zh:` + `h1:` hasher for a zip arriving in chunks of any size.
///
/// Memory stays bounded by the limits (central directory size, entry count) and a fixed
/// inflate block, whatever the size of the archive or of its entries. SHA-256 runs on the
/// core's own implementation unless a host supplies one ([`ZipHasher::with_sha256`]).
pub struct ZipHasher<P: Sha256Provider = CoreSha256> {
    limits: ZipLimits,
    sha: P,
    zh: P::Engine,
    /// Stream offset of the next byte the state machine consumes.
    pos: u64,
    /// Offset of the first byte in `pending`.
    pending_at: u64,
    pending: Vec<u8>,
    state: State<P::Engine>,
    /// By local header offset; headers stream in increasing offsets, so each insert
    /// lands at the end.
    seen: SortedMap<u64, SeenEntry>,
    total_out: u64,
    failed: bool,
}

impl Default for ZipHasher {
    fn default() -> Self {
        ZipHasher::new()
    }
}

impl ZipHasher {
    /// A hasher with the default limits.
    pub fn new() -> ZipHasher {
        ZipHasher::with_limits(ZipLimits::default())
    }

    /// A hasher with the given limits.
    pub fn with_limits(limits: ZipLimits) -> ZipHasher {
        ZipHasher::with_sha256(limits, CoreSha256)
    }
}

impl<P: Sha256Provider> ZipHasher<P> {
    /// A hasher with the given limits that runs SHA-256 on `sha`.
    pub fn with_sha256(limits: ZipLimits, sha: P) -> ZipHasher<P> {
        ZipHasher {
            limits,
            zh: sha.start(),
            sha,
            pos: 0,
            pending_at: 0,
            pending: Vec::new(),
            state: State::Signature,
            seen: SortedMap::new(),
            total_out: 0,
            failed: false,
        }
    }

    /// Total bytes received so far.
    pub fn bytes_seen(&self) -> u64 {
        self.pos
    }

    /// Takes the next chunk of the archive.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), HashError> {
        if self.failed {
            return Err(HashError::AlreadyFailed);
        }
        self.zh.update(chunk);
        let r = self.process(chunk).map_err(|e| match e {
            HashError::CentralDirectoryTooLarge { .. } | HashError::NeedsRandomAccess { .. } => e,
            // The stream stops here, so work stays bounded; but it counted local headers the
            // central directory may never list, against the archive read so far: whether Go
            // would reach the limit only random access can tell (found by fuzzing,
            // zip_differential). `finish` checks the limits the way Go reads the entries.
            HashError::TooLarge { .. }
            | HashError::RatioTooHigh { .. }
            | HashError::TooManyEntries { .. } => {
                HashError::stream(format!("{e} among the local headers streamed so far"))
            }
            // Anything else was read from local headers, which Go does not trust: only the
            // central directory can say whether it matters.
            other => HashError::stream(other.to_string()),
        });
        if r.is_err() {
            self.failed = true;
        }
        r
    }

    /// Ends the stream: reads the central directory, cross-checks it, and returns the hashes.
    pub fn finish(mut self) -> Result<ZipHashes, HashError> {
        if self.failed {
            return Err(HashError::AlreadyFailed);
        }
        let entries = self.reconcile()?;
        let zh = PackageHash::zh_from_digest(&self.zh.finish());
        Ok(ZipHashes {
            h1: extracted_h1(&entries)?,
            zh,
            h1_archive: archive_h1(&entries)?,
        })
    }

    /// Moves up to `need - pending.len()` bytes from `input` into `pending`; true when full.
    fn gather(&mut self, input: &mut &[u8], need: usize) -> bool {
        if self.pending.is_empty() {
            self.pending_at = self.pos;
        }
        let take = need.saturating_sub(self.pending.len()).min(input.len());
        self.pending.extend_from_slice(&input[..take]);
        *input = &input[take..];
        self.pos += take as u64;
        self.pending.len() >= need
    }

    /// Consumes all of `input`.
    fn process(&mut self, mut input: &[u8]) -> Result<(), HashError> {
        while !input.is_empty() {
            match std::mem::replace(&mut self.state, State::Signature) {
                State::Signature => {
                    if !self.gather(&mut input, 4) {
                        continue;
                    }
                    let at = self.pending_at;
                    match u32_at(&self.pending, 0) {
                        LOCAL_SIG => self.state = State::Local,
                        CENTRAL_SIG | EOCD_SIG | EOCD64_SIG => {
                            self.state = State::Tail { start: at };
                            self.check_tail()?;
                        }
                        _ => {
                            return Err(HashError::stream(format!(
                                "unexpected bytes at offset {at} where a zip record should start"
                            )))
                        }
                    }
                }
                State::Local => {
                    if !self.gather(&mut input, LOCAL_LEN) {
                        self.state = State::Local;
                        continue;
                    }
                    let header = LocalHeader::parse_fixed(&self.pending);
                    if !self.gather(&mut input, header.len()) {
                        self.state = State::Local;
                        continue;
                    }
                    self.state = State::Data(Box::new(self.start_entry(header)?));
                }
                State::Data(mut a) => {
                    input = self.stream_data(&mut a, input)?;
                    if self.data_done(&a) {
                        self.end_data(a)?;
                    } else {
                        self.state = State::Data(a);
                    }
                }
                State::Descriptor(a) => {
                    if !self.gather(&mut input, DESCRIPTOR_MAX) {
                        self.state = State::Descriptor(a);
                        continue;
                    }
                    let rest = self.resolve_descriptor(*a)?;
                    // Bytes gathered past the descriptor belong to the next record.
                    self.pos -= rest.len() as u64;
                    self.process(&rest)?;
                }
                State::Tail { start } => {
                    self.pending.extend_from_slice(input);
                    self.pos += input.len() as u64;
                    input = &[];
                    self.state = State::Tail { start };
                    self.check_tail()?;
                }
            }
        }
        Ok(())
    }

    fn check_tail(&self) -> Result<(), HashError> {
        if self.pending.len() > self.limits.max_central_directory {
            return Err(HashError::CentralDirectoryTooLarge {
                limit: self.limits.max_central_directory,
            });
        }
        Ok(())
    }

    fn start_entry(&mut self, mut header: LocalHeader) -> Result<Active<P::Engine>, HashError> {
        let offset = self.pending_at;
        let name = self.pending[LOCAL_LEN..LOCAL_LEN + header.name_len].to_vec();
        header.apply_extra(&self.pending[LOCAL_LEN + header.name_len..header.len()]);
        self.pending.clear();
        if self.seen.len() >= self.limits.max_entries {
            return Err(HashError::TooManyEntries {
                limit: self.limits.max_entries,
            });
        }
        let descriptor = header.flags & FLAG_DESCRIPTOR != 0;
        let unreadable = if header.method != METHOD_STORED && header.method != METHOD_DEFLATE {
            Some(HashError::UnsupportedCompression {
                name: show(&name),
                method: header.method,
            })
        } else if header.flags & FLAG_ENCRYPTED != 0 {
            Some(HashError::Encrypted { name: show(&name) })
        } else {
            None
        };
        if descriptor && (unreadable.is_some() || header.method == METHOD_STORED) {
            // The data's length is in the central directory only.
            return Err(match unreadable {
                Some(e) => e,
                None => HashError::stream(format!(
                    "entry {:?} is stored with a data descriptor, so its length is unknown \
                     until the central directory",
                    show(&name)
                )),
            });
        }
        let digester = match unreadable {
            None => Some(EntryDigester::new(
                header.method,
                show(&name),
                self.sha.start(),
            )),
            Some(_) => None,
        };
        Ok(Active {
            offset,
            left: (!descriptor).then_some(header.compressed),
            name,
            header,
            digester,
            unreadable,
        })
    }

    /// Feeds entry data from `input`; returns the input not belonging to this entry.
    fn stream_data<'i>(
        &mut self,
        a: &mut Active<P::Engine>,
        input: &'i [u8],
    ) -> Result<&'i [u8], HashError> {
        let mut take = input.len();
        if let Some(left) = a.left {
            take = take.min(usize::try_from(left).unwrap_or(usize::MAX));
        }
        let used = match &mut a.digester {
            Some(d) if !d.is_finished() => {
                let (limits, base, archive_so_far) =
                    (self.limits, self.total_out, self.pos + take as u64);
                let used = d.feed(&input[..take], &mut |produced| {
                    limits.check_output(base + produced, archive_so_far)
                })?;
                if a.left.is_some() {
                    take
                } else {
                    used
                }
            }
            // Finished deflate with a known length, or unreadable: skip the rest.
            _ => take,
        };
        if let Some(left) = &mut a.left {
            *left -= used as u64;
        }
        self.pos += used as u64;
        Ok(&input[used..])
    }

    fn data_done(&self, a: &Active<P::Engine>) -> bool {
        match a.left {
            Some(left) => left == 0,
            None => a.digester.as_ref().is_some_and(|d| d.is_finished()),
        }
    }

    /// The entry's data has been taken from the stream.
    fn end_data(&mut self, mut a: Box<Active<P::Engine>>) -> Result<(), HashError> {
        if let Some(d) = &mut a.digester {
            if !d.is_finished() && a.header.method == METHOD_DEFLATE {
                let (limits, base, pos) = (self.limits, self.total_out, self.pos);
                d.feed(&[], &mut |produced| {
                    limits.check_output(base + produced, pos)
                })?;
                if !d.is_finished() {
                    a.unreadable = Some(HashError::CorruptEntry {
                        name: show(&a.name),
                        detail: "unexpected EOF in deflate data".into(),
                    });
                }
            }
        }
        if a.left.is_none() {
            self.state = State::Descriptor(a);
            return Ok(());
        }
        self.record(*a, None);
        Ok(())
    }

    fn record(&mut self, a: Active<P::Engine>, compressed: Option<u64>) {
        let (crc32, uncompressed, digest) = match a.digester {
            Some(d) => (d.crc32(), d.produced(), Ok(d.finish())),
            None => (0, 0, Err(HashError::AlreadyFailed)),
        };
        self.total_out += uncompressed;
        let digest = match a.unreadable {
            Some(e) => Err(e),
            None => digest,
        };
        self.seen.insert(
            a.offset,
            SeenEntry {
                method: a.header.method,
                flags: a.header.flags,
                compressed: compressed.unwrap_or(a.header.compressed),
                uncompressed,
                crc32,
                digest,
            },
        );
    }

    /// Matches the gathered bytes against the descriptor layouts; returns the bytes after it.
    fn resolve_descriptor(&mut self, a: Active<P::Engine>) -> Result<Vec<u8>, HashError> {
        let Some(d) = &a.digester else {
            return Err(HashError::AlreadyFailed);
        };
        let (crc, c, u) = (d.crc32(), d.consumed(), d.produced());
        let p = std::mem::take(&mut self.pending);
        let wide_first = a.header.zip64 || c >= u64::from(u32::MAX) || u >= u64::from(u32::MAX);
        let sig_options: &[usize] = if p.len() >= 4 && u32_at(&p, 0) == DESCRIPTOR_SIG {
            &[4, 0]
        } else {
            &[0]
        };
        for &sig in sig_options {
            for wide in [wide_first, !wide_first] {
                let len = sig + 4 + if wide { 16 } else { 8 };
                if p.len() < len || u32_at(&p, sig) != crc {
                    continue;
                }
                let (dc, du) = if wide {
                    (u64_at(&p, sig + 4), u64_at(&p, sig + 12))
                } else {
                    (
                        u64::from(u32_at(&p, sig + 4)),
                        u64::from(u32_at(&p, sig + 8)),
                    )
                };
                if (dc, du) == (c, u) {
                    let rest = p[len..].to_vec();
                    self.record(a, Some(c));
                    return Ok(rest);
                }
            }
        }
        Err(HashError::stream(format!(
            "the data descriptor after entry {:?} does not match its data",
            show(&a.name)
        )))
    }

    /// Reads the central directory from the tail and pairs it with the streamed entries.
    fn reconcile(&mut self) -> Result<Vec<DigestedEntry>, HashError> {
        let start = match std::mem::replace(&mut self.state, State::Signature) {
            State::Tail { start } => start,
            State::Signature if self.pos == 0 => {
                return Err(HashError::format("no end of central directory record"))
            }
            State::Descriptor(_) | State::Data(_) | State::Local | State::Signature => {
                // Truncated, or local headers that mislead about lengths: only random
                // access to the central directory can tell which.
                return Err(HashError::stream(format!(
                    "the input ended after {} bytes, inside an entry",
                    self.pos
                )));
            }
        };
        let tail = std::mem::take(&mut self.pending);
        let size = self.pos;
        let search_from = tail.len().saturating_sub(END_SEARCH);
        let at = find_end_record(&tail[search_from..])
            .map(|i| i + search_from)
            .ok_or_else(|| {
                // Go would search the last 65 KiB, which may reach back into entry data.
                HashError::stream("no end of central directory record after the entries")
            })?;
        let mut zip64_at = |p: u64| {
            let i = p.checked_sub(start).map(|i| i as usize);
            match i {
                Some(i) if i + EOCD64_LEN <= tail.len() => Ok(tail[i..i + EOCD64_LEN].to_vec()),
                _ => Err(HashError::stream(
                    "the zip64 end record lies before the central directory",
                )),
            }
        };
        let end = read_end_record(&tail, at, start, &mut zip64_at)?;
        let base =
            i128::from(end.end_offset) - i128::from(end.dir_size) - i128::from(end.dir_offset);
        let mut dir_start = base + i128::from(end.dir_offset);
        if dir_start < 0 || dir_start >= i128::from(size) {
            return Err(HashError::format("central directory offset out of range"));
        }
        let in_tail = |d: i128| {
            let i = d - i128::from(start);
            (i >= 0 && i < tail.len() as i128).then_some(i as usize)
        };
        let first_ok = |d: i128| {
            in_tail(d).is_some_and(|i| {
                !matches!(
                    CentralEntry::read(&tail[i..]),
                    CentralRead::BadSignature | CentralRead::MissingZip64
                )
            })
        };
        if base != 0 {
            if first_ok(dir_start) || in_tail(dir_start).is_none() {
                return Err(HashError::stream(
                    "the archive has bytes before its first entry (a prepended stub)",
                ));
            }
            // Go retries at the offset as written when the adjusted one holds no record.
            dir_start = i128::from(end.dir_offset);
        }
        let Some(dir_at) = in_tail(dir_start) else {
            return Err(HashError::stream(
                "the central directory starts inside what streamed as entry data",
            ));
        };
        let (central, _) = walk(&tail[dir_at..], end.records, &self.limits, false)?;
        let mut out = Vec::with_capacity(central.len());
        let mut total = 0u64;
        for e in central {
            let (entry, uncompressed) = self.pair(e)?;
            // Go reads an entry listed twice twice: the limits count what it would read.
            total = total.saturating_add(uncompressed);
            self.limits.check_output(total, size)?;
            out.push(entry);
        }
        Ok(out)
    }

    /// The streamed entry the central record `e` points at, and its uncompressed size.
    fn pair(&self, e: CentralEntry) -> Result<(DigestedEntry, u64), HashError> {
        let name = show(&e.name);
        let Some(s) = self.seen.get(&e.header_offset) else {
            return Err(HashError::stream(format!(
                "the central directory lists {name:?} at offset {}, where no local header streamed by",
                e.header_offset
            )));
        };
        if e.method != METHOD_STORED && e.method != METHOD_DEFLATE {
            return Err(HashError::UnsupportedCompression {
                name,
                method: e.method,
            });
        }
        if e.flags & FLAG_ENCRYPTED != 0 {
            return Err(HashError::Encrypted { name });
        }
        // Go reads the flags from the central directory only: a local header that alone
        // says "encrypted" must not decide the answer (found by fuzzing, zip_differential).
        if s.method != e.method
            || (s.flags ^ e.flags) & (FLAG_DESCRIPTOR | FLAG_ENCRYPTED) != 0
            || s.compressed != e.compressed
        {
            return Err(HashError::stream(format!(
                "the central directory and the local header of {name:?} disagree \
                 (method, data descriptor or encryption flag, or compressed size)"
            )));
        }
        let digest = s.digest.clone()?;
        if s.uncompressed != e.uncompressed {
            return Err(HashError::CorruptEntry {
                name,
                detail: format!(
                    "it holds {} bytes but its header says {}",
                    s.uncompressed, e.uncompressed
                ),
            });
        }
        let descriptor = e.flags & FLAG_DESCRIPTOR != 0;
        if (descriptor || e.crc32 != 0) && s.crc32 != e.crc32 {
            return Err(HashError::Checksum { name });
        }
        let entry = DigestedEntry {
            is_dir: e.is_dir(),
            name: e.name,
            digest,
        };
        Ok((entry, s.uncompressed))
    }
}
