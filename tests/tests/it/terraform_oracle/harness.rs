//! What every suite shares: seeds, a pair of identical working directories, and a file-tree
//! snapshot to compare what each tool left behind.

use std::collections::BTreeMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::SeedableRng;

/// The suite's random generator, seeded from `TFLOCK_ORACLE_SEED` or `default`.
pub fn rng(suite: &str, default: u64) -> (StdRng, u64) {
    let seed = std::env::var("TFLOCK_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    eprintln!("{suite}: seed {seed} (replay with TFLOCK_ORACLE_SEED={seed} cargo test -p tflock-tests --test it -- terraform_oracle::)");
    (StdRng::seed_from_u64(seed), seed)
}

/// How many generated cases a suite runs: `TFLOCK_ORACLE_CASES` or `default` (CI's).
pub fn cases(default: usize) -> usize {
    std::env::var("TFLOCK_ORACLE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Every regular file under `dir`, relative path → contents (empty map when absent).
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            walk(root, &path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            let rel = path.strip_prefix(root).expect("under root");
            out.insert(rel.display().to_string(), bytes);
        }
    }
}

/// The failures `check` finds over `items` (with their indexes), run on two threads: each
/// case spends most of its time waiting for a Terraform or tflock process.
pub fn failures_of<T: Sync>(
    items: &[T],
    check: impl Fn(usize, &T) -> Vec<String> + Sync,
) -> Vec<String> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|w| {
                let check = &check;
                s.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(2)
                        .flat_map(|(n, item)| check(n, item))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    })
}

/// What tflock reports for a module tree given as `(path, text)` files (the root module is
/// the files without a directory): loading diagnostics and the requirement tree's, Terraform
/// flavour.
pub fn tflock_tree_diagnostics(files: &[(String, String)]) -> tflock_core::Diagnostics {
    use tflock_core::config::{load_tree, tree_requirements, LoadOptions};
    use tflock_core::Flavor;
    let mut dirs: tflock_core::collections::SortedMap<String, Vec<(String, Vec<u8>)>> =
        Default::default();
    for (path, text) in files {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        dirs.entry(dir.to_string())
            .or_default()
            .push((name.to_string(), text.clone().into_bytes()));
    }
    let tree = load_tree(&dirs, "", &LoadOptions::new(Flavor::Terraform));
    let mut diags = tree.diagnostics();
    diags.extend(tree_requirements(&tree, Flavor::Terraform).diagnostics);
    diags
}

/// One diagnostic with a source range, as the init-diagnostics suites compare them:
/// `<severity> <summary> | file:line:col-line:col | detail`.
pub fn ranged_line(
    severity: &str,
    summary: &str,
    file: &str,
    (l1, c1, l2, c2): (u64, u64, u64, u64),
    detail: &str,
) -> String {
    format!("{severity} {summary} | {file}:{l1}:{c1}-{l2}:{c2} | {detail}")
}

/// `terraform init -backend=false -json` in `dir`, with `home`'s `cli.tfrc`.
pub fn terraform_init_json(dir: &Path, home: &Path) -> std::process::Output {
    tflock_tests::terraform::run_terraform(
        dir,
        home,
        &home.join("cli.tfrc"),
        &["init", "-backend=false", "-json"],
    )
}

/// A fixture case's `files/` copied twice: into a fresh tflock [`Env`] (with an empty CLI
/// configuration) and into a scratch directory for Terraform.
pub fn case_dirs(case: &Path) -> (crate::e2e_common::Env, tempfile::TempDir) {
    let env = crate::e2e_common::Env::new();
    env.cli_config("");
    crate::e2e_common::copy_tree(&case.join("files"), &env.work);
    let theirs = tempfile::tempdir().expect("tempdir");
    crate::e2e_common::copy_tree(&case.join("files"), theirs.path());
    (env, theirs)
}

