//! The one sort every collection shares.

use std::cmp::Ordering;

/// The swaps that put `len` items, compared by `cmp(i, j)`, in stable sorted order (none
/// when they already are).
///
/// Taking the comparison as `&dyn Fn` keeps a single copy of the sort in the binary,
/// whatever the element types; applying swaps is all each element type adds.
fn sorting_swaps(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<(usize, usize)> {
    if (1..len).all(|i| cmp(i - 1, i) != Ordering::Greater) {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    // `order[k]` is the index of the item that belongs at position `k`. Walking each cycle
    // of that permutation, one swap settles one position.
    let mut swaps = Vec::new();
    let mut placed = vec![false; len];
    for start in 0..len {
        if placed[start] {
            continue;
        }
        let mut k = start;
        placed[k] = true;
        while order[k] != start {
            swaps.push((k, order[k]));
            k = order[k];
            placed[k] = true;
        }
    }
    swaps
}

/// Whether each item of `len` is less than the next by `cmp(i, j)` (sorted, no equal items).
fn strictly_sorted(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> bool {
    (1..len).all(|i| cmp(i - 1, i) == Ordering::Less)
}

/// Sorts `items` stably by `cmp` through the shared sort (a few bytes of glue per
/// element type instead of a full sort).
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    sort_by_dyn(items, &cmp);
}

/// [`sort_by`] with the comparison behind `&dyn`: one copy per element type, not one per
/// call site's closure.
#[inline(never)]
fn sort_by_dyn<T>(items: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    let swaps = sorting_swaps(items.len(), &|a, b| cmp(&items[a], &items[b]));
    for (a, b) in swaps {
        items.swap(a, b);
    }
}

/// Sorts `items` stably in ascending order through the shared sort.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// `items` sorted stably by `cmp`, keeping the last of each run of equal items (the rule
/// of `BTreeMap::from_iter` and `BTreeSet::from_iter`).
pub(super) fn sort_keep_last<T>(items: Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    sort_keep_last_dyn(items, &cmp)
}

/// [`sort_keep_last`] with the comparison behind `&dyn` (one copy per element type).
#[inline(never)]
fn sort_keep_last_dyn<T>(mut items: Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) -> Vec<T> {
    if strictly_sorted(items.len(), &|a, b| cmp(&items[a], &items[b])) {
        return items;
    }
    sort_by_dyn(&mut items, cmp);
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for t in items {
        match out.last_mut() {
            Some(last) if cmp(last, &t) == Ordering::Equal => *last = t,
            _ => out.push(t),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sort_by_is_the_standard_stable_sort(keys in proptest::collection::vec(0u8..6, 0..40)) {
            // Each item carries its original position, so stability is visible.
            let items: Vec<(u8, usize)> = keys.into_iter().zip(0..).collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std_sorted = items;
            std_sorted.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std_sorted);
        }

        #[test]
        fn sort_keep_last_is_btreemap_from_iter(keys in proptest::collection::vec(0u8..6, 0..40)) {
            let items: Vec<(u8, usize)> = keys.into_iter().zip(0..).collect();
            let ours = sort_keep_last(items.clone(), |a, b| a.0.cmp(&b.0));
            let std_map: Vec<(u8, usize)> =
                items.into_iter().collect::<std::collections::BTreeMap<_, _>>().into_iter().collect();
            prop_assert_eq!(ours, std_map);
        }
    }
}
