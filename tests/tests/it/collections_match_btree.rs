//! Property tests: `SortedMap` and `SortedSet` behave like `BTreeMap` and `BTreeSet` for
//! every operation tflock uses (the same results, iteration order, `Debug` text and JSON).

use proptest::prelude::*;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use tflock_core::collections::{SortedMap, SortedSet};

/// A key whose order ignores its tag, so "which of two equal keys is kept" is observable.
#[derive(Debug, Clone, Copy)]
struct Tagged(u8, u16);

impl PartialEq for Tagged {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for Tagged {}
impl PartialOrd for Tagged {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Tagged {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u8, u16, u32),
    Remove(u8),
    Entry(u8, u16, u32),
    Retain(u8),
    Extend(Vec<(u8, u16, u32)>),
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0u8..24;
    prop_oneof![
        4 => (key.clone(), any::<u16>(), any::<u32>()).prop_map(|(k, t, v)| Op::Insert(k, t, v)),
        2 => key.clone().prop_map(Op::Remove),
        2 => (key.clone(), any::<u16>(), any::<u32>()).prop_map(|(k, t, v)| Op::Entry(k, t, v)),
        1 => (1u8..5).prop_map(Op::Retain),
        1 => prop::collection::vec((key, any::<u16>(), any::<u32>()), 0..6).prop_map(Op::Extend),
    ]
}

/// Entries with the stored key's tag, so kept keys are compared too.
fn tagged_entries<'a>(it: impl Iterator<Item = (&'a Tagged, &'a u32)>) -> Vec<(u8, u16, u32)> {
    it.map(|(k, v)| (k.0, k.1, *v)).collect()
}

