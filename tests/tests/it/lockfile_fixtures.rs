//! Lock file fixtures: the change kinds from the dependency lock file pages, reproduced
//! byte for byte, and the valid and invalid files from Terraform's reading rules.

use std::collections::BTreeMap;
use std::path::Path;
use tflock_core::lockfile::{diff_locks, header_flavor, load_locks, render_diff, write_locks};
use tflock_core::lockfile::{LoadOptions, Locks};
use tflock_core::{Diagnostics, Flavor, Severity};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn load_clean(path: &Path) -> (String, Locks) {
    let text = read(path);
    let flavor = header_flavor(&text);
    let (locks, diags) = load_locks(&text, &LoadOptions::new(".terraform.lock.hcl", flavor));
    assert!(diags.is_empty(), "{}: {:?}", path.display(), diags);
    (text, locks)
}

const CHANGE_CASES: &[&str] = &[
    "change-new-provider",
    "change-new-version",
    "change-new-checksums",
    "change-removed-provider",
];

#[test]
fn change_fixtures_rewrite_to_identical_bytes_in_both_flavours() {
    for case in CHANGE_CASES {
        for flavor in ["terraform", "opentofu"] {
            let dir = tflock_tests::fixtures("lockfile").join(format!("{case}-{flavor}"));
            for file in ["old.terraform.lock.hcl", "new.terraform.lock.hcl"] {
                let (text, locks) = load_clean(&dir.join(file));
                assert_eq!(
                    write_locks(&locks, header_flavor(&text)),
                    text,
                    "{case}-{flavor}/{file}"
                );
            }
        }
    }
}

/// The `+`/`-` lines of a unified diff, as a sorted list.
fn changed_lines(diff: &str) -> Vec<String> {
    let mut v: Vec<String> = diff
        .lines()
        .filter(|l| !l.starts_with("+++") && !l.starts_with("---"))
        .filter(|l| l.starts_with('+') || l.starts_with('-'))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// The lines only in `old` (as `-`) and only in `new` (as `+`), counted as multisets.
fn line_changes(old: &str, new: &str) -> Vec<String> {
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for l in old.lines() {
        *counts.entry(l).or_default() -= 1;
    }
    for l in new.lines() {
        *counts.entry(l).or_default() += 1;
    }
    let mut v = Vec::new();
    for (line, n) in counts {
        let sign = if n > 0 { '+' } else { '-' };
        for _ in 0..n.unsigned_abs() {
            v.push(format!("{sign}{line}"));
        }
    }
    v.sort();
    v
}

#[test]
fn change_fixtures_reproduce_the_documented_diff_lines() {
    for case in CHANGE_CASES {
        let dir = tflock_tests::fixtures("lockfile").join(format!("{case}-terraform"));
        let old = read(&dir.join("old.terraform.lock.hcl"));
        let new = read(&dir.join("new.terraform.lock.hcl"));
        let seed = read(&dir.join("seed.diff"));
        assert_eq!(line_changes(&old, &new), changed_lines(&seed), "{case}");
    }
}

#[test]
fn change_fixtures_are_classified_like_the_documentation() {
    let mut all = String::new();
    for case in CHANGE_CASES {
        for flavor in ["terraform", "opentofu"] {
            let dir = tflock_tests::fixtures("lockfile").join(format!("{case}-{flavor}"));
            let (_, old) = load_clean(&dir.join("old.terraform.lock.hcl"));
            let (_, new) = load_clean(&dir.join("new.terraform.lock.hcl"));
            all.push_str(&format!(
                "== {case}-{flavor}\n{}",
                render_diff(&diff_locks(&old, &new))
            ));
        }
    }
    insta::assert_snapshot!("lockfile_change_classification", all);
}

#[test]
fn legacy_aligned_hashes_load_and_format_to_the_current_layout() {
    let dir = tflock_tests::fixtures("lockfile").join("legacy-hashes-alignment");
    let (text, locks) = load_clean(&dir.join(".terraform.lock.hcl"));
    let formatted = read(&dir.join("formatted.terraform.lock.hcl"));
    assert_ne!(text, formatted);
    assert_eq!(write_locks(&locks, Flavor::Terraform), formatted);
}

#[test]
fn valid_fixtures_round_trip_in_their_flavour() {
    for (case, flavor) in [
        ("valid-terraform", Flavor::Terraform),
        ("valid-opentofu", Flavor::OpenTofu),
    ] {
        let (text, locks) = load_clean(
            &tflock_tests::fixtures("lockfile")
                .join(case)
                .join(".terraform.lock.hcl"),
        );
        assert_eq!(header_flavor(&text), flavor);
        assert_eq!(write_locks(&locks, flavor), text, "{case}");
    }
    let (_, empty) =
        load_clean(&tflock_tests::fixtures("lockfile").join("empty/.terraform.lock.hcl"));
    assert!(empty.is_empty());
    assert_eq!(
        write_locks(&empty, Flavor::Terraform),
        "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n"
    );
}

/// `(line, severity, summary)` expected from `# ERROR: a, b` / `# WARNING: a` comments.
fn annotations(text: &str) -> Vec<(usize, Severity, String)> {
    let mut want = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (marker, sev) in [
            ("# ERROR: ", Severity::Error),
            ("# WARNING: ", Severity::Warning),
        ] {
            if let Some(pos) = line.find(marker) {
                for s in line[pos + marker.len()..].split(", ") {
                    want.push((i + 1, sev, s.trim().to_string()));
                }
            }
        }
    }
    want.sort();
    want
}

