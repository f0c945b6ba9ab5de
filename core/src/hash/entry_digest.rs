//! Decompresses one zip entry's data as it arrives and digests the result: SHA-256 for the
//! hash, CRC-32 and size for checking against the headers. Nothing is buffered beyond one
//! fixed output block.

use super::sha256::Sha256Engine;
use super::zip_records::{METHOD_DEFLATE, METHOD_STORED};
use super::{FileDigest, HashError};
use flate2::{Crc, Decompress, FlushDecompress, Status};

/// Output block for inflate: large enough that SHA-256 and zlib-rs run on long runs.
const OUT_BLOCK: usize = 128 * 1024;

enum Codec {
    Stored,
    Deflate(Box<Decompress>),
}

/// Digests one entry's uncompressed content from its compressed bytes.
pub(crate) struct EntryDigester<E> {
    name: String,
    codec: Codec,
    sha: E,
    crc: Crc,
    consumed: u64,
    produced: u64,
    finished: bool,
    out: Vec<u8>,
}

impl<E: Sha256Engine> EntryDigester<E> {
    /// A digester for `method` (only stored and deflate are supported; callers check),
    /// digesting the output with `sha`.
    pub fn new(method: u16, name: String, sha: E) -> EntryDigester<E> {
        let codec = if method == METHOD_DEFLATE {
            Codec::Deflate(Box::new(Decompress::new(false)))
        } else {
            debug_assert_eq!(method, METHOD_STORED);
            Codec::Stored
        };
        EntryDigester {
            name,
            codec,
            sha,
            crc: Crc::new(),
            consumed: 0,
            produced: 0,
            finished: false,
            out: Vec::new(),
        }
    }

    /// Feeds compressed bytes; returns how many were used. For deflate, input after the end
    /// of the deflate stream is left unused and [`EntryDigester::is_finished`] turns true.
    /// Stored data is never "finished" by itself: the caller knows its length.
    /// `on_output` sees the running uncompressed total (for limits).
    pub fn feed(
        &mut self,
        input: &[u8],
        on_output: &mut dyn FnMut(u64) -> Result<(), HashError>,
    ) -> Result<usize, HashError> {
        match &mut self.codec {
            Codec::Stored => {
                self.sha.update(input);
                self.crc.update(input);
                self.consumed += input.len() as u64;
                self.produced += input.len() as u64;
                on_output(self.produced)?;
                Ok(input.len())
            }
            Codec::Deflate(d) => {
                if self.out.is_empty() {
                    self.out = vec![0; OUT_BLOCK];
                }
                let mut used = 0usize;
                while !self.finished {
                    let in_before = d.total_in();
                    let out_before = d.total_out();
                    let status = d
                        .decompress(&input[used..], &mut self.out, FlushDecompress::None)
                        .map_err(|e| HashError::CorruptEntry {
                            name: self.name.clone(),
                            detail: format!("invalid deflate data: {e}"),
                        })?;
                    let took = (d.total_in() - in_before) as usize;
                    let made = (d.total_out() - out_before) as usize;
                    used += took;
                    if made > 0 {
                        self.sha.update(&self.out[..made]);
                        self.crc.update(&self.out[..made]);
                        self.produced += made as u64;
                        on_output(self.produced)?;
                    }
                    match status {
                        Status::StreamEnd => self.finished = true,
                        Status::Ok | Status::BufError => {
                            if took == 0 && made == 0 {
                                break; // needs more input
                            }
                        }
                    }
                }
                self.consumed += used as u64;
                Ok(used)
            }
        }
    }

    /// Whether the deflate stream has ended.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Compressed bytes used so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Uncompressed bytes produced so far.
    pub fn produced(&self) -> u64 {
        self.produced
    }

    /// The running CRC-32 of the output.
    pub fn crc32(&self) -> u32 {
        self.crc.sum()
    }

    /// The SHA-256 of the output.
    pub fn finish(self) -> FileDigest {
        self.sha.finish()
    }
}
