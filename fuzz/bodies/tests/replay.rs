//! Replays every seed (derived from the fixtures), stored corpus and crash-regression input
//! through the fuzz bodies on stable, so an input that once crashed a target keeps being run
//! in CI.

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files of `dir`, sorted; none when it does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn every_seed_and_stored_input_replays_without_a_crash() {
    let root = fuzz_dir().join("..");
    let seeds = tflock_fuzz_bodies::seeds(&root);
    let mut total = 0;
    for (name, body) in tflock_fuzz_bodies::TARGETS {
        let mine: Vec<_> = seeds.iter().filter(|s| s.target == *name).collect();
        assert!(!mine.is_empty(), "no fixture seeds target {name}");
        for s in &mine {
            let outcome = std::panic::catch_unwind(|| body(&s.bytes));
            assert!(outcome.is_ok(), "{name}: seed {} panics", s.name);
        }
        // Seeds written by `cargo xtask fuzz-seed` were replayed above, from the fixtures.
        let mut files: Vec<PathBuf> = inputs(&fuzz_dir().join("corpus").join(name))
            .into_iter()
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
            })
            .collect();
        files.extend(inputs(&fuzz_dir().join("regressions").join(name)));
        for f in &files {
            // A campaign running beside the test removes inputs it reduced.
            let data = match std::fs::read(f) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                r => r.expect("corpus file readable"),
            };
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{name}: {} panics", f.display());
        }
        total += mine.len() + files.len();
    }
    eprintln!("replayed {total} inputs");
}

#[test]
fn every_fuzz_target_has_a_body() {
    let dir = fuzz_dir().join("fuzz_targets");
    for f in inputs(&dir) {
        let name = f
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("target file name");
        assert!(
            tflock_fuzz_bodies::run(name, b""),
            "fuzz_targets/{name}.rs has no body in TARGETS"
        );
    }
    for (name, _) in tflock_fuzz_bodies::TARGETS {
        assert!(
            dir.join(format!("{name}.rs")).is_file(),
            "{name} has no fuzz_targets/{name}.rs"
        );
    }
}
