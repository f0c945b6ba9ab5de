//! Which configuration problems `init` reports under its "configuration must be valid"
//! preamble ([`init_config_error`]).
//!
//! Terraform 1.15's `init` meets a configuration's problems in one of two steps, and only
//! one of them adds the preamble:
//! - when the root calls a module (or a test file's `run` does), the module installer loads
//!   the whole tree first and its problems end `init` on their own, without the preamble;
//! - otherwise the root module's early load reports them, after the preamble.
//!
//! Problems found only when gathering provider requirements
//! ([`found_installing_providers`]) come later, bare, and only when loading found no error.
//! A refusal of the core version is reported alone, before anything else, when no module is
//! installed; Terraform's module installer checks each module's version as it loads it and
//! reports the refusals with everything else it found (a refused module's other problems
//! left out, as [`crate::config::ModuleTree::diagnostics`] does). OpenTofu prints the
//! preamble as a message before any configuration error.
//!
//! Without module installation, a configuration without errors has its warnings reported
//! only from the full load, which `init` shows after installing providers: when that fails,
//! they are never shown ([`InitConfigReport::after_install`]).

use super::planner::init_config_error;
use crate::config::requirements::found_installing_providers;
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;

/// What `init` reports of a configuration before it installs providers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitConfigReport {
    /// The diagnostics, the preamble among them where Terraform makes it one.
    pub diagnostics: Diagnostics,
    /// A line to print before them (OpenTofu prints the preamble as a message).
    pub message: Option<&'static str>,
    /// Warnings Terraform reports only once providers are installed (in front of
    /// [`Self::diagnostics`]), dropped when installing them fails.
    pub after_install: Diagnostics,
}

/// `init`'s report of the configuration's diagnostics (`config`, as the module tree
/// reports them), given whether it installs modules
/// ([`crate::config::ModuleTree::installs_modules`]).
pub fn init_config_report(
    config: Diagnostics,
    installs_modules: bool,
    flavor: Flavor,
) -> InitConfigReport {
    let is_version = |d: &Diagnostic| {
        d.is_error() && d.summary.starts_with("Unsupported ") && d.summary.ends_with(" version")
    };
    let installer_checks = installs_modules && flavor == Flavor::Terraform;
    if !installer_checks && config.iter().any(is_version) {
        let mut only = Diagnostics::new();
        only.extend(config.iter().filter(|d| is_version(d)).cloned());
        return InitConfigReport {
            diagnostics: only,
            message: None,
            after_install: Diagnostics::new(),
        };
    }
    if flavor == Flavor::OpenTofu {
        let message = config.has_errors().then(|| init_config_error(flavor));
        return InitConfigReport {
            diagnostics: config,
            message,
            after_install: Diagnostics::new(),
        };
    }
    let (installing, loading): (Vec<Diagnostic>, Vec<Diagnostic>) =
        config.0.into_iter().partition(found_installing_providers);
    let mut out = Diagnostics(loading);
    // The module installer reports the root's warnings early; without it only the full load
    // after provider installation does.
    let mut after_install = Diagnostics::new();
    if !out.has_errors() && !installs_modules {
        std::mem::swap(&mut out, &mut after_install);
    }
    if !out.has_errors() && !after_install.has_errors() {
        out.0.extend(installing);
    } else if !installs_modules {
        out.0
            .insert(0, Diagnostic::error(init_config_error(flavor), ""));
    }
    // Errors end `init` here, and Terraform's view prints what it has in its own order.
    if out.has_errors() {
        out.0.sort_by(crate::diag::display_order);
    }
    InitConfigReport {
        diagnostics: out,
        message: None,
        after_install,
    }
}

/// What `terraform providers` reports of a configuration (`config`, as the module tree and
/// its requirements report them): a problem found only when gathering provider requirements
/// ([`found_installing_providers`]) only when loading found no error, since its loader's
/// errors end the command first.
pub fn providers_config_report(config: Diagnostics) -> Diagnostics {
    let (installing, loading): (Vec<Diagnostic>, Vec<Diagnostic>) =
        config.0.into_iter().partition(found_installing_providers);
    let mut out = Diagnostics(loading);
    if !out.has_errors() {
        out.0.extend(installing);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors() -> Diagnostics {
        let mut d = Diagnostics::new();
        d.push(Diagnostic::error("Unsupported argument", "x"));
        d
    }

    #[test]
    fn terraform_adds_the_preamble_only_when_no_modules_are_installed() {
        let early = init_config_report(errors(), false, Flavor::Terraform);
        assert_eq!(
            early.diagnostics.0[0].summary,
            init_config_error(Flavor::Terraform)
        );
        assert_eq!(early.diagnostics.0.len(), 2);
        let installer = init_config_report(errors(), true, Flavor::Terraform);
        assert_eq!(installer.diagnostics, errors());
        assert_eq!(installer.message, None);
    }

    #[test]
    fn requirement_problems_come_bare_and_only_after_a_clean_load() {
        let import = Diagnostic::error(
            "Invalid import provider argument",
            "Use the provider argument in the target resource block",
        );
        let mut only = Diagnostics::new();
        only.push(import.clone());
        let r = init_config_report(only.clone(), false, Flavor::Terraform);
        assert_eq!(r.diagnostics, only);
        let mut both = errors();
        both.push(import);
        let r = init_config_report(both, false, Flavor::Terraform);
        assert_eq!(r.diagnostics.0.len(), 2);
        assert_eq!(r.diagnostics.0[1].summary, "Unsupported argument");
    }

    #[test]
    fn loading_warnings_wait_for_provider_installation_unless_modules_are_installed() {
        let mut warned = Diagnostics::new();
        warned.push(Diagnostic::warning("Deprecated", "d"));
        let r = init_config_report(warned.clone(), false, Flavor::Terraform);
        assert!(r.diagnostics.is_empty());
        assert_eq!(r.after_install, warned);
        let r = init_config_report(warned.clone(), true, Flavor::Terraform);
        assert_eq!(r.diagnostics, warned);
        assert!(r.after_install.is_empty());
    }

    #[test]
    fn errors_are_shown_in_terraforms_view_order() {
        let at = |file: &str, byte: usize| crate::diag::Range {
            filename: file.to_string(),
            start: crate::diag::Pos {
                line: 1,
                column: byte + 1,
                byte,
            },
            end: crate::diag::Pos {
                line: 1,
                column: byte + 2,
                byte: byte + 1,
            },
        };
        let mut d = Diagnostics::new();
        d.push(Diagnostic::error("b", "").with_range(at("mod/a.tf", 0)));
        d.push(Diagnostic::error("a", "").with_range(at("z.tf", 9)));
        d.push(Diagnostic::warning("w", "").with_range(at("z.tf", 0)));
        d.push(Diagnostic::error("c", "").with_range(at("z.tf", 3)));
        let r = init_config_report(d, true, Flavor::Terraform);
        let order: Vec<&str> = r.diagnostics.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(order, ["w", "c", "a", "b"]);
    }

    #[test]
    fn opentofu_prints_the_preamble_as_a_message() {
        let r = init_config_report(errors(), true, Flavor::OpenTofu);
        assert_eq!(r.diagnostics, errors());
        assert_eq!(r.message, Some(init_config_error(Flavor::OpenTofu)));
    }
}
