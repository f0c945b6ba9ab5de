//! The planner state machine: Terraform's `EnsureProviderVersions` (and the `init` /
//! `providers lock` commands around it) with every IO step turned into a request.
//!
//! Each required provider has an explicit [`phase::Phase`] (selecting a version, or for a
//! locked `init` first reusing a local copy; then per platform a [`phase::Step`]: local
//! copies, locating, fetching, obtained or failed). A handler takes the phase or step by
//! value and returns the next one while the provider stays in the map, so no provider can
//! drop out of the run. Handlers record lines and problems in the provider's
//! [`journal::Journal`]; `finish` and `report` order them and `texts` words them.
//!
//! The states, the answer each waits for, and the file whose handler makes each move
//! (`Planner::answer` below lets through only the answer a state waits for, then
//! `on_answer` / `on_step` route it):
//!
//! ```text
//! Phase (one per provider)
//!
//!   Planner::new ── start (select.rs)
//!     ├─ built-in and known, unconstrained ─────────────────────────► BuiltIn       [final]
//!     ├─ built-in but unknown or constrained ───────────────────────► Failed        [final]
//!     ├─ locked version the constraints refuse ─────────────────────► Failed
//!     ├─ locked `init`, one platform, lock has hashes (reuse.rs) ───► Reusing(check)
//!     └─ otherwise: ask Need::Versions ─────────────────────────────► Selecting{Unchecked}
//!
//!   Reusing(check) ── Answer::LocalPackage ── on_reused (reuse.rs)
//!     ├─ installed copy matches the lock ───────► Selected{[Kept]}
//!     ├─ cached copy usable ────────────────────► Selected{[Obtained]}
//!     ├─ cached copy matches no locked hash ────► Selected{[Failed]}
//!     ├─ installed copy missed, cache enabled ──► Reusing(Cache)
//!     └─ no usable copy: ask Need::Versions ────► Selecting{Missed}
//!
//!   Selecting ── Answer::Versions ── on_versions (select.rs)
//!     ├─ source error, locked version gone, nothing allowed ──► Failed
//!     └─ version chosen ── select ──► Selected{one Step per target platform}
//!
//! Step (one per target platform, inside Selected)
//!
//!   start_platform (select.rs)
//!     ├─ Unchecked and a local copy is worth a look (reuse.rs) ──► Checking(Installed | Cache)
//!     └─ otherwise: ask Need::PackageMeta (fetch.rs `locate`) ───► Locating
//!
//!   Checking(check) ── Answer::LocalPackage ── on_local (reuse.rs)
//!     ├─ installed copy matches the lock ──► Kept                       [final]
//!     ├─ cached copy usable ───────────────► Obtained(Via::PluginCache) [final]
//!     ├─ cached copy matches no lock hash ─► Failed                     [final]
//!     ├─ installed missed, cache enabled ──► Checking(Cache)
//!     └─ no usable copy ───────────────────► Locating
//!
//!   Locating ── Answer::PackageMeta ── on_location (fetch.rs)
//!     ├─ source error ─────────────────────► Failed
//!     ├─ -metadata-hashes, h1: and zh: listed ► Described(SourcePackage)
//!     └─ described: ask Need::Package ─────► Fetching(SourcePackage)
//!
//!   Described ── every platform located ── settle_described (metadata.rs)
//!     ├─ first described, no anchor yet: ask Need::Package ──► Fetching (the anchor)
//!     ├─ anchor obtained with the claimed h1: ──► Obtained (from metadata) or Failed
//!     └─ anchor failed or hashed otherwise: ask Need::Package ► Fetching
//!
//!   Fetching ── Answer::Package ── on_package (fetch.rs; the verdict is accept.rs)
//!     ├─ accepted ─────────────────────────► Obtained(Via::Source)
//!     └─ source error or rejected ─────────► Failed
//!
//! When no request is left, Planner::finish (finish.rs) turns the final states into the
//! Outcome; report.rs orders the journal's problems and texts.rs words every line.
//! ```

mod accept;
#[cfg(test)]
mod accept_tests;
mod fetch;
mod finish;
mod journal;
mod metadata;
#[cfg(test)]
mod metadata_tests;
mod outbox;
mod phase;
mod report;
mod reuse;
mod select;
mod signatures;
mod texts;

pub use texts::{init_config_error, init_header};
mod turn;

use super::needs::{Answer, NeedId, Request};
use super::options::{Mode, PlanOptions, Requirements};
use crate::addrs::Provider;
use crate::collections::SortedMap;
use crate::hash::PackageHash;
use crate::lockfile::Locks;
use crate::version::{Constraints, Version};
use journal::Journal;
use outbox::{About, Outbox};
use phase::{Phase, Step};
use reuse::Local;
use signatures::SignatureMemo;
use turn::Turn;

/// Drives one `init` / `init -upgrade` / `providers lock` run without doing any IO.
#[derive(Debug)]
pub struct Planner {
    opts: PlanOptions,
    previous: Locks,
    outbox: Outbox,
    providers: SortedMap<Provider, Entry>,
}

