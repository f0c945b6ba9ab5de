//! `cargo xtask playground [--port N] [--build-only]` builds the browser playground
//! (`web/`, crate `tflock-web`) into `web/dist/` and serves it on 127.0.0.1;
//! `cargo xtask playground-test` builds it and drives it in headless Chromium
//! (`web/tests/`), checking its outputs against the native CLI.
//!
//! Build: cargo (`wasm32-unknown-unknown`, profile `wasm-release`, SIMD as for the npm
//! package) → `wasm-bindgen --target web` (the CLI of the Cargo.lock version, installed
//! when missing) → npm binaryen `wasm-opt` (light, removal-only passes; Debian's `wasm-opt`
//! breaks wasm-bindgen output and is never used) → `web/static/*` copied next to it.

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::wasm;

const CRATE: &str = "tflock-web";
const DIST: &str = "web/dist";
const STATIC: &str = "web/static";
/// `cargo xtask playground [--port N] [--build-only]`.
pub fn run(args: &[String]) -> Result<()> {
    let mut port = 8080u16;
    let mut build_only = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--build-only" => build_only = true,
            "--port" => {
                port = it
                    .next()
                    .context("--port needs a number")?
                    .parse()
                    .context("--port needs a number")?
            }
            other => bail!("unknown playground option {other:?} (known: --port N, --build-only)"),
        }
    }
    super::wasm_target()?;
    build()?;
    if build_only {
        return Ok(());
    }
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("binding 127.0.0.1:{port}"))?;
    eprintln!("xtask: serving {DIST} at http://127.0.0.1:{port}/ (Ctrl-C to stop)");
    serve(listener, PathBuf::from(DIST));
    Ok(())
}

/// `cargo xtask playground-test`: builds the playground and the CLI, serves `web/dist` on a
/// free port and runs `node --test web/tests/` against it in headless Chromium.
pub fn test() -> Result<()> {
    super::wasm_target()?;
    wasm::clippy_wasm32(CRATE)?;
    build()?;
    super::cargo(&["build", "-p", "tflock"])?;
    wasm::ensure_tools()?;
    let chromium = wasm::ensure_chromium()?;
    let listener = TcpListener::bind("127.0.0.1:0").context("binding a free port")?;
    let addr = listener.local_addr()?;
    std::thread::spawn(move || serve(listener, PathBuf::from(DIST)));
    // The Lock action's test locks through the edge mirror Worker (worker/dev.mjs, HTTPS).
    if !Path::new("worker/build/tflock_worker_bg.wasm").exists() {
        super::worker::build()?;
    }
    let (ca, cert, key) = super::worker::dev_certificates()?;
    let tflock = Path::new(&target_dir()).join("debug/tflock");
    let tflock = std::fs::canonicalize(&tflock)
        .with_context(|| format!("the CLI should be at {}", tflock.display()))?;
    super::run(
        Command::new("node")
            .args(["--test", "--test-reporter=spec", "web/tests/"])
            .env("PLAYGROUND_URL", format!("http://{addr}/"))
            .env("EDGE_CA", std::fs::canonicalize(ca)?)
            .env("EDGE_CERT", std::fs::canonicalize(cert)?)
            .env("EDGE_KEY", std::fs::canonicalize(key)?)
            .env("TFLOCK_BIN", tflock)
            .env("CHROMIUM", chromium)
            .env("SCREENSHOT", format!("{}/playground.png", target_dir())),
    )
}

fn target_dir() -> String {
    std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_string())
}

/// Builds `web/dist/`: the app's wasm and glue, `index.html` and the stylesheet.
pub fn build() -> Result<()> {
    let started = Instant::now();
    wasm::ensure_bindgen(&wasm::locked_bindgen_version()?)?;
    wasm::ensure_tools()?;
    let module = wasm::build_crate(CRATE)?;
    let dist = Path::new(DIST);
    if dist.exists() {
        std::fs::remove_dir_all(dist).with_context(|| format!("removing {DIST}"))?;
    }
    super::run(Command::new(wasm::bindgen()).args([
        module.as_str(),
        "--target",
        "web",
        "--no-typescript",
        "--out-dir",
        DIST,
        "--out-name",
        "tflock_web",
    ]))?;
    let module = dist.join("tflock_web_bg.wasm");
    let (before, _) = wasm::sizes(&module)?;
    wasm::optimize(&module)?;
    for entry in std::fs::read_dir(STATIC).with_context(|| format!("reading {STATIC}"))? {
        let entry = entry?;
        std::fs::copy(entry.path(), dist.join(entry.file_name()))
            .with_context(|| format!("copying {}", entry.path().display()))?;
    }
    let (after, gz) = wasm::sizes(&module)?;
    eprintln!(
        "xtask: {DIST}/tflock_web_bg.wasm: {after} bytes ({before} before wasm-opt, {gz} gzipped -9); built in {:.0?}",
        started.elapsed()
    );
    Ok(())
}

/// Serves `root` forever: GET/HEAD of files, `index.html` for `/`, one thread per
/// connection, `Connection: close`.
pub fn serve(listener: TcpListener, root: PathBuf) {
    for stream in listener.incoming().flatten() {
        let root = root.clone();
        std::thread::spawn(move || {
            let peer = stream.peer_addr().ok();
            if let Err(e) = respond(stream, &root) {
                eprintln!("xtask: serving {peer:?}: {e:#}");
            }
        });
    }
}

fn respond(mut stream: TcpStream, root: &Path) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Drain the headers.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request.split_whitespace();
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if method != "GET" && method != "HEAD" {
        return reply(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"",
            true,
        );
    }
    let Some(file) = resolve(root, path) else {
        return reply(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        );
    };
    match std::fs::read(&file) {
        Ok(body) => reply(&mut stream, "200 OK", mime(&file), &body, method == "GET"),
        Err(_) => reply(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        ),
    }
}

/// The file under `root` for URL path `path`; `None` for `..` or anything outside.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let rel = Path::new(rel);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = root.join(rel);
    full.is_file().then_some(full)
}

fn mime(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

fn reply(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    send_body: bool,
) -> Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if send_body {
        stream.write_all(body)?;
    }
    stream.flush()?;
    Ok(())
}
