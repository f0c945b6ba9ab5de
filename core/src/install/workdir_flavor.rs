//! Which product a working directory belongs to when the user named none (no `-flavor`, no
//! `TFLOCK_FLAVOR`): the lock file's header, else OpenTofu-only files in the root module,
//! else Terraform. Every host decides with this one rule, so `init`, `providers lock` and
//! the `lockfile` commands never disagree about the same directory.

use crate::config::files::config_ext;
use crate::lockfile::{header_names, LOCK_FILE_NAME};
use crate::Flavor;

/// Why a flavour was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlavorReason {
    /// The user named it (`-flavor`, `TFLOCK_FLAVOR`).
    Given,
    /// The lock file's first line names the product that wrote it. `ignored` is an
    /// OpenTofu-only file that pointed the other way, if any.
    LockHeader {
        /// A `.tofu`/`.tofu.json` file outvoted by a `"terraform init"` header.
        ignored: Option<String>,
    },
    /// No lock header; the root module has OpenTofu-only files (the first, by name).
    TofuFile(String),
    /// Nothing points anywhere: Terraform, as `terraform` itself would run.
    Default,
}

/// The chosen flavour and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlavorChoice {
    /// The flavour to follow.
    pub flavor: Flavor,
    /// Why.
    pub reason: FlavorReason,
}

/// Chooses the flavour: `given` wins; then the header of `lock_text` (the lock file's
/// contents, `None` when there is none); then any `.tofu`/`.tofu.json` among `file_names`
/// (the root module directory's entries); else Terraform.
///
/// The header comes first because it records what the team ran last: a repository moving
/// to OpenTofu keeps its `.tf` files, and one with a `.tofu` override for OpenTofu users
/// may still be locked by Terraform.
pub fn choose_flavor(
    given: Option<Flavor>,
    lock_text: Option<&str>,
    file_names: &[&str],
) -> FlavorChoice {
    if let Some(flavor) = given {
        return FlavorChoice {
            flavor,
            reason: FlavorReason::Given,
        };
    }
    let mut tofu_files: Vec<&str> = file_names
        .iter()
        .copied()
        .filter(|n| is_tofu_only(n))
        .collect();
    crate::collections::sort(&mut tofu_files);
    let first_tofu = tofu_files.first().map(|n| n.to_string());
    if let Some(flavor) = lock_text.and_then(header_names) {
        let ignored = if flavor == Flavor::Terraform {
            first_tofu
        } else {
            None
        };
        return FlavorChoice {
            flavor,
            reason: FlavorReason::LockHeader { ignored },
        };
    }
    match first_tofu {
        Some(name) => FlavorChoice {
            flavor: Flavor::OpenTofu,
            reason: FlavorReason::TofuFile(name),
        },
        None => FlavorChoice {
            flavor: Flavor::Terraform,
            reason: FlavorReason::Default,
        },
    }
}

/// A file only OpenTofu reads as configuration (`main.tofu`, `x.tofu.json`).
fn is_tofu_only(name: &str) -> bool {
    config_ext(name, Flavor::OpenTofu).is_some() && config_ext(name, Flavor::Terraform).is_none()
}

impl FlavorChoice {
    /// The one line a host prints about the choice, or `None` when there is nothing to
    /// say: a flavour the user named, and Terraform where nothing suggested otherwise,
    /// stay silent so Terraform users' output is exactly Terraform's.
    pub fn message(&self) -> Option<String> {
        let product = self.flavor.product();
        let other = match self.flavor {
            Flavor::Terraform => Flavor::OpenTofu,
            Flavor::OpenTofu => Flavor::Terraform,
        };
        let why = match &self.reason {
            FlavorReason::Given | FlavorReason::Default => return None,
            FlavorReason::LockHeader { ignored: None } if self.flavor == Flavor::Terraform => {
                return None
            }
            FlavorReason::LockHeader { ignored: None } => format!(
                "{LOCK_FILE_NAME} was written by \"{} init\"",
                self.flavor.command()
            ),
            FlavorReason::LockHeader {
                ignored: Some(file),
            } => format!(
                "{LOCK_FILE_NAME} was written by \"{} init\"; {file} is ignored",
                self.flavor.command()
            ),
            FlavorReason::TofuFile(file) => format!("{file} is OpenTofu configuration"),
        };
        Some(format!(
            "tflock: following {product} ({why}); -flavor={} overrides",
            other.name()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOFU_LOCK: &str = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";
    const TF_LOCK: &str = "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";

    #[test]
    fn a_named_flavour_wins_over_every_signal_and_says_nothing() {
        let c = choose_flavor(Some(Flavor::Terraform), Some(TOFU_LOCK), &["main.tofu"]);
        assert_eq!(c.flavor, Flavor::Terraform);
        assert_eq!(c.reason, FlavorReason::Given);
        assert_eq!(c.message(), None);
    }

    #[test]
    fn a_tofu_lock_header_makes_the_directory_opentofu_and_says_why() {
        let c = choose_flavor(None, Some(TOFU_LOCK), &["main.tf"]);
        assert_eq!(c.flavor, Flavor::OpenTofu);
        assert_eq!(
            c.message().as_deref(),
            Some("tflock: following OpenTofu (.terraform.lock.hcl was written by \"tofu init\"); -flavor=terraform overrides")
        );
    }

    #[test]
    fn a_terraform_lock_header_outvotes_tofu_files_and_names_the_file_it_ignored() {
        let c = choose_flavor(None, Some(TF_LOCK), &["z.tofu", "main.tf", "a.tofu.json"]);
        assert_eq!(c.flavor, Flavor::Terraform);
        assert_eq!(
            c.message().as_deref(),
            Some("tflock: following Terraform (.terraform.lock.hcl was written by \"terraform init\"; a.tofu.json is ignored); -flavor=opentofu overrides")
        );
    }

    #[test]
    fn a_terraform_lock_header_alone_is_the_default_and_silent() {
        let c = choose_flavor(None, Some(TF_LOCK), &["main.tf"]);
        assert_eq!(c.flavor, Flavor::Terraform);
        assert_eq!(c.message(), None);
    }

    #[test]
    fn without_a_header_tofu_files_make_it_opentofu() {
        for lock in [None, Some(""), Some("provider \"x\" {}\n")] {
            let c = choose_flavor(None, lock, &["main.tf", "versions.tofu"]);
            assert_eq!(c.flavor, Flavor::OpenTofu, "{lock:?}");
            assert_eq!(
                c.message().as_deref(),
                Some("tflock: following OpenTofu (versions.tofu is OpenTofu configuration); -flavor=terraform overrides")
            );
        }
    }

    #[test]
    fn no_signal_is_terraform_and_silent() {
        let c = choose_flavor(None, None, &["main.tf", "x.tofutest.hcl", "notes.tofu.txt"]);
        assert_eq!(c.flavor, Flavor::Terraform);
        assert_eq!(c.reason, FlavorReason::Default);
        assert_eq!(c.message(), None);
    }
}
