//! The in-memory lock set: Terraform's `depsfile.Locks` and `ProviderLock`.

use crate::addrs::Provider;
use crate::collections::SortedMap;
use crate::hash::PackageHash;
use crate::version::{Constraints, Version};

/// The recorded selection for one provider: version, the constraints that led to it, and
/// the package hashes considered valid for that version.
#[derive(Debug, Clone)]
pub struct ProviderLock {
    addr: Provider,
    version: Version,
    constraints: Option<Constraints>,
    hashes: Vec<PackageHash>,
}

impl ProviderLock {
    /// A lock as Terraform's `NewProviderLock` builds it: hashes sorted bytewise and
    /// de-duplicated, so the written list is a normalized set.
    pub fn new(
        addr: Provider,
        version: Version,
        constraints: Option<Constraints>,
        hashes: impl IntoIterator<Item = PackageHash>,
    ) -> ProviderLock {
        let mut hashes: Vec<PackageHash> = hashes.into_iter().collect();
        crate::collections::sort(&mut hashes);
        hashes.dedup();
        ProviderLock::with_hashes_in_order(addr, version, constraints, hashes)
    }

    /// A lock whose hashes keep the given order, duplicates included: what loading a file
    /// produces, so that an unsorted file compares unequal to the normalized result.
    pub fn with_hashes_in_order(
        addr: Provider,
        version: Version,
        constraints: Option<Constraints>,
        hashes: Vec<PackageHash>,
    ) -> ProviderLock {
        let constraints = constraints.filter(|c| !c.is_empty());
        ProviderLock {
            addr,
            version,
            constraints,
            hashes,
        }
    }

    /// The provider this lock is for.
    pub fn addr(&self) -> &Provider {
        &self.addr
    }

    /// The selected version.
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// The recorded constraints, `None` when there were none.
    pub fn constraints(&self) -> Option<&Constraints> {
        self.constraints.as_ref()
    }

    /// The canonical constraints text (`VersionConstraintsString`), empty when none.
    pub fn constraints_string(&self) -> String {
        self.constraints
            .as_ref()
            .map(Constraints::canonical)
            .unwrap_or_default()
    }

    /// The hashes, in stored order.
    pub fn hashes(&self) -> &[PackageHash] {
        &self.hashes
    }

    /// The hashes whose schemes this release can verify (`h1:` and `zh:`), order kept.
    pub fn preferred_hashes(&self) -> Vec<PackageHash> {
        crate::hash::preferred_hashes(&self.hashes)
    }

    /// Whether every hash of `other` is also in this lock.
    pub fn contains_all(&self, other: &ProviderLock) -> bool {
        other.hashes.iter().all(|h| self.hashes.contains(h))
    }

    /// Terraform's per-provider part of `Locks.Equal`: same address, same version and the
    /// same hash sequence (order-sensitive). Constraints are deliberately not compared.
    pub fn same_selection(&self, other: &ProviderLock) -> bool {
        self.addr == other.addr && self.version == other.version && self.hashes == other.hashes
    }
}

/// A whole dependency lock file's worth of provider selections, keyed and ordered by
/// provider address (`Provider::LessThan`).
#[derive(Debug, Clone, Default)]
pub struct Locks {
    providers: SortedMap<Provider, ProviderLock>,
}

impl Locks {
    /// An empty lock set.
    pub fn new() -> Locks {
        Locks::default()
    }

    /// The same locks with every hash list sorted and de-duplicated, as `init` records
    /// them (what `lockfile fmt` writes).
    pub fn normalized(&self) -> Locks {
        let mut out = Locks::new();
        for l in self.providers() {
            out.insert(ProviderLock::new(
                l.addr().clone(),
                l.version().clone(),
                l.constraints().cloned(),
                l.hashes().iter().cloned(),
            ));
        }
        out
    }

    /// The lock for `addr`, if recorded.
    pub fn provider(&self, addr: &Provider) -> Option<&ProviderLock> {
        self.providers.get(addr)
    }

    /// All locks, sorted by provider address.
    pub fn providers(&self) -> impl Iterator<Item = &ProviderLock> {
        self.providers.values()
    }

    /// The locked provider addresses, sorted.
    pub fn addrs(&self) -> impl Iterator<Item = &Provider> {
        self.providers.keys()
    }

    /// Number of locked providers.
    pub fn len(&self) -> usize {
        self.providers.len()
    }

    /// True when no provider is locked.
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }

    /// Records (or replaces) a selection, normalizing the hashes like `Locks.SetProvider`.
    pub fn set_provider(
        &mut self,
        addr: Provider,
        version: Version,
        constraints: Option<Constraints>,
        hashes: impl IntoIterator<Item = PackageHash>,
    ) -> &ProviderLock {
        let lock = ProviderLock::new(addr.clone(), version, constraints, hashes);
        self.insert(lock)
    }

    /// Stores `lock` as is (hash order kept), replacing any lock for the same provider.
    pub fn insert(&mut self, lock: ProviderLock) -> &ProviderLock {
        let addr = lock.addr.clone();
        self.providers.insert(addr.clone(), lock);
        &self.providers[&addr]
    }

    /// Forgets the lock for `addr`, returning it.
    pub fn remove_provider(&mut self, addr: &Provider) -> Option<ProviderLock> {
        self.providers.remove(addr)
    }

    /// Terraform's `Locks.Equal`: the same providers, each with the same version and the same
    /// hash sequence. Constraints are ignored, so a constraints-only change does not rewrite
    /// the file.
    pub fn equal(&self, other: &Locks) -> bool {
        self.providers.len() == other.providers.len()
            && self.providers.iter().all(|(addr, lock)| {
                other
                    .providers
                    .get(addr)
                    .is_some_and(|o| lock.same_selection(o))
            })
    }

    /// Terraform's `Locks.EqualProviderAddress`: the same set of provider addresses.
    pub fn equal_provider_address(&self, other: &Locks) -> bool {
        self.providers.len() == other.providers.len()
            && self
                .providers
                .keys()
                .all(|a| other.providers.contains_key(a))
    }
}
