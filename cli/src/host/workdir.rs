//! A working directory on disk: its configuration files (root and local child modules) and
//! its dependency lock file.

use super::atomic::write_atomic;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tflock_core::config::requirements::ProviderRequirements;
use tflock_core::config::{load_tree, tree_requirements, LoadOptions, ModuleTree};
use tflock_core::install::Requirements;
use tflock_core::lockfile::{
    load_locks, write_locks, LoadOptions as LockLoadOptions, Locks, LOCK_FILE_NAME,
};
use tflock_core::{Diagnostics, Flavor};

/// Files of one directory, as the core wants them.
pub type DirFiles = Vec<(String, Vec<u8>)>;

/// Reads the regular files directly inside `dir` (the core decides which ones count).
pub fn read_dir_files(dir: &Path) -> std::io::Result<DirFiles> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().to_string();
        if !(name.ends_with(".tf")
            || name.ends_with(".tf.json")
            || name.ends_with(".tofu")
            || name.ends_with(".tofu.json"))
        {
            continue;
        }
        out.push((name, std::fs::read(entry.path())?));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The root module at `root` and every local module it calls, read from disk.
pub fn load_configuration(root: &Path, flavor: Flavor) -> anyhow::Result<ModuleTree> {
    let opts = LoadOptions { flavor };
    let mut dirs: BTreeMap<String, DirFiles> = BTreeMap::new();
    let root_files = read_dir_files(root).map_err(|e| {
        anyhow::anyhow!(
            "Failed to read module directory: Module directory {} does not exist or cannot be read. ({e})",
            root.display()
        )
    })?;
    dirs.insert(String::new(), root_files);
    // Each pass loads what has been read and reads the local module directories it calls.
    for _ in 0..64 {
        let tree = load_tree(&dirs, "", &opts);
        let mut missing = Vec::new();
        collect_missing(&tree, &dirs, &mut missing);
        let mut added = false;
        for rel in missing {
            let path = root.join(&rel);
            if let Ok(files) = read_dir_files(&path) {
                dirs.insert(rel, files);
                added = true;
            }
        }
        if !added {
            return Ok(tree);
        }
    }
    Ok(load_tree(&dirs, "", &opts))
}

fn collect_missing(tree: &ModuleTree, dirs: &BTreeMap<String, DirFiles>, out: &mut Vec<String>) {
    for block in tree.loaded.module.blocks_of("module") {
        let Some(source) = block.body.attribute("source").and_then(|a| a.literal_str()) else {
            continue;
        };
        if !(source.starts_with("./") || source.starts_with("../")) {
            continue;
        }
        if let Some(dir) = tflock_core::config::requirements::tree_join(&tree.dir, &source) {
            if !dirs.contains_key(&dir) && !out.contains(&dir) {
                out.push(dir);
            }
        }
    }
    for child in &tree.children {
        collect_missing(child, dirs, out);
    }
}

/// Every diagnostic of every module in the tree.
pub fn tree_diagnostics(tree: &ModuleTree) -> Diagnostics {
    let mut d = tree.loaded.diagnostics.clone();
    for c in &tree.children {
        d.extend(tree_diagnostics(c));
    }
    d
}

/// The requirements of the whole tree, and in the planner's shape.
pub fn requirements(tree: &ModuleTree, flavor: Flavor) -> (ProviderRequirements, Requirements) {
    let reqs = tree_requirements(tree, flavor);
    let planner = reqs
        .providers
        .iter()
        .map(|(p, r)| (p.clone(), r.parsed.clone()))
        .collect();
    (reqs, planner)
}

/// The lock file path of a working directory.
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_FILE_NAME)
}

/// Loads the lock file (empty when absent) with its diagnostics.
pub fn read_lock(dir: &Path, flavor: Flavor) -> anyhow::Result<(Locks, Diagnostics)> {
    let path = lock_path(dir);
    if !path.exists() {
        return Ok((Locks::new(), Diagnostics::new()));
    }
    let bytes = std::fs::read(&path)?;
    let text = String::from_utf8_lossy(&bytes);
    let opts = LockLoadOptions::new(LOCK_FILE_NAME, flavor);
    Ok(load_locks(&text, &opts))
}

/// Writes the lock file atomically.
pub fn write_lock(dir: &Path, locks: &Locks, flavor: Flavor) -> anyhow::Result<()> {
    write_atomic(&lock_path(dir), write_locks(locks, flavor).as_bytes())
}
