//! Differential test of the lock file writer: random lock sets written by tflock must equal,
//! byte for byte, what hclwrite produces when driven the way Terraform's `SaveLocksToBytes`
//! drives it (`tests/oracles/hclwrite_lock`, Debian's hcl/v2 2.14).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use tflock_core::addrs::Provider;
use tflock_core::hash::PackageHash;
use tflock_core::lockfile::{load_locks, write_locks, LoadOptions, Locks};
use tflock_core::version::{Constraints, Version};
use tflock_core::Flavor;

const HOSTS: &[&str] = &[
    "registry.terraform.io",
    "registry.opentofu.org",
    "example.com",
    "example.com:8443",
    "localhost:8080",
    "tfe.example.com",
];
const NAMES: &[&str] = &[
    "hashicorp",
    "aws",
    "null",
    "a-b",
    "x1",
    "испытание",
    "münchen",
    "awesomecorp",
    "z",
    "happycloud",
];
const VERSIONS: &[&str] = &[
    "1.2.3",
    "0.0.1",
    "2.0.0-beta.1",
    "1.0.0+meta",
    "1.0.0-rc1+build.5",
    "10.20.30",
    "0.1.0-alpha.2",
];
const CONSTRAINTS: &[&str] = &[
    "",
    ">= 1.0.0",
    "~> 2.1",
    "~> 2.1.0",
    "1.2.3",
    "> 1.0.0, < 2.0.0",
    "!= 1.2.3",
    "1.2.3-beta+foo.bar",
    "~> 1.2, >= 1.2.3, 1.2.3",
];
const ODD: &[&str] = &[
    "\"",
    "\\",
    "${",
    "%{",
    "$",
    "%",
    "{",
    "}",
    "é",
    "\u{1}",
    "\n",
    "\t",
    "\r",
    "\u{a0}",
    "\u{200b}",
    "\u{e000}",
    "\u{10ffff}",
    "💡",
    "\u{7f}",
    "\u{85}",
    "\u{2028}",
    " ",
    "#",
    "//",
    "/*",
];

fn random_char(rng: &mut StdRng) -> char {
    loop {
        let cp = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..0x80),
            1 => rng.gen_range(0x80..0x800),
            2 => rng.gen_range(0x800..0x10000),
            _ => rng.gen_range(0x10000..0x110000),
        };
        if let Some(c) = char::from_u32(cp) {
            return c;
        }
    }
}

fn random_hash(rng: &mut StdRng) -> String {
    let scheme = ["h1:", "zh:", "test:", "x:", "ü:"][rng.gen_range(0..5)];
    let mut s = scheme.to_string();
    for _ in 0..rng.gen_range(0..12) {
        match rng.gen_range(0..4) {
            0 => s.push_str(ODD[rng.gen_range(0..ODD.len())]),
            1 => s.push(random_char(rng)),
            _ => s.push(char::from(b"abcdef0123456789+/="[rng.gen_range(0..19)])),
        }
    }
    s
}

fn random_locks(rng: &mut StdRng) -> Locks {
    let mut locks = Locks::new();
    for _ in 0..rng.gen_range(0..6) {
        let label = format!(
            "{}/{}/{}",
            HOSTS[rng.gen_range(0..HOSTS.len())],
            NAMES[rng.gen_range(0..NAMES.len())],
            NAMES[rng.gen_range(0..NAMES.len())]
        );
        let addr = Provider::parse(&label, Flavor::Terraform).expect("generated address parses");
        let version = Version::parse(VERSIONS[rng.gen_range(0..VERSIONS.len())]).expect("version");
        let c = CONSTRAINTS[rng.gen_range(0..CONSTRAINTS.len())];
        let constraints = Constraints::parse(c, Flavor::Terraform).expect("constraints");
        let hashes: Vec<PackageHash> = (0..rng.gen_range(0..5))
            .map(|_| PackageHash::parse(&random_hash(rng)).expect("hash has a scheme"))
            .collect();
        locks.set_provider(addr, version, Some(constraints), hashes);
    }
    locks
}

