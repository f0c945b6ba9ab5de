//! Every parser of hostile bytes keeps its memory proportional to its input. Each case
//! builds a large input at two sizes, resets the process's peak RSS, parses, and reads the
//! growth of the peak in a child process (a fresh copy of this test binary, so other tests'
//! memory does not count). Two checks per case:
//! - linear: growth per input byte at the large size is at most 1.5 times that at the small
//!   size (a quadratic copy or a per-level clone fails it);
//! - a ceiling: growth at most `factor` times the input plus `SLACK`, the factor measured for
//!   that parser (rounded up) and written beside it, so a parser that starts keeping more per
//!   byte is noticed.
//!
//! Inputs that claim gigabytes in a few bytes (zip directories, OpenPGP lengths) are checked
//! against `SLACK` alone: nothing may be allocated from a claimed length.

use std::process::Command;
use tflock_core::config::{load_module, LoadOptions};
use tflock_core::hash::{hash_zip, ZipHasher};
use tflock_core::lockfile::{load_locks_bytes, LoadOptions as LockLoadOptions, LOCK_FILE_NAME};
use tflock_core::protocol::cliconfig::CliConfig;
use tflock_core::protocol::mirror::MirrorVersion;
use tflock_core::protocol::openpgp::{read_armored_keyring, read_signature};
use tflock_core::protocol::registry::VersionsResponse;
use tflock_core::protocol::sha256sums::Sha256Sums;
use tflock_core::Flavor;

const CASE_ENV: &str = "TFLOCK_PARSER_MEMORY_CASE";
const SIZE_ENV: &str = "TFLOCK_PARSER_MEMORY_SIZE";
const MIB: usize = 1 << 20;
/// The two input sizes of a growing case.
const SMALL: usize = 2 * MIB;
const LARGE: usize = 8 * MIB;
/// Growth allowed whatever the input (allocator arenas, tables, the test's own buffers).
const SLACK: usize = 16 * MIB;

fn status_kib(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"))
}

