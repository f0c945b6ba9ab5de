//! `cargo xtask fuzz [TARGET] [--seconds N]` (a cargo-fuzz campaign on nightly) and
//! `cargo xtask fuzz-seed` (seed corpora from the fixtures). CI does not fuzz: the corpora
//! and `fuzz/regressions/` replay on stable in `cargo test` (`fuzz/bodies/tests/replay.rs`).

use super::{cargo, run, step, target_dir, which};
use anyhow::{bail, Context, Result};
use std::process::Command;

/// Writes `fuzz/corpus/<target>/seed-*` from `tests/fixtures/` (and the embedded keys).
pub fn seed() -> Result<()> {
    step(
        "fuzz seeds",
        cargo(&[
            "run",
            "--quiet",
            "-p",
            "tflock-fuzz-bodies",
            "--bin",
            "fuzz-seed",
            "--",
            ".",
        ]),
    )
}

/// Runs one target, or each in turn, for `--seconds` (default 60) each, one process at a time.
pub fn campaign(args: &[String]) -> Result<()> {
    let mut seconds = 60u64;
    let mut only: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => {
                let v = it.next().context("--seconds needs a number")?;
                seconds = v.parse().with_context(|| format!("--seconds {v:?}"))?;
            }
            t if !t.starts_with('-') && only.is_none() => only = Some(t.to_owned()),
            other => bail!("unexpected argument {other:?} (usage: fuzz [TARGET] [--seconds N])"),
        }
    }
    if !which("cargo-fuzz") {
        run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    seed()?;
    let targets = match only {
        Some(t) => vec![t],
        None => list_targets()?,
    };
    let fuzz_target_dir = target_dir().join("fuzz");
    for t in &targets {
        step(
            &format!("fuzz {t}"),
            run(Command::new("cargo")
                .current_dir("fuzz")
                .args(["+nightly", "fuzz", "run", t, "--target-dir"])
                .arg(&fuzz_target_dir)
                .args(["--", "-timeout=10", "-rss_limit_mb=2048"])
                .arg(format!("-max_total_time={seconds}"))),
        )
        .with_context(|| {
            format!(
                "a crash input is under fuzz/artifacts/{t}/: minimize it with `cargo +nightly fuzz tmin {t} <file>` and keep it in fuzz/regressions/{t}/"
            )
        })?;
    }
    Ok(())
}

/// The targets cargo-fuzz knows (`fuzz/fuzz_targets/*.rs`).
fn list_targets() -> Result<Vec<String>> {
    let mut v: Vec<String> = std::fs::read_dir("fuzz/fuzz_targets")
        .context("reading fuzz/fuzz_targets")?
        .flatten()
        .filter_map(|e| {
            e.path()
                .file_stem()
                .and_then(|s| s.to_str())
                .map(str::to_owned)
        })
        .collect();
    v.sort();
    Ok(v)
}