fn oracle_input(locks: &Locks, flavor: Flavor) -> serde_json::Value {
    let providers: Vec<serde_json::Value> = locks
        .providers()
        .map(|l| {
            serde_json::json!({
                "addr": l.addr().to_string(),
                "version": l.version().to_string(),
                "constraints": l.constraints_string(),
                "hashes": l.hashes().iter().map(|h| h.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({ "command": flavor.command(), "providers": providers })
}

/// Runs the oracle over all inputs in one process; returns its outputs in order.
fn run_oracle(name: &str, inputs: &[serde_json::Value]) -> Vec<String> {
    let mut child = Command::new(tflock_tests::oracle(name))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let lines: Vec<String> = inputs.iter().map(|v| v.to_string()).collect();
    let writer = std::thread::spawn(move || {
        for l in lines {
            writeln!(stdin, "{l}").expect("write to oracle");
        }
    });
    let out: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("oracle output")).expect("oracle JSON string"))
        .collect();
    writer.join().expect("writer thread");
    assert!(child.wait().expect("oracle exit").success());
    out
}

#[test]
fn writer_matches_hclwrite_on_random_lock_sets() {
    let mut rng = StdRng::seed_from_u64(0x10c4f11e);
    let cases: Vec<(Locks, Flavor)> = (0..3000)
        .map(|i| {
            let flavor = if i % 3 == 0 {
                Flavor::OpenTofu
            } else {
                Flavor::Terraform
            };
            (random_locks(&mut rng), flavor)
        })
        .collect();
    let inputs: Vec<serde_json::Value> = cases.iter().map(|(l, f)| oracle_input(l, *f)).collect();
    let expected = run_oracle("hclwrite_lock", &inputs);
    assert_eq!(expected.len(), cases.len());
    for ((locks, flavor), want) in cases.iter().zip(&expected) {
        let got = write_locks(locks, *flavor);
        if &got != want {
            let at = got
                .bytes()
                .zip(want.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            panic!(
                "writer differs from hclwrite at byte {at}: ours {:?} theirs {:?}\n{got}",
                got.as_bytes().get(at..(at + 12).min(got.len())),
                want.as_bytes().get(at..(at + 12).min(want.len())),
            );
        }
    }
}

#[test]
fn written_files_read_back_and_rewrite_to_the_same_bytes() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..2000 {
        let locks = random_locks(&mut rng);
        let text = write_locks(&locks, Flavor::Terraform);
        let (back, diags) = load_locks(&text, &LoadOptions::new("t.hcl", Flavor::Terraform));
        let errors: Vec<String> = diags.iter().map(|d| format!("{d}")).collect();
        assert!(!diags.has_errors(), "{errors:?}\n{text}");
        // Hashes are NFC-normalized on the way out and in (cty strings), so compare bytes.
        assert_eq!(back.len(), locks.len());
        assert_eq!(write_locks(&back, Flavor::Terraform), text);
    }
}

#[test]
fn go_print_table_matches_go() {
    let out = Command::new(tflock_tests::oracle("go_isprint"))
        .output()
        .expect("run go_isprint");
    assert!(out.status.success());
    let want = String::from_utf8(out.stdout).expect("utf-8");
    let table =
        std::fs::read_to_string(tflock_tests::workspace_root().join("core/src/gotext/is_print.rs"))
            .expect("read is_print.rs");
    let have: String = table
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("(0x"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        have, want,
        "core/src/gotext/is_print.rs is out of date; regenerate it from tests/oracles/go_isprint"
    );
}

/// `core/src/gotext/to_lower.rs` embeds the ranges of Go's `unicode.CaseRanges` that change a
/// rune's lower case (`strings.ToLower`); they must be exactly Go's.
#[test]
fn go_lower_table_matches_go() {
    let out = Command::new(tflock_tests::oracle("go_tolower"))
        .output()
        .expect("run go_tolower");
    assert!(out.status.success());
    let want = String::from_utf8(out.stdout).expect("utf-8");
    let table =
        std::fs::read_to_string(tflock_tests::workspace_root().join("core/src/gotext/to_lower.rs"))
            .expect("read to_lower.rs");
    let have: String = table
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("(0x"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        have, want,
        "core/src/gotext/to_lower.rs is out of date; regenerate it from tests/oracles/go_tolower"
    );
}
