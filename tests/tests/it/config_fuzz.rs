//! Loading and merging arbitrary bytes never panics, and whenever a module of native files
//! loads without errors its rendered merge loads again without errors (valid HCL as Terraform
//! reads it: duplicate object keys, which Terraform accepts and hcl-edit refuses, are copied
//! through). JSON files may hold names native syntax cannot spell (a resource argument
//! `"a~b"`), so for them only the absence of panics is checked. Inputs are random bytes and random edits of the
//! fixture files (so most cases get deep into the merge rules).

use proptest::prelude::*;
use std::path::Path;
use tflock_core::config::requirements::tree_requirements;
use tflock_core::config::{load_module, load_tree, provenance, render_merged, LoadOptions};
use tflock_core::Flavor;

const NAMES: &[&str] = &[
    "main.tf",
    "b.tf",
    "override.tf",
    "a_override.tf",
    "x.tf.json",
    "y_override.tf.json",
    "main.tofu",
    "z_override.tofu.json",
];

/// Every input file of every config fixture, as seeds for mutation (read once).
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(read_seeds)
}

fn read_seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("config");
    let mut out = Vec::new();
    for case in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(case.path().join("input"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(b) = std::fs::read(f.path()) {
                out.push(b);
            }
        }
    }
    out.sort();
    out
}

fn check(files: &[(String, Vec<u8>)], flavor: Flavor) {
    let loaded = load_module(files, &LoadOptions::new(flavor));
    let text = render_merged(&loaded);
    let _ = provenance(&loaded.module);
    let native = files.iter().all(|(name, _)| !name.ends_with(".json"));
    if native && !loaded.diagnostics.has_errors() {
        let again = load_module(
            &[("merged.tf".to_string(), text.clone().into_bytes())],
            &LoadOptions::new(flavor),
        );
        if again.diagnostics.has_errors() {
            panic!(
                "merge rendered HCL that does not load ({:?}) from {files:?}:\n{text}",
                again.diagnostics
            );
        }
    }
    let mut dirs = tflock_core::collections::SortedMap::new();
    dirs.insert(String::new(), files.to_vec());
    let _ = tree_requirements(&load_tree(&dirs, "", &LoadOptions::new(flavor)), flavor);
}

fn flavor() -> impl Strategy<Value = Flavor> {
    prop_oneof![Just(Flavor::Terraform), Just(Flavor::OpenTofu)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(
        files in prop::collection::vec((0..NAMES.len(), prop::collection::vec(any::<u8>(), 0..200)), 1..4),
        flavor in flavor(),
    ) {
        let files: Vec<(String, Vec<u8>)> = files.into_iter().map(|(i, b)| (NAMES[i].to_string(), b)).collect();
        check(&files, flavor);
    }

    #[test]
    fn edited_fixture_files_never_panic(
        picks in prop::collection::vec((0..NAMES.len(), any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 0..6)), 1..4),
        flavor in flavor(),
    ) {
        let seeds = seeds();
        prop_assume!(!seeds.is_empty());
        let files: Vec<(String, Vec<u8>)> = picks
            .into_iter()
            .map(|(n, s, a, b, insert)| {
                let mut bytes = s.get(seeds).clone();
                if !bytes.is_empty() {
                    let (x, y) = (a.index(bytes.len()), b.index(bytes.len()));
                    let (lo, hi) = (x.min(y), x.max(y).min(x.min(y) + 8));
                    bytes.splice(lo..hi, insert);
                }
                (NAMES[n].to_string(), bytes)
            })
            .collect();
        check(&files, flavor);
    }
}
