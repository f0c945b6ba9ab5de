//! Wall-clock time of every `cargo xtask` step, of every command a step runs and of every
//! test binary `cargo test` runs: printed as each one ends and as one table at the end (also
//! when a step fails), so a CI log says where its minutes went.

use anyhow::{Context, Result};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One row of the summary table.
struct Row {
    /// Nesting: 0 for a step of `test`, one more for each step or command inside it.
    depth: usize,
    name: String,
    /// `None` while the row is running (a failure leaves its enclosing steps unfinished
    /// until their `step` returns).
    elapsed: Option<Duration>,
    ok: bool,
}

/// The rows in the order they started, and the current nesting depth.
static ROWS: Mutex<(Vec<Row>, usize)> = Mutex::new((Vec::new(), 0));

/// Starts a row one level below the running step; returns its index for [`finish`].
fn start(name: &str) -> usize {
    let mut rows = ROWS.lock().unwrap_or_else(|e| e.into_inner());
    let depth = rows.1;
    rows.0.push(Row {
        depth,
        name: name.to_string(),
        elapsed: None,
        ok: false,
    });
    rows.1 += 1;
    rows.0.len() - 1
}

/// Ends row `index` and prints its time at once, so a log cut short still shows it.
fn finish(index: usize, elapsed: Duration, ok: bool) {
    let mut rows = ROWS.lock().unwrap_or_else(|e| e.into_inner());
    rows.1 = rows.1.saturating_sub(1);
    let row = &mut rows.0[index];
    row.elapsed = Some(elapsed);
    row.ok = ok;
    eprintln!(
        "xtask: [{:>7.1}s] {}{}",
        elapsed.as_secs_f64(),
        row.name,
        if ok { "" } else { " (FAILED)" }
    );
}

/// Adds a finished row one level below the running step (a test binary of `cargo test`).
fn record(name: &str, elapsed: Duration, ok: bool) {
    let index = start(name);
    finish(index, elapsed, ok);
}

/// Runs `f` as the named step: timed, nested under the running step, and on failure its
/// error says which step failed.
pub(crate) fn step(name: &str, f: impl FnOnce() -> Result<()>) -> Result<()> {
    let index = start(name);
    let started = Instant::now();
    let result = f();
    finish(index, started.elapsed(), result.is_ok());
    result.with_context(|| format!("xtask step failed: {name}"))
}

/// Runs `cmd` to completion as a timed row named after it; fails unless it exits with 0.
pub(crate) fn run(cmd: &mut Command) -> Result<()> {
    eprintln!("xtask: running {cmd:?}");
    let index = start(&label(cmd));
    let started = Instant::now();
    let status = cmd.status();
    let ok = status.as_ref().is_ok_and(|s| s.success());
    finish(index, started.elapsed(), ok);
    let status = status.with_context(|| format!("could not start {cmd:?}"))?;
    if !status.success() {
        anyhow::bail!("{cmd:?} failed with {status}");
    }
    Ok(())
}

/// `cargo test ARGS` with a row per test binary and doctest run: cargo's progress (stderr)
/// and the tests' results (stdout) go through one pipe, in order, and are echoed; a binary's
/// time runs from cargo's `Running`/`Doc-tests` line to its `test result:` line.
pub(crate) fn cargo_test(args: &[&str]) -> Result<()> {
    // One pipe for both streams keeps cargo's header before the binary's own output.
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "exec \"$0\" \"$@\" 2>&1", env!("CARGO"), "test"])
        .args(args)
        .stdout(Stdio::piped());
    eprintln!("xtask: running cargo test {}", args.join(" "));
    let index = start(&format!("cargo test {}", args.join(" ")));
    let started = Instant::now();
    let mut child = cmd.spawn().context("could not start cargo test")?;
    let out = child.stdout.take().context("cargo test's stdout")?;
    let mut current: Option<(String, Instant)> = None;
    for line in BufReader::new(out).lines() {
        let line = line.context("reading cargo test's output")?;
        // stdout, where libtest's results went before they passed through here.
        println!("{line}");
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed
            .strip_prefix("Running ")
            .or_else(|| trimmed.strip_prefix("Doc-tests "))
        {
            let name = if trimmed.starts_with("Doc-tests ") {
                format!("doctests {rest}")
            } else {
                test_binary_name(rest)
            };
            current = Some((name, Instant::now()));
        } else if let Some(result) = trimmed.strip_prefix("test result: ") {
            if let Some((name, at)) = current.take() {
                record(&name, at.elapsed(), result.starts_with("ok"));
            }
        }
    }
    let status = child.wait().context("waiting for cargo test")?;
    // A binary that crashed prints no `test result:` line.
    if let Some((name, at)) = current.take() {
        record(&name, at.elapsed(), false);
    }
    finish(index, started.elapsed(), status.success());
    if !status.success() {
        anyhow::bail!("cargo test {} failed with {status}", args.join(" "));
    }
    Ok(())
}

