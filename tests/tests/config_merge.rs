//! Fixture suite for module loading and override merging: every directory under
//! `tests/fixtures/config/<case>/` holds `input/` (the module's files), optionally `flavor`
//! (`opentofu`), and the expected outcome: `merged.hcl` (the rendered merged module) and/or
//! `diagnostics.txt` (one block per diagnostic: `<severity>: <summary>`, `at <range>`, detail).
//! A case without `diagnostics.txt` must load without any diagnostic.

use std::fmt::Write as _;
use std::path::Path;
use tflock_core::config::{load_module, render_merged, LoadOptions};
use tflock_core::{Diagnostics, Flavor};

fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("config")
}

/// Diagnostics in the fixture format.
fn format_diags(diags: &Diagnostics) -> String {
    let mut out = String::new();
    for d in diags.iter() {
        let sev = if d.is_error() { "error" } else { "warning" };
        let _ = writeln!(out, "{sev}: {}", d.summary);
        if let Some(r) = &d.range {
            let _ = writeln!(out, "at {r}");
        }
        if !d.detail.is_empty() {
            let _ = writeln!(out, "{}", d.detail);
        }
        out.push('\n');
    }
    out
}

fn read_input(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(e.path()).expect("read fixture input");
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Runs one case; returns a description of each mismatch.
fn run_case(case: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let flavor = std::fs::read_to_string(case.join("flavor"))
        .ok()
        .and_then(|s| Flavor::parse(s.trim()))
        .unwrap_or_default();
    let files = read_input(&case.join("input"));
    let loaded = load_module(&files, &LoadOptions { flavor });
    let got_diags = format_diags(&loaded.diagnostics);
    let want_diags = std::fs::read_to_string(case.join("diagnostics.txt")).unwrap_or_default();
    if got_diags.trim_end() != want_diags.trim_end() {
        problems.push(format!("diagnostics differ\n--- want\n{want_diags}\n--- got\n{got_diags}"));
    }
    if let Ok(want) = std::fs::read_to_string(case.join("merged.hcl")) {
        let got = render_merged(&loaded);
        if got.trim_end() != want.trim_end() {
            problems.push(format!("merged HCL differs\n--- want\n{want}\n--- got\n{got}"));
        }
        if let Err(e) = hcl_edit::parser::parse_body(&got) {
            problems.push(format!("merged HCL does not parse: {e}"));
        }
    }
    problems
}

#[test]
fn every_config_fixture_case_matches_its_expected_outcome() {
    let mut cases: Vec<_> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures/config exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("input").is_dir())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no fixture cases found");
    let mut failures = Vec::new();
    for case in &cases {
        for p in run_case(case) {
            failures.push(format!("== {}: {p}", case.file_name().unwrap_or_default().to_string_lossy()));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    eprintln!("{} config fixture cases passed", cases.len());
}
