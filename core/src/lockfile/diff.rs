//! A reviewer's view of the change between two lock sets, classified the way the lock file
//! documentation explains them.

use super::model::{Locks, ProviderLock};
use crate::collections::SortedSet;
use crate::hash::PackageHash;
use serde::Serialize;
use std::fmt::Write;

/// Whether a version change moved forward or back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// To a higher version.
    Upgrade,
    /// To a lower version.
    Downgrade,
    /// Same precedence, different text (build metadata only).
    Other,
}

/// One kind of change to a provider's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A provider the old file did not lock.
    NewProvider {
        /// Selected version.
        version: String,
        /// Recorded constraints (empty if none).
        constraints: String,
        /// Number of hashes recorded, per scheme (`h1:` → 3).
        checksums: Vec<SchemeCount>,
    },
    /// A provider no longer locked.
    RemovedProvider {
        /// The version that was locked.
        version: String,
    },
    /// A different version was selected.
    NewVersion {
        /// Old version.
        from: String,
        /// New version.
        to: String,
        /// Upgrade or downgrade.
        direction: Direction,
    },
    /// The recorded constraints changed.
    ConstraintsChanged {
        /// Old constraints (empty if none).
        from: String,
        /// New constraints (empty if none).
        to: String,
    },
    /// Hashes were added for the same version (e.g. `h1:` learned on another platform).
    NewChecksums {
        /// Schemes of the added hashes, sorted, e.g. `["h1:"]`.
        schemes: Vec<String>,
        /// The added hashes.
        added: Vec<String>,
    },
    /// Hashes were dropped for the same version.
    RemovedChecksums {
        /// The removed hashes.
        removed: Vec<String>,
    },
    /// The hash set was replaced along with a version change.
    ChecksumsReplaced {
        /// How many old hashes are gone.
        removed: usize,
        /// How many new hashes came.
        added: usize,
    },
}

/// How many hashes of one scheme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchemeCount {
    /// Scheme with colon.
    pub scheme: String,
    /// Count.
    pub count: usize,
}

/// All changes to one provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderDiff {
    /// The provider address (`hostname/namespace/type`).
    pub provider: String,
    /// The changes, most significant first.
    pub changes: Vec<Change>,
}

/// The structured difference between two lock sets; providers in address order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LockDiff {
    /// Providers with at least one change.
    pub providers: Vec<ProviderDiff>,
}

impl LockDiff {
    /// True when nothing a reviewer cares about changed (hash order alone is not a change).
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }
}

/// Compares `old` with `new`.
pub fn diff_locks(old: &Locks, new: &Locks) -> LockDiff {
    let addrs: SortedSet<_> = old.addrs().chain(new.addrs()).collect();
    let mut providers = Vec::new();
    for addr in addrs {
        let changes = match (old.provider(addr), new.provider(addr)) {
            (None, Some(n)) => vec![Change::NewProvider {
                version: n.version().to_string(),
                constraints: n.constraints_string(),
                checksums: scheme_counts(n.hashes()),
            }],
            (Some(o), None) => vec![Change::RemovedProvider {
                version: o.version().to_string(),
            }],
            (Some(o), Some(n)) => entry_changes(o, n),
            (None, None) => Vec::new(),
        };
        if !changes.is_empty() {
            providers.push(ProviderDiff {
                provider: addr.to_string(),
                changes,
            });
        }
    }
    LockDiff { providers }
}

