//! Does a lock file satisfy a configuration, without the network: Terraform's
//! `VerifyDependencySelections` (what `plan` checks before running), with its
//! "Inconsistent dependency lock file" error, plus the providers the lock holds that the
//! configuration no longer requires — `plan` ignores those, `init` drops them and
//! `init -lockfile=readonly` refuses to.

use crate::addrs::Provider;
use crate::collections::sort;
use crate::lockfile::Locks;
use crate::version::{Constraints, Version};
use crate::{Diagnostic, Diagnostics, Flavor};

/// What the lock says about one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockStatus {
    /// Locked at a version the constraints allow.
    Satisfied,
    /// Required, but the lock has no entry.
    Missing,
    /// Locked at a version the constraints reject.
    Unsatisfied,
    /// Locked, but no longer required.
    Extra,
}

/// One provider of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderCheck {
    /// The provider.
    pub provider: Provider,
    /// The configuration's combined constraints (empty for an extra provider).
    pub constraints: Constraints,
    /// The locked version, when the lock has one.
    pub locked: Option<Version>,
    /// The lock entry's recorded constraints, canonical (empty when none).
    pub locked_constraints: String,
    /// The verdict.
    pub status: LockStatus,
}

/// The check of a lock against a configuration: required providers in address order, then
/// the extra ones in lock order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockCheck {
    /// One row per required (not built-in) or locked provider.
    pub providers: Vec<ProviderCheck>,
    /// The lock had no entry at all (Terraform then suggests a plain `init`).
    pub lock_was_empty: bool,
}

/// Checks `locks` against `requirements`, each provider with its combined constraints (a
/// [`Requirements`](super::Requirements) map, or a configuration's requirements mapped to
/// their `parsed` constraints). Built-in providers are never locked and are left out, as
/// Terraform's `ProviderIsLockable` does.
pub fn check_lock<'r>(
    requirements: impl IntoIterator<Item = (&'r Provider, &'r Constraints)>,
    locks: &Locks,
    flavor: Flavor,
) -> LockCheck {
    let mut providers: Vec<ProviderCheck> = Vec::new();
    let mut required: Vec<&Provider> = Vec::new();
    for (provider, constraints) in requirements {
        required.push(provider);
        if provider.is_builtin_for(flavor) {
            continue;
        }
        let lock = locks.provider(provider);
        let status = match lock {
            None => LockStatus::Missing,
            Some(l) if constraints.allows(l.version()) => LockStatus::Satisfied,
            Some(_) => LockStatus::Unsatisfied,
        };
        providers.push(ProviderCheck {
            provider: provider.clone(),
            constraints: constraints.clone(),
            locked: lock.map(|l| l.version().clone()),
            locked_constraints: lock.map(|l| l.constraints_string()).unwrap_or_default(),
            status,
        });
    }
    for lock in locks.providers() {
        if !required.contains(&lock.addr()) {
            providers.push(ProviderCheck {
                provider: lock.addr().clone(),
                constraints: Constraints::default(),
                locked: Some(lock.version().clone()),
                locked_constraints: lock.constraints_string(),
                status: LockStatus::Extra,
            });
        }
    }
    LockCheck {
        providers,
        lock_was_empty: locks.is_empty(),
    }
}

impl LockStatus {
    /// The verdict's name, as the CLI prints it and the npm package returns it.
    pub fn name(self) -> &'static str {
        match self {
            LockStatus::Satisfied => "satisfied",
            LockStatus::Missing => "missing",
            LockStatus::Unsatisfied => "unsatisfied",
            LockStatus::Extra => "extra",
        }
    }
}

impl ProviderCheck {
    /// Why the provider fails the check, in `VerifyDependencySelections`' words (`None`
    /// when it passes; an extra provider passes, as `plan` ignores it).
    pub fn problem(&self) -> Option<String> {
        let addr = &self.provider;
        let current = self.constraints.canonical();
        let locked = self.locked.as_ref();
        match (&self.status, locked) {
            (LockStatus::Satisfied | LockStatus::Extra, _) => None,
            (LockStatus::Missing, _) | (_, None) => Some(format!(
                "provider {addr}: required by this configuration but no version is selected"
            )),
            // Terraform tells an edited lock (same constraints) from changed constraints.
            (LockStatus::Unsatisfied, Some(v)) if current != self.locked_constraints => Some(
                format!("provider {addr}: locked version selection {v} doesn't match the updated version constraints \"{current}\""),
            ),
            (LockStatus::Unsatisfied, Some(v)) => Some(format!(
                "provider {addr}: version constraints \"{current}\" don't match the locked version selection {v}"
            )),
        }
    }
}

impl LockCheck {
    /// True when every required provider is locked at an allowed version (extra
    /// providers do not count: `plan` ignores them).
    pub fn is_consistent(&self) -> bool {
        self.providers
            .iter()
            .all(|p| matches!(p.status, LockStatus::Satisfied | LockStatus::Extra))
    }

