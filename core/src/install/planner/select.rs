//! Selection (Terraform's `EnsureProviderVersions` steps 1 and 2): built-in providers, locked
//! selections and their conflicts with the constraints, then the version the source offers
//! that the lock or the constraints call for.

use super::journal::{BuiltInProblem, Problem, SelectionFailure, Stage};
use super::outbox::About;
use super::phase::{LocalCopies, Phase, Reusing, Selected, Selecting, Step};
use super::texts;
use super::turn::Turn;
use crate::hash::PackageHash;
use crate::install::needs::{AvailableVersions, Need, SourceError};
use crate::install::options::Mode;
use crate::version::{select_newest, Constraints, Version};

impl Turn<'_> {
    /// A provider's first phase, with the requests it needs asked.
    pub(super) fn start(&mut self) -> Phase {
        let flavor = self.flavor();
        if self.provider.is_builtin_for(flavor) {
            return self.start_builtin();
        }
        let locked = match self.opts.mode {
            Mode::InitUpgrade => None,
            Mode::Init | Mode::ProvidersLock => self.previous_lock().map(|l| l.version().clone()),
        };
        if let Some(conflict) = locked.as_ref().filter(|v| !self.constraints.allows(v)) {
            let line = texts::query_begin(self.provider, self.constraints, true, flavor);
            self.say(Stage::First, line);
            return self.fail_selection(SelectionFailure::LockedConflict(conflict.clone()));
        }
        if !self.lock_mode() {
            // `providers lock` reports only fetches, not queries.
            let line =
                texts::query_begin(self.provider, self.constraints, locked.is_some(), flavor);
            self.say(Stage::Query, line);
        }
        let selecting = Selecting {
            locked,
            local: LocalCopies::Unchecked,
        };
        match self.reuse_first(&selecting) {
            Some(reusing) => Phase::Reusing(reusing),
            None => self.query(selecting),
        }
    }

    fn start_builtin(&mut self) -> Phase {
        let problem = if !self.opts.builtin_types.contains(&self.provider.r#type) {
            Some(BuiltInProblem::Unknown)
        } else if !self.constraints.is_empty() {
            Some(BuiltInProblem::Constrained)
        } else {
            None
        };
        match problem {
            None => {
                self.say(Stage::First, texts::built_in(self.provider, self.flavor()));
                Phase::BuiltIn
            }
            Some(problem) => {
                self.note(Problem::InvalidBuiltIn(problem));
                Phase::Failed
            }
        }
    }

    /// A locked `init` for one platform whose lock entry can check a local copy looks at
    /// the copies first; returns the phase waiting for the first copy asked about.
    fn reuse_first(&mut self, selecting: &Selecting) -> Option<Reusing> {
        let version = selecting.locked.as_ref()?;
        let preferred = self.previous_hashes(version);
        if self.opts.mode != Mode::Init || preferred.is_empty() || self.opts.platforms.len() != 1 {
            return None;
        }
        let check = self.first_local_check(version, &preferred, 0)?;
        Some(Reusing {
            version: version.clone(),
            preferred,
            check,
        })
    }

    /// Asks for the versions the source offers.
    pub(super) fn query(&mut self, selecting: Selecting) -> Phase {
        let need = Need::Versions {
            provider: self.provider.clone(),
        };
        self.ask(About::Versions, need);
        Phase::Selecting(selecting)
    }

    /// Step 2: chooses the version from what the source offers, then starts every platform.
    pub(super) fn on_versions(
        &mut self,
        selecting: Selecting,
        result: Result<AvailableVersions, SourceError>,
    ) -> Phase {
        let available = match result {
            Ok(available) => available,
            Err(err) => return self.fail_selection(SelectionFailure::Source(err)),
        };
        if !available.warnings.is_empty() {
            self.note(Problem::RegistryWarnings(available.warnings));
        }
        match choose(
            selecting.locked.as_ref(),
            self.constraints,
            &available.versions,
        ) {
            Ok(version) => self.select(version, selecting.local),
            Err(failure) => self.fail_selection(failure),
        }
    }

    fn fail_selection(&mut self, failure: SelectionFailure) -> Phase {
        self.note(Problem::Selection(failure));
        Phase::Failed
    }

    fn select(&mut self, version: Version, local: LocalCopies) -> Phase {
        let preferred = self.previous_hashes(&version);
        let platforms = (0..self.opts.platforms.len())
            .map(|i| self.start_platform(&version, &preferred, local, i))
            .collect();
        Phase::Selected(Selected {
            version,
            preferred,
            platforms,
            anchor: None,
        })
    }

    /// Step 3, per platform: reuse what is installed, else the cache, else fetch.
    fn start_platform(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        local: LocalCopies,
        i: usize,
    ) -> Step {
        let check = match local {
            LocalCopies::Unchecked => self.first_local_check(version, preferred, i),
            LocalCopies::Missed => None,
        };
        match check {
            Some(check) => Step::Checking(check),
            None => self.locate(version, i),
        }
    }
}

/// The locked version if the source still offers it, else the newest one the constraints
/// allow.
fn choose(
    locked: Option<&Version>,
    constraints: &Constraints,
    offered: &[Version],
) -> Result<Version, SelectionFailure> {
    match locked {
        Some(locked) => offered
            .iter()
            .find(|v| *v == locked)
            .cloned()
            .ok_or_else(|| SelectionFailure::LockedGone(locked.clone())),
        None => select_newest(constraints, offered).ok_or(SelectionFailure::NoMatch),
    }
}