fn got_annotations(diags: &Diagnostics) -> Vec<(usize, Severity, String)> {
    let mut got: Vec<(usize, Severity, String)> = diags
        .iter()
        .map(|d| {
            (
                d.range.as_ref().map_or(0, |r| r.start.line),
                d.severity,
                d.summary.clone(),
            )
        })
        .collect();
    got.sort();
    got.dedup();
    got
}

fn render(diags: &Diagnostics) -> String {
    diags
        .iter()
        .map(|d| {
            let at = d.range.as_ref().map(|r| r.to_string()).unwrap_or_default();
            format!("{:?} {at}: {}\n  {}\n", d.severity, d.summary, d.detail)
        })
        .collect()
}

#[test]
fn invalid_fixtures_report_each_annotated_problem_on_its_line() {
    for case in [
        "invalid-provider-addrs",
        "invalid-versions",
        "invalid-constraints",
        "invalid-hashes",
        "unsupported-contents",
        "module-blocks",
    ] {
        let text = read(
            &tflock_tests::fixtures("lockfile")
                .join(case)
                .join(".terraform.lock.hcl"),
        );
        let (_, diags) = load_locks(
            &text,
            &LoadOptions::new(".terraform.lock.hcl", Flavor::Terraform),
        );
        assert_eq!(
            got_annotations(&diags),
            annotations(&text),
            "{case}:\n{}",
            render(&diags)
        );
        insta::assert_snapshot!(format!("lockfile_{case}"), render(&diags));
    }
}

#[test]
fn opentofu_texts_name_opentofu() {
    let text = read(&tflock_tests::fixtures("lockfile").join("module-blocks/.terraform.lock.hcl"));
    let (_, diags) = load_locks(
        &text,
        &LoadOptions::new(".terraform.lock.hcl", Flavor::OpenTofu),
    );
    let warning = diags.iter().next().expect("a module warning");
    assert!(
        warning.detail.starts_with("OpenTofu v"),
        "{}",
        warning.detail
    );
    assert!(warning.detail.contains("later version of OpenTofu"));
    let builtin = "provider \"terraform.io/builtin/terraform\" {}\n";
    let (_, diags) = load_locks(builtin, &LoadOptions::new("x", Flavor::OpenTofu));
    assert!(diags
        .iter()
        .any(|d| d.detail.contains("bundled inside OpenTofu itself")));
}

/// A fuzzer-found input (unclosed nested objects) on which hcl-edit backtracks for seconds:
/// hclsyntax's checks refuse it before hcl-edit runs, with hclsyntax's first error.
#[test]
fn deeply_nested_input_is_refused_before_parsing() {
    let text = read(&tflock_tests::fixtures("lockfile").join("deep-nesting/.terraform.lock.hcl"));
    let (locks, diags) = load_locks(
        &text,
        &LoadOptions::new(".terraform.lock.hcl", Flavor::Terraform),
    );
    assert!(locks.is_empty());
    let d = diags.iter().next().expect("a diagnostic");
    assert_eq!(d.summary, "Missing expression");
    assert_eq!(
        d.range.as_ref().map(|r| r.to_string()).as_deref(),
        Some(".terraform.lock.hcl:63,1-1")
    );
}

/// Nesting that is valid HCL but deeper than any lock file still never reaches hcl-edit.
#[test]
fn deeply_nested_valid_input_is_refused_before_hcl_edit() {
    let text = format!(
        "provider \"a/b\" {{\n  version = {}\"1.0.0\"{}\n}}\n",
        "[".repeat(40),
        "]".repeat(40)
    );
    let (locks, diags) = load_locks(
        &text,
        &LoadOptions::new(".terraform.lock.hcl", Flavor::Terraform),
    );
    assert!(locks.is_empty());
    let d = diags.iter().next().expect("a diagnostic");
    assert_eq!(d.summary, "Invalid HCL syntax");
    assert!(d.detail.contains("nested more than"), "{}", d.detail);
}
