//! Differential test of the lock file reader's HCL layer: random lock files decoded by
//! tflock and by `tests/oracles/hcl_lock_decode` (Terraform's decode steps on the real HCL
//! parser and gohcl) must give the same diagnostics (summary, detail, range) and locks.
//! Address, version and constraint validity are handed to the oracle from tflock's own
//! modules, so this compares structure, values, messages and ranges only.
//!
//! Not generated: operators, conditionals and `for` expressions. HCL would evaluate them
//! (`"1.0.0" == "1.0.0"` is `true`); tflock rejects them as unsupported in a lock file.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use tflock_core::addrs::Provider;
use tflock_core::lockfile::read::DEFAULT_TERRAFORM_VERSION;
use tflock_core::lockfile::{load_locks, LoadOptions};
use tflock_core::version::{Constraints, Version};
use tflock_core::Flavor;

const LABELS: &[&str] = &[
    "registry.terraform.io/hashicorp/aws",
    "registry.terraform.io/hashicorp/aws",
    "example.com/ns/t",
    "localhost:8080/ns/t",
    "registry.opentofu.org/hashicorp/null",
    "hashicorp/aws",
    "AWS",
    "",
    "a/b/c/d",
    "bad!/x/y",
    "terraform.io/builtin/terraform",
    "registry.terraform.io/-/null",
    "example.com/испытание/t",
];
const VERSIONS: &[&str] = &[
    "\"1.0.0\"",
    "\"1.0.0\"",
    "\"2.3.4-beta.1+meta\"",
    "\"1.0\"",
    "\"\"",
    "\"v1.0.0\"",
    "null",
    "1",
    "1.5",
    "true",
    "[\"1.0.0\"]",
    "var.v",
    "upper(\"1.0.0\")",
    "\"${\"1.0.0\"}\"",
    "\"1.${0}.0\"",
    "(\"1.0.0\")",
    "{}",
    "\"${var.x}\"",
    "local.a.b",
    "<<EOT\n1.0.0\nEOT\n",
    "<<-EOT\n    1.0.0\n    EOT\n",
    "\"${null}\"",
    "\"${[]}\"",
    "1e3",
    "\"1.0.0\" /* c */",
    "\"\\u0031.0.0\"",
    "\"1.${null}.0\"",
    "\"1.${[]}.0\"",
    "\"1.${var.x}.0\"",
];
const CONSTRAINTS: &[&str] = &[
    "\">= 1.0.0\"",
    "\"~> 1.2, >= 1.2.3, 1.2.3\"",
    "\"~>1.2\"",
    "\"\"",
    "null",
    "\"bad\"",
    "1",
    "[]",
    "\">= 1.0.0, < 2.0.0\"",
    "\"< 2.0.0, >= 1.0.0\"",
];
const HASHES: &[&str] = &[
    "[]",
    "[\"h1:a\", \"zh:b\"]",
    "[\"nocolon\"]",
    "\"h1:a\"",
    "[null]",
    "[var.x]",
    "[\"h1:a\",]",
    "[1, true]",
    "([\"h1:a\"])",
    "[\"x:${\"y\"}\"]",
    "[\n    \"zh:b\",\n    \"h1:a\",\n    \"h1:a\",\n  ]",
    "[\"h1:a\", \":x\", \"q:\"]",
    "{}",
];
/// Every string the value pools above can decode to, for the validator maps.
const VERSION_STRINGS: &[&str] = &[
    "1.0.0",
    "2.3.4-beta.1+meta",
    "1.0",
    "",
    "v1.0.0",
    "1",
    "1.5",
    "true",
    "1.0.0\n",
    "1000",
];
const CONSTRAINT_STRINGS: &[&str] = &[
    ">= 1.0.0",
    "~> 1.2, >= 1.2.3, 1.2.3",
    "~>1.2",
    "",
    "bad",
    "1",
    ">= 1.0.0, < 2.0.0",
    "< 2.0.0, >= 1.0.0",
];

fn pick<'a>(rng: &mut StdRng, pool: &[&'a str]) -> &'a str {
    pool[rng.gen_range(0..pool.len())]
}

fn body(rng: &mut StdRng, out: &mut String) {
    let mut names = ["version", "constraints", "hashes", "versoin", "extra"];
    names.shuffle(rng);
    for name in names.iter().take(rng.gen_range(0..=4)) {
        let value = match *name {
            "version" | "versoin" => pick(rng, VERSIONS),
            "constraints" => pick(rng, CONSTRAINTS),
            "hashes" => pick(rng, HASHES),
            _ => "\"x\"",
        };
        let pad = " ".repeat(rng.gen_range(0..3));
        out.push_str(&format!("  {name}{pad} = {value}\n"));
        if rng.gen_bool(0.1) {
            out.push_str("  # a comment\n");
        }
    }
    if rng.gen_bool(0.08) {
        out.push_str(&format!(
            "  {} {{\n  }}\n",
            pick(rng, &["version", "thing"])
        ));
    }
}

