//! Property tests: Terraform's canonical constraint text means the same set of versions as
//! what it was made from, and canonicalizing twice changes nothing.

use proptest::prelude::*;
use tflock_core::version::{Constraints, Version};
use tflock_core::Flavor;

fn selection() -> impl Strategy<Value = String> {
    let op = prop::sample::select(vec![
        "", "= ", "!= ", "> ", ">= ", "< ", "<= ", "~> ", "~>", ">=",
    ]);
    let parts = prop::collection::vec(0u64..4, 1..=3);
    let pre = prop::option::weighted(
        0.25,
        prop::sample::select(vec!["beta", "alpha.1", "rc.1", "1"]),
    );
    let meta = prop::option::weighted(0.15, prop::sample::select(vec!["abc", "local.1"]));
    (op, parts, pre, meta).prop_map(|(op, parts, pre, meta)| {
        let mut s = format!(
            "{op}{}",
            parts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(".")
        );
        if let Some(p) = pre {
            s.push_str(&format!("-{p}"));
        }
        if let Some(m) = meta {
            s.push_str(&format!("+{m}"));
        }
        s
    })
}

fn constraint_string() -> impl Strategy<Value = String> {
    prop::collection::vec(selection(), 0..5).prop_map(|v| v.join(", "))
}

/// Versions around every number the generator uses, with prerelease and metadata variants.
fn sample_versions() -> Vec<Version> {
    let mut out = Vec::new();
    for major in 0..5 {
        for minor in 0..5 {
            for patch in 0..5 {
                for suffix in [
                    "",
                    "-beta",
                    "-alpha.1",
                    "-rc.1",
                    "-1",
                    "+abc",
                    "+local.1",
                    "-beta+abc",
                ] {
                    out.push(
                        Version::parse(&format!("{major}.{minor}.{patch}{suffix}")).expect("valid"),
                    );
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn canonical_text_round_trips_to_the_same_set(s in constraint_string()) {
        let samples = sample_versions();
        for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
            let parsed = Constraints::parse(&s, flavor).expect("generated constraints are valid");
            let canon = parsed.canonical();
            let reparsed = Constraints::parse(&canon, flavor)
                .unwrap_or_else(|e| panic!("canonical {canon:?} of {s:?} does not parse: {e}"));
            for v in &samples {
                prop_assert_eq!(parsed.allows(v), reparsed.allows(v), "{} vs {} on {}", s, canon, v);
            }
            prop_assert_eq!(reparsed.canonical(), canon.clone(), "canonical is idempotent");
        }
    }

    #[test]
    fn intersection_allows_exactly_what_both_allow(a in constraint_string(), b in constraint_string()) {
        let (ca, cb) = (
            Constraints::parse(&a, Flavor::Terraform).expect("valid"),
            Constraints::parse(&b, Flavor::Terraform).expect("valid"),
        );
        let both = ca.intersect(&cb);
        for v in sample_versions().iter().filter(|v| !v.is_prerelease()) {
            prop_assert_eq!(both.allows(v), ca.allows(v) && cb.allows(v), "{} & {} on {}", a, b, v);
        }
    }

    #[test]
    fn version_text_round_trips(major in 0u64..1000, minor in 0u64..1000, patch in 0u64..1000,
                                pre in "([a-z0-9]{1,4}(\\.[a-z0-9]{1,3}){0,2})?",
                                meta in "([a-z0-9]{1,4}(\\.[a-z0-9]{1,3}){0,1})?") {
        let mut s = format!("{major}.{minor}.{patch}");
        if !pre.is_empty() { s.push('-'); s.push_str(&pre); }
        if !meta.is_empty() { s.push('+'); s.push_str(&meta); }
        let v = Version::parse(&s).expect("valid");
        prop_assert_eq!(v.to_string(), s);
    }
}
