//! Rendering core values for the terminal: diagnostics and JSON, and the writes every
//! `print!`/`println!`/`eprint!`/`eprintln!` of the CLI goes through (see `main.rs`).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use tflock_core::api::init_config_error;
use tflock_core::api::lock_file::strip_markup;
use tflock_core::api::{colorize, render_all, Sources, Style, DEFAULT_WIDTH};
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

/// Set when the command line has `-no-color`.
static NO_COLOR: AtomicBool = AtomicBool::new(false);

/// The text of the files the command read whose diagnostics Terraform shows with a source
/// snippet, by the names those diagnostics give them.
static SOURCES: Mutex<Sources> = Mutex::new(Sources::new());

/// Notes `-no-color`: diagnostics are printed plain even on a terminal.
pub fn set_no_color() {
    NO_COLOR.store(true, Ordering::Relaxed);
}

/// Keeps the text of a file read, named as diagnostics name it, for their snippets.
pub fn remember_source(name: String, text: &[u8]) {
    let mut sources = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
    sources.insert(name, text.to_vec());
}

/// How diagnostics are printed: Terraform's coloured format on a terminal (unless
/// `-no-color`), its plain one elsewhere (Terraform colours piped output too; tflock keeps
/// pipes and logs plain), wrapped to the terminal's columns or 78.
fn style() -> Style {
    let terminal = std::io::stderr().is_terminal();
    let width = terminal
        .then(|| console::Term::stderr().size_checked())
        .flatten()
        .map_or(DEFAULT_WIDTH, |(_, columns)| usize::from(columns));
    Style {
        color: terminal && !NO_COLOR.load(Ordering::Relaxed),
        width,
    }
}

/// Prints diagnostics to stderr the way Terraform does: in its display order, each with
/// its location, source snippet and wrapped detail.
pub fn print_diagnostics(diags: &Diagnostics) {
    let style = style();
    let mut diags = diags.clone();
    if style.color {
        // Terraform 1.15's `init` builds this one summary from a view message, which its
        // colorizer turns from `[reset]...` into text between two resets.
        let preamble = init_config_error(Flavor::Terraform);
        for d in diags.0.iter_mut().filter(|d| d.summary == preamble) {
            d.summary = colorize(&format!("[reset]{preamble}"), true);
        }
    }
    let text = {
        let sources = SOURCES.lock().unwrap_or_else(|e| e.into_inner());
        render_all(&diags, &sources, style)
    };
    write_stderr(format_args!("{text}"));
}

/// Prints one diagnostic to stderr as [`print_diagnostics`] does.
pub fn print_diagnostic(d: &Diagnostic) {
    print_diagnostics(&Diagnostics(vec![d.clone()]));
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

/// Prints a serializable object as pretty JSON on stdout, with `"format_version": "1.0"`
/// first, as Terraform's `-json` documents carry it. Every `-json` document is an object (a
/// list goes in a named member), so a consumer can always read `format_version` first.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", json_text(value)?);
    Ok(())
}

/// The pretty JSON `print_json` prints (without the final newline); an error for a value
/// that is not an object, which no command may print as a document.
pub fn json_text<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    if !serde_json::to_value(value)?.is_object() {
        anyhow::bail!("a -json document must be an object, to carry format_version");
    }
    Ok(serde_json::to_string_pretty(&Versioned {
        format_version: FORMAT_VERSION,
        doc: value,
    })?)
}

/// The `@module` of tflock's streamed JSON messages (Terraform's is `terraform.ui`).
pub const JSON_UI_MODULE: &str = "tflock.ui";

/// A stream of JSON messages, one compact object per line (NDJSON), in the shape of
/// Terraform's `-json` streaming output (`internal/command/views/json_view.go`, written by
/// hclog): `@level`, `@message`, `@module`, `@timestamp`, then the message's own members
/// in name order, among them `type`. The first line is the `version` message, whose `ui`
/// is [`FORMAT_VERSION`], as Terraform's first line carries its JSON UI version.
pub struct JsonStream(());

