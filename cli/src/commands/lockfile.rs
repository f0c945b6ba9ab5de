//! `tflock lockfile fmt|check|diff|merge-driver`: the dependency lock file on disk (and
//! `check --config`, against a configuration).
//!
//! Reading and every decision happen in the core; this module only reads files, prints,
//! and writes atomically (a temporary file in the same directory, then a rename), so a
//! failure never leaves a half-written lock file.

use crate::host::atomic::{write_atomic, FileMode};
use crate::host::workdir;
use crate::var_flags::VarFlags;
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tflock_core::api::check::check_lock;
use tflock_core::api::lock_file::{
    diff_locks, header_flavor, load_locks_bytes, merge_locks, render_diff, render_merge,
    write_locks, LoadOptions, Locks, LOCK_FILE_NAME,
};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

use crate::output::{print_diagnostics, print_json};

/// Arguments of `tflock lockfile`.
#[derive(Debug, clap::Args)]
pub struct LockfileArgs {
    /// What to do with the lock file.
    #[command(subcommand)]
    pub command: LockfileCommand,
}

/// The `lockfile` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum LockfileCommand {
    /// Which platforms the recorded checksums cover (from registry and mirror metadata, no
    /// package downloads); exit 2 if a wanted platform is missing, 1 on errors.
    Coverage(super::coverage::CoverageArgs),
    /// Rewrite a lock file in the canonical form `init` writes (sorted providers and hashes);
    /// with -check, exit 2 if it would change.
    Fmt {
        /// The lock file (default `.terraform.lock.hcl`).
        file: Option<PathBuf>,
        /// Write the result back to the file instead of printing it.
        #[arg(short = 'w', long = "write", conflicts_with = "check")]
        write: bool,
        /// Write nothing; name the file and exit 2 if it is not in canonical form.
        #[arg(long)]
        check: bool,
        /// Header and texts to use: terraform or opentofu (default: the file's header).
        #[arg(long, value_parser = Flavor::parse)]
        flavor: Option<Flavor>,
    },
    /// Validate a lock file; exit 1 with diagnostics if it is invalid. With `--config`, also
    /// check it against a configuration, offline.
    Check {
        /// The lock file (default `.terraform.lock.hcl`, in DIR with `--config`).
        file: Option<PathBuf>,
        /// Texts to use: terraform or opentofu (default: the file's header).
        #[arg(long, value_parser = Flavor::parse)]
        flavor: Option<Flavor>,
        /// The configuration's root module: list the providers it requires that the lock
        /// lacks (missing) or locks at a version its constraints reject (unsatisfied), and
        /// the locked ones it no longer requires (extra); exit 1 on missing or unsatisfied.
        #[arg(long, value_name = "DIR")]
        config: Option<PathBuf>,
    },
    /// Explain the changes between two lock files for review; with -exit-code, exit 2 if
    /// they differ.
    Diff {
        /// The lock file before.
        old: PathBuf,
        /// The lock file after.
        new: PathBuf,
        /// Print the structured diff as one JSON document (`format_version`, `providers`).
        #[arg(long)]
        json: bool,
        /// Exit 2 when the lock files differ (0 when they do not, 1 on errors).
        #[arg(long = "exit-code")]
        exit_code: bool,
    },
    /// A git merge driver: `tflock lockfile merge-driver %O %A %B` merges into %A.
    MergeDriver {
        /// The common ancestor (%O).
        base: PathBuf,
        /// Our version (%A); receives the result.
        ours: PathBuf,
        /// Their version (%B).
        theirs: PathBuf,
    },
}

/// Runs a `lockfile` subcommand.
pub fn run(args: LockfileArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        LockfileCommand::Fmt {
            file,
            write,
            check,
            flavor,
        } => fmt(&lock_path(file), write, check, flavor),
        LockfileCommand::Coverage(a) => super::coverage::run(a),
        LockfileCommand::Check {
            file,
            flavor,
            config: None,
        } => check(&lock_path(file), flavor),
        LockfileCommand::Check {
            file,
            flavor,
            config: Some(dir),
        } => {
            let path = file.unwrap_or_else(|| dir.join(LOCK_FILE_NAME));
            check_against_config(&path, flavor, &dir)
        }
        LockfileCommand::Diff {
            old,
            new,
            json,
            exit_code,
        } => diff(&old, &new, json, exit_code),
        LockfileCommand::MergeDriver { base, ours, theirs } => merge_driver(&base, &ours, &theirs),
    }
}

fn lock_path(file: Option<PathBuf>) -> PathBuf {
    file.unwrap_or_else(|| PathBuf::from(LOCK_FILE_NAME))
}

/// A lock file read from disk: its text, the flavour to use, the locks and diagnostics.
struct Loaded {
    text: String,
    flavor: Flavor,
    locks: Locks,
    diags: Diagnostics,
}

/// Reads and parses `path` as the lock file of the module in `dir`: without a `-flavor`,
/// the working directory's rule picks it ([`crate::host::flavor`]). An unreadable file is
/// HCL's `Failed to read file` error.
fn load(path: &Path, flavor: Option<Flavor>) -> Loaded {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    load_in(path, flavor, Some(dir))
}