/// An answer the planner cannot take: a bug in the host, not in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// No request with this id is outstanding.
    #[error("no outstanding request with id {0}")]
    UnknownRequest(u32),
    /// The answer is of another kind than the request (the request and answer, debugged).
    #[error("{0}")]
    Misfit(String),
}

/// One required provider: its constraints, what happened to it so far, and where it is.
#[derive(Debug)]
struct Entry {
    constraints: Constraints,
    journal: Journal,
    phase: Phase,
    signatures: SignatureMemo,
}

impl Planner {
    /// Starts a run for `requirements` (from configuration) against `previous` (the lock
    /// file as loaded; empty when there is none).
    pub fn new(requirements: Requirements, previous: Locks, options: PlanOptions) -> Planner {
        let mut planner = Planner {
            opts: options,
            previous,
            outbox: Outbox::default(),
            providers: SortedMap::new(),
        };
        for (provider, constraints) in requirements {
            let builtin = provider.is_builtin_for(planner.opts.flavor);
            if builtin && planner.opts.mode == Mode::ProvidersLock {
                continue; // built-in providers don't participate in locking
            }
            let mut journal = Journal::new(planner.opts.platforms.len());
            let mut signatures = SignatureMemo::default();
            let phase = Turn::new(
                &planner.opts,
                &planner.previous,
                &mut planner.outbox,
                &provider,
                &constraints,
                &mut journal,
                &mut signatures,
            )
            .start();
            let entry = Entry {
                constraints,
                journal,
                phase,
                signatures,
            };
            planner.providers.insert(provider, entry);
        }
        planner
    }

    /// The next request the host should perform, or `None` when every request that can be
    /// made now has been handed out (answer the outstanding ones, then ask again).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Request> {
        self.outbox.next()
    }

    /// All requests that can be made now; hosts that work in parallel take them together.
    pub fn take_requests(&mut self) -> Vec<Request> {
        self.outbox.take_requests()
    }

    /// True when nothing is queued or outstanding: call [`Planner::finish`].
    pub fn is_done(&self) -> bool {
        self.outbox.is_idle()
    }

    /// Progress lines produced since the last call, for live display.
    pub fn drain_progress(&mut self) -> Vec<String> {
        self.outbox.drain_progress()
    }

    /// Feeds back the host's answer to request `id`.
    ///
    /// Fails (changing nothing) when `id` is unknown or the answer's kind does not fit the
    /// request: those are bugs in the host, not in the input.
    pub fn answer(&mut self, id: NeedId, answer: Answer) -> Result<(), AnswerError> {
        let asked = self.outbox.asked(id).cloned();
        let Some((asked, entry)) =
            asked.and_then(|a| self.providers.get_mut(&a.provider).map(|entry| (a, entry)))
        else {
            return Err(texts::unknown_request(id));
        };
        let awaited = entry.phase.awaits(asked.about);
        if !awaited.is_some_and(|a| a.fits(&answer)) {
            return Err(texts::misfit_answer(id, &answer, &asked, awaited));
        }
        self.outbox.settle(id);
        let mut turn = Turn::new(
            &self.opts,
            &self.previous,
            &mut self.outbox,
            &asked.provider,
            &entry.constraints,
            &mut entry.journal,
            &mut entry.signatures,
        );
        entry
            .phase
            .advance(|phase| turn.on_answer(phase, asked.about, answer));
        Ok(())
    }
}

impl Turn<'_> {
    /// The phase an answer the phase waits for leads to.
    fn on_answer(&mut self, phase: Phase, about: About, answer: Answer) -> Phase {
        match (phase, about, answer) {
            (Phase::Selecting(selecting), _, Answer::Versions(result)) => {
                self.on_versions(selecting, result)
            }
            (Phase::Reusing(reusing), _, Answer::LocalPackage(h1)) => self.on_reused(reusing, h1),
            (Phase::Selected(mut selected), About::Platform(i), answer) => {
                selected.advance(i, |version, preferred, step| {
                    self.on_step(version, preferred, i, step, answer)
                });
                self.settle_described(&mut selected);
                Phase::Selected(selected)
            }
            // `Planner::answer` lets through only the answers a phase waits for.
            (phase, _, _) => phase,
        }
    }

    /// The step an answer for platform `i` leads to.
    fn on_step(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        step: Step,
        answer: Answer,
    ) -> Step {
        match (step, answer) {
            (Step::Checking(check), Answer::LocalPackage(h1)) => {
                match self.on_local(check, version, preferred, i, h1) {
                    Local::Settled(step) => step,
                    Local::Checking(check) => Step::Checking(check),
                    Local::Missed => self.locate(version, i),
                }
            }
            (Step::Locating, Answer::PackageMeta(result)) => {
                self.on_location(version, preferred, i, result)
            }
            (Step::Fetching(source), Answer::Package(result)) => {
                self.on_package(version, i, *source, result)
            }
            // As above: only awaited answers get here.
            (step, _) => step,
        }
    }
}