impl JsonStream {
    /// Starts the stream with its `version` message.
    pub fn start() -> JsonStream {
        let version = env!("CARGO_PKG_VERSION");
        let mut fields = serde_json::Map::new();
        fields.insert("tflock".into(), version.into());
        fields.insert("ui".into(), FORMAT_VERSION.into());
        let stream = JsonStream(());
        stream.message("info", &format!("tflock {version}"), "version", fields);
        stream
    }

    /// Prints one message: `level` is hclog's (`info`, `warn`, `error`), `kind` its `type`.
    pub fn message(
        &self,
        level: &str,
        message: &str,
        kind: &str,
        fields: serde_json::Map<String, serde_json::Value>,
    ) {
        println!(
            "{}",
            stream_line(level, message, kind, fields, std::time::SystemTime::now())
        );
    }
}

/// One NDJSON line. serde_json's maps keep their keys sorted, as Go's `encoding/json`
/// writes hclog's: `@` sorts before every letter, so the four `@` members come first.
fn stream_line(
    level: &str,
    message: &str,
    kind: &str,
    mut fields: serde_json::Map<String, serde_json::Value>,
    now: std::time::SystemTime,
) -> String {
    fields.insert("@level".into(), level.into());
    fields.insert("@message".into(), message.into());
    fields.insert("@module".into(), JSON_UI_MODULE.into());
    fields.insert("@timestamp".into(), rfc3339_micros(now).into());
    fields.insert("type".into(), kind.into());
    serde_json::Value::Object(fields).to_string()
}

/// hclog's JSON timestamp: UTC, microseconds (`2026-11-25T21:54:36.960409Z`).
fn rfc3339_micros(t: std::time::SystemTime) -> String {
    let since = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days, for days since 1970-01-01 (never negative here).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60,
        since.subsec_micros()
    )
}

/// The core's view of an outcome as it is; only the markup goes, as on a terminal.
pub fn outcome_view(outcome: &Outcome, flavor: Flavor) -> OutcomeView {
    let mut view = OutcomeView::new(outcome, flavor);
    view.messages = view.messages.iter().map(|m| strip_markup(m)).collect();
    view
}

/// Prints a planner outcome: messages (stdout) and diagnostics (stderr), or the JSON form.
pub fn report(outcome: &Outcome, flavor: Flavor, json: bool) -> anyhow::Result<()> {
    if json {
        return print_json(&outcome_view(outcome, flavor));
    }
    for m in &outcome.messages {
        println!("{}", strip_markup(m));
    }
    print_diagnostics(&outcome.diagnostics);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_hclogs_utc_microseconds() {
        let t = UNIX_EPOCH + Duration::new(1_795_643_676, 960_409_123);
        assert_eq!(rfc3339_micros(t), "2026-11-25T21:54:36.960409Z");
        assert_eq!(rfc3339_micros(UNIX_EPOCH), "1970-01-01T00:00:00.000000Z");
        // A leap day.
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339_micros(leap), "2000-02-29T00:00:00.000000Z");
    }

    #[test]
    fn stream_lines_have_terraforms_member_order() {
        let mut fields = serde_json::Map::new();
        fields.insert("terraform".into(), "1.15.5".into());
        fields.insert("ui".into(), "1.3".into());
        let t = UNIX_EPOCH + Duration::new(1_795_643_676, 960_409_000);
        // Terraform 1.15.5's first `init -json` line, with tflock's module name.
        assert_eq!(
            stream_line("info", "Terraform 1.15.5", "version", fields, t),
            r#"{"@level":"info","@message":"Terraform 1.15.5","@module":"tflock.ui","@timestamp":"2026-11-25T21:54:36.960409Z","terraform":"1.15.5","type":"version","ui":"1.3"}"#
        );
    }

    #[test]
    fn documents_are_objects_with_format_version_first() {
        let text = json_text(&serde_json::json!({"b": 1, "a": [2]})).unwrap();
        assert!(
            text.starts_with("{\n  \"format_version\": \"1.0\",\n"),
            "{text}"
        );
        assert!(json_text(&[1, 2]).is_err());
    }
}
