//! `cargo xtask fuzz [TARGET] [--seconds N]` (a cargo-fuzz campaign on nightly),
//! `cargo xtask fuzz-seed` (seed corpora from the fixtures) and the smoke run `cargo xtask
//! test` makes: every target for a few seconds from its seeds and regressions. The seeds
//! and `fuzz/regressions/` also replay on stable in `cargo test`
//! (`fuzz/bodies/tests/replay.rs`).
//!
//! No sanitizer: the code under test is safe Rust, where AddressSanitizer finds nothing a
//! panic would not, and it halves the executions per second and doubles the build.

use super::{cargo, run, step, target_dir, which};
use anyhow::{bail, Context, Result};
use std::process::Command;

/// Writes `fuzz/corpus/<target>/seed-*` from `tests/fixtures/` (and the embedded keys).
pub fn seed() -> Result<()> {
    step("fuzz seeds", || {
        // `--workspace`, not `cargo run -p tflock-fuzz-bodies`: the features resolve as in
        // `cargo test --workspace`, which has built this binary already (with `-p`, 49 units,
        // the core among them, compiled again).
        cargo(&["build", "--quiet", "--workspace", "--bin", "fuzz-seed"])?;
        run(Command::new(target_dir().join("debug").join("fuzz-seed")).arg("."))
    })
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
    install_cargo_fuzz()?;
    seed()?;
    let targets = match only {
        Some(t) => vec![t],
        None => list_targets()?,
    };
    let fuzz_target_dir = target_dir().join("fuzz");
    for t in &targets {
        step(&format!("fuzz {t}"), || {
            run(Command::new("cargo")
                .current_dir("fuzz")
                .args(["+nightly", "fuzz", "run", "-s", "none", t])
                .args(inputs_of(t, "."))
                .arg("--target-dir")
                .arg(&fuzz_target_dir)
                .arg("--")
                .args(["-timeout=10", "-rss_limit_mb=2048"])
                .arg(format!("-max_total_time={seconds}")))
        })
        .with_context(|| {
            format!(
                "a crash input is under fuzz/artifacts/{t}/: minimize it with `cargo +nightly fuzz tmin {t} <file>` and keep it in fuzz/regressions/{t}/"
            )
        })?;
    }
    Ok(())
}

/// Seconds each target runs in the smoke run.
const SMOKE_SECONDS: u32 = 3;

/// The smoke run in `cargo xtask test`: builds every target (no sanitizer, dev profile: the
/// build is most of the cost) and runs each for [`SMOKE_SECONDS`] from its seeds and
/// regressions, new inputs going to a scratch directory so the checkout stays clean.
pub fn smoke() -> Result<()> {
    install_cargo_fuzz()?;
    seed()?;
    let fuzz_target_dir = target_dir().join("fuzz-smoke");
    run(Command::new("cargo")
        .current_dir("fuzz")
        .args([
            "+nightly",
            "fuzz",
            "build",
            "-s",
            "none",
            "--dev",
            "--target-dir",
        ])
        .arg(&fuzz_target_dir))?;
    let bin_dir = fuzz_target_dir.join(host_triple()?).join("debug");
    let scratch = fuzz_target_dir.join("corpus");
    let artifacts = fuzz_target_dir.join("artifacts");
    std::fs::create_dir_all(&artifacts)
        .with_context(|| format!("creating {}", artifacts.display()))?;
    for t in list_targets()? {
        let out = scratch.join(&t);
        std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
        run(Command::new(bin_dir.join(&t))
            .arg(&out)
            .args(inputs_of(&t, "fuzz"))
            .args(["-timeout=10", "-rss_limit_mb=2048"])
            .arg(format!("-max_total_time={SMOKE_SECONDS}"))
            .arg(format!("-artifact_prefix={}/", artifacts.display())))
        .with_context(|| {
            format!("fuzz target {t} found a crash (input under {}/artifacts/): minimize it with `cargo +nightly fuzz tmin {t} <file>` and keep it in fuzz/regressions/{t}/", fuzz_target_dir.display())
        })?;
    }
    Ok(())
}

/// The input directories of target `t` that exist (seeds, regressions), relative to `base`
/// (the directory the fuzzer runs in): libFuzzer refuses a missing one.
fn inputs_of(t: &str, base: &str) -> Vec<String> {
    ["corpus", "regressions"]
        .iter()
        .map(|d| format!("{d}/{t}"))
        .filter(|d| std::path::Path::new("fuzz").join(d).is_dir())
        .map(|d| format!("{base}/{d}"))
        .collect()
}

/// Installs cargo-fuzz from crates.io when it is missing, and checks for a nightly toolchain.
fn install_cargo_fuzz() -> Result<()> {
    let nightly = Command::new("cargo")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !nightly {
        bail!("fuzzing needs a nightly toolchain: `rustup toolchain install nightly --profile minimal`");
    }
    if !which("cargo-fuzz") {
        run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    Ok(())
}

/// The host's target triple (cargo-fuzz builds for it explicitly, so binaries live under it).
fn host_triple() -> Result<String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .context("running rustc -vV")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .context("rustc -vV names no host")
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