    /// Terraform's diagnostics: `plan`'s "Inconsistent dependency lock file" error for
    /// missing and unsatisfied providers; for extra ones, as a warning, the error
    /// `init -lockfile=readonly` would stop with.
    pub fn diagnostics(&self, flavor: Flavor) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let mut errors: Vec<String> = self
            .providers
            .iter()
            .filter_map(ProviderCheck::problem)
            .collect();
        if !errors.is_empty() {
            // Terraform sorts the errors by their text.
            sort(&mut errors);
            let list: String = errors.iter().map(|e| format!("\n  - {e}")).collect();
            let cmd = flavor.command();
            let suggestion = if self.lock_was_empty {
                format!("To make the initial dependency selections that will initialize the dependency lock file, run:\n  {cmd} init")
            } else {
                format!("To update the locked dependency selections to match a changed configuration, run:\n  {cmd} init -upgrade")
            };
            diags.push(Diagnostic::error(
                "Inconsistent dependency lock file",
                format!("The following dependency selections recorded in the lock file are inconsistent with the current configuration:{list}\n\n{suggestion}"),
            ));
        }
        if self.providers.iter().any(|p| p.status == LockStatus::Extra) {
            let mut d = crate::lockfile::messages::provider_changes_detected(flavor);
            d.severity = crate::Severity::Warning;
            diags.push(d);
        }
        diags
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::SortedMap;
    use crate::install::Requirements;
    use crate::lockfile::ProviderLock;

    fn p(s: &str) -> Provider {
        Provider::parse(s, Flavor::Terraform).unwrap()
    }

    fn c(s: &str) -> Constraints {
        Constraints::parse(s, Flavor::Terraform).unwrap()
    }

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn missing_unsatisfied_and_extra_providers_are_told_apart() {
        let mut reqs: Requirements = SortedMap::new();
        reqs.insert(p("hashicorp/aws"), c("~> 5.0"));
        reqs.insert(p("hashicorp/random"), c(">= 3.0"));
        reqs.insert(p("hashicorp/null"), c(">= 3.0"));
        reqs.insert(p("terraform.io/builtin/terraform"), Constraints::default());
        let mut locks = Locks::new();
        for (addr, version, constraints) in [
            ("hashicorp/aws", "5.1.0", "~> 5.0"),
            ("hashicorp/null", "2.1.0", ">= 2.0"),
            ("hashicorp/tls", "4.0.0", ""),
        ] {
            let constraints = (!constraints.is_empty()).then(|| c(constraints));
            locks.insert(ProviderLock::new(p(addr), v(version), constraints, []));
        }
        let check = check_lock(&reqs, &locks, Flavor::Terraform);
        let statuses: Vec<(String, &LockStatus)> = check
            .providers
            .iter()
            .map(|r| (r.provider.to_string(), &r.status))
            .collect();
        assert_eq!(
            statuses,
            [
                (
                    "registry.terraform.io/hashicorp/aws".into(),
                    &LockStatus::Satisfied
                ),
                (
                    "registry.terraform.io/hashicorp/null".into(),
                    &LockStatus::Unsatisfied
                ),
                (
                    "registry.terraform.io/hashicorp/random".into(),
                    &LockStatus::Missing
                ),
                (
                    "registry.terraform.io/hashicorp/tls".into(),
                    &LockStatus::Extra
                ),
            ]
        );
        assert!(!check.is_consistent());
        let diags = check.diagnostics(Flavor::Terraform);
        let all: Vec<_> = diags.iter().collect();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].summary, "Inconsistent dependency lock file");
        assert_eq!(
            all[0].detail,
            "The following dependency selections recorded in the lock file are inconsistent with the current configuration:\n  \
             - provider registry.terraform.io/hashicorp/null: locked version selection 2.1.0 doesn't match the updated version constraints \">= 3.0.0\"\n  \
             - provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected\n\n\
             To update the locked dependency selections to match a changed configuration, run:\n  terraform init -upgrade"
        );
        assert_eq!(all[1].summary, "Provider dependency changes detected");
        assert_eq!(all[1].severity, crate::Severity::Warning);
    }

    #[test]
    fn an_empty_lock_suggests_init_and_extras_alone_are_consistent() {
        let mut reqs: Requirements = SortedMap::new();
        reqs.insert(p("hashicorp/aws"), c("~> 5.0"));
        let check = check_lock(&reqs, &Locks::new(), Flavor::OpenTofu);
        let d = check.diagnostics(Flavor::OpenTofu);
        assert!(d
            .iter()
            .next()
            .unwrap()
            .detail
            .ends_with("run:\n  tofu init"));

        let mut locks = Locks::new();
        locks.insert(ProviderLock::new(p("hashicorp/tls"), v("4.0.0"), None, []));
        let check = check_lock(&SortedMap::new(), &locks, Flavor::Terraform);
        assert!(check.is_consistent());
        assert!(!check.diagnostics(Flavor::Terraform).has_errors());
    }
}
