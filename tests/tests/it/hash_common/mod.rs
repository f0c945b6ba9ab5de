//! Zip and directory generators shared by the hash tests and the hash benchmark.
//!
//! Two writers: the `zip` crate (what most tools produce, including zip64 via `large_file`
//! and data descriptors via its streaming writer) and a small hand-rolled writer for what
//! the `zip` crate refuses to write (duplicate names, directories marked only by mode bits,
//! stored entries with data descriptors, zip64 records on small entries).

#![allow(dead_code)]

use flate2::write::DeflateEncoder;
use flate2::Compression;
use rand::rngs::StdRng;
use rand::Rng;
use std::io::{Cursor, Write};

/// Compression of one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Method 0.
    Stored,
    /// Method 8.
    Deflated,
}

/// One entry to write.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Name as stored.
    pub name: String,
    /// Content (ignored for directories by the `zip` crate writer).
    pub content: Vec<u8>,
    /// A directory entry.
    pub dir: bool,
    /// Compression.
    pub method: Method,
    /// Hand writer: sizes and CRC in a data descriptor (flag bit 3).
    pub descriptor: bool,
    /// Zip64 extra fields (the `zip` crate's `large_file`).
    pub zip64: bool,
}

impl Entry {
    /// A deflated file.
    pub fn file(name: &str, content: &[u8]) -> Entry {
        Entry {
            name: name.to_owned(),
            content: content.to_vec(),
            dir: false,
            method: Method::Deflated,
            descriptor: false,
            zip64: false,
        }
    }

    /// A directory entry (name should end with `/` unless marked by mode bits only).
    pub fn dir(name: &str) -> Entry {
        Entry {
            name: name.to_owned(),
            content: Vec::new(),
            dir: true,
            method: Method::Stored,
            descriptor: false,
            zip64: false,
        }
    }
}

/// Which writer produces the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// `zip::ZipWriter` over a seekable buffer (sizes in local headers).
    ZipCrate,
    /// `zip::ZipWriter::new_stream` (data descriptors).
    ZipCrateStream,
    /// [`hand_zip`].
    Hand,
}

/// Writes `entries` with the `zip` crate.
pub fn crate_zip(entries: &[Entry], stream: bool) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    use zip::CompressionMethod;
    fn opts(e: &Entry) -> SimpleFileOptions {
        SimpleFileOptions::default()
            .compression_method(match e.method {
                Method::Stored => CompressionMethod::Stored,
                Method::Deflated => CompressionMethod::Deflated,
            })
            .large_file(e.zip64)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(if e.dir { 0o755 } else { 0o644 })
    }
    fn write_all<W: Write + std::io::Seek>(w: &mut zip::ZipWriter<W>, entries: &[Entry]) {
        for e in entries {
            if e.dir {
                w.add_directory(e.name.as_str(), opts(e))
                    .expect("add_directory");
            } else {
                w.start_file(e.name.as_str(), opts(e)).expect("start_file");
                w.write_all(&e.content).expect("write entry");
            }
        }
    }
    if stream {
        let mut w = zip::ZipWriter::new_stream(Vec::new());
        for e in entries {
            if e.dir {
                w.add_directory(e.name.as_str(), opts(e))
                    .expect("add_directory");
            } else {
                w.start_file(e.name.as_str(), opts(e)).expect("start_file");
                w.write_all(&e.content).expect("write entry");
            }
        }
        w.finish().expect("finish").into_inner()
    } else {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        write_all(&mut w, entries);
        w.finish().expect("finish").into_inner()
    }
}

/// Raw deflate of `data`.
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = DeflateEncoder::new(Vec::new(), Compression::new(level));
    e.write_all(data).expect("deflate");
    e.finish().expect("deflate")
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(data);
    c.sum()
}

