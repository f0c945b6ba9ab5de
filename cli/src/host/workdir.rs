//! A working directory on disk: its configuration files (root, local child modules and the
//! remote modules a previous `terraform init` installed, found through
//! `.terraform/modules/modules.json`) and its dependency lock file.

use super::atomic::{write_atomic, FileMode};
use std::path::{Path, PathBuf};
use tflock_core::collections::SortedMap;
use tflock_core::config::modules_manifest::{is_local_source, key_of, ModuleManifest};
use tflock_core::config::requirements::load_tree_with_manifest;
use tflock_core::config::requirements::ProviderRequirements;
use tflock_core::config::{tree_requirements, LoadOptions, ModuleTree};
use tflock_core::install::Requirements;
use tflock_core::lockfile::messages;
use tflock_core::lockfile::{
    load_locks_bytes, write_locks, LoadOptions as LockLoadOptions, Locks, LOCK_FILE_NAME,
};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

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

/// Terraform's data directory for a working directory: `TF_DATA_DIR` (relative to the
/// working directory) or `.terraform`.
pub fn data_dir(root: &Path) -> PathBuf {
    match std::env::var_os("TF_DATA_DIR").filter(|d| !d.is_empty()) {
        Some(d) => root.join(d),
        None => root.join(".terraform"),
    }
}

/// The module manifest a previous `init` wrote (empty when there is none).
pub fn read_module_manifest(root: &Path) -> Result<ModuleManifest, Box<tflock_core::Diagnostic>> {
    match std::fs::read(data_dir(root).join("modules").join("modules.json")) {
        Ok(bytes) => ModuleManifest::parse(&bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ModuleManifest::default()),
        Err(e) => Err(Box::new(tflock_core::Diagnostic::error(
            "Failed to read module manifest",
            format!("The module manifest could not be read: {e}."),
        ))),
    }
}

/// The root module at `root` and every module it calls: local paths relative to the caller,
/// other sources where the module manifest says `init` installed them.
pub fn load_configuration(root: &Path, flavor: Flavor) -> anyhow::Result<ModuleTree> {
    let opts = LoadOptions { flavor };
    let (manifest, manifest_error) = match read_module_manifest(root) {
        Ok(m) => (m, None),
        Err(d) => (ModuleManifest::default(), Some(*d)),
    };
    let load = |dirs: &SortedMap<String, DirFiles>| {
        let mut tree = load_tree_with_manifest(dirs, "", &manifest, &opts);
        if let Some(d) = &manifest_error {
            tree.loaded.diagnostics.push(d.clone());
        }
        tree
    };
    let mut dirs: SortedMap<String, DirFiles> = SortedMap::new();
    let root_files = read_dir_files(root).map_err(|e| {
        anyhow::anyhow!(
            "Failed to read module directory: Module directory {} does not exist or cannot be read. ({e})",
            root.display()
        )
    })?;
    dirs.insert(String::new(), root_files);
    // Each pass loads what has been read and reads the local module directories it calls.
    for _ in 0..64 {
        let tree = load(&dirs);
        let mut missing = Vec::new();
        collect_missing(&tree, &dirs, &manifest, &mut missing);
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
    Ok(load(&dirs))
}

/// Directories the tree calls that have not been read yet.
fn collect_missing(
    tree: &ModuleTree,
    dirs: &SortedMap<String, DirFiles>,
    manifest: &ModuleManifest,
    out: &mut Vec<String>,
) {
    for block in tree.loaded.module.blocks_of("module") {
        let Some(source) = block.body.attribute("source").and_then(|a| a.literal_str()) else {
            continue;
        };
        let dir = if is_local_source(&source) {
            tflock_core::config::requirements::tree_join(&tree.dir, &source)
        } else {
            let Some(name) = block.labels.first() else {
                continue;
            };
            let path = if tree.path.is_empty() {
                format!("module.{name}")
            } else {
                format!("{}.module.{name}", tree.path)
            };
            manifest.get(&key_of(&path)).map(|r| r.dir.clone())
        };
        if let Some(dir) = dir {
            if !dirs.contains_key(&dir) && !out.contains(&dir) {
                out.push(dir);
            }
        }
    }
    for child in &tree.children {
        collect_missing(child, dirs, manifest, out);
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
    let planner = tflock_core::install::requirements::from_configuration(&reqs);
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
    let opts = LockLoadOptions::new(LOCK_FILE_NAME, flavor);
    Ok(load_locks_bytes(&bytes, &opts))
}

/// Writes the lock file atomically (mode 0644, as Terraform does); a failure is Terraform's
/// `Failed to update dependency lock file` diagnostic, and the old file stays as it was.
pub fn write_lock(dir: &Path, locks: &Locks, flavor: Flavor) -> Result<(), Box<Diagnostic>> {
    let text = write_locks(locks, flavor);
    write_atomic(&lock_path(dir), text.as_bytes(), FileMode::Fixed(0o644)).map_err(|mut e| {
        // Terraform runs in the module directory and names the file relative to it.
        e.path = PathBuf::from(LOCK_FILE_NAME);
        Box::new(messages::write_failed(LOCK_FILE_NAME, &e.to_string()))
    })
}