fn entry_changes(o: &ProviderLock, n: &ProviderLock) -> Vec<Change> {
    let mut changes = Vec::new();
    let (ov, nv) = (o.version().to_string(), n.version().to_string());
    let old_set: SortedSet<&PackageHash> = o.hashes().iter().collect();
    let new_set: SortedSet<&PackageHash> = n.hashes().iter().collect();
    let added: Vec<String> = new_set
        .difference(&old_set)
        .map(|h| h.to_string())
        .collect();
    let removed: Vec<String> = old_set
        .difference(&new_set)
        .map(|h| h.to_string())
        .collect();
    let version_changed = ov != nv;
    if version_changed {
        let direction = match o.version().cmp_precedence(n.version()) {
            std::cmp::Ordering::Less => Direction::Upgrade,
            std::cmp::Ordering::Greater => Direction::Downgrade,
            std::cmp::Ordering::Equal => Direction::Other,
        };
        changes.push(Change::NewVersion {
            from: ov,
            to: nv,
            direction,
        });
    }
    let (oc, nc) = (o.constraints_string(), n.constraints_string());
    if oc != nc {
        changes.push(Change::ConstraintsChanged { from: oc, to: nc });
    }
    if version_changed {
        if !added.is_empty() || !removed.is_empty() {
            changes.push(Change::ChecksumsReplaced {
                removed: removed.len(),
                added: added.len(),
            });
        }
    } else {
        if !added.is_empty() {
            let schemes: SortedSet<String> = new_set
                .difference(&old_set)
                .map(|h| h.scheme().to_string())
                .collect();
            changes.push(Change::NewChecksums {
                schemes: schemes.into_iter().collect(),
                added,
            });
        }
        if !removed.is_empty() {
            changes.push(Change::RemovedChecksums { removed });
        }
    }
    changes
}

fn scheme_counts(hashes: &[PackageHash]) -> Vec<SchemeCount> {
    let mut counts: Vec<SchemeCount> = Vec::new();
    let mut schemes: Vec<&str> = hashes.iter().map(|h| h.scheme()).collect();
    crate::collections::sort(&mut schemes);
    for s in schemes {
        match counts.last_mut() {
            Some(c) if c.scheme == s => c.count += 1,
            _ => counts.push(SchemeCount {
                scheme: s.to_string(),
                count: 1,
            }),
        }
    }
    counts
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn quoted_or_none(s: &str) -> String {
    if s.is_empty() {
        "(none)".to_string()
    } else {
        format!("\"{s}\"")
    }
}

/// Short human text: one line per provider, `No changes.` when empty.
pub fn render_diff(diff: &LockDiff) -> String {
    if diff.is_empty() {
        return "No changes.\n".to_string();
    }
    let mut out = String::new();
    for p in &diff.providers {
        let parts: Vec<String> = p.changes.iter().map(describe).collect();
        let _ = writeln!(out, "{}: {}", p.provider, parts.join("; "));
    }
    out
}

fn describe(change: &Change) -> String {
    match change {
        Change::NewProvider {
            version,
            constraints,
            checksums,
        } => {
            let mut s = format!("new provider, version {version}");
            if !constraints.is_empty() {
                let _ = write!(s, " (constraints \"{constraints}\")");
            }
            let total: usize = checksums.iter().map(|c| c.count).sum();
            if total > 0 {
                let per: Vec<String> = checksums
                    .iter()
                    .map(|c| format!("{} {}", c.count, c.scheme))
                    .collect();
                let _ = write!(s, ", {} ({})", plural(total, "checksum"), per.join(", "));
            }
            s
        }
        Change::RemovedProvider { version } => {
            format!("removed, no longer required (was version {version})")
        }
        Change::NewVersion {
            from,
            to,
            direction,
        } => {
            let verb = match direction {
                Direction::Upgrade => "upgraded",
                Direction::Downgrade => "downgraded",
                Direction::Other => "changed version",
            };
            format!("{verb} {from} -> {to}")
        }
        Change::ConstraintsChanged { from, to } => format!(
            "constraints {} -> {}",
            quoted_or_none(from),
            quoted_or_none(to)
        ),
        Change::NewChecksums { schemes, added } => format!(
            "{} ({}) for the same version",
            plural(added.len(), "new checksum"),
            schemes.join(", ")
        ),
        Change::RemovedChecksums { removed } => {
            format!("{} removed", plural(removed.len(), "checksum"))
        }
        Change::ChecksumsReplaced { removed, added } => {
            format!("checksums replaced ({} removed, {} added)", removed, added)
        }
    }
}
