//! `fuzz-seed [REPO_ROOT]`: writes the seeds of every fuzz target into
//! `fuzz/corpus/<target>/seed-*` (git-ignored) before a campaign, from the repository's
//! fixtures. Run by `cargo xtask fuzz-seed` and `cargo xtask fuzz`; files it writes are named
//! after their source and overwritten.

use std::fs;
use std::path::PathBuf;

fn main() {
    let root = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let corpus = root.join("fuzz/corpus");
    let seeds = tflock_fuzz_bodies::seeds(&root);
    for s in &seeds {
        let dir = corpus.join(s.target);
        fs::create_dir_all(&dir).expect("corpus directory");
        fs::write(dir.join(&s.name), &s.bytes).expect("seed written");
    }
    println!(
        "wrote {} seed files under {}",
        seeds.len(),
        corpus.display()
    );
}
