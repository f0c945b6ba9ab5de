//! `SortedSet`: an ordered set over a sorted vector, with `BTreeSet`'s semantics.

use super::order::sort_keep_last;
use std::borrow::Borrow;
use std::fmt;

/// A set in ascending order: iteration, `Debug` and comparisons behave like `BTreeSet`'s.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> SortedSet<T> {
    /// An empty set.
    pub const fn new() -> Self {
        SortedSet { items: Vec::new() }
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set has no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The items in ascending order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The smallest item.
    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    /// The largest item.
    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }
}

impl<T: Ord> SortedSet<T> {
    fn find<Q: Ord + ?Sized>(&self, item: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        self.items.binary_search_by(|t| t.borrow().cmp(item))
    }

    /// Whether `item` is in the set.
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(item).is_ok()
    }

    /// Adds `item`; false if an equal item was already there (it is kept).
    pub fn insert(&mut self, item: T) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, item);
                true
            }
        }
    }

    /// Removes `item`; false if it was not there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match self.find(item) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// The items of `self` that `other` lacks, in ascending order.
    pub fn difference<'a>(&'a self, other: &'a SortedSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |t| !other.contains(*t))
    }

    /// The items in both sets, in ascending order.
    pub fn intersection<'a>(&'a self, other: &'a SortedSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |t| other.contains(*t))
    }

    /// A set from items in any order; of equal items the last is kept, as in
    /// `BTreeSet::from_iter`.
    fn from_unsorted(items: Vec<T>) -> Self {
        SortedSet {
            items: sort_keep_last(items, T::cmp),
        }
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::from_unsorted(iter.into_iter().collect())
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for SortedSet<T> {
    fn from(items: [T; N]) -> Self {
        Self::from_unsorted(Vec::from(items))
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for t in iter {
            self.insert(t);
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
