//! `required_version` against `terraform init`: generated constraint strings (operators,
//! one to four numbers near 1.15.5, `v` prefixes, prereleases, metadata, malformed ones) in a
//! root and a child module, sometimes beside an unrelated error in the other module, must
//! give the diagnostics Terraform gives — which also shows when Terraform reports only the
//! version refusals and when it reports them with the others.

use rand::rngs::StdRng;
use rand::Rng;
use std::path::Path;
use tflock_core::collections::SortedMap;
use tflock_core::config::{load_tree, LoadOptions};
use tflock_core::Flavor;
use tflock_tests::terraform::run_terraform;

use super::harness::{failures_of, rng};

const CASES: usize = 48;

fn version(rng: &mut StdRng) -> String {
    let pick = |rng: &mut StdRng, from: &[&str]| from[rng.gen_range(0..from.len())].to_string();
    let mut parts = vec![pick(rng, &["0", "1", "1", "1", "2"])];
    let n = rng.gen_range(1..=4);
    if n >= 2 {
        parts.push(pick(rng, &["0", "14", "15", "15", "16"]));
    }
    if n >= 3 {
        parts.push(pick(rng, &["0", "4", "5", "5", "6"]));
    }
    if n >= 4 {
        parts.push(pick(rng, &["0", "0", "1"]));
    }
    let mut v = parts.join(".");
    if rng.gen_bool(0.08) {
        v.insert(0, 'v');
    }
    if rng.gen_bool(0.1) {
        v.push_str(&pick(rng, &["-beta", "-rc1", "beta1", "-1"]));
    }
    if rng.gen_bool(0.1) {
        v.push_str("+meta");
    }
    v
}

fn constraint(rng: &mut StdRng) -> String {
    if rng.gen_bool(0.05) {
        return ["^1.0", "1.x", "", ">= 1.0,"][rng.gen_range(0..4)].to_string();
    }
    let ops = ["", "=", "!=", ">", "<", ">=", "<=", "~>", "~>", ">="];
    let pieces: Vec<String> = (0..rng.gen_range(1..=3))
        .map(|_| {
            let op = ops[rng.gen_range(0..ops.len())];
            let space = if rng.gen_bool(0.7) { " " } else { "" };
            format!("{op}{space}{}", version(rng))
        })
        .collect();
    let sep = if rng.gen_bool(0.8) { ", " } else { "," };
    pieces.join(sep)
}

/// One case: the files of the root (`""`) and of `child/`.
fn case(rng: &mut StdRng) -> Vec<(String, String, String)> {
    let mut root = String::new();
    let mut child = String::new();
    for text in [&mut root, &mut child] {
        for _ in 0..rng.gen_range(0..=2) {
            text.push_str(&format!(
                "terraform {{\n  required_version = {:?}\n}}\n",
                constraint(rng)
            ));
        }
    }
    root.push_str("module \"child\" {\n  source = \"./child\"\n}\n");
    // An error of another kind, so both ways of reporting are reached.
    if rng.gen_bool(0.25) {
        let text = if rng.gen_bool(0.5) {
            &mut root
        } else {
            &mut child
        };
        text.push_str("variable \"x\" {}\nvariable \"x\" {}\n");
    }
    vec![
        (String::new(), "main.tf".into(), root),
        ("child".into(), "main.tf".into(), child),
    ]
}

/// `(severity, summary, detail, file:line:column)` of each diagnostic, sorted.
type Seen = Vec<(String, String, String, String)>;

fn terraform_sees(dir: &Path, home: &Path) -> Seen {
    let out = run_terraform(
        dir,
        home,
        &home.join("cli.tfrc"),
        &["init", "-backend=false", "-json"],
    );
    let mut seen: Seen = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| {
            let d = &v["diagnostic"];
            let r = &d["range"];
            (
                d["severity"].as_str().unwrap_or_default().to_string(),
                d["summary"].as_str().unwrap_or_default().to_string(),
                d["detail"].as_str().unwrap_or_default().to_string(),
                format!(
                    "{}:{}:{}",
                    r["filename"].as_str().unwrap_or_default(),
                    r["start"]["line"],
                    r["start"]["column"]
                ),
            )
        })
        .collect();
    seen.sort();
    seen
}

fn tflock_sees(files: &[(String, String, String)]) -> Seen {
    let mut dirs: SortedMap<String, Vec<(String, Vec<u8>)>> = SortedMap::new();
    for (dir, name, text) in files {
        dirs.entry(dir.clone())
            .or_default()
            .push((name.clone(), text.clone().into_bytes()));
    }
    let tree = load_tree(&dirs, "", &LoadOptions::new(Flavor::Terraform));
    let mut seen: Seen = tree
        .diagnostics()
        .iter()
        .map(|d| {
            let at = d.range.as_ref().map_or(String::new(), |r| {
                format!("{}:{}:{}", r.filename, r.start.line, r.start.column)
            });
            let severity = if d.severity == tflock_core::diag::Severity::Error {
                "error"
            } else {
                "warning"
            };
            (
                severity.to_string(),
                d.summary.clone(),
                d.detail.clone(),
                at,
            )
        })
        .collect();
    seen.sort();
    seen
}

#[test]
fn required_version_is_judged_as_terraform_init_judges_it() {
    let (mut rng, seed) = rng("required_version", 1_155);
    let cases: Vec<_> = (0..CASES).map(|_| case(&mut rng)).collect();
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let failures = failures_of(&cases, |n, files| {
        let work = tempfile::tempdir().expect("tempdir");
        for (dir, name, text) in files {
            let d = work.path().join(dir);
            std::fs::create_dir_all(&d).expect("mkdir");
            std::fs::write(d.join(name), text).expect("write");
        }
        let want = terraform_sees(work.path(), home.path());
        let got = tflock_sees(files);
        if want == got {
            return Vec::new();
        }
        let shown: String = files
            .iter()
            .map(|(d, n, t)| format!("--- {d}/{n}\n{t}"))
            .collect();
        vec![format!(
            "seed {seed}, case {n}\n{shown}--- terraform {want:#?}\n--- tflock {got:#?}"
        )]
    });
    assert!(
        failures.is_empty(),
        "{} of {CASES} cases differ from terraform init:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
