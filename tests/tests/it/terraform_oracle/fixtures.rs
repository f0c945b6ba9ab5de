//! Suite 6, the configuration fixtures against Terraform itself: every Terraform-flavour case
//! of `tests/fixtures/config/` with expected diagnostics (`diagnostics.txt`, and those of
//! `requirements.txt`) must list exactly the errors and warnings `terraform validate -json`
//! reports for its input (compared as sets: tflock reports requirement problems after loading
//! ones), and a `requirements.txt` without errors must name the providers
//! `terraform providers` prints. So a fixture written by hand cannot drift from Terraform.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use tflock_tests::terraform::run_terraform;

/// Cases whose expected outcome is tflock's on purpose, with the reason.
const NOT_TERRAFORMS: &[(&str, &str)] = &[
    (
        "changes-recorded-per-override-file",
        "tflock warns about count and for_each from different files, Terraform says nothing",
    ),
    (
        "json-trailing-comma-error",
        "Terraform goes on decoding what the JSON parser recovered; tflock stops at the syntax error",
    ),
];

/// Terraform's diagnostics in the fixture format, one string per diagnostic.
fn terraform_diagnostics(out: &[u8]) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(out).expect("validate -json output");
    let mut blocks = Vec::new();
    for d in v["diagnostics"].as_array().into_iter().flatten() {
        let summary = d["summary"].as_str().unwrap_or_default();
        if summary == "Missing required provider" {
            continue; // validate goes on past loading; nothing is installed here
        }
        let mut b = format!(
            "{}: {summary}\n",
            d["severity"].as_str().unwrap_or_default()
        );
        if let Some(r) = d.get("range").filter(|r| r.is_object()) {
            let (s, e) = (&r["start"], &r["end"]);
            let _ = write!(
                b,
                "at {}:{},{}-",
                r["filename"].as_str().unwrap_or_default(),
                s["line"],
                s["column"]
            );
            if s["line"] == e["line"] {
                let _ = writeln!(b, "{}", e["column"]);
            } else {
                let _ = writeln!(b, "{},{}", e["line"], e["column"]);
            }
        }
        b.push_str(d["detail"].as_str().unwrap_or_default());
        blocks.push(b);
    }
    blocks
}

/// Diagnostic blocks of fixture text (split as Terraform's are, so details with blank
/// lines compare alike), sorted.
fn blocks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split("\n\n")
        .map(|b| b.trim().to_string())
        .filter(|b| b.starts_with("error: ") || b.starts_with("warning: "))
        .collect();
    out.sort();
    out
}

/// Terraform's JSON view widens an empty range by one column (`at f:1,3-3` reads
/// `at f:1,3-4` there); a fixture states the diagnostic's own range.
fn widen_empty(block: &str) -> String {
    let widen = |line: &str| -> Option<String> {
        let rest = line.strip_prefix("at ")?;
        let (file, at) = rest.rsplit_once(':')?;
        let (start, end) = at.split_once('-')?;
        let (l, c) = start.split_once(',')?;
        (c == end).then(|| {
            let next: u64 = end.parse().ok()?;
            Some(format!("at {file}:{l},{c}-{}", next + 1))
        })?
    };
    block
        .lines()
        .map(|l| widen(l).unwrap_or_else(|| l.to_string()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(case: &Path, home: &Path) -> Option<String> {
    let name = case.file_name()?.to_string_lossy().into_owned();
    let diagnostics = std::fs::read_to_string(case.join("diagnostics.txt")).unwrap_or_default();
    let requirements = std::fs::read_to_string(case.join("requirements.txt")).ok();
    let dir = tempfile::tempdir().expect("tempdir");
    for e in std::fs::read_dir(case.join("input"))
        .expect("input")
        .flatten()
    {
        std::fs::copy(e.path(), dir.path().join(e.file_name())).expect("copy");
    }
    let cfg = home.join("cli.tfrc");
    let out = run_terraform(dir.path(), home, &cfg, &["validate", "-json", "-no-color"]);
    let theirs = blocks(&terraform_diagnostics(&out.stdout).join("\n\n"));
    let (providers, req_diags) = match &requirements {
        Some(r) => r
            .split_once("\n\n")
            .map_or((r.as_str(), ""), |(p, d)| (p, d)),
        None => ("", ""),
    };
    let ours: Vec<String> = blocks(&format!("{diagnostics}\n\n{req_diags}"))
        .iter()
        .map(|b| widen_empty(b))
        .collect();
    let mut ours = ours;
    ours.sort();
    let mut problems = String::new();
    if theirs != ours {
        let _ = write!(
            problems,
            "diagnostics differ\n--- terraform\n{}\n--- fixture\n{}\n",
            theirs.join("\n\n"),
            ours.join("\n\n")
        );
    }
    if requirements.is_some() && !ours.iter().any(|b| b.starts_with("error: ")) {
        let tree = run_terraform(dir.path(), home, &cfg, &["providers", "-no-color"]);
        let text = String::from_utf8_lossy(&tree.stdout);
        let theirs: BTreeSet<&str> = text
            .split("provider[")
            .skip(1)
            .filter_map(|s| s.split(']').next())
            .collect();
        let ours: BTreeSet<&str> = providers
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        if theirs != ours {
            let _ = write!(
                problems,
                "providers differ\n--- terraform {theirs:?}\n--- fixture {ours:?}\n"
            );
        }
    }
    (!problems.is_empty()).then(|| format!("== {name}\n{problems}"))
}

#[test]
fn config_fixtures_state_what_terraform_reports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/config");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/config")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("input").is_dir() && !p.join("flavor").exists())
        .filter(|p| p.join("diagnostics.txt").is_file() || p.join("requirements.txt").is_file())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !NOT_TERRAFORMS.iter().any(|(n, _)| *n == name)
        })
        .collect();
    cases.sort();
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let failures = crate::terraform_oracle::harness::failures_of(&cases, |_, case| {
        check(case, home.path()).into_iter().collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} config fixtures disagree with Terraform:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
