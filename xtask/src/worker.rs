//! `cargo xtask worker-test` builds the edge mirror Worker (`worker/`, crate
//! `tflock-worker`) into `worker/build/` and runs its tests (`worker/tests/`) in workerd
//! through Miniflare, with an in-memory R2 bucket, against the native CLI and the npm package.
//!
//! Build: cargo (`wasm32-unknown-unknown`, profile `wasm-release`) → `wasm-bindgen --target
//! bundler`; `worker/entry.mjs` instantiates it (no `worker-build`, whose install takes minutes).

use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;

use crate::wasm;

const CRATE: &str = "tflock-worker";
const OUT: &str = "worker/build";

/// Builds `worker/build/`.
pub fn build() -> Result<()> {
    wasm::ensure_bindgen(&wasm::locked_bindgen_version()?)?;
    let module = wasm::build_crate(CRATE)?;
    if Path::new(OUT).exists() {
        std::fs::remove_dir_all(OUT).with_context(|| format!("removing {OUT}"))?;
    }
    super::run(Command::new(wasm::bindgen()).args([
        module.as_str(),
        "--target",
        "bundler",
        "--no-typescript",
        "--out-dir",
        OUT,
        "--out-name",
        "tflock_worker",
    ]))?;
    let (raw, gz) = wasm::sizes(&Path::new(OUT).join("tflock_worker_bg.wasm"))?;
    eprintln!("xtask: {OUT}/tflock_worker_bg.wasm: {raw} bytes, {gz} bytes gzipped (-9)");
    Ok(())
}

/// `cargo xtask worker-test`: clippy for wasm32, build, then `node --test worker/tests/`.
pub fn test() -> Result<()> {
    wasm::clippy_wasm32(CRATE)?;
    wasm::ensure_tools()?;
    build()?;
    super::cargo(&["build", "-p", "tflock"])?;
    if !Path::new("wasm/pkg/node.js").exists() {
        wasm::build()?; // the end-to-end test locks through the npm package
    }
    super::run(Command::new("node").args(["--test", "--test-reporter=spec", "worker/tests/"]))
}