/// In the child: builds the input of the size it was given, parses it and prints the input's
/// length and the peak RSS growth in bytes.
fn child(input: impl FnOnce(usize) -> Vec<u8>, parse: impl FnOnce(&[u8])) {
    let size = std::env::var(SIZE_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("the child's input size");
    let bytes = input(size);
    // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+).
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
    let before = status_kib("VmRSS:");
    parse(&bytes);
    let grew = status_kib("VmHWM:").saturating_sub(before) * 1024;
    println!("PARSER_MEMORY {} {grew}", bytes.len());
}

/// In the parent: the input length and peak growth the child for `case` saw at `size`.
fn measure(case: &str, size: usize) -> (usize, usize) {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            &format!("parser_memory::{case}"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CASE_ENV, case)
        .env(SIZE_ENV, size.to_string())
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{case}: the child failed ({:?}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("PARSER_MEMORY ").map(|(_, figures)| figures))
        .unwrap_or_else(|| panic!("{case}: the child printed no figure:\n{stdout}"));
    let mut it = line
        .split(' ')
        .map(|n| n.parse::<usize>().expect("a number"));
    (it.next().expect("length"), it.next().expect("growth"))
}

fn is_child(case: &str) -> bool {
    std::env::var(CASE_ENV).as_deref() == Ok(case)
}

/// A growing case: linear between the two sizes, and under `factor` per byte plus `SLACK`.
fn linear(
    case: &str,
    factor: usize,
    input: impl FnOnce(usize) -> Vec<u8>,
    parse: impl FnOnce(&[u8]),
) {
    if is_child(case) {
        return child(input, parse);
    }
    let (small_len, small) = measure(case, SMALL);
    let (large_len, large) = measure(case, LARGE);
    let rate = |grew: usize, len: usize| grew as f64 / len as f64;
    eprintln!(
        "parser_memory: {case}: {} KiB -> peak +{} KiB, {} KiB -> +{} KiB ({:.1} bytes per input byte)",
        small_len / 1024,
        small / 1024,
        large_len / 1024,
        large / 1024,
        rate(large, large_len)
    );
    assert!(
        large <= factor * large_len + SLACK,
        "{case}: parsing {large_len} bytes grew the peak RSS by {large} bytes, over {factor} per byte plus {SLACK}"
    );
    assert!(
        rate(large, large_len) <= 1.5 * rate(small, small_len) + 0.5,
        "{case}: memory grows faster than the input: {small} bytes for {small_len}, {large} for {large_len}"
    );
}

/// A small input claiming a huge size: the peak may grow by `SLACK` at most.
fn fixed(case: &str, input: impl FnOnce(usize) -> Vec<u8>, parse: impl FnOnce(&[u8])) {
    if is_child(case) {
        return child(input, parse);
    }
    let (len, grew) = measure(case, 0);
    eprintln!(
        "parser_memory: {case}: {len} bytes -> peak +{} KiB",
        grew / 1024
    );
    assert!(
        grew <= SLACK,
        "{case}: {len} bytes grew the peak RSS by {grew} bytes, over {SLACK}"
    );
}

/// Repeats `unit` (with its index substituted for `{i}`) until `size` bytes.
fn repeated(size: usize, head: &str, unit: &str, tail: &str) -> Vec<u8> {
    let mut out = String::with_capacity(size + MIB);
    out.push_str(head);
    let mut i = 0usize;
    while out.len() < size {
        out.push_str(&unit.replace("{i}", &i.to_string()));
        i += 1;
    }
    out.push_str(tail);
    out.into_bytes()
}

#[test]
fn lock_file_reader() {
    linear(
        "lock_file_reader",
        24,
        |n| {
            repeated(
                n,
                "",
                "provider \"registry.terraform.io/acme/p{i}\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n    \"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\n    \"zh:0000000000000000000000000000000000000000000000000000000000000000\",\n  ]\n}\n\n",
                "",
            )
        },
        |b| {
            let (locks, _) =
                load_locks_bytes(b, &LockLoadOptions::new(LOCK_FILE_NAME, Flavor::Terraform));
            assert!(!locks.is_empty());
        },
    );
}

#[test]
fn lock_file_reader_one_huge_string() {
    linear(
        "lock_file_reader_one_huge_string",
        6,
        |n| {
            let mut s = String::from("provider \"registry.terraform.io/a/b\" {\n  version = \"");
            s.push_str(&"9".repeat(n));
            s.push_str("\"\n}\n");
            s.into_bytes()
        },
        |b| {
            let _ = load_locks_bytes(b, &LockLoadOptions::new(LOCK_FILE_NAME, Flavor::Terraform));
        },
    );
}

#[test]
fn native_hcl_module() {
    linear(
        "native_hcl_module",
        95,
        |n| {
            repeated(
                n,
                "",
                "resource \"null_resource\" \"r{i}\" {\n  triggers = { a = \"x\", b = [1, 2, 3] }\n  count = 1 + 2 * 3\n}\n",
                "",
            )
        },
        |b| {
            let loaded = load_module(&[("main.tf", b)], &LoadOptions::default());
            assert!(!loaded.module.blocks.is_empty());
        },
    );
}

#[test]
fn json_hcl_module() {
    linear(
        "json_hcl_module",
        95,
        |n| {
            let mut v = repeated(
                n,
                "{\"resource\": {\"null_resource\": {",
                "\"r{i}\": {\"triggers\": {\"a\": \"x\", \"b\": [1, 2, 3]}},",
                "\"last\": {}}}}",
            );
            v.shrink_to_fit();
            v
        },
        |b| {
            let loaded = load_module(&[("main.tf.json", b)], &LoadOptions::default());
            assert!(!loaded.module.blocks.is_empty());
        },
    );
}

#[test]
fn sha256sums_document() {
    linear(
        "sha256sums_document",
        3,
        |n| {
            repeated(
                n,
                "",
                "0000000000000000000000000000000000000000000000000000000000000000  terraform-provider-p_1.0.0_os{i}_amd64.zip\n",
                "",
            )
        },
        |b| {
            let _ = Sha256Sums::parse(b);
        },
    );
}

#[test]
fn openpgp_armor_and_packets() {
    linear(
        "openpgp_armor_and_packets",
        4,
        |n| {
            use base64::Engine as _;
            let body = vec![0xA5u8; n * 3 / 4];
            let b64 = base64::engine::general_purpose::STANDARD.encode(&body);
            let mut s = String::from("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n");
            for line in b64.as_bytes().chunks(64) {
                s.push_str(std::str::from_utf8(line).expect("ascii"));
                s.push('\n');
            }
            s.push_str("-----END PGP PUBLIC KEY BLOCK-----\n");
            s.into_bytes()
        },
        |b| {
            let text = std::str::from_utf8(b).expect("ascii");
            let _ = read_armored_keyring(text);
        },
    );
}

#[test]
fn openpgp_packet_claiming_four_gigabytes() {
    fixed(
        "openpgp_packet_claiming_four_gigabytes",
        |_| {
            // A new-format signature packet (tag 2) with a five-octet length of 4 GiB - 1.
            let mut v = vec![0xC2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
            v.extend(std::iter::repeat_n(0x04, 1024));
            v
        },
        |b| {
            assert!(read_signature(b).is_err(), "a truncated packet is an error");
        },
    );
}

#[test]
fn registry_versions_document() {
    linear(
        "registry_versions_document",
        8,
        |n| {
            repeated(
                n,
                "{\"versions\": [",
                "{\"version\": \"1.0.{i}\", \"protocols\": [\"5.0\"], \"platforms\": [{\"os\": \"linux\", \"arch\": \"amd64\"}]},",
                "{\"version\": \"9.9.9\"}]}",
            )
        },
        |b| {
            let _ = VersionsResponse::parse(b, "registry.terraform.io/acme/p");
        },
    );
}

#[test]
fn network_mirror_version_document() {
    linear(
        "network_mirror_version_document",
        15,
        |n| {
            repeated(
                n,
                "{\"archives\": {",
                "\"os{i}_amd64\": {\"url\": \"p_1.0.0_os{i}_amd64.zip\", \"hashes\": [\"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"]},",
                "\"last_amd64\": {\"url\": \"x.zip\"}}}",
            )
        },
        |b| {
            let _ = MirrorVersion::parse(b);
        },
    );
}

