//! `cargo xtask wasm`: the npm package `tflock` in `wasm/pkg/`, and its node:test suite.
//!
//! The wasm-bindgen CLI must be exactly the version of the `wasm-bindgen` crate in
//! Cargo.lock (its output format changes between releases), so it is installed with
//! `cargo install` when missing or different. `--locked` is deliberately not passed: the
//! CLI's own lock file pins a crate the registry no longer serves.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

const CRATE: &str = "tflock-wasm";
const PROFILE: &str = "wasm-release";
const PKG: &str = "wasm/pkg";
const TEMPLATE: &str = "wasm/npm";

/// Builds the crate for wasm32, runs wasm-bindgen (`--target web`) and adds the package
/// files from `wasm/npm/` (entry points per runtime, package.json, README).
pub fn build() -> Result<()> {
    let version = locked_bindgen_version()?;
    ensure_bindgen(&version)?;
    super::run(Command::new(env!("CARGO")).args([
        "build",
        "-p",
        CRATE,
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        PROFILE,
    ]))?;
    // Respect CARGO_TARGET_DIR (relative paths are relative to the workspace root, where
    // xtask runs).
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_string());
    let wasm = format!("{target}/wasm32-unknown-unknown/{PROFILE}/tflock_wasm.wasm");
    let pkg = Path::new(PKG);
    if pkg.exists() {
        std::fs::remove_dir_all(pkg).with_context(|| format!("removing {PKG}"))?;
    }
    super::run(Command::new(bindgen()).args([
        wasm.as_str(),
        "--target",
        "web",
        "--out-dir",
        PKG,
        "--out-name",
        "tflock",
    ]))?;
    for entry in std::fs::read_dir(TEMPLATE).with_context(|| format!("reading {TEMPLATE}"))? {
        let entry = entry?;
        std::fs::copy(entry.path(), pkg.join(entry.file_name()))
            .with_context(|| format!("copying {}", entry.path().display()))?;
    }
    let size = std::fs::metadata(pkg.join("tflock_bg.wasm"))?.len();
    let gz = Command::new("sh")
        .args(["-c", &format!("gzip -9 -c {PKG}/tflock_bg.wasm | wc -c")])
        .output()
        .context("running gzip")?;
    eprintln!(
        "xtask: {PKG}/tflock_bg.wasm: {size} bytes, {} bytes gzipped (-9)",
        String::from_utf8_lossy(&gz.stdout).trim()
    );
    Ok(())
}

/// Builds the package and the native CLI (the tests compare with its output), then runs
/// `node --test` on `wasm/tests/`.
pub fn test() -> Result<()> {
    super::cargo(&[
        "clippy",
        "-p",
        CRATE,
        "--no-deps",
        "--target",
        "wasm32-unknown-unknown",
        "--",
        "-D",
        "warnings",
    ])?;
    build()?;
    super::cargo(&["build", "-p", "tflock"])?;
    if !super::which("node") {
        bail!("node (>= 20) is needed for the wasm package tests");
    }
    let mut tests: Vec<String> = std::fs::read_dir("wasm/tests")?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .map(|p| p.display().to_string())
        .collect();
    tests.sort();
    super::run(Command::new("node").arg("--test").args(&tests))
}

/// wasm (Node) vs native `h1:` throughput on a generated zip of `mib` MiB (default 250).
pub fn bench(mib: Option<&str>) -> Result<()> {
    build()?;
    super::cargo(&["build", "--release", "-p", "tflock"])?;
    super::run(
        Command::new("node")
            .arg("wasm/bench/h1.mjs")
            .arg(mib.unwrap_or("250")),
    )
}

/// The `wasm-bindgen` crate version Cargo.lock resolves.
fn locked_bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string("Cargo.lock").context("reading Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    bail!("Cargo.lock has no wasm-bindgen package")
}

/// The wasm-bindgen binary: on PATH, else cargo's bin directory.
fn bindgen() -> String {
    if super::which("wasm-bindgen") {
        return "wasm-bindgen".to_string();
    }
    let home = std::env::var("CARGO_HOME")
        .unwrap_or_else(|_| format!("{}/.cargo", std::env::var("HOME").unwrap_or_default()));
    format!("{home}/bin/wasm-bindgen")
}

fn ensure_bindgen(version: &str) -> Result<()> {
    let have = Command::new(bindgen())
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if have == format!("wasm-bindgen {version}") {
        return Ok(());
    }
    eprintln!("xtask: installing wasm-bindgen-cli {version} (found {have:?})");
    super::run(Command::new(env!("CARGO")).args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        version,
    ]))
}
