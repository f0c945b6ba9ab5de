//! Rendering core values for the terminal: diagnostics and JSON.

use tflock_core::install::{Outcome, OutcomeView};
use tflock_core::lockfile::messages::strip_markup;
use tflock_core::{Diagnostic, Diagnostics, Flavor};

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

/// Prints any serializable value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
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
