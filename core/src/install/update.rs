//! Moving one provider of a lock to one version, as dependency bots (Renovate, Dependabot)
//! do: the run `providers lock` makes for that provider alone, after the configuration's
//! constraints were changed to select the new version.
//!
//! The bump is planned as `providers lock` plans it ([`Mode::ProvidersLock`], which keeps a
//! locked selection): the previous lock given to the planner already selects the new
//! version, with the entry's hashes when the version is unchanged (so they are kept and
//! completed) and none otherwise (a different version's hashes can never match). Only the
//! updated provider is required, so every other entry is left as it was. Each requested
//! platform's package is then authenticated, hashed and recorded exactly as `providers lock
//! -platform=...` would do it, with every `zh:` of the signed `SHA256SUMS`.

use super::options::Requirements;
use super::outcome::Outcome;
use crate::addrs::Provider;
use crate::lockfile::{diff_locks, Locks};
use crate::version::{Constraints, Version};

/// A planned bump: what to hand the planner, and the lock it started from.
#[derive(Debug, Clone)]
pub struct ProviderUpdate {
    /// The one provider to plan, with its constraints.
    pub requirements: Requirements,
    /// The lock the planner starts from: `original` with the provider selecting the new
    /// version.
    pub previous: Locks,
    /// The caller's lock, for the outcome's changes and for a failed run.
    original: Locks,
}

impl ProviderUpdate {
    /// Moves `provider` to `version` in `lock`. The recorded constraints are `constraints`
    /// when given (the configuration's new ones), else the entry's (an absent entry is
    /// added, unconstrained). A version the constraints do not allow fails in the planner
    /// with Terraform's text for a locked version that conflicts with them.
    pub fn new(
        lock: &Locks,
        provider: &Provider,
        version: &Version,
        constraints: Option<Constraints>,
    ) -> ProviderUpdate {
        let entry = lock.provider(provider);
        let constraints = constraints.or_else(|| entry.and_then(|e| e.constraints().cloned()));
        let hashes = entry
            .filter(|e| e.version() == version)
            .map(|e| e.hashes().to_vec())
            .unwrap_or_default();
        let mut previous = lock.clone();
        previous.set_provider(
            provider.clone(),
            version.clone(),
            constraints.clone(),
            hashes,
        );
        let mut requirements = Requirements::new();
        requirements.insert(provider.clone(), constraints.unwrap_or_default());
        ProviderUpdate {
            requirements,
            previous,
            original: lock.clone(),
        }
    }

    /// The planner's outcome as the caller sees it: changes measured from the caller's lock,
    /// which is also the lock of a run that failed.
    pub fn outcome(&self, mut outcome: Outcome) -> Outcome {
        if outcome.has_errors() || !outcome.write_lock {
            outcome.new_lock = self.original.clone();
        }
        outcome.write_lock = !outcome.has_errors() && !outcome.new_lock.equal(&self.original);
        outcome.changes = diff_locks(&self.original, &outcome.new_lock);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::PackageHash;
    use crate::Flavor;

    fn provider(s: &str) -> Provider {
        Provider::parse(s, Flavor::Terraform).unwrap()
    }

    fn lock() -> Locks {
        let mut l = Locks::new();
        let h1 = PackageHash::parse("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap();
        let c = Constraints::parse("~> 1.0", Flavor::Terraform).unwrap();
        l.set_provider(
            provider("acme/demo"),
            Version::parse("1.0.0").unwrap(),
            Some(c),
            [h1.clone()],
        );
        l.set_provider(
            provider("acme/other"),
            Version::parse("2.0.0").unwrap(),
            None,
            [h1],
        );
        l
    }

    #[test]
    fn a_new_version_starts_without_the_old_versions_hashes_and_keeps_the_constraints() {
        let u = ProviderUpdate::new(
            &lock(),
            &provider("acme/demo"),
            &Version::parse("1.2.0").unwrap(),
            None,
        );
        let entry = u.previous.provider(&provider("acme/demo")).unwrap();
        assert_eq!(entry.version().to_string(), "1.2.0");
        assert!(entry.hashes().is_empty());
        assert_eq!(entry.constraints_string(), "~> 1.0");
        assert_eq!(u.requirements.len(), 1);
        assert_eq!(u.requirements[&provider("acme/demo")].to_string(), "~> 1.0");
        // The other provider is neither planned nor changed.
        assert_eq!(
            u.previous
                .provider(&provider("acme/other"))
                .unwrap()
                .hashes()
                .len(),
            1
        );
    }

    #[test]
    fn the_same_version_keeps_its_hashes_to_complete_them() {
        let u = ProviderUpdate::new(
            &lock(),
            &provider("acme/demo"),
            &Version::parse("1.0.0").unwrap(),
            Some(Constraints::parse(">= 1.0", Flavor::Terraform).unwrap()),
        );
        let entry = u.previous.provider(&provider("acme/demo")).unwrap();
        assert_eq!(entry.hashes().len(), 1);
        assert_eq!(entry.constraints_string(), ">= 1.0.0");
    }

    #[test]
    fn a_provider_missing_from_the_lock_is_added_unconstrained() {
        let u = ProviderUpdate::new(
            &lock(),
            &provider("acme/new"),
            &Version::parse("0.1.0").unwrap(),
            None,
        );
        assert!(u.requirements[&provider("acme/new")].is_empty());
        assert_eq!(u.previous.len(), 3);
    }
}
