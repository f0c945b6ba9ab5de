//! `terraform init`'s diagnostics with a source range against Terraform itself, on
//! fixtures: every case of `tests/fixtures/init-diagnostics/` (`files/` is the working
//! directory) is initialised by `terraform init -backend=false -json` and loaded by tflock as
//! its CLI loads a working directory (reading each directory core asks for), and both must
//! give the diagnostics of `expected.txt` (`<severity> <summary> | file:line:col-line:col |
//! detail`, sorted), text and position alike. The `mock-data-*` cases are test files'
//! `mock_provider` directories (present, missing, bad files); the `const-*` cases module
//! call arguments for `const` variables that `init` cannot know. `TFLOCK_BLESS=1` rewrites
//! `expected.txt` from Terraform's output.

use std::path::Path;

use crate::e2e_common::copy_tree;
use tflock_core::api::module::{
    load_tree_with_manifest, tree_requirements, unread_dirs, LoadOptions, ModuleManifest,
    UnreadableDir,
};
use tflock_core::api::SortedMap;
use tflock_core::Flavor;
use tflock_tests::fixtures;

type DirFiles = Vec<(String, Vec<u8>)>;

/// The regular files directly inside `dir`, by name (core picks the ones it reads).
fn read_files(dir: &Path) -> std::io::Result<DirFiles> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.file_type()?.is_file() {
            out.push((
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path())?,
            ));
        }
    }
    out.sort();
    Ok(out)
}

/// tflock's diagnostics with a source range for the working directory `root`, loaded in
/// passes as `cli/src/host/workdir.rs` loads it.
fn tflock_lines(root: &Path) -> Vec<String> {
    let opts = LoadOptions::new(Flavor::Terraform);
    let manifest = ModuleManifest::default();
    let mut dirs: SortedMap<String, DirFiles> = SortedMap::new();
    let mut unreadable: SortedMap<String, UnreadableDir> = SortedMap::new();
    dirs.insert(String::new(), read_files(root).expect("root"));
    let tree = loop {
        let tree = load_tree_with_manifest(&dirs, &unreadable, "", &manifest, &opts);
        let wanted = unread_dirs(&tree, &dirs, &unreadable, &manifest);
        if wanted.is_empty() {
            break tree;
        }
        for rel in wanted {
            match read_files(&root.join(&rel)) {
                Ok(files) => {
                    dirs.insert(rel, files);
                }
                Err(_) => {
                    unreadable.insert(rel, UnreadableDir::NotReadable);
                }
            }
        }
    };
    let mut diags = tree.diagnostics();
    diags.extend(tree_requirements(&tree, Flavor::Terraform).diagnostics);
    let mut lines: Vec<String> = diags
        .iter()
        .filter_map(|d| {
            let r = d.range.as_ref()?;
            let severity = if d.is_error() { "error" } else { "warning" };
            // Terraform's JSON view widens an empty range by one column.
            let end_column = if r.start == r.end {
                r.end.column + 1
            } else {
                r.end.column
            };
            Some(format!(
                "{severity} {} | {}:{}:{}-{}:{} | {}",
                d.summary,
                r.filename,
                r.start.line,
                r.start.column,
                r.end.line,
                end_column,
                d.detail.replace('\n', "\\n")
            ))
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn init_reports_what_terraform_init_reports_for_every_fixture() {
    let root = fixtures("init-diagnostics");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/init-diagnostics")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    let failures = crate::terraform_oracle::harness::failures_of(&cases, |_, case| {
        let home = tempfile::tempdir().expect("tempdir");
        std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
        let work = tempfile::tempdir().expect("tempdir");
        copy_tree(&case.join("files"), work.path());
        // One line per diagnostic: a detail's line breaks are written `\n`.
        let theirs: Vec<String> = crate::terraform_oracle::harness::terraform_init_diagnostics(
            work.path(),
            home.path(),
            &|_| true,
        )
        .iter()
        .map(|l| l.replace('\n', "\\n"))
        .collect();
        let expected_path = case.join("expected.txt");
        if std::env::var_os("TFLOCK_BLESS").is_some() {
            let text: String = theirs.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(&expected_path, text).expect("bless");
        }
        let want: Vec<String> = std::fs::read_to_string(&expected_path)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let ours = tflock_lines(work.path());
        let mut problems = Vec::new();
        problems.extend(crate::terraform_oracle::harness::strays_from_expected(
            case, &want, &theirs, &ours,
        ));
        problems
    });
    assert!(cases.len() >= 3, "only {} cases", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
