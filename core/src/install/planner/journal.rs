//! What happened to one provider, as data: its progress lines by stage and its problems.
//! The phases only record (pubgrub's split of solver and report): `finish` puts the records
//! in the products' order whatever order the host answered in, and `report` picks each
//! problem's text from `texts` for the command.

use super::accept::Rejection;
use crate::install::needs::SourceError;
use crate::version::Version;

/// Where in the output a record goes: the products show every provider's step-one lines
/// (built-ins, lock conflicts) before any query's, and the queries' before any platform's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// Built-in providers and locked selections that conflict with the constraints.
    First,
    /// Querying the source and choosing a version.
    Query,
    /// Obtaining the package for the target platform with this index.
    Platform(usize),
}

/// The parts of the output, in order: the products show a part for every provider before
/// the next part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// [`Stage::First`].
    First,
    /// [`Stage::Query`].
    Query,
    /// Every [`Stage::Platform`], in platform order.
    Platforms,
}

/// One provider's records.
#[derive(Debug)]
pub(super) struct Journal {
    first_lines: Vec<String>,
    query_lines: Vec<String>,
    platform_lines: Vec<Vec<String>>,
    problems: Vec<Problem>,
}

/// Something that went wrong, or deserves a warning.
#[derive(Debug)]
pub(super) enum Problem {
    /// A `terraform.io/builtin/` provider that cannot be used.
    InvalidBuiltIn(BuiltInProblem),
    /// The registry's `warnings` about the provider.
    RegistryWarnings(Vec<String>),
    /// No version can be used.
    Selection(SelectionFailure),
    /// A platform's package could not be obtained from the source.
    Install {
        /// The platform's index.
        platform: usize,
        /// The selected version.
        version: Version,
        /// Why.
        failure: InstallFailure,
    },
    /// The plugin cache's copy does not match the lock, though the setting allowed it.
    CacheMismatch {
        /// The platform's index.
        platform: usize,
        /// The selected version.
        version: Version,
    },
}

/// Why a built-in provider cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BuiltInProblem {
    /// This product has no built-in provider of that type.
    Unknown,
    /// Built-in providers take no version constraints.
    Constrained,
}

/// Why no version can be used.
#[derive(Debug)]
pub(super) enum SelectionFailure {
    /// The locked version does not meet the constraints and the run is not upgrading
    /// (found before any query).
    LockedConflict(Version),
    /// The source could not list its versions.
    Source(SourceError),
    /// The source no longer offers the locked version.
    LockedGone(Version),
    /// No offered version meets the constraints.
    NoMatch,
}

/// Why a platform's package could not be obtained.
#[derive(Debug)]
pub(super) enum InstallFailure {
    /// The source could not describe or deliver it.
    Source(SourceError),
    /// It arrived but was refused.
    Rejected(Rejection),
}

impl Journal {
    /// An empty journal for a run targeting `platforms` platforms.
    pub fn new(platforms: usize) -> Journal {
        Journal {
            first_lines: Vec::new(),
            query_lines: Vec::new(),
            platform_lines: vec![Vec::new(); platforms],
            problems: Vec::new(),
        }
    }

    /// Records a progress line at `stage`.
    pub fn add_line(&mut self, stage: Stage, line: String) {
        let lines = match stage {
            Stage::First => &mut self.first_lines,
            Stage::Query => &mut self.query_lines,
            Stage::Platform(i) => match self.platform_lines.get_mut(i) {
                Some(lines) => lines,
                None => return,
            },
        };
        lines.push(line);
    }

    /// Records a problem.
    pub fn add_problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    /// The lines recorded in `part`, in order.
    pub fn lines(&self, part: Part) -> impl Iterator<Item = &String> {
        let (stage, platforms): (&[String], &[Vec<String>]) = match part {
            Part::First => (&self.first_lines, &[]),
            Part::Query => (&self.query_lines, &[]),
            Part::Platforms => (&[], &self.platform_lines),
        };
        stage.iter().chain(platforms.iter().flatten())
    }

    /// The lines recorded for the platform with index `i`, in order.
    pub fn platform_lines(&self, i: usize) -> &[String] {
        self.platform_lines.get(i).map_or(&[], Vec::as_slice)
    }

    /// The problems recorded in `part`, in order.
    pub fn problems_in(&self, part: Part) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(move |p| p.stage().part() == part)
    }

    /// Every problem, in order.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl Stage {
    /// The part of the output the stage belongs to.
    pub fn part(self) -> Part {
        match self {
            Stage::First => Part::First,
            Stage::Query => Part::Query,
            Stage::Platform(_) => Part::Platforms,
        }
    }
}

impl Problem {
    /// The stage whose output reports it.
    pub fn stage(&self) -> Stage {
        match self {
            Problem::InvalidBuiltIn(_)
            | Problem::Selection(SelectionFailure::LockedConflict(_)) => Stage::First,
            Problem::RegistryWarnings(_) | Problem::Selection(_) => Stage::Query,
            Problem::Install { platform, .. } | Problem::CacheMismatch { platform, .. } => {
                Stage::Platform(*platform)
            }
        }
    }
}
