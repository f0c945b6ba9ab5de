//! Rendering core values for the terminal: diagnostics and JSON, and the writes every
//! `print!`/`println!`/`eprint!`/`eprintln!` of the CLI goes through (see `main.rs`).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use tflock_core::api::lock_file::strip_markup;
use tflock_core::api::{Outcome, OutcomeView};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

/// Set once stdout is found closed; later output is dropped without trying.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout. A closed pipe (`tflock ... | head`) ends the output, not the command:
/// Rust ignores SIGPIPE, so std's `println!` would panic with a backtrace, and exiting
/// at once could leave a command's work (a mirror's index files) half done. Any other
/// write error is reported once on stderr and later output is dropped too.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            write_stderr(format_args!("Error: writing to stdout: {e}\n"));
        }
    }
}

/// Writes to stderr, ignoring failures: there is nowhere left to report them.
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Prints diagnostics to stderr the way Terraform does (`Error: ...`, location, detail).
pub fn print_diagnostics(diags: &Diagnostics) {
    for d in diags.iter() {
        print_diagnostic(d);
    }
}

/// Prints one diagnostic to stderr, followed by a blank line.
pub fn print_diagnostic(d: &Diagnostic) {
    eprintln!("{d}\n");
}

/// The `format_version` of tflock's JSON documents, bumped (as Terraform's) when a
/// consumer's parser must change.
pub const FORMAT_VERSION: &str = "1.0";

/// A JSON object with `format_version` as its first member.
#[derive(serde::Serialize)]
struct Versioned<'a, T> {
    format_version: &'static str,
    #[serde(flatten)]
    doc: &'a T,
}

/// Prints any serializable value as pretty JSON on stdout. An object gains
/// `"format_version": "1.0"` first, as Terraform's `-json` documents carry it; arrays (the
/// per-file and per-provider lists) are printed as they are.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", json_text(value)?);
    Ok(())
}

/// The pretty JSON `print_json` prints (without the final newline).
pub fn json_text<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    let is_object = serde_json::to_value(value)?.is_object();
    Ok(if is_object {
        serde_json::to_string_pretty(&Versioned {
            format_version: FORMAT_VERSION,
            doc: value,
        })?
    } else {
        serde_json::to_string_pretty(value)?
    })
}

/// Prints a planner outcome: messages (stdout) and diagnostics (stderr), or the JSON form.
pub fn report(outcome: &Outcome, flavor: Flavor, json: bool) -> anyhow::Result<()> {
    if json {
        // The core's view as it is; only the markup goes, as on a terminal.
        let mut view = OutcomeView::new(outcome, flavor);
        view.messages = view.messages.iter().map(|m| strip_markup(m)).collect();
        return print_json(&view);
    }
    for m in &outcome.messages {
        println!("{}", strip_markup(m));
    }
    print_diagnostics(&outcome.diagnostics);
    Ok(())
}