/// Reads and parses `path`; with `dir`, as [`load`], without, the file's own header names
/// the flavour, silently (two files compared or merged belong to no one directory).
fn load_in(path: &Path, flavor: Option<Flavor>, dir: Option<&Path>) -> Loaded {
    let name = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(_) => {
            return failed(
                flavor,
                Diagnostic::error(
                    "Failed to read file",
                    format!("The configuration file \"{name}\" could not be read."),
                ),
            )
        }
    };
    // Terraform's commands show no source for the lock file (its loader keeps none); these
    // commands are tflock's own, and show the lines.
    crate::output::remember_source(name.clone(), &bytes);
    let text =
        String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes)).into_owned();
    let flavor = match dir {
        Some(dir) => crate::host::flavor::for_lock(flavor, path, dir),
        None => flavor.unwrap_or_else(|| header_flavor(&text)),
    };
    let (locks, diags) = load_locks_bytes(&bytes, &LoadOptions::new(name, flavor));
    Loaded {
        text,
        flavor,
        locks,
        diags,
    }
}

fn failed(flavor: Option<Flavor>, d: Diagnostic) -> Loaded {
    let mut diags = Diagnostics::new();
    diags.push(d);
    Loaded {
        text: String::new(),
        flavor: flavor.unwrap_or_default(),
        locks: Locks::new(),
        diags,
    }
}

/// Prints diagnostics; true when there was an error.
fn report(loaded: &Loaded) -> bool {
    print_diagnostics(&loaded.diags);
    loaded.diags.has_errors()
}

/// Exit status of the check modes when they find something to change, as `terraform fmt
/// -check` and `git diff --exit-code` tell it apart from an error (1).
pub const DIFFERENCES_FOUND: u8 = 2;

fn fmt(path: &Path, write: bool, check: bool, flavor: Option<Flavor>) -> anyhow::Result<ExitCode> {
    let loaded = load(path, flavor);
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    let out = write_locks(&loaded.locks.normalized(), loaded.flavor);
    if check {
        // The same test as -w's, so -check fails exactly when -w would write.
        if out == loaded.text {
            return Ok(ExitCode::SUCCESS);
        }
        println!("{}", path.display());
        return Ok(ExitCode::from(DIFFERENCES_FOUND));
    }
    if !write {
        print!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    if out != loaded.text {
        write_atomically(path, out.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn check(path: &Path, flavor: Option<Flavor>) -> anyhow::Result<ExitCode> {
    let loaded = load(path, flavor);
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    println!(
        "{}: valid, {} provider{} locked",
        path.display(),
        loaded.locks.len(),
        if loaded.locks.len() == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

/// `lockfile check --config DIR`: the lock (absent counts as empty, as for `init`) against
/// the configuration's requirements; the verdicts and texts are core's.
fn check_against_config(
    path: &Path,
    flavor: Option<Flavor>,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    let loaded = if path.exists() {
        load_in(path, flavor, Some(dir))
    } else {
        Loaded {
            text: String::new(),
            flavor: crate::host::flavor::for_dir(flavor, dir),
            locks: Locks::new(),
            diags: Diagnostics::new(),
        }
    };
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    let flavor = loaded.flavor;
    // The values `init` reads decide which modules a `const` variable's source names.
    let (values, mut diags) = workdir::input_values(dir, &VarFlags::default());
    if diags.has_errors() {
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }
    let tree = workdir::load_configuration(dir, flavor, &values)?;
    diags.extend(workdir::tree_diagnostics(&tree));
    let (reqs, planner_reqs) = workdir::requirements(&tree, flavor);
    diags.extend(reqs.diagnostics.clone());
    print_diagnostics(&diags);
    if diags.has_errors() {
        return Ok(ExitCode::FAILURE);
    }
    let check = check_lock(&planner_reqs, &loaded.locks, flavor);
    for row in &check.providers {
        let mut line = format!("{:<11} {}", row.status.name(), row.provider);
        if let Some(v) = &row.locked {
            line.push_str(&format!(" {v}"));
        }
        if !row.constraints.is_empty() {
            line.push_str(&format!(" ({})", row.constraints.canonical()));
        }
        println!("{line}");
    }
    print_diagnostics(&check.diagnostics(flavor));
    Ok(if check.is_consistent() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn diff(old: &Path, new: &Path, json: bool, exit_code: bool) -> anyhow::Result<ExitCode> {
    let (o, n) = (load_in(old, None, None), load_in(new, None, None));
    let bad_old = report(&o);
    if bad_old | report(&n) {
        return Ok(ExitCode::FAILURE);
    }
    let d = diff_locks(&o.locks, &n.locks);
    if json {
        print_json(&d)?;
    } else {
        print!("{}", render_diff(&d));
    }
    Ok(if exit_code && !d.is_empty() {
        ExitCode::from(DIFFERENCES_FOUND)
    } else {
        ExitCode::SUCCESS
    })
}

fn merge_driver(base: &Path, ours: &Path, theirs: &Path) -> anyhow::Result<ExitCode> {
    let (b, o, t) = (
        load_in(base, None, None),
        load_in(ours, None, None),
        load_in(theirs, None, None),
    );
    let bad = [report(&b), report(&o), report(&t)].contains(&true);
    if bad {
        // Leave %A untouched; git then reports the file as conflicted.
        return Ok(ExitCode::FAILURE);
    }
    let result = merge_locks(&b.locks, &o.locks, &t.locks);
    write_atomically(ours, render_merge(&result, o.flavor).as_bytes())?;
    for c in &result.conflicts {
        eprintln!(
            "Conflict: {}: {} (ours: {}, theirs: {})",
            c.provider,
            c.reason,
            c.ours.as_deref().unwrap_or("removed"),
            c.theirs.as_deref().unwrap_or("removed")
        );
    }
    Ok(if result.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Writes `bytes` to `path` atomically, keeping the original file's permissions (0644 for a
/// new file, as Terraform writes it).
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomic(path, bytes, FileMode::KeepOr(0o644))
        .with_context(|| format!("Failed to update dependency lock file {}", path.display()))
}