/// `terraform init -backend=false -json`'s diagnostics with a source range whose summary
/// `keep` accepts, sorted.
pub fn terraform_init_diagnostics(
    dir: &Path,
    home: &Path,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let out = terraform_init_json(dir, home);
    let mut seen: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| v["diagnostic"].clone())
        .filter(|d| d["range"].is_object() && keep(d["summary"].as_str().unwrap_or("")))
        .map(|d| {
            let r = &d["range"];
            let n = |v: &serde_json::Value| v.as_u64().unwrap_or_default();
            ranged_line(
                d["severity"].as_str().unwrap_or_default(),
                d["summary"].as_str().unwrap_or_default(),
                r["filename"].as_str().unwrap_or_default(),
                (
                    n(&r["start"]["line"]),
                    n(&r["start"]["column"]),
                    n(&r["end"]["line"]),
                    n(&r["end"]["column"]),
                ),
                d["detail"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    seen.sort();
    seen
}

/// [`tflock_tree_diagnostics`] in the form of [`terraform_init_diagnostics`].
pub fn tflock_init_diagnostics(
    files: &[(String, String)],
    keep: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut seen: Vec<String> = tflock_tree_diagnostics(files)
        .iter()
        .filter(|d| keep(&d.summary))
        .filter_map(|d| {
            let r = d.range.as_ref()?;
            let severity = if d.is_error() { "error" } else { "warning" };
            let at = (
                r.start.line as u64,
                r.start.column as u64,
                r.end.line as u64,
                r.end.column as u64,
            );
            Some(ranged_line(
                severity,
                &d.summary,
                &r.filename,
                at,
                &d.detail,
            ))
        })
        .collect();
    seen.sort();
    seen
}

/// One generated module tree through both tools: `Ok(true)` when they give the same
/// diagnostics and there are some, `Ok(false)` when neither gives any, `Err` with the files
/// and the difference otherwise.
pub fn compare_init_diagnostics(
    home: &Path,
    files: &[(String, String)],
    keep: &dyn Fn(&str) -> bool,
    seed: u64,
    n: usize,
) -> Result<bool, String> {
    let work = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let p = work.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let want = terraform_init_diagnostics(work.path(), home, keep);
    let got = tflock_init_diagnostics(files, keep);
    if want == got {
        return Ok(!want.is_empty());
    }
    let shown: String = files
        .iter()
        .map(|(p, t)| format!("--- {p}\n{t}\n"))
        .collect();
    let only_tf: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
    let only_ours: Vec<_> = got.iter().filter(|g| !want.contains(g)).collect();
    Err(format!(
        "seed {seed}, case {n}\n{shown}--- only terraform {only_tf:#?}\n--- only tflock {only_ours:#?}"
    ))
}

/// Runs [`compare_init_diagnostics`] on every case: the disagreements, and how many cases
/// agreed with at least one diagnostic (so a suite cannot pass on inputs that trip nothing).
pub fn init_diagnostics_failures(
    cases: &[Vec<(String, String)>],
    keep: &(dyn Fn(&str) -> bool + Sync),
    seed: u64,
) -> (Vec<String>, usize) {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let outcomes = failures_of(cases, |n, files| {
        match compare_init_diagnostics(home.path(), files, keep, seed, n) {
            Ok(true) => vec![String::new()],
            Ok(false) => Vec::new(),
            Err(e) => vec![e],
        }
    });
    let real: Vec<String> = outcomes.iter().filter(|f| !f.is_empty()).cloned().collect();
    let with_diagnostics = outcomes.len() - real.len();
    (real, with_diagnostics)
}

/// What differs between a fixture's expected lines and what Terraform and tflock printed
/// for it: one message per tool that strays, naming the case.
pub fn strays_from_expected(
    case: &Path,
    want: &[String],
    theirs: &[String],
    ours: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    if theirs != want {
        problems.push(format!(
            "{}: terraform {theirs:#?}, expected {want:#?}",
            case.display()
        ));
    }
    if ours != want {
        problems.push(format!(
            "{}: tflock {ours:#?}, expected {want:#?}",
            case.display()
        ));
    }
    problems
}
