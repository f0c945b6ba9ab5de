//! `fuzz-seed [REPO_ROOT]`: writes the seed corpus of every fuzz target into
//! `fuzz/corpus/<target>/seed-*` from the repository's fixtures (and the embedded HashiCorp
//! keys), so seeds follow the fixtures instead of being hand-written blobs. Run by
//! `cargo xtask fuzz-seed`; files it writes are named after their source and overwritten.

use std::fs;
use std::path::{Path, PathBuf};
use tflock_core::hash::hash_zip;
use tflock_core::protocol::hashicorp_keys::{HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY};
use tflock_core::protocol::openpgp::dearmor;
use tflock_fuzz_bodies::pack_files;

fn main() {
    let root = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let fx = root.join("tests/fixtures");
    let corpus = root.join("fuzz/corpus");
    let mut seeds: Vec<(&str, String, Vec<u8>)> = Vec::new();
    let mut add = |target: &'static str, origin: &Path, bytes: Vec<u8>| {
        let rel = origin.strip_prefix(&root).unwrap_or(origin);
        let name = format!("seed-{}", rel.to_string_lossy().replace('/', "~"));
        seeds.push((target, name, bytes));
    };

    for f in walk(&fx) {
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let path = f.to_string_lossy().into_owned();
        let bytes = fs::read(&f).expect("fixture readable");
        if name.ends_with(".lock.hcl") || (path.contains("/lockfile/") && name.ends_with(".hcl")) {
            add("lockfile_parse", &f, bytes.clone());
        }
        if name.ends_with(".zip") {
            for t in ["zip_stream", "zip_random", "zip_differential"] {
                add(t, &f, bytes.clone());
            }
            if let Ok(h) = hash_zip(&bytes) {
                let zh = h.zh.to_string();
                let hex = zh.trim_start_matches("zh:");
                add(
                    "sha256sums",
                    &f.with_extension("SHA256SUMS"),
                    format!("{hex}  {name}\n").into_bytes(),
                );
            }
        }
        if name == "modules.json" {
            add("modules_manifest", &f, bytes.clone());
        }
        if path.contains("/protocol/") {
            let doc = name.ends_with(".json");
            if doc && (path.contains("/mirror_")) {
                add("mirror_json", &f, bytes.clone());
            } else if doc {
                add("registry_json", &f, bytes.clone());
            } else if path.contains("/cliconfig_") && !name.ends_with(".txt") {
                add("cliconfig", &f, bytes.clone());
            }
        }
        if path.contains("/config/") && name == "merged.hcl" {
            for t in ["config_native", "render_roundtrip"] {
                add(t, &f, bytes.clone());
            }
        }
    }

    // A module directory per configuration case: its `input/` (or the case directory).
    for case in subdirs(&fx.join("config")) {
        let dir = if case.join("input").is_dir() {
            case.join("input")
        } else {
            case.clone()
        };
        let files: Vec<(String, Vec<u8>)> = files_in(&dir)
            .into_iter()
            .map(|f| {
                (
                    f.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    fs::read(&f).expect("fixture readable"),
                )
            })
            .collect();
        if files.is_empty() {
            continue;
        }
        let packed = pack_files(&files);
        let json = files.iter().any(|(n, _)| n.ends_with(".json"));
        add(
            if json { "config_json" } else { "config_native" },
            &dir,
            packed.clone(),
        );
        add("render_roundtrip", &dir, packed);
    }

    let keys = root.join("core/src/protocol/hashicorp_keys.rs");
    for (i, key) in [HASHICORP_PUBLIC_KEY, HASHICORP_PARTNERS_KEY]
        .into_iter()
        .enumerate()
    {
        let origin = keys.join(i.to_string());
        add("openpgp_armor", &origin, key.as_bytes().to_vec());
        add(
            "openpgp_packets",
            &origin,
            dearmor(key).expect("embedded key dearmors"),
        );
    }

    let mut count = 0;
    for (target, name, bytes) in &seeds {
        let dir = corpus.join(target);
        fs::create_dir_all(&dir).expect("corpus directory");
        fs::write(dir.join(name), bytes).expect("seed written");
        count += 1;
    }
    println!("wrote {count} seed files under {}", corpus.display());
}

/// Every file under `dir`, recursively (hidden directories too: `.terraform/modules`).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in sorted(dir) {
        if e.is_dir() {
            out.extend(walk(&e));
        } else {
            out.push(e);
        }
    }
    out
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    sorted(dir).into_iter().filter(|p| p.is_dir()).collect()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    sorted(dir).into_iter().filter(|p| p.is_file()).collect()
}

fn sorted(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}
