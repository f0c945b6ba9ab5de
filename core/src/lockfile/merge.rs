//! Three-way merge of lock sets, for a git merge driver.

use super::model::{Locks, ProviderLock};
use crate::addrs::Provider;
use crate::collections::SortedSet;
use serde::Serialize;

/// Why one provider could not be merged automatically.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergeConflict {
    /// The provider address.
    pub provider: String,
    /// Our side's version (`None`: we removed it).
    pub ours: Option<String>,
    /// Their side's version (`None`: they removed it).
    pub theirs: Option<String>,
    /// A one-line explanation.
    pub reason: String,
}

/// The outcome of a three-way merge.
#[derive(Debug, Clone)]
pub struct MergeResult {
    /// Everything that merged cleanly; for conflicting providers, our side's entry (if any).
    pub locks: Locks,
    /// The providers that need a human, in address order.
    pub conflicts: Vec<MergeConflict>,
    /// The conflicting providers' entries on each side, for writing conflict markers.
    pub conflict_sides: Vec<(Provider, Option<ProviderLock>, Option<ProviderLock>)>,
}

impl MergeResult {
    /// True when the merge needs no human.
    pub fn is_clean(&self) -> bool {
        self.conflicts.is_empty()
    }
}

fn same_entry(a: &ProviderLock, b: &ProviderLock) -> bool {
    a.same_selection(b) && a.constraints_string() == b.constraints_string()
}

fn same_version(a: &ProviderLock, b: &ProviderLock) -> bool {
    a.version() == b.version()
}

/// Merges `ours` and `theirs`, which both descend from `base`.
///
/// Per provider: a side that left the entry as in `base` yields to the other side; when
/// both sides hold the same version their hashes are united (sorted, de-duplicated) and
/// differing constraints are taken from whichever side changed them (a conflict if both
/// did); different versions chosen on both sides, or a removal against a change, conflict.
pub fn merge_locks(base: &Locks, ours: &Locks, theirs: &Locks) -> MergeResult {
    let addrs: SortedSet<&Provider> = base
        .addrs()
        .chain(ours.addrs())
        .chain(theirs.addrs())
        .collect();
    let mut locks = Locks::new();
    let mut conflicts = Vec::new();
    let mut conflict_sides = Vec::new();
    for addr in addrs {
        let (b, o, t) = (
            base.provider(addr),
            ours.provider(addr),
            theirs.provider(addr),
        );
        let merged = merge_one(b, o, t);
        match merged {
            Ok(Some(lock)) => {
                locks.insert(lock);
            }
            Ok(None) => {}
            Err(reason) => {
                if let Some(o) = o {
                    locks.insert(o.clone());
                }
                conflicts.push(MergeConflict {
                    provider: addr.to_string(),
                    ours: o.map(|l| l.version().to_string()),
                    theirs: t.map(|l| l.version().to_string()),
                    reason: reason.to_string(),
                });
                conflict_sides.push((addr.clone(), o.cloned(), t.cloned()));
            }
        }
    }
    MergeResult {
        locks,
        conflicts,
        conflict_sides,
    }
}

fn unchanged(base: Option<&ProviderLock>, side: Option<&ProviderLock>) -> bool {
    match (base, side) {
        (None, None) => true,
        (Some(b), Some(s)) => same_entry(b, s),
        _ => false,
    }
}

/// Why both sides' changes to one provider cannot be combined.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConflictReason {
    /// They removed it; we changed it.
    #[error("removed on their side, changed on ours")]
    RemovedByThem,
    /// We removed it; they changed it.
    #[error("removed on our side, changed on theirs")]
    RemovedByUs,
    /// Different versions.
    #[error("both sides selected a different version ({ours} and {theirs})")]
    Versions {
        /// Our version.
        ours: String,
        /// Their version.
        theirs: String,
    },
    /// Different constraints, both changed.
    #[error("both sides recorded different constraints (\"{ours}\" and \"{theirs}\")")]
    Constraints {
        /// Our constraints.
        ours: String,
        /// Their constraints.
        theirs: String,
    },
}

fn merge_one(
    base: Option<&ProviderLock>,
    ours: Option<&ProviderLock>,
    theirs: Option<&ProviderLock>,
) -> Result<Option<ProviderLock>, ConflictReason> {
    if unchanged(base, theirs) {
        return Ok(ours.cloned());
    }
    if unchanged(base, ours) {
        return Ok(theirs.cloned());
    }
    match (ours, theirs) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(ConflictReason::RemovedByThem),
        (None, Some(_)) => Err(ConflictReason::RemovedByUs),
        (Some(o), Some(t)) if !same_version(o, t) => Err(ConflictReason::Versions {
            ours: o.version().to_string(),
            theirs: t.version().to_string(),
        }),
        (Some(o), Some(t)) => {
            let (oc, tc) = (o.constraints_string(), t.constraints_string());
            let base_c = base.map(ProviderLock::constraints_string);
            let constraints = if oc == tc || base_c.as_deref() == Some(tc.as_str()) {
                o.constraints().cloned()
            } else if base_c.as_deref() == Some(oc.as_str()) {
                t.constraints().cloned()
            } else {
                return Err(ConflictReason::Constraints {
                    ours: oc,
                    theirs: tc,
                });
            };
            let hashes = o.hashes().iter().chain(t.hashes()).cloned();
            Ok(Some(ProviderLock::new(
                o.addr().clone(),
                o.version().clone(),
                constraints,
                hashes,
            )))
        }
    }
}

/// The merged file for a git merge driver: the clean result, with each conflicting provider
/// written as git-style conflict markers around our and their blocks (a side that removed
/// the provider contributes nothing between its markers).
pub fn render_merge(result: &MergeResult, flavor: crate::Flavor) -> String {
    use super::write::{block_text, header, render_block};
    let conflicting: SortedSet<&Provider> =
        result.conflict_sides.iter().map(|(a, _, _)| a).collect();
    let mut out = header(flavor);
    let mut addrs: SortedSet<&Provider> = result.locks.addrs().collect();
    addrs.extend(conflicting.iter().copied());
    for addr in addrs {
        out.push('\n');
        if let Some((_, ours, theirs)) = result.conflict_sides.iter().find(|(a, _, _)| a == addr) {
            out.push_str("<<<<<<< ours\n");
            if let Some(o) = ours {
                render_block(&mut out, &block_text(o));
            }
            out.push_str("=======\n");
            if let Some(t) = theirs {
                render_block(&mut out, &block_text(t));
            }
            out.push_str(">>>>>>> theirs\n");
        } else if let Some(lock) = result.locks.provider(addr) {
            render_block(&mut out, &block_text(lock));
        }
    }
    out
}
