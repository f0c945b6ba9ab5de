//! What every suite shares: seeds, a pair of identical working directories, and a file-tree
//! snapshot to compare what each tool left behind.

use std::collections::BTreeMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::SeedableRng;

/// The suite's random generator, seeded from `TFLOCK_ORACLE_SEED` or `default`.
pub fn rng(suite: &str, default: u64) -> (StdRng, u64) {
    let seed = std::env::var("TFLOCK_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    eprintln!("{suite}: seed {seed} (replay with TFLOCK_ORACLE_SEED={seed} cargo test -p tflock-tests --test it -- terraform_oracle::)");
    (StdRng::seed_from_u64(seed), seed)
}

/// Every regular file under `dir`, relative path → contents (empty map when absent).
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            walk(root, &path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            let rel = path.strip_prefix(root).expect("under root");
            out.insert(rel.display().to_string(), bytes);
        }
    }
}

/// The failures `check` finds over `items` (with their indexes), run on two threads: each
/// case spends most of its time waiting for a Terraform or tflock process.
pub fn failures_of<T: Sync>(
    items: &[T],
    check: impl Fn(usize, &T) -> Vec<String> + Sync,
) -> Vec<String> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|w| {
                let check = &check;
                s.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(2)
                        .flat_map(|(n, item)| check(n, item))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    })
}

/// What tflock reports for a module tree given as `(path, text)` files (the root module is
/// the files without a directory): loading diagnostics and the requirement tree's, Terraform
/// flavour.
pub fn tflock_tree_diagnostics(files: &[(String, String)]) -> tflock_core::Diagnostics {
    use tflock_core::config::{load_tree, tree_requirements, LoadOptions};
    use tflock_core::Flavor;
    let mut dirs: tflock_core::collections::SortedMap<String, Vec<(String, Vec<u8>)>> =
        Default::default();
    for (path, text) in files {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        dirs.entry(dir.to_string())
            .or_default()
            .push((name.to_string(), text.clone().into_bytes()));
    }
    let tree = load_tree(&dirs, "", &LoadOptions::new(Flavor::Terraform));
    let mut diags = tree.diagnostics();
    diags.extend(tree_requirements(&tree, Flavor::Terraform).diagnostics);
    diags
}
