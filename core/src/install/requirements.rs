//! From a configuration's provider requirements to the planner's, and the rules Terraform
//! applies to them before installing anything. In core so the CLI, the npm `Planner` and the
//! Worker all apply them.

use super::options::{Mode, Requirements};
use crate::config::ProviderRequirements;
use crate::{Diagnostic, Diagnostics};

/// The planner's requirements: every provider of the configuration with its constraints
/// combined (built-in providers included: the planner skips them).
pub fn from_configuration(reqs: &ProviderRequirements) -> Requirements {
    reqs.providers
        .iter()
        .map(|(p, r)| (p.clone(), r.parsed.clone()))
        .collect()
}

/// Terraform `init` refuses legacy (unqualified, `-/<type>`) provider addresses before
/// installing: the configuration predates the 0.13 upgrade. `providers lock` does not check.
pub fn legacy_address_errors(reqs: &Requirements, mode: Mode) -> Diagnostics {
    let mut diags = Diagnostics::new();
    if mode == Mode::ProvidersLock {
        return diags;
    }
    for p in reqs.keys().filter(|p| p.is_legacy()) {
        diags.push(Diagnostic::error(
            "Invalid legacy provider address",
            format!(
                "This configuration or its associated state refers to the unqualified provider {}.\n\nYou must complete the Terraform 0.13 upgrade process before upgrading to later versions.",
                crate::gotext::quote(&p.r#type)
            ),
        ));
    }
    diags
}
