//! Choosing a version: Terraform's `List.NewestInSet(MeetingConstraints(...))`, plus an
//! explanation of why newer candidates were passed over (which Terraform cannot say).

use super::constraint::{Constraints, Selection};
use super::exact::Version;
use super::meet::{allows, in_exact_set, requests};
use std::cmp::Ordering;
use std::fmt;

/// The newest version in `available` that meets `c`, as Terraform picks it: candidates
/// are scanned from the end and only a strictly newer one replaces the current pick, so
/// among metadata variants of the same version the one listed last wins. Versions not
/// newer than `0.0.0` are never picked (go-versions compares against `Unspecified`).
pub fn select_newest(c: &Constraints, available: &[Version]) -> Option<Version> {
    newest_index(available, |v| allows(&c.selections, v)).map(|i| available[i].clone())
}

fn newest_index(available: &[Version], ok: impl Fn(&Version) -> bool) -> Option<usize> {
    let zero = Version::default();
    let mut best: Option<usize> = None;
    for (i, v) in available.iter().enumerate().rev() {
        let current = best.map_or(&zero, |b| &available[b]);
        if v.cmp_precedence(current) == Ordering::Greater && ok(v) {
            best = Some(i);
        }
    }
    best
}

/// Where a set of constraints was declared, as the caller describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// Module path such as `module.network` (empty for the root module).
    pub module: String,
    /// Source location such as `main.tf:3,5-20`, when known.
    pub location: Option<String>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let module = if self.module.is_empty() {
            "root module"
        } else {
            &self.module
        };
        match &self.location {
            Some(loc) => write!(f, "{module} ({loc})"),
            None => f.write_str(module),
        }
    }
}

/// Why one candidate was not acceptable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A selection's set does not contain the version.
    Excluded {
        /// The selection in canonical form, e.g. `< 2.0.0`.
        selection: String,
        /// Where it came from, when the caller said.
        origin: Option<Origin>,
    },
    /// The version is a prerelease that no `=` constraint names exactly.
    UnrequestedPrerelease,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Excluded {
                selection,
                origin: Some(o),
            } => {
                write!(f, "excluded by \"{selection}\" from {o}")
            }
            Reason::Excluded {
                selection,
                origin: None,
            } => {
                write!(f, "excluded by \"{selection}\"")
            }
            Reason::UnrequestedPrerelease => f.write_str(
                "a prerelease, which is only selected when a constraint names it exactly",
            ),
        }
    }
}

/// A newer candidate than the pick, and every reason it was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The candidate.
    pub version: Version,
    /// All reasons, in constraint order (never empty).
    pub reasons: Vec<Reason>,
}

/// The outcome of a selection with its explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// The chosen version (`None` when nothing matched).
    pub chosen: Option<Version>,
    /// The canonical text of all constraints together.
    pub constraints: String,
    /// Candidates newer than the pick (all candidates when nothing matched), newest first.
    pub rejected: Vec<Rejection>,
}

impl Explained {
    /// The chosen version, or Terraform's error when there is none.
    pub fn result(&self) -> Result<Version, NoMatch> {
        self.chosen.clone().ok_or_else(|| NoMatch {
            constraints: self.constraints.clone(),
        })
    }
}

/// A plain-text report: the pick (or Terraform's no-match message), then each newer
/// candidate with its reasons, one per line.
impl fmt::Display for Explained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.chosen {
            Some(v) if self.constraints.is_empty() => writeln!(f, "selected {v} (no constraints)")?,
            Some(v) => writeln!(f, "selected {v} for constraints {}", self.constraints)?,
            None => writeln!(
                f,
                "{}",
                NoMatch {
                    constraints: self.constraints.clone()
                }
            )?,
        }
        if self.rejected.is_empty() {
            return Ok(());
        }
        let heading = if self.chosen.is_some() {
            "newer versions not selected:"
        } else {
            "versions not selected:"
        };
        writeln!(f, "{heading}")?;
        for r in &self.rejected {
            for (i, reason) in r.reasons.iter().enumerate() {
                if i == 0 {
                    writeln!(f, "  {}: {reason}", r.version)?;
                } else {
                    writeln!(
                        f,
                        "  {:width$}  {reason}",
                        "",
                        width = r.version.to_string().len()
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// No available version met the constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoMatch {
    /// Canonical constraints text.
    pub constraints: String,
}

/// Terraform's text: `no available releases match the given constraints <canonical>`.
impl fmt::Display for NoMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no available releases match the given constraints {}",
            self.constraints
        )
    }
}

impl std::error::Error for NoMatch {}

/// Selects like [`select_newest`] from constraints gathered from several places, and says
/// for each candidate newer than the pick which constraint (and which origin) excluded it.
pub fn select_explained(
    sources: &[(Constraints, Option<Origin>)],
    available: &[Version],
) -> Explained {
    let mut all = Constraints::any();
    for (c, _) in sources {
        all = all.intersect(c);
    }
    let chosen = select_newest(&all, available);
    let mut newer: Vec<&Version> = available
        .iter()
        .filter(|v| v.cmp_precedence(&Version::default()) == Ordering::Greater)
        .filter(|v| {
            chosen
                .as_ref()
                .is_none_or(|c| v.cmp_precedence(c) == Ordering::Greater)
        })
        .collect();
    crate::collections::sort_by(&mut newer, |a, b| b.cmp(a));
    newer.dedup();
    let rejected = newer
        .into_iter()
        .map(|v| Rejection {
            version: v.clone(),
            reasons: reasons(sources, &all.selections, v),
        })
        .collect();
    Explained {
        chosen,
        constraints: all.canonical(),
        rejected,
    }
}

fn reasons(
    sources: &[(Constraints, Option<Origin>)],
    all: &[Selection],
    v: &Version,
) -> Vec<Reason> {
    let mut out = Vec::new();
    for (c, origin) in sources {
        for sel in &c.selections {
            let reason = Reason::Excluded {
                selection: sel.canonical(),
                origin: origin.clone(),
            };
            if !in_exact_set(sel, v) && !out.contains(&reason) {
                out.push(reason);
            }
        }
    }
    if out.is_empty() && v.is_prerelease() && !requests(all, v) {
        out.push(Reason::UnrequestedPrerelease);
    }
    out
}