/// `unittests src/lib.rs (/t/debug/deps/tflock_core-0123abcd)` -> `test binary tflock_core
/// (unittests src/lib.rs)`: the crate name without cargo's hash, and which target it is.
fn test_binary_name(running: &str) -> String {
    let (what, path) = match running.rsplit_once(" (") {
        Some((what, path)) => (what, path.trim_end_matches(')')),
        None => (running, running),
    };
    let file = path.rsplit('/').next().unwrap_or(path);
    let krate = file.rsplit_once('-').map_or(file, |(name, _hash)| name);
    format!("test binary {krate} ({what})")
}

/// A command as a short row name: program file name and arguments, cut at 100 characters.
fn label(cmd: &Command) -> String {
    let program = cmd.get_program().to_string_lossy();
    let program = program.rsplit('/').next().unwrap_or(&program).to_string();
    let mut text = program;
    for arg in cmd.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    if text.chars().count() > 100 {
        text = text.chars().take(97).collect::<String>() + "...";
    }
    text
}

/// Prints every row as a table: seconds, share of the total of the top-level rows, and the
/// name indented by depth; unfinished rows (a failure inside them) say so.
pub(crate) fn print_summary() {
    let rows = ROWS.lock().unwrap_or_else(|e| e.into_inner());
    let total: f64 = rows
        .0
        .iter()
        .filter(|r| r.depth == 0)
        .filter_map(|r| r.elapsed)
        .map(|d| d.as_secs_f64())
        .sum();
    eprintln!();
    eprintln!("xtask: time per step (wall clock; nested rows are part of the row above)");
    eprintln!("{:>9}  {:>6}  step", "seconds", "share");
    for row in &rows.0 {
        let indent = "  ".repeat(row.depth);
        match row.elapsed {
            Some(d) => {
                let secs = d.as_secs_f64();
                let share = if total > 0.0 {
                    100.0 * secs / total
                } else {
                    0.0
                };
                eprintln!(
                    "{secs:>9.1}  {share:>5.1}%  {indent}{}{}",
                    row.name,
                    if row.ok { "" } else { "  FAILED" }
                );
            }
            None => eprintln!("{:>9}  {:>6}  {indent}{}  (unfinished)", "-", "", row.name),
        }
    }
    eprintln!("{total:>9.1}  100.0%  total");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_binary_names_drop_the_hash() {
        assert_eq!(
            test_binary_name("unittests src/lib.rs (/t/debug/deps/tflock_core-0123abcd)"),
            "test binary tflock_core (unittests src/lib.rs)"
        );
        assert_eq!(
            test_binary_name("tests/it/main.rs (target/debug/deps/it-5f5f)"),
            "test binary it (tests/it/main.rs)"
        );
    }

    #[test]
    fn labels_are_cut_at_100_characters() {
        let mut cmd = Command::new("/usr/bin/cargo");
        cmd.args(["build", "-p", "tflock"]);
        assert_eq!(label(&cmd), "cargo build -p tflock");
        cmd.arg("x".repeat(200));
        assert_eq!(label(&cmd).chars().count(), 100);
    }
}