/// A minimal zip writer that writes exactly what it is told, duplicates included.
pub fn hand_zip(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let offset = out.len() as u64;
        let data = match e.method {
            Method::Stored => e.content.clone(),
            Method::Deflated => deflate(&e.content, 6),
        };
        let crc = crc32(&e.content);
        let (csize, usize_) = (data.len() as u64, e.content.len() as u64);
        let method: u16 = match e.method {
            Method::Stored => 0,
            Method::Deflated => 8,
        };
        let mut flags: u16 = if e.descriptor { 8 } else { 0 };
        if !e.name.is_ascii() {
            flags |= 0x800;
        }
        let version: u16 = if e.zip64 { 45 } else { 20 };
        let sat = |v: u64| if e.zip64 { u32::MAX } else { v as u32 };
        // Local header.
        let mut local_extra = Vec::new();
        if e.zip64 {
            local_extra.extend_from_slice(&1u16.to_le_bytes());
            local_extra.extend_from_slice(&16u16.to_le_bytes());
            let (u, c) = if e.descriptor {
                (0, 0)
            } else {
                (usize_, csize)
            };
            local_extra.extend_from_slice(&u.to_le_bytes());
            local_extra.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&0x21u16.to_le_bytes());
        if e.descriptor {
            out.extend_from_slice(&[0; 4]);
            out.extend_from_slice(&(if e.zip64 { u32::MAX } else { 0 }).to_le_bytes());
            out.extend_from_slice(&(if e.zip64 { u32::MAX } else { 0 }).to_le_bytes());
        } else {
            out.extend_from_slice(&crc.to_le_bytes());
            out.extend_from_slice(&sat(csize).to_le_bytes());
            out.extend_from_slice(&sat(usize_).to_le_bytes());
        }
        out.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        out.extend_from_slice(&(local_extra.len() as u16).to_le_bytes());
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(&local_extra);
        out.extend_from_slice(&data);
        if e.descriptor {
            out.extend_from_slice(&0x0807_4b50u32.to_le_bytes());
            out.extend_from_slice(&crc.to_le_bytes());
            if e.zip64 {
                out.extend_from_slice(&csize.to_le_bytes());
                out.extend_from_slice(&usize_.to_le_bytes());
            } else {
                out.extend_from_slice(&(csize as u32).to_le_bytes());
                out.extend_from_slice(&(usize_ as u32).to_le_bytes());
            }
        }
        // Central record.
        let mut extra = Vec::new();
        if e.zip64 {
            extra.extend_from_slice(&1u16.to_le_bytes());
            extra.extend_from_slice(&24u16.to_le_bytes());
            extra.extend_from_slice(&usize_.to_le_bytes());
            extra.extend_from_slice(&csize.to_le_bytes());
            extra.extend_from_slice(&offset.to_le_bytes());
        }
        let mode: u32 = if e.dir { 0o040755 } else { 0o100644 };
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&((3u16 << 8) | version).to_le_bytes());
        central.extend_from_slice(&version.to_le_bytes());
        central.extend_from_slice(&flags.to_le_bytes());
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0x21u16.to_le_bytes());
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&sat(csize).to_le_bytes());
        central.extend_from_slice(&sat(usize_).to_le_bytes());
        central.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        central.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&(mode << 16).to_le_bytes());
        central.extend_from_slice(&sat(offset).to_le_bytes());
        central.extend_from_slice(e.name.as_bytes());
        central.extend_from_slice(&extra);
    }
    let cd_offset = out.len() as u32;
    let cd_size = central.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

const SEGMENTS: &[&str] = &[
    "terraform-provider-example_v1.2.3",
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "docs",
    "sub",
    "a.txt",
    "b",
    "ünïcødé",
    "日本語",
    "emoji-😀",
    "with space",
    "x.y.z",
    "A",
    "a",
    "Z",
    "-dash",
    "~tilde",
];

/// A random relative name of depth 1–3 from [`SEGMENTS`].
pub fn random_name(rng: &mut StdRng) -> String {
    let depth = rng.gen_range(1..=3);
    (0..depth)
        .map(|_| SEGMENTS[rng.gen_range(0..SEGMENTS.len())])
        .collect::<Vec<_>>()
        .join("/")
}

/// Text-like content that deflates roughly like source files and docs.
pub fn text_content(rng: &mut StdRng, len: usize) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "provider",
        "terraform",
        "resource",
        "the",
        "of",
        "and",
        "license",
        "version",
        "=",
        "{",
        "}",
        "\n",
        "  ",
        "hashicorp",
        "registry",
        "0.1.0",
        "MPL-2.0",
        "checksum",
    ];
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        out.extend_from_slice(WORDS[rng.gen_range(0..WORDS.len())].as_bytes());
        out.push(b' ');
    }
    out.truncate(len);
    out
}

/// Binary-like content: a mix of random bytes, zero runs and repeated text, which deflates
/// to roughly 40–50% like a Go executable.
pub fn binary_content(rng: &mut StdRng, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 4096);
    while out.len() < len {
        match rng.gen_range(0..10) {
            0..=3 => {
                let n = rng.gen_range(16..512);
                out.extend((0..n).map(|_| rng.gen::<u8>()));
            }
            4 => out.extend(std::iter::repeat_n(0u8, rng.gen_range(8..256))),
            5..=6 => {
                // Small-alphabet bytes (like instruction streams): partly compressible.
                let n = rng.gen_range(32..512);
                out.extend((0..n).map(|_| rng.gen_range(0..24u8) * 7));
            }
            _ => out.extend({
                let n = rng.gen_range(16..256);
                text_content(rng, n)
            }),
        }
    }
    out.truncate(len);
    out
}

/// Random content of a random kind and size (sometimes empty, sometimes several MiB).
pub fn random_content(rng: &mut StdRng, allow_big: bool) -> Vec<u8> {
    match rng.gen_range(0..100) {
        0..=14 => Vec::new(),
        15..=44 => {
            let n = rng.gen_range(1..2000);
            text_content(rng, n)
        }
        45..=74 => {
            let n = rng.gen_range(1..70_000);
            binary_content(rng, n)
        }
        75..=96 => {
            let n = rng.gen_range(2000..200_000);
            text_content(rng, n)
        }
        _ if allow_big => {
            let n = rng.gen_range(2 << 20..5 << 20);
            binary_content(rng, n)
        }
        _ => {
            let n = rng.gen_range(70_000..300_000);
            binary_content(rng, n)
        }
    }
}
