//! A provider's turn: what a phase handler may read (settings, previous lock, the provider)
//! and where it asks and reports. Handlers are methods on [`Turn`] that take the current
//! phase or step by value and return the next one.

use super::journal::{Journal, Problem, Stage};
use super::outbox::{About, Outbox};
use super::signatures::SignatureMemo;
use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::install::needs::Need;
use crate::install::options::{Mode, PlanOptions};
use crate::lockfile::{Locks, ProviderLock};
use crate::version::{Constraints, Version};
use crate::Flavor;

/// One provider's view of the run while it moves on.
pub(super) struct Turn<'a> {
    /// The planner's settings.
    pub opts: &'a PlanOptions,
    /// The lock file as loaded.
    pub previous: &'a Locks,
    /// The provider.
    pub provider: &'a Provider,
    /// Its combined constraints.
    pub constraints: &'a Constraints,
    outbox: &'a mut Outbox,
    journal: &'a mut Journal,
    /// The provider's signature verdicts so far.
    pub signatures: &'a mut SignatureMemo,
}

impl<'a> Turn<'a> {
    /// A turn for `provider`, asking through `outbox`, recording in `journal` and
    /// remembering signature verdicts in `signatures`.
    pub fn new(
        opts: &'a PlanOptions,
        previous: &'a Locks,
        outbox: &'a mut Outbox,
        provider: &'a Provider,
        constraints: &'a Constraints,
        journal: &'a mut Journal,
        signatures: &'a mut SignatureMemo,
    ) -> Turn<'a> {
        Turn {
            opts,
            previous,
            provider,
            constraints,
            outbox,
            journal,
            signatures,
        }
    }

    /// Whose rules and texts.
    pub fn flavor(&self) -> Flavor {
        self.opts.flavor
    }

    /// True for `providers lock`.
    pub fn lock_mode(&self) -> bool {
        self.opts.mode == Mode::ProvidersLock
    }

    /// The target platform with index `i`.
    pub fn platform(&self, i: usize) -> &'a Platform {
        &self.opts.platforms[i]
    }

    /// The previous lock entry's hashes this release can check, when it locked `version`.
    pub fn previous_hashes(&self, version: &Version) -> Vec<PackageHash> {
        self.previous_lock()
            .filter(|l| l.version() == version)
            .map(ProviderLock::preferred_hashes)
            .unwrap_or_default()
    }

    /// The previous lock entry, whatever its version.
    pub fn previous_lock(&self) -> Option<&'a ProviderLock> {
        self.previous.provider(self.provider)
    }

    /// Shows a progress line now and keeps it for the final output at `stage`.
    pub fn say(&mut self, stage: Stage, line: String) {
        self.outbox.say(line.clone());
        self.journal.add_line(stage, line);
    }

    /// Records a problem for the report.
    pub fn note(&mut self, problem: Problem) {
        self.journal.add_problem(problem);
    }

    /// Asks the host for `need`.
    pub fn ask(&mut self, about: About, need: Need) {
        self.outbox.ask(self.provider, about, need);
    }
}
