//! The lock file reader on mutated fixtures: never a panic, and whatever loads without
//! errors writes out and reads back to the same bytes. (The cargo-fuzz target in `fuzz/`
//! explores the same property more deeply; this keeps a cheap version in CI.)

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tflock_core::lockfile::{load_locks, write_locks, LoadOptions};
use tflock_core::Flavor;

const PIECES: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    "=",
    ",",
    "\n",
    " ",
    "#",
    "//",
    "/*",
    "*/",
    "\\",
    "${",
    "%{",
    "<<EOT\n",
    "EOT\n",
    "null",
    "true",
    "1.0",
    "x",
    ".",
    ":",
    "provider",
    "module",
    "version",
    "hashes",
    "constraints",
    "(",
    ")",
    "var.x",
    "f()",
    "é",
    "\u{0}",
    "\r",
    "\t",
    "~>",
    ">=",
    "-",
    "+",
    "v",
    "0",
    "9",
    "?",
    "*",
];

fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut s = text.to_string();
    for _ in 0..rng.gen_range(1..6) {
        let mut at = rng.gen_range(0..=s.len());
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        match rng.gen_range(0..3) {
            0 => s.insert_str(at, PIECES[rng.gen_range(0..PIECES.len())]),
            1 => {
                let mut end = (at + rng.gen_range(1..8)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, "");
            }
            _ => {
                let mut end = (at + 1).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, PIECES[rng.gen_range(0..PIECES.len())]);
            }
        }
    }
    s
}

#[test]
fn mutated_lock_files_never_panic_and_clean_loads_round_trip() {
    let dir = tflock_tests::fixtures("lockfile");
    let mut seeds = Vec::new();
    for case in std::fs::read_dir(&dir).expect("fixtures") {
        let case = case.expect("entry").path();
        for f in std::fs::read_dir(&case).expect("case dir") {
            let f = f.expect("entry").path();
            if f.to_string_lossy().ends_with(".hcl") {
                seeds.push(std::fs::read_to_string(&f).expect("read fixture"));
            }
        }
    }
    assert!(seeds.len() > 10);
    let mut rng = StdRng::seed_from_u64(0xf022);
    let mut clean = 0;
    for i in 0..20_000 {
        let text = mutate(&mut rng, &seeds[i % seeds.len()]);
        let flavor = if i % 2 == 0 {
            Flavor::Terraform
        } else {
            Flavor::OpenTofu
        };
        let opts = LoadOptions::new("m.hcl", flavor);
        let (locks, diags) = load_locks(&text, &opts);
        for d in diags.iter() {
            let _ = d.to_string();
        }
        let written = write_locks(&locks, flavor);
        if !diags.has_errors() {
            clean += 1;
            let (again, diags2) = load_locks(&written, &opts);
            assert!(
                !diags2.has_errors(),
                "input:\n{text}\nrewritten:\n{written}\n{diags2:?}"
            );
            assert_eq!(write_locks(&again, flavor), written, "input:\n{text}");
        }
    }
    assert!(
        clean > 100,
        "too few mutants loaded cleanly ({clean}) to exercise round trips"
    );
}
