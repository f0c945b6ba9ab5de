//! Provider-shaped zips for the lock benchmarks (`tests/benches/lock*.rs`): one large,
//! partly compressible binary plus LICENSE and README, generated once and cached on disk.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The version every bench provider publishes.
pub const VERSION: &str = "1.0.0";

/// Size of each generated package, in MB (`TFLOCK_BENCH_MB`, else `default`).
pub fn package_mb(default: usize) -> usize {
    std::env::var("TFLOCK_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The file name of `provider`'s package for `platform`.
pub fn zip_name(provider: &str, platform: &str) -> String {
    format!("terraform-provider-{provider}_{VERSION}_{platform}.zip")
}

/// The server path the lock bench serves `provider`'s package for `platform` at.
pub fn zip_path(provider: &str, platform: &str) -> String {
    format!("/files/{provider}/{}", zip_name(provider, platform))
}

/// Every `provider` × `platform` zip of about `mb` MB, keyed by [`zip_path`]; generated
/// into `root` the first time (the same bytes every run: they derive from the names).
pub fn generate(
    root: &Path,
    mb: usize,
    providers: &[&str],
    platforms: &[&str],
) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for provider in providers {
        for platform in platforms {
            let file = root.join(format!("{provider}_{platform}_{mb}.zip"));
            if !file.exists() {
                std::fs::write(&file, make(provider, platform, mb)).expect("write zip");
            }
            out.insert(
                zip_path(provider, platform),
                std::fs::read(&file).expect("read zip"),
            );
        }
    }
    out
}

fn make(provider: &str, platform: &str, mb: usize) -> Vec<u8> {
    let seed = Sha256::digest(format!("{provider}{platform}").as_bytes());
    let binary = binary_like(mb << 20, &seed);
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(1))
            .unix_permissions(0o755);
        z.start_file(format!("terraform-provider-{provider}_v{VERSION}"), opts)
            .expect("entry");
        z.write_all(&binary).expect("write");
        z.start_file("LICENSE", opts).expect("entry");
        z.write_all(b"Mozilla Public License Version 2.0\n")
            .expect("write");
        z.start_file("README.md", opts).expect("entry");
        z.write_all(b"# bench provider\n").expect("write");
        z.finish().expect("finish");
    }
    buf.into_inner()
}

/// Bytes that deflate roughly 2:1, like a compiled Go binary.
fn binary_like(len: usize, seed: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let mut block: Vec<u8> = seed.to_vec();
    let mut i = 0u64;
    while out.len() < len {
        block = Sha256::digest(&block).to_vec();
        out.extend_from_slice(&block);
        // Runs of structure (tables, padding) between random-looking code.
        out.extend(std::iter::repeat_n((i % 251) as u8, 32));
        i += 1;
    }
    out.truncate(len);
    out
}
