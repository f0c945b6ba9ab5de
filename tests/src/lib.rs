//! Shared helpers for tflock's cross-crate tests: fixture paths, the Go oracle programs, the
//! built `tflock` binary and the edge mirror Worker's dev server.

pub mod bench_packages;
pub mod edge_dev;
pub mod fake_registry;
pub mod http_server;
pub mod pre_commit;
pub mod terraform;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The `tests/` directory of the workspace.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    tests_dir()
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// `tests/fixtures/<area>`.
pub fn fixtures(area: &str) -> PathBuf {
    tests_dir().join("fixtures").join(area)
}

/// The cargo target directory (respects `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| {
            if p.is_absolute() {
                p
            } else {
                workspace_root().join(p)
            }
        })
        .unwrap_or_else(|| workspace_root().join("target"))
}

static ORACLE_BUILD: Mutex<()> = Mutex::new(());

/// Builds (once per source change) and returns the Go oracle program `tests/oracles/<name>`.
///
/// The oracles link the real Go libraries Terraform uses, from Debian packages installed by
/// `cargo xtask test`. Without them the differential tests cannot run, so this panics with
/// the command that installs them rather than silently skipping.
pub fn oracle(name: &str) -> PathBuf {
    let _guard = ORACLE_BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let src = tests_dir().join("oracles").join(name);
    let out_dir = target_dir().join("oracles");
    std::fs::create_dir_all(&out_dir).expect("create target/oracles");
    let bin = out_dir.join(name);
    if is_fresh(&bin, &src) {
        return bin;
    }
    let tmp = out_dir.join(format!("{name}.tmp{}", std::process::id()));
    let status = Command::new("go")
        .args(["build", "-o"])
        .arg(&tmp)
        .arg(".")
        .current_dir(&src)
        .env("GO111MODULE", "off")
        .env("GOPATH", "/usr/share/gocode")
        .env("GOCACHE", target_dir().join("go-cache"))
        .env("GOFLAGS", "")
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `go` to build oracle {name} ({e}); run `cargo xtask test`, which \
                 installs golang-go and the Go libraries the oracles need"
            )
        });
    assert!(status.success(), "building Go oracle {name} failed");
    std::fs::rename(&tmp, &bin).expect("install oracle binary");
    bin
}

fn is_fresh(bin: &Path, src: &Path) -> bool {
    let Ok(built) = bin.metadata().and_then(|m| m.modified()) else {
        return false;
    };
    let Ok(entries) = std::fs::read_dir(src) else {
        return false;
    };
    entries.flatten().all(|e| {
        e.metadata()
            .and_then(|m| m.modified())
            .map(|t| t <= built)
            .unwrap_or(false)
    })
}

/// Adds one row to the summary `cargo xtask bench` prints at the end: appended, tab-separated
/// (bench, measurement, value, goal), to the file `TFLOCK_BENCH_SUMMARY` names, if any.
pub fn bench_summary(bench: &str, measurement: &str, value: &str, goal: &str) {
    let Some(path) = std::env::var_os("TFLOCK_BENCH_SUMMARY") else {
        return;
    };
    use std::io::Write;
    let row = format!("{bench}\t{measurement}\t{value}\t{goal}\n");
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(row.as_bytes()))
        .expect("append to TFLOCK_BENCH_SUMMARY");
}

/// The optimised `tflock` binary (`cargo build --release`), for benchmarks.
pub fn release_tflock_bin() -> PathBuf {
    let status = cargo_build(&["build", "--release", "--quiet", "-p", "tflock"])
        .status()
        .expect("cargo build --release");
    assert!(status.success(), "cargo build --release -p tflock failed");
    target_dir().join("release").join("tflock")
}

/// `cargo <args>` in the workspace with the environment a shell would give it.
/// `cargo test` and `cargo bench` give this process the test crate's CARGO_MANIFEST_DIR,
/// CARGO_PKG_* and so on; build scripts that track them (ring's) would make this build and
/// the next plain `cargo build`, `cargo test` or `cargo bench` rebuild each other every
/// time (in release, each rebuild is ring, rustls, reqwest and the crates above them).
fn cargo_build(args: &[&str]) -> Command {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(args).current_dir(workspace_root());
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("CARGO_PKG_")
            || key.starts_with("CARGO_MANIFEST_")
            || [
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
            ]
            .contains(&key.as_ref())
        {
            cargo.env_remove(key.as_ref());
        }
    }
    cargo
}

/// The `tflock` binary built by cargo for this test run (built once per test process).
pub fn tflock_bin() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let status = cargo_build(&["build", "--quiet", "-p", "tflock"])
                .status()
                .expect("run cargo build -p tflock");
            assert!(status.success(), "cargo build -p tflock failed");
            target_dir().join("debug").join("tflock")
        })
        .clone()
}
