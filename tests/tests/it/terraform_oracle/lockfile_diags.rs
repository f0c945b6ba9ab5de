//! Suite 3, lock-file diagnostics: generated valid and broken lock files (addresses,
//! versions, constraints, hashes, unknown arguments and blocks, encodings). Terraform reads
//! each one in `terraform providers`; tflock in `tflock lockfile check`. Both must reach the
//! same verdict; tflock must report at least one of Terraform's errors and no error summary
//! Terraform does not report. (After a syntax error such as `Attribute redefined` Terraform
//! goes on decoding what hclsyntax recovered and reports more; tflock stops at the syntax
//! errors. Terraform prints its errors sorted by position, so that one is not always first.)

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tflock_tests::terraform::run_terraform;
use tflock_tests::tflock_bin;

use crate::terraform_oracle::harness::{failures_of, rng};

const CASES: usize = 60;

const ADDRESSES: &[&str] = &[
    "registry.terraform.io/hashicorp/null",
    "registry.terraform.io/hashicorp/aws",
    "example.com/acme/thing",
    "hashicorp/null",
    "registry.terraform.io/hashicorp/",
    "registry.terraform.io/-/null",
    "registry.terraform.io/Hashicorp/Null",
    "terraform.io/builtin/terraform",
    "registry.terraform.io/hashicorp/terraform-provider-null",
    "registry.terraform.io/hashicorp/null/extra",
    "REGISTRY.terraform.io/hashicorp/null",
    "example.com:8443/acme/thing",
    "exa mple.com/acme/thing",
];

const VERSIONS: &[&str] = &[
    "3.2.1",
    "1.0.0",
    "0.0.1",
    "3.x",
    "v3.2.1",
    "3.2",
    "1.0.0-beta1",
    " 1.0.0",
    "1.0.0+build",
    "",
    "01.0.0",
    "1.0.0.0",
    "latest",
];

const CONSTRAINTS: &[&str] = &[
    "~> 3.0",
    ">= 1.0.0, < 4.0.0",
    "3.2.1",
    "~>",
    ">= 1.0 < 2",
    "1.0.0,",
    "!= 2.0.0",
    "=> 1.0",
    ">= 1.0.0-beta1",
    "",
];

const HASHES: &[&str] = &[
    "h1:ndA7q4zTOV6ZR0H1GvAc+A8eyfrjRiLbbrzkcT7rfOk=",
    "zh:0aaa1b8bb0b3cd6a8292a6bd2fbd7f3d5bf5dcd7bbf9ed6d92b3fe0dbdc08b19",
    "h1:",
    "xx:abc",
    "zh:XYZ",
    "h1:short",
    "notahash",
];

/// One provider block's text.
fn provider_block(rng: &mut StdRng) -> String {
    let address = if rng.gen_bool(0.7) {
        ADDRESSES[rng.gen_range(0..3)]
    } else {
        ADDRESSES.choose(rng).expect("addresses")
    };
    let mut out = format!("provider \"{address}\" {{\n");
    if rng.gen_bool(0.95) {
        let version = if rng.gen_bool(0.6) {
            "3.2.1"
        } else {
            VERSIONS.choose(rng).expect("versions")
        };
        out.push_str(&format!("  version = \"{version}\"\n"));
    }
    if rng.gen_bool(0.5) {
        let c = CONSTRAINTS.choose(rng).expect("constraints");
        out.push_str(&format!("  constraints = \"{c}\"\n"));
    }
    match rng.gen_range(0..10) {
        0 => out.push_str("  hashes = \"h1:ndA7q4zTOV6ZR0H1GvAc+A8eyfrjRiLbbrzkcT7rfOk=\"\n"),
        1 => out.push_str("  hashes = [1, true]\n"),
        2 => {}
        _ => {
            out.push_str("  hashes = [\n");
            for _ in 0..rng.gen_range(0..3) {
                let h = if rng.gen_bool(0.7) {
                    HASHES[rng.gen_range(0..2)]
                } else {
                    HASHES.choose(rng).expect("hashes")
                };
                out.push_str(&format!("    \"{h}\",\n"));
            }
            out.push_str("  ]\n");
        }
    }
    match rng.gen_range(0..12) {
        0 => out.push_str("  unknown = \"x\"\n"),
        1 => out.push_str("  nested {\n  }\n"),
        2 => out.push_str("  version = \"1.0.0\"\n"),
        _ => {}
    }
    out.push_str("}\n");
    out
}