proptest! {
    #[test]
    fn map_operations_match_btreemap(ops in prop::collection::vec(op(), 0..60)) {
        let mut ours: SortedMap<Tagged, u32> = SortedMap::new();
        let mut std: BTreeMap<Tagged, u32> = BTreeMap::new();
        for op in ops {
            match op {
                Op::Insert(k, t, v) => {
                    prop_assert_eq!(ours.insert(Tagged(k, t), v), std.insert(Tagged(k, t), v));
                }
                Op::Remove(k) => {
                    prop_assert_eq!(ours.remove(&Tagged(k, 0)), std.remove(&Tagged(k, 0)));
                }
                Op::Entry(k, t, v) => {
                    let e = ours.entry(Tagged(k, t)).or_insert(v);
                    *e = e.wrapping_add(1);
                    let e = std.entry(Tagged(k, t)).or_insert(v);
                    *e = e.wrapping_add(1);
                }
                Op::Retain(m) => {
                    ours.retain(|k, v| !(k.0 as u32).wrapping_add(*v).is_multiple_of(m as u32));
                    std.retain(|k, v| !(k.0 as u32).wrapping_add(*v).is_multiple_of(m as u32));
                }
                Op::Extend(items) => {
                    let items: Vec<_> = items.into_iter().map(|(k, t, v)| (Tagged(k, t), v)).collect();
                    ours.extend(items.clone());
                    std.extend(items);
                }
            }
            prop_assert_eq!(tagged_entries(ours.iter()), tagged_entries(std.iter()));
        }
        prop_assert_eq!(ours.len(), std.len());
        prop_assert_eq!(format!("{ours:?}"), format!("{std:?}"));
        for k in 0u8..24 {
            prop_assert_eq!(ours.get(&Tagged(k, 0)), std.get(&Tagged(k, 0)));
            prop_assert_eq!(ours.contains_key(&Tagged(k, 0)), std.contains_key(&Tagged(k, 0)));
        }
        prop_assert_eq!(ours.first_key_value().map(|(k, _)| k.0), std.first_key_value().map(|(k, _)| k.0));
        prop_assert_eq!(ours.last_key_value().map(|(k, _)| k.0), std.last_key_value().map(|(k, _)| k.0));
        let back: Vec<u8> = ours.keys().rev().map(|k| k.0).collect();
        let std_back: Vec<u8> = std.keys().rev().map(|k| k.0).collect();
        prop_assert_eq!(back, std_back);
    }

    #[test]
    fn map_from_iterator_keeps_the_last_of_equal_keys(
        items in prop::collection::vec((0u8..16, any::<u16>(), any::<u32>()), 0..80)
    ) {
        let items: Vec<_> = items.into_iter().map(|(k, t, v)| (Tagged(k, t), v)).collect();
        let ours: SortedMap<_, _> = items.iter().copied().collect();
        let std: BTreeMap<_, _> = items.iter().copied().collect();
        prop_assert_eq!(tagged_entries(ours.iter()), tagged_entries(std.iter()));
        let ours_owned: Vec<_> = ours.into_iter().map(|(k, v)| (k.0, k.1, v)).collect();
        let std_owned: Vec<_> = std.into_iter().map(|(k, v)| (k.0, k.1, v)).collect();
        prop_assert_eq!(ours_owned, std_owned);
    }

    #[test]
    fn map_json_matches_btreemap(items in prop::collection::vec(("[a-d]{0,3}", any::<i32>()), 0..12)) {
        // JSON objects with repeated names: the later member wins in both.
        let text = format!(
            "{{{}}}",
            items.iter().map(|(k, v)| format!("{k:?}: {v}")).collect::<Vec<_>>().join(", ")
        );
        let ours: SortedMap<String, i32> = serde_json::from_str(&text).unwrap();
        let std: BTreeMap<String, i32> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&std).unwrap());
    }

    #[test]
    fn set_operations_match_btreeset(
        a in prop::collection::vec((0u8..20, any::<u16>()), 0..40),
        b in prop::collection::vec((0u8..20, any::<u16>()), 0..40),
        removals in prop::collection::vec(0u8..20, 0..10),
    ) {
        let tag = |v: &[(u8, u16)]| v.iter().map(|&(k, t)| Tagged(k, t)).collect::<Vec<_>>();
        let shown = |v: Vec<&Tagged>| v.into_iter().map(|t| (t.0, t.1)).collect::<Vec<_>>();
        let mut ours_a: SortedSet<Tagged> = tag(&a).into_iter().collect();
        let mut std_a: BTreeSet<Tagged> = tag(&a).into_iter().collect();
        prop_assert_eq!(shown(ours_a.iter().collect()), shown(std_a.iter().collect()));
        let mut ours_b = SortedSet::new();
        let mut std_b = BTreeSet::new();
        for t in tag(&b) {
            prop_assert_eq!(ours_b.insert(t), std_b.insert(t));
        }
        prop_assert_eq!(shown(ours_b.iter().collect()), shown(std_b.iter().collect()));
        prop_assert_eq!(shown(ours_a.difference(&ours_b).collect()), shown(std_a.difference(&std_b).collect()));
        // std yields an intersection item from either set, so only the keys are comparable.
        let keys = |v: Vec<&Tagged>| v.into_iter().map(|t| t.0).collect::<Vec<_>>();
        prop_assert_eq!(keys(ours_a.intersection(&ours_b).collect()), keys(std_a.intersection(&std_b).collect()));
        for r in removals {
            prop_assert_eq!(ours_a.remove(&Tagged(r, 0)), std_a.remove(&Tagged(r, 0)));
            prop_assert_eq!(ours_a.contains(&Tagged(r, 1)), std_a.contains(&Tagged(r, 1)));
        }
        prop_assert_eq!(format!("{ours_a:?}"), format!("{std_a:?}"));
        prop_assert_eq!(ours_a.first().map(|t| t.0), std_a.first().map(|t| t.0));
        prop_assert_eq!(ours_a.last().map(|t| t.0), std_a.last().map(|t| t.0));
    }
}

#[test]
fn map_comparisons_follow_key_order_like_btreemap() {
    let pairs = [
        (vec![(1, 2)], vec![(1, 3)]),
        (vec![(1, 2), (3, 0)], vec![(2, 0)]),
        (vec![], vec![(0, 0)]),
        (vec![(5, 5)], vec![(5, 5)]),
    ];
    for (a, b) in pairs {
        let (oa, ob): (SortedMap<i32, i32>, SortedMap<i32, i32>) =
            (a.iter().copied().collect(), b.iter().copied().collect());
        let (sa, sb): (BTreeMap<i32, i32>, BTreeMap<i32, i32>) =
            (a.iter().copied().collect(), b.iter().copied().collect());
        assert_eq!(oa.cmp(&ob), sa.cmp(&sb), "{a:?} vs {b:?}");
        assert_eq!(oa == ob, sa == sb, "{a:?} vs {b:?}");
    }
}
