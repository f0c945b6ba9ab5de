//! Seed inputs for every target, derived from the repository's fixtures (and the embedded
//! HashiCorp keys) whenever they are needed, so seeds follow the fixtures and never sit in
//! git as copies of them.

use std::fs;
use std::path::{Path, PathBuf};
use tflock_core::hash::hash_zip;
use tflock_core::protocol::hashicorp_keys::{HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY};
use tflock_core::protocol::openpgp::dearmor;

use crate::pack_files;

/// One seed: the target it feeds, a file name naming its source, and its bytes.
pub struct Seed {
    /// The target's name (its directory under `fuzz/corpus/`).
    pub target: &'static str,
    /// `seed-` and the source's path with `~` for `/`.
    pub name: String,
    /// The input.
    pub bytes: Vec<u8>,
}

/// Every seed derived from the repository at `root`.
pub fn seeds(root: &Path) -> Vec<Seed> {
    let fx = root.join("tests/fixtures");
    let mut seeds = Vec::new();
    let mut add = |target: &'static str, origin: &Path, bytes: Vec<u8>| {
        let rel = origin.strip_prefix(root).unwrap_or(origin);
        let name = format!("seed-{}", rel.to_string_lossy().replace('/', "~"));
        seeds.push(Seed {
            target,
            name,
            bytes,
        });
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
            if doc && path.contains("/mirror_") {
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
                let name = f.file_name().unwrap_or_default().to_string_lossy();
                (name.into_owned(), fs::read(&f).expect("fixture readable"))
            })
            .collect();
        if files.is_empty() {
            continue;
        }
        let packed = pack_files(&files);
        let json = files.iter().any(|(n, _)| n.ends_with(".json"));
        let target = if json { "config_json" } else { "config_native" };
        add(target, &dir, packed.clone());
        add("render_roundtrip", &dir, packed);
    }

    let keys = root.join("core/src/protocol/hashicorp_keys.rs");
    for (i, key) in [HASHICORP_PUBLIC_KEY, HASHICORP_PARTNERS_KEY]
        .into_iter()
        .enumerate()
    {
        let origin = keys.join(i.to_string());
        add("openpgp_armor", &origin, key.as_bytes().to_vec());
        let packets = dearmor(key).expect("embedded key dearmors");
        add("openpgp_packets", &origin, packets);
    }
    seeds
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