fn lock_file(rng: &mut StdRng) -> Vec<u8> {
    let mut text =
        String::from("# This file is maintained automatically by \"terraform init\".\n\n");
    for _ in 0..rng.gen_range(0..3) {
        text.push_str(&provider_block(rng));
        text.push('\n');
    }
    match rng.gen_range(0..14) {
        0 => text.push_str("module \"x\" {\n}\n"),
        1 => text.push_str("provider \"a\" \"b\" {\n  version = \"1.0.0\"\n}\n"),
        2 => text.push_str("provider {\n}\n"),
        3 => text.push_str("top = 1\n"),
        4 => text = text.replace('\n', "\r\n"),
        _ => {}
    }
    let mut bytes = text.into_bytes();
    match rng.gen_range(0..12) {
        // A byte order mark, or invalid UTF-8 in a comment or inside a version string.
        0 => bytes.splice(0..0, [0xEF, 0xBB, 0xBF]).for_each(drop),
        1 => bytes.splice(2..2, [0xFF, 0xFE]).for_each(drop),
        2 => {
            if let Some(at) = find(&bytes, b"version = \"") {
                bytes.splice(at + 11..at + 11, [0xC3]).for_each(drop);
            }
        }
        _ => {}
    }
    bytes
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Error and warning diagnostics in the text form both tools print without colour:
/// `(severity, summary, detail with whitespace collapsed)`.
pub fn diagnostics(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String, Vec<String>)> = None;
    for line in text.lines() {
        let line = line.trim_start_matches(['│', '╷', '╵']).trim_end();
        let head = line
            .trim_start()
            .strip_prefix("Error: ")
            .map(|s| ("error", s))
            .or_else(|| {
                line.trim_start()
                    .strip_prefix("Warning: ")
                    .map(|s| ("warning", s))
            });
        if let Some((severity, summary)) = head {
            out.extend(current.take().map(finish));
            current = Some((severity.to_string(), summary.to_string(), Vec::new()));
            continue;
        }
        let t = line.trim();
        let location = t.starts_with("on ") && (t.contains(" line ") || t.ends_with(':'));
        let snippet = t.starts_with('(') && t.ends_with("not available)")
            || t.split_once(':')
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
            || t.chars().all(|c| c == '^' || c == '-' || c == ' ');
        if let Some((_, _, detail)) = &mut current {
            if !location && !snippet && !t.is_empty() {
                detail.push(t.to_string());
            }
        }
    }
    out.extend(current.map(finish));
    out
}

fn finish((severity, summary, detail): (String, String, Vec<String>)) -> (String, String, String) {
    let detail = detail
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (severity, summary, detail)
}

fn check(dir: &Path, home: &Path, bytes: &[u8], seed: u64, n: usize) -> Result<(), String> {
    std::fs::write(dir.join(".terraform.lock.hcl"), bytes).expect("lock");
    let tf = run_terraform(
        dir,
        home,
        &home.join("cli.tfrc"),
        &["providers", "-no-color"],
    );
    let ours = std::process::Command::new(tflock_bin())
        .args(["lockfile", "check", ".terraform.lock.hcl"])
        .current_dir(dir)
        .output()
        .expect("tflock");
    let tf_text =
        String::from_utf8_lossy(&[tf.stdout.clone(), tf.stderr.clone()].concat()).into_owned();
    let our_text =
        String::from_utf8_lossy(&[ours.stdout.clone(), ours.stderr.clone()].concat()).into_owned();
    // `providers` also checks that locked packages are installed: not a lock-file matter.
    let errors = |t: &str| -> Vec<(String, String, String)> {
        diagnostics(t)
            .into_iter()
            .filter(|d| d.0 == "error" && d.1 != "Required plugins are not installed")
            .collect()
    };
    let (tf_errors, our_errors) = (errors(&tf_text), errors(&our_text));
    let verdict_agrees = tf_errors.is_empty() == ours.status.success();
    let first_reported = tf_errors.is_empty()
        || our_errors
            .iter()
            .any(|o| tf_errors.iter().any(|t| t.1 == o.1));
    let nothing_extra = our_errors
        .iter()
        .all(|o| tf_errors.iter().any(|t| t.1 == o.1));
    if verdict_agrees && first_reported && nothing_extra {
        return Ok(());
    }
    Err(format!(
        "seed {seed}, lock file {n}:\n{}\n--- terraform (status {:?})\n{tf_text}\n--- tflock (status {:?})\n{our_text}\n--- terraform errors: {tf_errors:#?}\n--- tflock errors: {our_errors:#?}",
        String::from_utf8_lossy(bytes),
        tf.status.code(),
        ours.status.code(),
    ))
}

#[test]
fn lock_file_diagnostics_match_terraform() {
    let (mut rng, seed) = rng("lock-file diagnostics", 16_003);
    let files: Vec<Vec<u8>> = (0..CASES).map(|_| lock_file(&mut rng)).collect();
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let dir = tempfile::tempdir().expect("tempdir");
    let dirs = [dir.path().join("0"), dir.path().join("1")];
    for d in &dirs {
        std::fs::create_dir_all(d).expect("mkdir");
        std::fs::write(d.join("main.tf"), "terraform {}\n").expect("main.tf");
    }
    let failures = failures_of(&files, |n, bytes| {
        check(&dirs[n % 2], home.path(), bytes, seed, n)
            .err()
            .into_iter()
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {CASES} lock files are judged differently from Terraform:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
