//! Versions and version constraints with Terraform's `go-versions` rules: parse, check,
//! select.

/// The core release `required_version` is checked against.
pub use crate::version::CoreVersion;
/// Select the newest version a constraint allows, saying why the others were refused.
pub use crate::version::{select_explained, Explained};
/// A provider version and a constraint set.
pub use crate::version::{Constraints, Version};
