//! A working directory on disk: its configuration files (root, local child modules and the
//! remote modules a previous `terraform init` installed, found through
//! `.terraform/modules/modules.json`) and its dependency lock file.

use super::atomic::{write_atomic, FileMode};
use std::path::{Path, PathBuf};
use tflock_core::api::input_values::{
    collect as collect_values, files_to_read, DirEntry as VarDirEntry, InputValues, VarArg,
    VarFile, VarFileRead,
};

use crate::var_flags::{VarFlags, VarOption};
use tflock_core::api::lock_file::write_failed;
use tflock_core::api::lock_file::{
    load_locks_bytes, write_locks, LoadOptions as LockLoadOptions, Locks, LOCK_FILE_NAME,
};
use tflock_core::api::module::ModuleManifest;
use tflock_core::api::module::ProviderRequirements;
use tflock_core::api::module::{load_tree_with_manifest, source_name, unread_dirs, UnreadableDir};
use tflock_core::api::module::{tree_requirements, LoadOptions, ModuleTree};
use tflock_core::api::version::CoreVersion;
use tflock_core::api::Requirements;
use tflock_core::api::SortedMap;
use tflock_core::{Diagnostic, Diagnostics, Flavor};

/// Files of one directory, as the core wants them.
pub type DirFiles = Vec<(String, Vec<u8>)>;

/// Reads the files directly inside `dir`, symbolic links followed (the core decides which
/// ones count), and names the files it lists but cannot read (a symbolic link to nothing),
/// which Terraform reports as `Failed to read file`.
pub fn read_dir_files(dir: &Path) -> std::io::Result<(DirFiles, Vec<String>)> {
    let mut out = Vec::new();
    let mut unreadable = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().to_string();
        // Either product's configuration and test files, and mock data files (a test file's
        // `mock_provider` may name any directory); core picks what it reads.
        let wanted = tflock_core::api::module::config_ext(&name, Flavor::OpenTofu).is_some()
            || tflock_core::api::module::is_test_file(&name, Flavor::OpenTofu)
            || tflock_core::api::module::is_mock_data_file(&name);
        if !wanted {
            continue;
        }
        match std::fs::metadata(entry.path()) {
            Ok(m) if m.is_file() => {}
            Ok(_) => continue,
            Err(_) => {
                unreadable.push(name);
                continue;
            }
        }
        match std::fs::read(entry.path()) {
            Ok(bytes) => out.push((name, bytes)),
            Err(_) => unreadable.push(name),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    unreadable.sort();
    Ok((out, unreadable))
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

/// The release `required_version` is checked against: `TFLOCK_TERRAFORM_VERSION` (a
/// version such as `1.5.7`, for teams still running an older Terraform, or `none` to skip the
/// check), else the Terraform release tflock follows.
fn core_version_setting(flavor: Flavor) -> anyhow::Result<Option<CoreVersion>> {
    match std::env::var("TFLOCK_TERRAFORM_VERSION") {
        Err(_) => Ok(LoadOptions::new(flavor).core_version),
        Ok(v) if v == "none" => Ok(None),
        Ok(v) => CoreVersion::parse(&v).map(Some).ok_or_else(|| {
            anyhow::anyhow!(
                "TFLOCK_TERRAFORM_VERSION={v:?} is not a release version such as 1.15.5 (or none)"
            )
        }),
    }
}

/// The root module at `root` and every module it calls: local paths relative to the caller
/// (also above `root`: `../modules/x`), other sources where the module manifest says `init`
/// installed them. Core says which directories to read next; this only reads them.
/// `required_version` is not checked against the core version here (its syntax is): only
/// `terraform init` checks that (see [`load_configuration_for_init`]).
/// `values` are the root module's input values, which its module sources read through
/// `const` variables.
pub fn load_configuration(
    root: &Path,
    flavor: Flavor,
    values: &InputValues,
) -> anyhow::Result<ModuleTree> {
    let opts = LoadOptions {
        core_version: None,
        values: values.clone(),
        ..LoadOptions::new(flavor)
    };
    load_with(root, &opts)
}

/// [`load_configuration`] with every module's `required_version` checked, as `terraform
/// init` checks them.
pub fn load_configuration_for_init(
    root: &Path,
    flavor: Flavor,
    values: &InputValues,
) -> anyhow::Result<ModuleTree> {
    let opts = LoadOptions {
        core_version: core_version_setting(flavor)?,
        values: values.clone(),
        ..LoadOptions::new(flavor)
    };
    load_with(root, &opts)
}

fn load_with(root: &Path, opts: &LoadOptions) -> anyhow::Result<ModuleTree> {
    let (manifest, manifest_error) = match read_module_manifest(root) {
        Ok(m) => (m, None),
        Err(d) => (ModuleManifest::default(), Some(*d)),
    };
    let mut dirs: SortedMap<String, DirFiles> = SortedMap::new();
    let mut unreadable: SortedMap<String, UnreadableDir> = SortedMap::new();
    // Per directory, the configuration files its listing holds that could not be read.
    let mut unreadable_files: Vec<(String, Vec<String>)> = Vec::new();
    let flavor = opts.flavor;
    let note = |files: &mut Vec<(String, Vec<String>)>, rel: &str, names: Vec<String>| {
        let names: Vec<String> = names
            .into_iter()
            .filter(|n| tflock_core::api::module::config_ext(n, flavor).is_some())
            .collect();
        if !names.is_empty() {
            files.push((rel.to_string(), names));
        }
    };
    let (root_files, root_unreadable) = read_dir_files(root).map_err(|e| {
        anyhow::anyhow!(
            "Failed to read module directory: Module directory {} does not exist or cannot be read. ({e})",
            root.display()
        )
    })?;
    note(&mut unreadable_files, "", root_unreadable);
    dirs.insert(String::new(), root_files);
    // Each pass loads what has been read and reads the module directories it calls.
    loop {
        let mut tree = load_tree_with_manifest(&dirs, &unreadable, "", &manifest, opts);
        let wanted = unread_dirs(&tree, &dirs, &unreadable, &manifest);
        if wanted.is_empty() {
            for (rel, files) in dirs.iter() {
                for (name, text) in files {
                    crate::output::remember_source(source_name(rel, name), text);
                }
            }
            if let Some(d) = &manifest_error {
                tree.calls.push(d.clone());
            }
            for (rel, names) in &unreadable_files {
                tree.note_unreadable_files(rel, names);
            }
            return Ok(tree);
        }
        for rel in wanted {
            match read_dir_files(&root.join(&rel)) {
                Ok((files, names)) => {
                    note(&mut unreadable_files, &rel, names);
                    dirs.insert(rel, files);
                }
                Err(e) => {
                    let why = unreadable_dir(root, &rel, &e);
                    unreadable.insert(rel, why);
                }
            }
        }
    }
}

/// Why `rel` (below `root`) could not be read, as Terraform tells it apart: a path that
/// does not resolve (Go's `os` words for the error, at the part where resolving it stops)
/// or one that is no readable directory.
fn unreadable_dir(root: &Path, rel: &str, read_error: &std::io::Error) -> UnreadableDir {
    let words = |e: &std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotADirectory => "not a directory".to_string(),
        _ => read_error.to_string(),
    };
    match std::fs::canonicalize(root.join(rel)) {
        Ok(_) => UnreadableDir::NotReadable,
        Err(e) => match first_unresolved(root, rel) {
            Some((at, lstat)) => UnreadableDir::Unresolved {
                error: words(&lstat),
                at: Some(at),
            },
            None => UnreadableDir::Unresolved {
                error: words(&e),
                at: None,
            },
        },
    }
}

/// Where Go's `filepath.EvalSymlinks` stops on the relative path `rel` (from `root`, the
/// working directory): it adds one part at a time (`..` taken off lexically) and `lstat`s
/// each, failing at the first that does not resolve. `None` when a symbolic link comes
/// first (Go follows it, and the whole path is named) or every part resolves.
fn first_unresolved(root: &Path, rel: &str) -> Option<(String, std::io::Error)> {
    let mut dest = String::new();
    for part in rel.split('/') {
        match part {
            "" | "." => continue,
            ".." => {
                match dest.rfind('/') {
                    Some(r) if &dest[r + 1..] != ".." => dest.truncate(r),
                    // No slash (Go keeps `a/..` then), or only `..`s so far.
                    _ => {
                        if !dest.is_empty() {
                            dest.push('/');
                        }
                        dest.push_str("..");
                    }
                }
                continue;
            }
            p => {
                if !dest.is_empty() {
                    dest.push('/');
                }
                dest.push_str(p);
            }
        }
        match std::fs::symlink_metadata(root.join(&dest)) {
            Err(e) => return Some((dest, e)),
            Ok(m) if m.file_type().is_symlink() => return None,
            Ok(_) => {}
        }
    }
    None
}

/// Every diagnostic of every module in the tree.
pub fn tree_diagnostics(tree: &ModuleTree) -> Diagnostics {
    tree.diagnostics()
}

/// The requirements of the whole tree, and in the planner's shape.
pub fn requirements(tree: &ModuleTree, flavor: Flavor) -> (ProviderRequirements, Requirements) {
    let reqs = tree_requirements(tree, flavor);
    let planner = tflock_core::api::requirements::from_configuration(&reqs);
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
        Box::new(write_failed(LOCK_FILE_NAME, &e.to_string()))
    })
}

