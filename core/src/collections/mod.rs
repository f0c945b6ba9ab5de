//! Ordered collections backed by one sorted `Vec`.
//!
//! The maps and sets in tflock hold tens of entries (providers, platforms, hosts), and
//! every distinct `BTreeMap<K, V>` costs the WebAssembly package several kilobytes of
//! node-splitting and rebalancing code. A sorted vector gives the same ordered iteration,
//! `Debug` output and comparisons with a fraction of the code; construction from an
//! iterator sorts a permutation through one shared, non-generic sort, which `sort` and
//! `sort_by` offer to any `Vec` for the same reason.

mod order;
mod serde;
mod sorted_map;
mod sorted_set;

pub use order::{sort, sort_by};
pub use sorted_map::{Entry, Iter, IterMut, SortedMap};
pub use sorted_set::SortedSet;
