//! Error values for versions and constraints, carrying go-versions' exact texts.

use std::fmt;

/// A version string was not a valid exact version; `Display` is go-versions' message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionError {
    message: String,
}

impl VersionError {
    pub(crate) fn new(message: impl Into<String>) -> VersionError {
        VersionError {
            message: message.into(),
        }
    }

    /// The message text, e.g. `a "v" prefix should not be used`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for VersionError {}

/// A constraint string was rejected by `ParseRubyStyleMulti`; `Display` is the exact text
/// of the go-versions release the chosen flavour pins (e.g.
/// `invalid specification "~>  1.0": only one space is expected after the operator "~>"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintError {
    message: String,
}

impl ConstraintError {
    pub(crate) fn new(message: impl Into<String>) -> ConstraintError {
        ConstraintError {
            message: message.into(),
        }
    }

    /// The message text.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConstraintError {}
