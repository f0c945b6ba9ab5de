//! The root module's variables files (`terraform.tfvars`, `*.auto.tfvars`, their `.json`
//! forms), which `terraform init` 1.15 reads before anything else: every fixture of
//! `tests/fixtures/config/var_files/` through `terraform init -json` and through the core
//! calls `tflock init` makes (`api::input_values`), diagnostics compared with their ranges.
//! The `dangling_*` fixtures get a `shared.auto.tfvars` link to a file that does not exist.

use std::path::Path;

use tflock_core::api::input_values::{check_tree, collect, files_to_read, DirEntry};
use tflock_core::api::input_values::{VarFile, VarFileRead};
use tflock_core::config::{load_tree, LoadOptions};
use tflock_core::{Diagnostic, Flavor};

/// The diagnostics these files are about (Terraform's other init output is not compared).
fn about_values(summary: &str, file: &str) -> bool {
    file.ends_with(".tfvars")
        || file.ends_with(".tfvars.json")
        || summary.contains("variable")
        || summary == "Failed to read variables file"
}

/// `severity summary | file:line:col-line:col | detail`; Terraform names two undeclared
/// values picked by Go's map order, so those details are compared without the names.
fn line(severity: &str, summary: &str, at: Option<(String, [u64; 4])>, detail: &str) -> String {
    let detail = if summary == "Value for undeclared variable" {
        detail
            .split('"')
            .step_by(2)
            .collect::<Vec<_>>()
            .join("\"…\"")
    } else {
        detail.to_string()
    };
    let at = at.map_or(String::new(), |(f, [a, b, c, d])| {
        format!("{f}:{a}:{b}-{c}:{d}")
    });
    format!("{severity} {summary} | {at} | {detail}")
}

fn terraform_lines(dir: &Path, home: &Path) -> Vec<String> {
    let out = tflock_tests::terraform::run_terraform(
        dir,
        home,
        &home.join("cli.tfrc"),
        &["init", "-backend=false", "-json"],
    );
    let mut seen: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| v["diagnostic"].clone())
        .filter_map(|d| {
            let s = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            let r = &d["range"];
            let file = s(&r["filename"]);
            if !about_values(&s(&d["summary"]), &file) {
                return None;
            }
            let n = |v: &serde_json::Value| v.as_u64().unwrap_or_default();
            let at = r.is_object().then(|| {
                (
                    file,
                    [
                        n(&r["start"]["line"]),
                        n(&r["start"]["column"]),
                        n(&r["end"]["line"]),
                        n(&r["end"]["column"]),
                    ],
                )
            });
            Some(line(
                &s(&d["severity"]),
                &s(&d["summary"]),
                at,
                &s(&d["detail"]),
            ))
        })
        .collect();
    seen.sort();
    seen
}

/// What `tflock init` reports about the values: reading them, then (when that had no
/// errors) checking them against the loaded root module.
fn tflock_lines(dir: &Path) -> Vec<String> {
    let entries: Vec<DirEntry> = std::fs::read_dir(dir)
        .expect("fixture copy")
        .flatten()
        .map(|e| DirEntry {
            name: e.file_name().to_string_lossy().into_owned(),
            is_dir: e.file_type().is_ok_and(|t| t.is_dir()),
            resolves: std::fs::metadata(e.path()).is_ok(),
        })
        .collect();
    let files: Vec<VarFile> = files_to_read(&entries)
        .into_iter()
        .map(|name| VarFile {
            read: std::fs::read(dir.join(&name)).map_or(VarFileRead::Missing, VarFileRead::Bytes),
            name,
        })
        .collect();
    let (values, mut diags) = collect(&[], &files);
    if !diags.has_errors() {
        let mut dirs: tflock_core::collections::SortedMap<String, Vec<(String, Vec<u8>)>> =
            Default::default();
        let root: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .expect("fixture copy")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tf"))
            .map(|e| {
                let bytes = std::fs::read(e.path()).expect("config file");
                (e.file_name().to_string_lossy().into_owned(), bytes)
            })
            .collect();
        dirs.insert(String::new(), root);
        let tree = load_tree(&dirs, "", &LoadOptions::new(Flavor::Terraform));
        diags.extend(check_tree(&values, &tree));
    }
    let render = |d: &Diagnostic| {
        let severity = if d.is_error() { "error" } else { "warning" };
        let at = d.range.as_ref().map(|r| {
            (
                r.filename.clone(),
                [r.start.line, r.start.column, r.end.line, r.end.column].map(|n| n as u64),
            )
        });
        let file = at.as_ref().map_or("", |(f, _)| f.as_str());
        about_values(&d.summary, file).then(|| line(severity, &d.summary, at.clone(), &d.detail))
    };
    let mut seen: Vec<String> = diags.iter().filter_map(render).collect();
    seen.sort();
    seen
}

#[test]
fn variables_files_are_read_as_terraform_init_reads_them() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/config/var_files");
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let mut cases: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    let (mut failures, mut with_diagnostics) = (Vec::new(), 0);
    for case in &cases {
        let work = tempfile::tempdir().expect("tempdir");
        for e in std::fs::read_dir(case).expect("case").flatten() {
            std::fs::copy(e.path(), work.path().join(e.file_name())).expect("copy");
        }
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if name.starts_with("dangling_") {
            std::os::unix::fs::symlink(
                "../missing.auto.tfvars",
                work.path().join("shared.auto.tfvars"),
            )
            .expect("link");
        }
        let (want, got) = (
            terraform_lines(work.path(), home.path()),
            tflock_lines(work.path()),
        );
        with_diagnostics += usize::from(!want.is_empty());
        if want != got {
            failures.push(format!(
                "{name}\n--- terraform {want:#?}\n--- tflock {got:#?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(
        with_diagnostics,
        cases.len(),
        "every fixture trips something"
    );
}