fn random_file(rng: &mut StdRng) -> String {
    let mut out = String::new();
    if rng.gen_bool(0.5) {
        out.push_str("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n");
    }
    for _ in 0..rng.gen_range(0..6) {
        out.push('\n');
        match rng.gen_range(0..20) {
            0 => out.push_str("stray = 1\n"),
            1 => out.push_str("provider = \"x\"\n"),
            2 => out.push_str(&format!(
                "{} \"x\" {{\n}}\n",
                pick(rng, &["doodad", "providers", "modul"])
            )),
            3 | 4 => out.push_str(&format!(
                "module \"{}\" {{\n  a = 1\n}}\n",
                pick(rng, &["m", "n"])
            )),
            _ => {
                let labels: Vec<String> = (0..[0, 1, 1, 1, 1, 1, 1, 1, 1, 2][rng.gen_range(0..10)])
                    .map(|_| format!("\"{}\"", pick(rng, LABELS)))
                    .collect();
                let mut header = String::from("provider");
                for l in &labels {
                    header.push(' ');
                    header.push_str(l);
                }
                out.push_str(&header);
                out.push_str(" {\n");
                body(rng, &mut out);
                out.push_str("}\n");
            }
        }
    }
    out
}

fn validators(flavor: Flavor) -> (Value, Value, Value) {
    let mut addrs = Map::new();
    for l in LABELS {
        let entry = match Provider::parse(l, flavor) {
            Err(_) => json!({"kind": "invalid"}),
            Ok(p) if p.is_builtin_for(flavor) => json!({"kind": "builtin", "canon": p.to_string()}),
            Ok(p) if p.is_legacy() => json!({"kind": "legacy", "canon": p.to_string()}),
            Ok(p) => json!({"kind": "ok", "canon": p.to_string()}),
        };
        addrs.insert(l.to_string(), entry);
    }
    let mut versions = Map::new();
    for v in VERSION_STRINGS {
        let entry = match Version::parse_flavored(v, flavor) {
            Ok(x) => json!({"canon": x.to_string()}),
            Err(e) => json!({"err": e.to_string(), "canon": "0.0.0"}),
        };
        versions.insert(v.to_string(), entry);
    }
    let mut constraints = Map::new();
    for c in CONSTRAINT_STRINGS {
        let entry = match Constraints::parse(c, flavor) {
            Ok(x) => json!({"canon": x.canonical()}),
            Err(e) => json!({"err": e.to_string(), "canon": ""}),
        };
        constraints.insert(c.to_string(), entry);
    }
    (
        Value::Object(addrs),
        Value::Object(versions),
        Value::Object(constraints),
    )
}

type DiagKey = (String, String, String, String);

fn ours(src: &str) -> (bool, BTreeSet<DiagKey>, Vec<Value>) {
    let (locks, diags) = load_locks(src, &LoadOptions::new("f.hcl", Flavor::Terraform));
    let keys = diags
        .iter()
        .map(|d| {
            (
                format!("{:?}", d.severity).to_lowercase(),
                d.summary.clone(),
                d.detail.clone(),
                d.range.as_ref().map(|r| r.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    let mut list: Vec<Value> = locks
        .providers()
        .map(|l| {
            json!({
                "addr": l.addr().to_string(),
                "version": l.version().to_string(),
                "constraints": l.constraints_string(),
                "hashes": l.hashes().iter().map(|h| h.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    list.sort_by_key(|v| v["addr"].to_string());
    // hclsyntax's own errors (from `hcl_syntax`), or what hcl-edit alone refuses.
    let syntax = tflock_core::hcl_syntax::first_error(src.as_bytes(), "f.hcl").is_some()
        || diags.iter().any(|d| d.summary == "Invalid HCL syntax");
    (syntax, keys, list)
}

fn theirs(out: &Value) -> (bool, BTreeSet<DiagKey>, Vec<Value>) {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let keys = out["diags"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    (
                        s(&d["severity"]),
                        s(&d["summary"]),
                        s(&d["detail"]),
                        s(&d["range"]),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut list: Vec<Value> = out["locks"].as_array().cloned().unwrap_or_default();
    list.sort_by_key(|v| v["addr"].to_string());
    (out["parse_failed"].as_bool().unwrap_or(false), keys, list)
}

#[test]
fn reader_matches_terraforms_hcl_decoding_on_random_files() {
    let mut rng = StdRng::seed_from_u64(0x3333);
    let files: Vec<String> = (0..6000).map(|_| random_file(&mut rng)).collect();
    let (addrs, versions, constraints) = validators(Flavor::Terraform);
    let mut child = Command::new(tflock_tests::oracle("hcl_lock_decode"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let lines: Vec<String> = files
        .iter()
        .map(|src| {
            json!({"src": src, "addrs": addrs, "versions": versions, "constraints": constraints,
                   "product": "Terraform", "pv": DEFAULT_TERRAFORM_VERSION})
            .to_string()
        })
        .collect();
    let writer = std::thread::spawn(move || {
        for l in lines {
            writeln!(stdin, "{l}").expect("write to oracle");
        }
    });
    let outs: Vec<Value> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("line")).expect("JSON"))
        .collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("oracle").success());
    assert_eq!(outs.len(), files.len());

    let mut compared = 0;
    for (src, out) in files.iter().zip(&outs) {
        let (their_fail, their_diags, their_locks) = theirs(out);
        let (our_fail, our_diags, our_locks) = ours(src);
        assert_eq!(
            our_fail, their_fail,
            "parse acceptance differs on:\n{src}\nHCL: {their_diags:#?}\nours: {our_diags:#?}"
        );
        if their_fail {
            assert_eq!(
                our_diags, their_diags,
                "syntax diagnostics differ on:\n{src}"
            );
            continue;
        }
        compared += 1;
        assert_eq!(our_diags, their_diags, "diagnostics differ on:\n{src}");
        assert_eq!(our_locks, their_locks, "locks differ on:\n{src}");
    }
    assert!(compared > 3000, "only {compared} files parsed");
}
