//! Which versions meet a list of selections (`versions.MeetingConstraints`, go-versions
//! 1.0.2 and later, which Terraform and OpenTofu both pin).
//!
//! A version is acceptable when every selection's exact set contains it and, if it is a
//! prerelease, some `=` selection names it exactly. `0.0.0` (`versions.Unspecified`) is
//! never a member of such a set in go-versions, so it is never acceptable here either.

use super::constraint::{Operator, Selection};
use super::exact::Version;
use std::cmp::Ordering;

/// The version a selection compares against: omitted numbers as 0, metadata only kept for
/// `=` and `!=`.
pub(crate) fn lower_bound(sel: &Selection) -> Version {
    let mut lower = sel.boundary.constrain_to_zero();
    if !matches!(sel.op, Operator::Eq | Operator::Ne) {
        lower.metadata.clear();
    }
    lower
}

/// Whether `v` is in the selection's set, before the prerelease rule.
pub(crate) fn in_exact_set(sel: &Selection, v: &Version) -> bool {
    let lower = lower_bound(sel);
    let c = v.cmp_precedence(&lower);
    match sel.op {
        Operator::Eq => *v == lower,
        Operator::Ne => *v != lower,
        Operator::Gt => c == Ordering::Greater,
        Operator::Ge => c != Ordering::Less,
        Operator::Lt => c == Ordering::Less,
        Operator::Le => c != Ordering::Greater,
        Operator::PessimisticMinor | Operator::PessimisticPatch => {
            // Go increments a uint64 here, so the bound wraps around at the maximum.
            let upper = if sel.op == Operator::PessimisticMinor {
                Version::new(lower.major.wrapping_add(1), 0, 0)
            } else {
                Version::new(lower.major, lower.minor.wrapping_add(1), 0)
            };
            c != Ordering::Less && v.cmp_precedence(&upper) == Ordering::Less
        }
    }
}

/// True when an `=` selection names exactly `v` (metadata included).
pub(crate) fn requests(selections: &[Selection], v: &Version) -> bool {
    selections
        .iter()
        .any(|s| s.op == Operator::Eq && lower_bound(s) == *v)
}

/// `MeetingConstraints(selections).Has(v)`.
pub(crate) fn allows(selections: &[Selection], v: &Version) -> bool {
    if v.is_unspecified() {
        return false;
    }
    selections.iter().all(|s| in_exact_set(s, v)) && (!v.is_prerelease() || requests(selections, v))
}