#[test]
fn cli_configuration() {
    linear(
        "cli_configuration",
        45,
        |n| {
            repeated(
                n,
                "",
                "host \"h{i}.example.com\" {\n  services = {\n    \"providers.v1\" = \"https://h{i}.example.com/v1/providers/\"\n  }\n}\ncredentials \"h{i}.example.com\" {\n  token = \"abc{i}\"\n}\n",
                "",
            )
        },
        |b| {
            let text = std::str::from_utf8(b).expect("utf-8");
            let _ = CliConfig::parse(text, "cli.tfrc", Flavor::Terraform);
        },
    );
}

#[test]
fn modules_manifest() {
    linear(
        "modules_manifest",
        18,
        |n| {
            repeated(
                n,
                "{\"Modules\": [{\"Key\": \"\", \"Source\": \"\", \"Dir\": \".\"},",
                "{\"Key\": \"m{i}\", \"Source\": \"./modules/m{i}\", \"Dir\": \"modules/m{i}\"},",
                "{\"Key\": \"last\", \"Source\": \"./last\", \"Dir\": \"last\"}]}",
            )
        },
        |b| {
            let _ = tflock_core::config::modules_manifest::ModuleManifest::parse(b);
        },
    );
}

/// A zip whose end-of-central-directory record claims 65,535 entries and a 4 GiB central
/// directory, with none of it present.
fn zip_with_lying_directory() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    v.extend_from_slice(&[0, 0, 0, 0]);
    v.extend_from_slice(&0xFFFFu16.to_le_bytes());
    v.extend_from_slice(&0xFFFFu16.to_le_bytes());
    v.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    v.extend_from_slice(&0u32.to_le_bytes());
    v.extend_from_slice(&0u16.to_le_bytes());
    v
}

#[test]
fn zip_random_access_with_a_lying_directory() {
    fixed(
        "zip_random_access_with_a_lying_directory",
        |_| zip_with_lying_directory(),
        |b| assert!(hash_zip(b).is_err()),
    );
}

#[test]
fn zip_streaming_with_a_lying_local_header() {
    fixed(
        "zip_streaming_with_a_lying_local_header",
        |_| {
            // A local header claiming a stored 4 GiB entry and a 65,535-byte name, then 1 MiB.
            let mut v = Vec::new();
            v.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            v.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            v.extend_from_slice(&0u32.to_le_bytes());
            v.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
            v.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
            v.extend_from_slice(&0xFFFFu16.to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
            v.extend(std::iter::repeat_n(b'a', MIB));
            v
        },
        |b| {
            let mut h = ZipHasher::new();
            let fed = b.chunks(64 * 1024).try_for_each(|c| h.update(c));
            assert!(fed.is_err() || h.finish().is_err());
        },
    );
}
