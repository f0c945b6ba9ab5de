//! `cargo xtask worker-test` builds the edge mirror Worker (`worker/`, crate
//! `tflock-worker`) into `worker/build/` and runs its tests (`worker/tests/`) in workerd
//! through Miniflare, with an in-memory R2 bucket, against the native CLI and the npm package.
//!
//! Build: cargo (`wasm32-unknown-unknown`, profile `wasm-release`) → `wasm-bindgen --target
//! bundler`; `worker/entry.mjs` instantiates it (no `worker-build`, whose install takes minutes).
//!
//! `cargo xtask worker-dev` runs the built Worker locally (`worker/dev.mjs`, Miniflare);
//! `cargo xtask bench worker` measures it there (`worker/bench.mjs`).

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

/// `cargo xtask worker-test`: clippy for wasm32, build, then `node --test worker/tests/` and
/// the `edge_mirror` integration tests.
pub fn test() -> Result<()> {
    wasm::clippy_wasm32(CRATE)?;
    wasm::ensure_tools()?;
    build()?;
    super::cargo(&["build", "-p", "tflock"])?;
    if !Path::new("wasm/pkg/node.js").exists() {
        wasm::build()?; // the end-to-end test locks through the npm package
    }
    super::run(Command::new("node").args(["--test", "--test-reporter=spec", "worker/tests/"]))?;
    // The Rust integration tests against `worker/dev.mjs` (ignored by a plain `cargo test`,
    // which has no built Worker). `--workspace`, not `-p tflock-tests`: the features resolve
    // as in `cargo test --workspace`, so the `it` binary that step built is reused (with `-p`
    // 53 units, core and the whole `it` binary among them, compiled again).
    super::cargo(&[
        "test",
        "--workspace",
        "--test",
        "it",
        "--",
        "edge_mirror::",
        "--ignored",
        "--test-threads=2",
    ])
}

/// `cargo xtask bench worker [--seconds S] [--rate R] [--mib M] [--only cold [--repeat N]]`:
/// builds the Worker and runs `worker/bench.mjs`: document-hit latency beside a trivial
/// Worker's, workerd's memory while a 300 MiB archive is pulled through, and a cold miss's
/// first and last byte beside a direct download and two JS Workers (with and without R2
/// writes). With `--url https://MIRROR/ --archive HOST/NS/TYPE/ZIP ...` it builds nothing
/// and measures a deployed Worker's cold misses against direct downloads instead. A
/// benchmark: `cargo xtask test` never runs it.
pub fn bench(args: &[String]) -> Result<()> {
    wasm::ensure_tools()?;
    if args.iter().any(|a| a == "--url" || a.starts_with("--url=")) {
        return super::run(Command::new("node").arg("worker/bench.mjs").args(args));
    }
    build()?;
    // The bench checks the pulled archive's h1:/zh: against `tflock hash`.
    super::cargo(&["build", "-p", "tflock"])?;
    super::run(Command::new("node").arg("worker/bench.mjs").args(args))
}

/// Where `worker-dev --https` keeps its certificates (git-ignored).
const DEV_TLS: &str = "worker/.dev";

/// `cargo xtask worker-dev [--port P] [--https] [--cli-config FILE] [--persist DIR] [dev.mjs
/// options...]`: builds the Worker and runs `worker/dev.mjs` in the foreground. `--https`
/// adds a loopback certificate (`worker/.dev/`); paths are taken relative to `cwd`, where
/// cargo was run; other options (`--upload-token T`, `--var NAME=VALUE`) pass through as is.
pub fn dev(args: &[String], cwd: &Path) -> Result<()> {
    wasm::ensure_tools()?;
    build()?;
    let mut node = Command::new("node");
    node.arg("worker/dev.mjs");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--https" => {
                let (ca, cert, key) = dev_certificates()?;
                node.args(["--https", "--cert", &cert, "--key", &key]);
                let ca = std::fs::canonicalize(&ca)?;
                eprintln!(
                    "xtask: the server's certificate is issued by the CA in {ca}; trust it with \
                     SSL_CERT_FILE={ca} (tflock and terraform both read it), or \
                     curl --cacert {ca}",
                    ca = ca.display()
                );
            }
            "--cli-config" | "--persist" => {
                let path = args.next().with_context(|| format!("{arg} needs a path"))?;
                node.arg(arg).arg(cwd.join(path));
            }
            _ => {
                node.arg(arg);
            }
        }
    }
    eprintln!("xtask: running {node:?} (Ctrl-C stops it)");
    let status = node.status().context("could not start node")?;
    // Stopped by Ctrl-C or a kill: Miniflare exits with 128 + the signal after stopping workerd.
    match status.code() {
        Some(0 | 130 | 143) | None => Ok(()),
        _ => anyhow::bail!("worker/dev.mjs failed with {status}"),
    }
}

/// `worker/.dev/{cert,server,key}.pem`, generated once: a CA (`cert.pem`, what clients trust)
/// and a leaf for `127.0.0.1` and `localhost` signed by it (`server.pem`, `key.pem`). Not one
/// self-signed certificate: rustls/webpki refuses a certificate marked CA as the server's own
/// (`CaUsedAsEndEntity`), while a CA and its leaf work for rustls and Go alike. Returns the
/// paths of the CA, leaf and key.
pub fn dev_certificates() -> Result<(String, String, String)> {
    use rcgen::{
        BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair,
        KeyUsagePurpose, SanType,
    };
    let [ca, cert, key] = ["cert.pem", "server.pem", "key.pem"].map(|f| format!("{DEV_TLS}/{f}"));
    if [&ca, &cert, &key].iter().all(|p| Path::new(p).is_file()) {
        return Ok((ca, cert, key));
    }
    let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "tflock worker-dev CA");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let issuer = CertifiedIssuer::self_signed(ca_params, KeyPair::generate()?)?;
    let mut leaf = CertificateParams::new(vec!["localhost".to_string()])?;
    leaf.subject_alt_names
        .push(SanType::IpAddress(std::net::Ipv4Addr::LOCALHOST.into()));
    leaf.distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let leaf_key = KeyPair::generate()?;
    let leaf_cert = leaf.signed_by(&leaf_key, &issuer)?;
    std::fs::create_dir_all(DEV_TLS).with_context(|| format!("creating {DEV_TLS}"))?;
    std::fs::write(&ca, issuer.pem())?;
    std::fs::write(&cert, leaf_cert.pem())?;
    std::fs::write(&key, leaf_key.serialize_pem())?;
    eprintln!("xtask: wrote a new CA and server certificate into {DEV_TLS}/");
    Ok((ca, cert, key))
}
