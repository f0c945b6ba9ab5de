//! The one sort every collection shares.

use std::cmp::Ordering;

/// The stable sorting permutation of `len` items compared by `cmp(i, j)`.
///
/// Taking the comparison as `&dyn Fn` keeps a single copy of the sort in the binary,
/// whatever the element types.
fn stable_order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Reorders `items` by `order` (a permutation of their indices).
fn apply_order<T>(items: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order
        .iter()
        .filter_map(|&i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// Sorts `items` stably by `cmp` through the shared sort (a few bytes of glue per
/// element type instead of a full sort).
pub fn sort_by<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    if items
        .windows(2)
        .all(|w| cmp(&w[0], &w[1]) != Ordering::Greater)
    {
        return;
    }
    let order = stable_order(items.len(), &|a, b| cmp(&items[a], &items[b]));
    let unsorted = std::mem::take(items);
    *items = apply_order(unsorted, &order);
}

/// Sorts `items` stably in ascending order through the shared sort.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// `items` sorted stably by `cmp`, keeping the last of each run of equal items (the rule
/// of `BTreeMap::from_iter` and `BTreeSet::from_iter`).
pub(super) fn sort_keep_last<T>(mut items: Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    if items
        .windows(2)
        .all(|w| cmp(&w[0], &w[1]) == Ordering::Less)
    {
        return items;
    }
    sort_by(&mut items, &cmp);
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for t in items {
        match out.last_mut() {
            Some(last) if cmp(last, &t) == Ordering::Equal => *last = t,
            _ => out.push(t),
        }
    }
    out
}
