//! Rendering core values for the terminal: diagnostics and JSON.

use tflock_core::{Diagnostic, Diagnostics};

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
