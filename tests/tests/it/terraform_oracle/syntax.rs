//! HCL 2.24 syntax the Go oracle (Debian's HCL 2.14) cannot judge: provider-defined function
//! calls (`provider::aws::arn_parse(x)`) and the `::` token, mutated like the hclsyntax
//! differential test's cases (`config_syntax_errors_match_hclsyntax::namespace_cases`). All
//! cases go into one directory, one file each, for one `terraform validate -json` (which
//! loads the configuration without `init`); per file, Terraform's first diagnostic must be
//! tflock's first syntax error (summary, detail, range), and where tflock finds none,
//! Terraform's first one must not be a syntax error either.

use std::collections::BTreeSet;

use rand::Rng;
use serde_json::Value;
use tflock_core::hcl_syntax;
use tflock_tests::terraform::run_terraform;

use crate::config_syntax_errors_match_hclsyntax::namespace_cases;
use crate::terraform_oracle::harness::rng;

const CASES: usize = 150;

/// Every summary `hcl_syntax` can report, read from its sources: Terraform's first
/// diagnostic for a file tflock finds clean must not be one of them.
fn syntax_summaries() -> BTreeSet<String> {
    let dir = tflock_tests::tests_dir().join("../core/src/hcl_syntax");
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir)
        .expect("hcl_syntax sources")
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).expect("read source");
        for part in text.split("diag(").skip(1) {
            let part = part.trim_start();
            if let Some(rest) = part.strip_prefix('"') {
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
    }
    out
}

/// A range as `terraform validate -json` shows it: its JSON view widens an empty range by
/// one byte and column, so that the snippet has something to highlight.
fn range_json(r: &tflock_core::Range) -> Value {
    let pos = |p: &tflock_core::Pos| serde_json::json!({"line": p.line, "column": p.column, "byte": p.byte});
    let mut end = r.end;
    if r.start.byte == r.end.byte {
        end.byte += 1;
        end.column += 1;
    }
    serde_json::json!({"filename": r.filename, "start": pos(&r.start), "end": pos(&end)})
}

#[test]
fn function_namespaces_match_terraform() {
    let (mut rng, seed) = rng("function namespace syntax", 28_020);
    let cases = namespace_cases(rng.gen(), CASES);
    assert!(cases.len() > CASES / 2, "too few cases with a `::`");
    let dir = tempfile::tempdir().expect("tempdir");
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let names: Vec<String> = (0..cases.len()).map(|i| format!("c{i:04}.tf")).collect();
    for (name, (_, src)) in names.iter().zip(&cases) {
        std::fs::write(dir.path().join(name), src).expect("write case");
    }
    let out = run_terraform(
        dir.path(),
        home.path(),
        &home.path().join("cli.tfrc"),
        &["validate", "-json", "-no-color"],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "terraform validate -json: {e}\n{}",
            crate::e2e_common::text(&out)
        )
    });
    let diags = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let summaries = syntax_summaries();
    let mut failures = Vec::new();
    for (name, (_, src)) in names.iter().zip(&cases) {
        let theirs = diags
            .iter()
            .find(|d| d["range"]["filename"] == name.as_str());
        let ours = hcl_syntax::first_error(src, name);
        let agree = match (&ours, theirs) {
            (Some(o), Some(t)) => {
                t["summary"] == o.summary.as_str()
                    && t["detail"] == o.detail.as_str()
                    && o.range.as_ref().map(range_json).as_ref() == Some(&t["range"])
            }
            (None, Some(t)) => !t["summary"].as_str().is_some_and(|s| summaries.contains(s)),
            (None, None) => true,
            (Some(_), None) => false,
        };
        if !agree {
            failures.push(format!(
                "{name} {:?}\n  terraform: {}\n  tflock:    {:?}",
                String::from_utf8_lossy(src),
                theirs.cloned().unwrap_or(Value::Null),
                ours.map(|d| (d.summary, d.detail, d.range.map(|r| r.to_string())))
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "seed {seed}: {} of {} cases differ from Terraform:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