/// The root module's variable values (`TF_VAR_` variables, then `terraform.tfvars`,
/// `terraform.tfvars.json` and `*.auto.tfvars(.json)` in `root`, as core orders them, then
/// `vars`, whose files are named relative to the working directory as Terraform reads them)
/// and what reading them reported; an error there stops a command before it loads anything.
pub fn input_values(root: &Path, vars: &VarFlags) -> (InputValues, Diagnostics) {
    let env: Vec<(String, String)> = std::env::vars()
        .filter_map(|(k, v)| Some((k.strip_prefix("TF_VAR_")?.to_string(), v)))
        .collect();
    let entries: Vec<VarDirEntry> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| VarDirEntry {
            name: e.file_name().to_string_lossy().into_owned(),
            is_dir: e.file_type().is_ok_and(|t| t.is_dir()),
            resolves: std::fs::metadata(e.path()).is_ok(),
        })
        .collect();
    let files: Vec<VarFile> = files_to_read(&entries)
        .into_iter()
        .map(|name| {
            let read = read_var_file(&root.join(&name), &name);
            VarFile { name, read }
        })
        .collect();
    let args: Vec<VarArg> = vars
        .0
        .iter()
        .map(|o| match o {
            VarOption::Var(raw) => VarArg::Var(raw.clone()),
            VarOption::File(name) => VarArg::File(VarFile {
                read: read_var_file(Path::new(name), name),
                name: name.clone(),
            }),
        })
        .collect();
    collect_values(&env, &files, &args)
}

fn read_var_file(path: &Path, name: &str) -> VarFileRead {
    match std::fs::read(path) {
        Ok(bytes) => {
            crate::output::remember_source(name.to_string(), &bytes);
            VarFileRead::Bytes(bytes)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => VarFileRead::Missing,
        Err(e) => VarFileRead::Failed(format!("read {name}: {}", go_io_words(&e))),
    }
}

/// Go's words for the read errors a variables file meets (`read x: is a directory`).
fn go_io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
