//! Zip hashing: the streaming hasher, the random-access hasher, and the two compared.
//!
//! Input starting with `PK` is a zip as is (the fixture packages seed the corpus that way);
//! anything else is read with `arbitrary` as a [`ZipSpec`] and written out as a zip, so
//! mutations reach entry data, descriptors and the central directory instead of dying at
//! the first signature check.

use arbitrary::{Arbitrary, Unstructured};
use std::io::Write;
use tflock_core::hash::{hash_zip_with_limits, HashError, ZipHasher, ZipHashes, ZipLimits};

/// Limits small enough that one input stays well inside libFuzzer's time and memory budget.
const LIMITS: ZipLimits = ZipLimits {
    max_total_uncompressed: 4 << 20,
    max_ratio: 1100,
    max_entries: 512,
    max_central_directory: 1 << 20,
};

/// A zip described entry by entry, plus byte damage applied after writing it.
#[derive(Debug, Arbitrary)]
pub struct ZipSpec {
    entries: Vec<EntrySpec>,
    /// `(offset, xor)` pairs applied to the written archive (offsets wrap).
    damage: Vec<(u16, u8)>,
    /// Keep only this many bytes (wrapping), when set.
    truncate: Option<u16>,
}

/// One entry of a [`ZipSpec`].
#[derive(Debug, Arbitrary)]
struct EntrySpec {
    name: String,
    data: Vec<u8>,
    deflate: bool,
    /// Sizes and CRC in a data descriptor after the data (flag bit 3).
    descriptor: bool,
    /// Unix mode bits in the external attributes.
    mode: u16,
    /// Left out of the central directory (present only as a local entry).
    hidden: bool,
}

impl ZipSpec {
    /// The archive bytes.
    pub fn write(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        let mut listed = 0u16;
        for e in &self.entries {
            let offset = out.len() as u32;
            let body = if e.deflate {
                deflate(&e.data)
            } else {
                e.data.clone()
            };
            let mut crc = flate2::Crc::new();
            crc.update(&e.data);
            let (crc, csize, usize_) = (crc.sum(), body.len() as u32, e.data.len() as u32);
            let flags: u16 = if e.descriptor { 8 } else { 0 };
            let method: u16 = if e.deflate { 8 } else { 0 };
            let name = e.name.as_bytes();
            put32(&mut out, 0x0403_4b50);
            put16(&mut out, 20);
            put16(&mut out, flags);
            put16(&mut out, method);
            put16(&mut out, 0);
            put16(&mut out, 0x21);
            let (lcrc, lc, lu) = if e.descriptor {
                (0, 0, 0)
            } else {
                (crc, csize, usize_)
            };
            put32(&mut out, lcrc);
            put32(&mut out, lc);
            put32(&mut out, lu);
            put16(&mut out, name.len() as u16);
            put16(&mut out, 0);
            out.extend_from_slice(name);
            out.extend_from_slice(&body);
            if e.descriptor {
                put32(&mut out, 0x0807_4b50);
                put32(&mut out, crc);
                put32(&mut out, csize);
                put32(&mut out, usize_);
            }
            if e.hidden {
                continue;
            }
            listed = listed.wrapping_add(1);
            put32(&mut central, 0x0201_4b50);
            put16(&mut central, (3 << 8) | 20);
            put16(&mut central, 20);
            put16(&mut central, flags);
            put16(&mut central, method);
            put16(&mut central, 0);
            put16(&mut central, 0x21);
            put32(&mut central, crc);
            put32(&mut central, csize);
            put32(&mut central, usize_);
            put16(&mut central, name.len() as u16);
            put16(&mut central, 0);
            put16(&mut central, 0);
            put16(&mut central, 0);
            put16(&mut central, 0);
            put32(&mut central, u32::from(e.mode) << 16);
            put32(&mut central, offset);
            central.extend_from_slice(name);
        }
        let cd_offset = out.len() as u32;
        out.extend_from_slice(&central);
        put32(&mut out, 0x0605_4b50);
        put16(&mut out, 0);
        put16(&mut out, 0);
        put16(&mut out, listed);
        put16(&mut out, listed);
        put32(&mut out, central.len() as u32);
        put32(&mut out, cd_offset);
        put16(&mut out, 0);
        if !out.is_empty() {
            for &(at, x) in &self.damage {
                let i = usize::from(at) % out.len();
                out[i] ^= x;
            }
        }
        if let Some(n) = self.truncate {
            out.truncate(usize::from(n) % (out.len() + 1));
        }
        out
    }
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).expect("writing to a Vec cannot fail");
    enc.finish().expect("writing to a Vec cannot fail")
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The archive a fuzz input stands for (see the module comment).
fn archive(data: &[u8]) -> Vec<u8> {
    if data.starts_with(b"PK") {
        return data.to_vec();
    }
    match ZipSpec::arbitrary_take_rest(Unstructured::new(data)) {
        Ok(spec) => spec.write(),
        Err(_) => data.to_vec(),
    }
}

/// The streaming hasher over `bytes` in chunks of a size picked from the input length, so
/// chunk boundaries fall everywhere across a corpus (tiny chunks only for small inputs: one
/// call per byte of a 70 KB zip would take most of the fuzzing time).
fn stream(bytes: &[u8]) -> Result<ZipHashes, HashError> {
    let chunk = if bytes.len() < 4096 {
        [1, 3, 17, 512][bytes.len() % 4]
    } else {
        [509, 4096, 65_536][bytes.len() % 3]
    };
    let mut h = ZipHasher::with_limits(LIMITS);
    for c in bytes.chunks(chunk) {
        h.update(c)?;
    }
    h.finish()
}

/// The streaming hasher: any input gives hashes or an error.
pub fn zip_stream(data: &[u8]) {
    let _ = stream(&archive(data));
}

/// The random-access hasher: any input gives hashes or an error.
pub fn zip_random(data: &[u8]) {
    let _ = hash_zip_with_limits(&archive(data), &LIMITS);
}

/// Both hashers agree: the same hashes, or both refuse. The streaming hasher may instead
/// hand the archive over (`NeedsRandomAccess`: hosts then hash it with random access), so
/// that answer agrees with anything.
pub fn zip_differential(data: &[u8]) {
    let bytes = archive(data);
    let s = stream(&bytes);
    if let Err(HashError::NeedsRandomAccess { .. }) = s {
        return;
    }
    let r = hash_zip_with_limits(&bytes, &LIMITS);
    match (&s, &r) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the hashers disagree"),
        (Err(_), Err(_)) => {}
        _ => panic!("one hasher refuses: streaming {s:?}, random access {r:?}"),
    }
}
