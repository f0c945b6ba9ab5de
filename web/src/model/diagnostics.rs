//! Diagnostics as the panels list them.

use tflock_core::{Diagnostic, Severity};

/// One diagnostic flattened for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagnosticRow {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// Terraform's one-line summary.
    pub summary: String,
    /// The longer explanation (may be empty).
    pub detail: String,
    /// `file:line:col` of the start of the range, when there is one.
    pub location: Option<String>,
}

impl From<&Diagnostic> for DiagnosticRow {
    fn from(d: &Diagnostic) -> Self {
        DiagnosticRow {
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            summary: d.summary.clone(),
            detail: d.detail.clone(),
            location: d
                .range
                .as_ref()
                .map(|r| format!("{}:{}:{}", r.filename, r.start.line, r.start.column)),
        }
    }
}

/// All of `diags`, in order.
pub fn rows<'a>(diags: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<DiagnosticRow> {
    diags.into_iter().map(DiagnosticRow::from).collect()
}
