//! `cargo xtask bench hash`: hashing a ~250 MB provider-shaped zip.
//!
//! Prints, from one run on the same file: tflock's streaming `h1:`+`zh:` time on one thread
//! (from memory, and from the file), `tflock hash` (the CLI, which runs SHA-256 on a second
//! thread while the first inflates), Go's `dirhash.HashZip` time (the oracle's timing mode; Go computes only the
//! archive-form `h1:`), and the one-core limit measured on the same bytes: raw inflate of
//! every entry alone plus SHA-256 alone over the uncompressed and the archive bytes (what
//! `h1:` and `zh:` must hash at least). The measurements run in interleaved rounds (so
//! load from other processes hits them alike) and each figure is its best round.

#[path = "../tests/it/hash_common/mod.rs"]
mod hash_common;

use flate2::{Decompress, FlushDecompress, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tflock_core::hash::{ZipHasher, ZipHashes};

const RUNS: usize = 5;
const READ_BUF: usize = 256 * 1024;
/// Uncompressed size of the big entry; deflates to roughly 250 MB with this content mix.
const BINARY_BYTES: usize = 600 << 20;

/// Executable-like bytes: mostly "code" drawn from a fixed vocabulary of instruction-like
/// snippets, some strings and zero padding, a few random runs (compressed data, keys);
/// deflates to roughly 40%, like Go provider binaries.
const VOCAB: usize = 512;

struct BinaryGen {
    rng: StdRng,
    vocab: Vec<Vec<u8>>,
}

impl BinaryGen {
    fn new(seed: u64) -> BinaryGen {
        let mut rng = StdRng::seed_from_u64(seed);
        let vocab = (0..VOCAB)
            .map(|_| {
                let n = rng.gen_range(2..10);
                (0..n).map(|_| rng.gen::<u8>()).collect()
            })
            .collect();
        BinaryGen { rng, vocab }
    }

    fn block(&mut self, len: usize) -> Vec<u8> {
        let rng = &mut self.rng;
        let mut out = Vec::with_capacity(len + 1024);
        while out.len() < len {
            match rng.gen_range(0..100) {
                0..=2 => {
                    let n = rng.gen_range(16..256);
                    out.extend((0..n).map(|_| rng.gen::<u8>()));
                }
                3..=6 => out.extend(std::iter::repeat_n(0u8, rng.gen_range(4..64))),
                7..=14 => {
                    let n = rng.gen_range(16..120);
                    out.extend(hash_common::text_content(rng, n));
                }
                _ => {
                    for _ in 0..rng.gen_range(4..32) {
                        // A skewed choice: some snippets are far more common, as in code.
                        let k = rng.gen_range(0..VOCAB);
                        let k = (k * k) / VOCAB;
                        out.extend_from_slice(&self.vocab[k]);
                    }
                }
            }
        }
        out.truncate(len);
        out
    }
}

fn bench_zip() -> PathBuf {
    let dir = tflock_tests::target_dir().join("bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("terraform-provider-bench_1.0.0_linux_amd64.zip");
    if path.exists() {
        return path;
    }
    eprintln!("generating {} (once) ...", path.display());
    use zip::write::SimpleFileOptions;
    let tmp = path.with_extension("tmp");
    let mut w = zip::ZipWriter::new(BufWriter::new(File::create(&tmp).unwrap()));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    let mut rng = StdRng::seed_from_u64(250);
    w.start_file("CHANGELOG.md", opts).unwrap();
    w.write_all(&hash_common::text_content(&mut rng, 30_000))
        .unwrap();
    w.start_file("LICENSE", opts).unwrap();
    w.write_all(&hash_common::text_content(&mut rng, 16_000))
        .unwrap();
    w.start_file("README.md", opts).unwrap();
    w.write_all(&hash_common::text_content(&mut rng, 3_000))
        .unwrap();
    w.start_file("terraform-provider-bench_v1.0.0", opts)
        .unwrap();
    // Blocks of fresh content (not one repeated block, which deflate would see through).
    let mut gen = BinaryGen::new(251);
    let mut left = BINARY_BYTES;
    while left > 0 {
        let n = left.min(4 << 20);
        w.write_all(&gen.block(n)).unwrap();
        left -= n;
    }
    w.finish().unwrap().flush().unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path
}

/// tflock: the CLI's path (streamed through `ZipHasher` with a fixed buffer).
fn tflock_stream(path: &Path) -> ZipHashes {
    let mut f = File::open(path).unwrap();
    let mut h = ZipHasher::new();
    let mut buf = vec![0u8; READ_BUF];
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        h.update(&buf[..n]).unwrap();
    }
    h.finish().unwrap()
}

/// `tflock hash --json` (release): the CLI's path, with SHA-256 on a second thread.
fn tflock_cli(bin: &Path, path: &Path) -> ZipHashes {
    let out = Command::new(bin)
        .args(["hash", "--json"])
        .arg(path)
        .output()
        .expect("run tflock hash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("tflock hash --json");
    let field = |k: &str| {
        let text = v["files"][0][k].as_str().expect("hash field").to_string();
        tflock_core::hash::PackageHash::parse(&text).expect("hash")
    };
    ZipHashes {
        h1: field("h1"),
        zh: field("zh"),
        h1_archive: field("h1_archive"),
    }
}

/// tflock on bytes already in memory, fed in read-sized chunks (no file IO).
fn tflock_memory(data: &[u8]) -> ZipHashes {
    let mut h = ZipHasher::new();
    for c in data.chunks(READ_BUF) {
        h.update(c).unwrap();
    }
    h.finish().unwrap()
}

/// Raw inflate of every entry from memory, output discarded. Returns uncompressed bytes.
fn inflate_only(data: &[u8], ranges: &[(u64, u64)]) -> u64 {
    let mut out = vec![0u8; 128 * 1024];
    let mut total = 0;
    for &(start, len) in ranges {
        let mut input = &data[start as usize..(start + len) as usize];
        let mut d = Decompress::new(false);
        loop {
            let (i0, o0) = (d.total_in(), d.total_out());
            let st = d
                .decompress(input, &mut out, FlushDecompress::None)
                .unwrap();
            input = &input[(d.total_in() - i0) as usize..];
            total += d.total_out() - o0;
            if st == Status::StreamEnd {
                break;
            }
        }
    }
    total
}

/// Reading the file into memory (to subtract from the inflate-only figure's file read).
fn read_only(path: &Path) -> usize {
    let mut f = File::open(path).unwrap();
    let mut buf = vec![0u8; READ_BUF];
    let mut n = 0;
    loop {
        let k = f.read(&mut buf).unwrap();
        if k == 0 {
            return n;
        }
        n += k;
    }
}

/// SHA-256 alone over `bytes` bytes (64 MiB buffer hashed repeatedly: speed is data-blind).
fn sha_only(bytes: u64) -> [u8; 32] {
    let buf = vec![0x5au8; 64 << 20];
    let mut h = Sha256::new();
    let mut left = bytes;
    while left > 0 {
        let n = left.min(buf.len() as u64) as usize;
        h.update(&buf[..n]);
        left -= n as u64;
    }
    h.finalize().into()
}

/// CRC-32 alone over `bytes` bytes (the check Go's reader, and so tflock, makes per entry).
fn crc_only(bytes: u64) -> u32 {
    let buf = vec![0x5au8; 64 << 20];
    let mut c = flate2::Crc::new();
    let mut left = bytes;
    while left > 0 {
        let n = left.min(buf.len() as u64) as usize;
        c.update(&buf[..n]);
        left -= n as u64;
    }
    c.sum()
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` probing
    }
    let path = bench_zip();
    let size = std::fs::metadata(&path).unwrap().len();
    let ranges: Vec<(u64, u64)> = {
        let mut z = zip::ZipArchive::new(File::open(&path).unwrap()).unwrap();
        (0..z.len())
            .map(|i| {
                let f = z.by_index_raw(i).unwrap();
                (f.data_start().unwrap(), f.compressed_size())
            })
            .collect()
    };
    let go = tflock_tests::oracle("dirhash");
    let cli = tflock_tests::release_tflock_bin();
    // Warm the page cache.
    read_only(&path);

    let data = std::fs::read(&path).unwrap();
    // Rounds interleave every measurement so that load from other processes hits them
    // alike; each figure is the best of its rounds.
    let mut go_proc = Command::new(&go)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run Go oracle");
    let mut go_in = go_proc.stdin.take().unwrap();
    let mut go_out = std::io::BufReader::new(go_proc.stdout.take().unwrap());
    let go_path = path.display().to_string();
    let mut go_time = move || {
        use std::io::BufRead;
        writeln!(go_in, "time\t{go_path}\t1").unwrap();
        let mut line = String::new();
        go_out.read_line(&mut line).unwrap();
        Duration::from_nanos(line.trim().parse().expect("Go timing"))
    };
    let timed = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let (mut t_tflock, mut t_tflock_file, mut t_go, mut t_inflate, mut t_sha) =
        [Duration::MAX; 5].into();
    let (mut t_crc, mut t_cli) = (Duration::MAX, Duration::MAX);
    let mut hashes = None;
    let mut uncompressed = 0;
    for _ in 0..RUNS {
        t_tflock = t_tflock.min(timed(&mut || hashes = Some(tflock_memory(&data))));
        let mut from_file = None;
        t_tflock_file = t_tflock_file.min(timed(&mut || from_file = Some(tflock_stream(&path))));
        assert_eq!(from_file, hashes);
        let mut from_cli = None;
        t_cli = t_cli.min(timed(&mut || from_cli = Some(tflock_cli(&cli, &path))));
        assert_eq!(from_cli, hashes);
        t_go = t_go.min(go_time());
        t_inflate = t_inflate.min(timed(&mut || uncompressed = inflate_only(&data, &ranges)));
        t_sha = t_sha.min(timed(&mut || {
            sha_only(uncompressed + size);
        }));
        t_crc = t_crc.min(timed(&mut || {
            crc_only(uncompressed);
        }));
    }
    drop(go_time);
    go_proc
        .wait()
        .expect("Go oracle exits when its input closes");
    let hashes = hashes.unwrap();
    let limit = t_inflate + t_sha;

    let mb = |b: u64| b as f64 / 1e6;
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "zip: {} ({:.1} MB, {:.1} MB uncompressed)",
        path.display(),
        mb(size),
        mb(uncompressed)
    );
    println!("h1 {}  zh {}", hashes.h1, hashes.zh);
    println!();
    println!("{:<44} {:>9} {:>10}", "measurement", "seconds", "MB/s(zip)");
    for (name, d) in [
        ("tflock ZipHasher, h1 + zh, from memory", t_tflock),
        ("tflock ZipHasher, h1 + zh, from file", t_tflock_file),
        ("tflock hash (CLI: SHA-256 on a 2nd thread)", t_cli),
        ("Go dirhash.HashZip (h1 archive form only)", t_go),
        ("limit: inflate only (from memory)", t_inflate),
        ("limit: SHA-256 only (uncompressed + zip)", t_sha),
        ("limit: one core = inflate + SHA-256", limit),
        ("(for reference) CRC-32 only (uncompressed)", t_crc),
    ] {
        println!("{name:<44} {:>9.3} {:>10.1}", s(d), mb(size) / s(d));
    }
    println!();
    println!(
        "Go / tflock hash (CLI), both reading the file = {:.2}x   (goal >= 3)",
        s(t_go) / s(t_cli)
    );
    println!(
        "Go / tflock on one thread, reading the file   = {:.2}x",
        s(t_go) / s(t_tflock_file)
    );
    println!(
        "tflock hash (CLI) / one-core limit            = {:.3}x  (below 1: two cores at work)",
        s(t_cli) / s(limit)
    );
    let zip = format!("{:.0} MB zip", mb(size));
    tflock_tests::bench_summary(
        "hash",
        &format!("Go dirhash.HashZip / tflock hash (CLI), {zip}"),
        &format!("{:.2}x", s(t_go) / s(t_cli)),
        ">= 3x",
    );
    tflock_tests::bench_summary(
        "hash",
        &format!("tflock hash (CLI) / one-core floor (inflate + SHA-256), {zip}"),
        &format!("{:.2}x", s(t_cli) / s(limit)),
        "< 1x (two cores)",
    );
    println!(
        "tflock / one-core limit, both from memory   = {:.3}x  (goal <= 1.1)",
        s(t_tflock) / s(limit)
    );
    println!(
        "tflock / (limit + CRC-32), both from memory = {:.3}x",
        s(t_tflock) / s(limit + t_crc)
    );
}
