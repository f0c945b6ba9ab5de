//! Address parse errors with Terraform's summary and detail texts.

use std::fmt;

/// A provider source address was rejected (`tfaddr.ParserError`): exact texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddrError {
    /// e.g. `Invalid provider source string`.
    pub summary: String,
    /// e.g. `The "source" attribute must be in the format "[hostname/][namespace/]name"`.
    pub detail: String,
}

impl AddrError {
    pub(crate) fn new(summary: impl Into<String>, detail: impl Into<String>) -> AddrError {
        AddrError {
            summary: summary.into(),
            detail: detail.into(),
        }
    }

    /// The error as a diagnostic (no source range; the caller adds one).
    pub fn to_diagnostic(&self) -> crate::Diagnostic {
        crate::Diagnostic::error(self.summary.clone(), self.detail.clone())
    }
}

/// `summary: detail`, as Go's `ParserError.Error()` prints it.
impl fmt::Display for AddrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.summary, self.detail)
    }
}

impl std::error::Error for AddrError {}
