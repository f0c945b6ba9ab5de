//! The streaming zip hasher's peak memory does not grow with the archive: a generated
//! 1 GiB entry (never stored anywhere) is streamed through `ZipHasher` in a child process
//! whose peak RSS (`VmHWM`) must stay under 32 MiB. The child also checks the hashes against
//! digests of the content computed on the side.

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::Write;
use std::process::Command;
use tflock_core::hash::{ContentHasher, DirHasher, ZipHasher};

const CHILD_ENV: &str = "TFLOCK_HASH_MEMORY_CHILD";
const ENTRY_BYTES: usize = 1 << 30;
const BLOCK: usize = 1 << 20;
const LIMIT_KIB: u64 = 32 * 1024;

/// Forwards the zip writer's output straight into the hasher.
struct IntoHasher(ZipHasher);

impl Write for IntoHasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .update(buf)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status")
}

/// Child: stream a zip with one 1 GiB deflated entry plus a LICENSE through the hasher.
fn child() {
    use zip::write::SimpleFileOptions;
    let mut rng = StdRng::seed_from_u64(1);
    let base = crate::hash_common::binary_content(&mut rng, BLOCK);
    let license = crate::hash_common::text_content(&mut rng, 20_000);
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1))
        .large_file(true);
    let mut w = zip::ZipWriter::new_stream(IntoHasher(ZipHasher::new()));
    let mut side = ContentHasher::new();
    w.start_file("terraform-provider-huge_v1.0.0", opts)
        .unwrap();
    let mut block = base.clone();
    for i in 0..ENTRY_BYTES / BLOCK {
        // Vary each block so the entry is not one repeated MiB.
        block[..8].copy_from_slice(&(i as u64).to_le_bytes());
        side.update(&block);
        w.write_all(&block).unwrap();
    }
    w.start_file("LICENSE", opts).unwrap();
    w.write_all(&license).unwrap();
    let hashes = w.finish().unwrap().into_inner().0.finish().unwrap();
    let mut want = DirHasher::new();
    want.add("terraform-provider-huge_v1.0.0", side.finish());
    want.add_bytes("LICENSE", &license);
    let want = want.finish().unwrap();
    assert_eq!(hashes.h1, want);
    assert_eq!(hashes.h1_archive, want);
    println!("VMHWM_KIB {}", vm_hwm_kib());
}

#[test]
fn streaming_a_1gib_entry_keeps_peak_rss_under_32mib() {
    if std::env::var_os(CHILD_ENV).is_some() {
        child();
        return;
    }
    // Measured in a child that runs this one test alone (`--exact`, one thread): every
    // suite shares this test binary, and the other tests' threads would count in this
    // process's peak RSS. So the test needs no test target of its own.
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &libtest_name("streaming_a_1gib_entry_keeps_peak_rss_under_32mib"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .output()
        .expect("run child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kib: u64 = stdout
        .lines()
        .find_map(|l| l.split_once("VMHWM_KIB ").map(|(_, v)| v))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("child reports VmHWM");
    eprintln!("peak RSS while streaming 1 GiB: {kib} KiB");
    assert!(kib < LIMIT_KIB, "peak RSS {kib} KiB >= {LIMIT_KIB} KiB");
}

/// `name` as libtest knows it in this binary: with the module path (`<suite>::<name>` since
/// the suites are modules of the one `tests/tests/it` binary), so that `--exact` selects this
/// test and nothing else.
fn libtest_name(name: &str) -> String {
    match module_path!().split_once("::") {
        Some((_krate, module)) => format!("{module}::{name}"),
        None => name.to_string(),
    }
}
