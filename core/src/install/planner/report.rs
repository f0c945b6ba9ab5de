//! The report side of the run: which text each recorded problem gets for the command. `init`
//! shows each problem as its own diagnostic; `providers lock` lists selection and fetch errors
//! in one diagnostic for the platform they concern (see `finish`).

use super::journal::{BuiltInProblem, InstallFailure, Problem, SelectionFailure};
use super::texts;
use crate::addrs::Provider;
use crate::install::needs::SourceError;
use crate::install::options::PlanOptions;
use crate::version::Constraints;
use crate::Diagnostic;

/// The provider a problem belongs to, with what its texts mention.
#[derive(Debug, Clone, Copy)]
pub(super) struct Subject<'a> {
    /// The planner's settings.
    pub opts: &'a PlanOptions,
    /// The provider.
    pub provider: &'a Provider,
    /// Its combined constraints.
    pub constraints: &'a Constraints,
}

/// How `providers lock` reports a problem.
pub(super) enum LockReport {
    /// As a line of the diagnostic for the platform with this index.
    Listed(usize, String),
    /// As a diagnostic of its own.
    Alone(Diagnostic),
    /// Not at all.
    Silent,
}

/// The diagnostic `init` shows for `problem`.
pub(super) fn init_diagnostic(problem: &Problem, s: Subject<'_>) -> Diagnostic {
    let (p, f) = (s.provider, s.opts.flavor);
    match problem {
        Problem::InvalidBuiltIn(why) => texts::invalid_builtin(p, &builtin_reason(*why, s), f),
        Problem::RegistryWarnings(warnings) => texts::registry_warnings(p, warnings),
        Problem::Selection(failure) => texts::query_failure(p, &selection_error(failure, s), f),
        Problem::Install {
            platform,
            version,
            failure: InstallFailure::Source(err),
        } => texts::install_source_failure(p, version, &s.opts.platforms[*platform], err, f),
        Problem::Install {
            version, failure, ..
        } => texts::install_failure(p, version, &install_error(failure), f),
        Problem::CacheMismatch { version, .. } => texts::cache_mismatch(p, version, f),
    }
}

/// How `providers lock` reports `problem`.
pub(super) fn lock_report(problem: &Problem, s: Subject<'_>) -> LockReport {
    match problem {
        // Selection concerns every platform; Terraform reports it with the first.
        Problem::Selection(failure) => LockReport::Listed(0, selection_error(failure, s).message),
        Problem::Install {
            platform, failure, ..
        } => LockReport::Listed(*platform, install_error(failure)),
        Problem::InvalidBuiltIn(_) | Problem::RegistryWarnings(_) => {
            LockReport::Alone(init_diagnostic(problem, s))
        }
        // As the planner always has: `providers lock` leaves the platform out of the lock
        // without a word.
        Problem::CacheMismatch { .. } => LockReport::Silent,
    }
}

/// A selection failure as the source error `init`'s query diagnostic words by its kind.
fn selection_error(failure: &SelectionFailure, s: Subject<'_>) -> SourceError {
    let (p, f) = (s.provider, s.opts.flavor);
    match failure {
        SelectionFailure::Source(err) => err.clone(),
        SelectionFailure::LockedConflict(locked) => {
            SourceError::other(texts::locked_conflict(p, locked, s.constraints, f))
        }
        SelectionFailure::LockedGone(locked) => {
            SourceError::other(texts::locked_version_gone(locked))
        }
        SelectionFailure::NoMatch => SourceError::other(texts::no_matching_version(s.constraints)),
    }
}

/// The error text of an install failure.
fn install_error(failure: &InstallFailure) -> String {
    match failure {
        InstallFailure::Source(err) => err.message.clone(),
        InstallFailure::Rejected(r) => texts::rejection(r),
    }
}

fn builtin_reason(why: BuiltInProblem, s: Subject<'_>) -> String {
    match why {
        BuiltInProblem::Unknown => texts::no_such_builtin(s.provider, s.opts.flavor),
        BuiltInProblem::Constrained => texts::BUILTIN_CONSTRAINED.to_string(),
    }
}
