//! Terraform's canonical constraint text (`VersionConstraintsString`), used in lock files
//! and messages.

use super::constraint::{Operator, Selection};
use super::exact::Version;

/// Sort rank of operators sharing a boundary, lower bounds first.
fn priority(op: Operator) -> u8 {
    match op {
        Operator::Gt => 1,
        Operator::Ge => 2,
        Operator::Eq => 3,
        Operator::PessimisticPatch => 4,
        Operator::PessimisticMinor => 5,
        Operator::Le => 6,
        Operator::Lt => 7,
        Operator::Ne => 8,
    }
}

/// One selection with its boundary already zero-filled.
pub(crate) fn selection_string(op: Operator, b: &Version) -> String {
    let mut s = String::from(op.canonical_prefix());
    if op == Operator::PessimisticMinor {
        s.push_str(&format!("{}.{}", b.major, b.minor));
    } else {
        s.push_str(&format!("{}.{}.{}", b.major, b.minor, b.patch));
    }
    if !b.prerelease.is_empty() {
        s.push('-');
        s.push_str(&b.prerelease);
    }
    if !b.metadata.is_empty() {
        s.push('+');
        s.push_str(&b.metadata);
    }
    s
}

/// Deduplicates (operator, zero-filled boundary) pairs, sorts them by boundary (precedence,
/// then metadata) and operator rank, and joins them with `, `.
pub(crate) fn constraints_string(selections: &[Selection]) -> String {
    let mut items: Vec<(Operator, Version)> = Vec::with_capacity(selections.len());
    for sel in selections {
        let item = (sel.op, sel.boundary.constrain_to_zero());
        if !items.contains(&item) {
            items.push(item);
        }
    }
    // Version's Ord is precedence with a metadata tie-break: exactly Terraform's
    // versionSelectionBoundaryCompare.
    crate::collections::sort_by(&mut items, |a, b| {
        a.1.cmp(&b.1)
            .then_with(|| priority(a.0).cmp(&priority(b.0)))
    });
    items
        .iter()
        .map(|(op, b)| selection_string(*op, b))
        .collect::<Vec<_>>()
        .join(", ")
}
