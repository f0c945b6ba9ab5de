//! Versions, version constraints (both Terraform parse stages) and version selection,
//! matching go-versions 1.0.2 (Terraform) and 1.0.3 (OpenTofu) and hashicorp/go-version
//! 1.9.0 (the first, config-level stage).

mod canonical;
mod constraint;
mod core_check;
mod error;
mod exact;
mod extra;
mod meet;
mod scan;
mod select;
mod stage1;

pub use constraint::{Boundary, Constraints, Operator, Selection};
pub use core_check::{check_core_version, CoreCheck, CoreVersion};
pub use error::{ConstraintError, VersionError};
pub use exact::Version;
pub use extra::cmp_extra;
pub use select::{select_explained, select_newest, Explained, NoMatch, Origin, Reason, Rejection};
pub use stage1::check_config_syntax;

use crate::Flavor;

/// A config-level constraint error with Terraform's summary and detail texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigConstraintError {
    /// Always `Invalid version constraint`.
    pub summary: String,
    /// `This string does not use correct version constraint syntax.` (first stage) or
    /// `Incorrect version constraint syntax: <go-versions error>.` (second stage).
    pub detail: String,
}

/// Parses a `version = "..."` string from configuration through both stages Terraform
/// applies: go-version's pattern (decode time) and then go-versions' grammar.
pub fn parse_config_constraint(
    s: &str,
    flavor: Flavor,
) -> Result<Constraints, ConfigConstraintError> {
    let summary = "Invalid version constraint".to_string();
    if !check_config_syntax(s) {
        return Err(ConfigConstraintError {
            summary,
            detail: "This string does not use correct version constraint syntax.".into(),
        });
    }
    Constraints::parse(s, flavor).map_err(|e| ConfigConstraintError {
        summary,
        detail: format!("Incorrect version constraint syntax: {e}."),
    })
}
