//! The lock-related messages `init` prints, per flavour, as values.

use super::model::Locks;
use crate::{Diagnostic, Flavor};

/// What `init` says after writing the lock file, with Terraform's `[bold]`/`[reset]` colour
/// markup left in (strip it with [`strip_markup`] for plain output).
pub fn lock_written_message(previous: &Locks, flavor: Flavor) -> String {
    let product = flavor.product();
    if previous.is_empty() {
        format!(
            "\n{product} has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\n\
             selections it made above. Include this file in your version control repository\n\
             so that {product} can guarantee to make the same selections by default when\n\
             you run \"{} init\" in the future.",
            flavor.command()
        )
    } else {
        format!(
            "\n{product} has made some changes to the provider dependency selections recorded\n\
             in the .terraform.lock.hcl file. Review those changes and commit them to your\n\
             version control system if they represent changes you intended to make."
        )
    }
}

/// Removes `[bold]`/`[reset]` style markup.
pub fn strip_markup(s: &str) -> String {
    ["[bold]", "[reset]", "[green]", "[red]", "[yellow]"]
        .iter()
        .fold(s.to_string(), |acc, tag| acc.replace(tag, ""))
}

/// The `-lockfile=readonly` outcome when the locks changed: an error if the set of providers
/// differs, otherwise a warning; `None` when nothing changed.
pub fn readonly_outcome(previous: &Locks, new: &Locks, flavor: Flavor) -> Option<Diagnostic> {
    if new.equal(previous) {
        return None;
    }
    let cmd = flavor.command();
    Some(if !new.equal_provider_address(previous) {
        provider_changes_detected(flavor)
    } else {
        Diagnostic::warning(
            "Provider lock file not updated",
            format!("Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run \"{cmd} init\" without the \"-lockfile=readonly\" flag."),
        )
    })
}

/// `init -lockfile=readonly`'s error when the set of locked providers would change.
pub fn provider_changes_detected(flavor: Flavor) -> Diagnostic {
    let cmd = flavor.command();
    Diagnostic::error(
        "Provider dependency changes detected",
        format!("Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"{cmd} init\" without the \"-lockfile=readonly\" flag."),
    )
}

/// The warning when some providers only got locally calculated checksums: `providers` are
/// their `ForDisplay` names (sorted here), `platform` the current `os_arch`.
pub fn incomplete_lock_warning(providers: &[String], platform: &str, flavor: Flavor) -> Diagnostic {
    let product = flavor.product();
    let mut names: Vec<&String> = providers.iter().collect();
    crate::collections::sort(&mut names);
    let list: String = names.iter().map(|p| format!("  - {p}\n")).collect();
    Diagnostic::warning(
        "Incomplete lock file information for providers",
        format!(
            "Due to your customized provider installation methods, {product} was forced to calculate lock file checksums locally for the following providers:\n{list}\n\
             The current .terraform.lock.hcl file only includes checksums for {platform}, so {product} running on another platform will fail to install these providers.\n\n\
             To calculate additional checksums for another platform, run:\n  {} providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)",
            flavor.command()
        ),
    )
}

/// `SaveLocksToFile`'s error when the lock file cannot be written; `error` is the Go-style
/// error text of the failed write (`write .terraform.lock.hcl: no space left on device`).
pub fn write_failed(file: &str, error: &str) -> Diagnostic {
    Diagnostic::error(
        "Failed to update dependency lock file",
        format!("Error while writing new dependency lock information to {file}: {error}."),
    )
}
