//! A root module and the local child modules it calls (`source = "./..."`), loaded from the
//! directories the host hands in, so requirements can be gathered across the whole tree.

use super::{add_module, ProviderRequirements};
use crate::collections::SortedMap;
use crate::config::modules_manifest::{
    directory_unreadable, key_of, not_installed, ModuleManifest,
};
use crate::config::{load_module, LoadOptions, LoadedModule};
use crate::diag::Diagnostic;
use crate::flavor::Flavor;

/// One module in the tree.
#[derive(Debug, Clone)]
pub struct ModuleTree {
    /// Module path: empty for the root, else `module.a.module.b`.
    pub path: String,
    /// Directory, relative to the root (`""` for the root, `modules/vpc`).
    pub dir: String,
    /// The loaded, merged module.
    pub loaded: LoadedModule,
    /// Local child modules in call order.
    pub children: Vec<ModuleTree>,
}

// Module calls that loop back (a → b → a) would recurse forever; Terraform stops them
// elsewhere. Real trees are shallow.
const MAX_DEPTH: usize = 32;

/// Loads `root` from `dirs` (directory → its files) and every local module it calls.
pub fn load_tree<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    root: &str,
    opts: &LoadOptions,
) -> ModuleTree {
    load_at(dirs, root, String::new(), opts, 0, None, None)
}

/// [`load_tree`] with the root directory already loaded (e.g. by
/// [`crate::config::load_module_with_changes`], which the playground needs anyway), so the
/// root is not loaded twice; `loaded` must be `dirs[root]` loaded with `opts`.
pub fn load_tree_with_root<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    root: &str,
    loaded: LoadedModule,
    opts: &LoadOptions,
) -> ModuleTree {
    load_at(dirs, root, String::new(), opts, 0, None, Some(loaded))
}

/// [`load_tree`], also following module calls with non-local sources to the directories a
/// previous `init` installed them in (`manifest`, from `.terraform/modules/modules.json`);
/// a call the manifest does not list is an error (`Module not installed`). `dirs` is keyed
/// by paths relative to the working directory, which `root` is.
pub fn load_tree_with_manifest<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    root: &str,
    manifest: &ModuleManifest,
    opts: &LoadOptions,
) -> ModuleTree {
    load_at(dirs, root, String::new(), opts, 0, Some(manifest), None)
}

fn load_at<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    dir: &str,
    path: String,
    opts: &LoadOptions,
    depth: usize,
    manifest: Option<&ModuleManifest>,
    preloaded: Option<LoadedModule>,
) -> ModuleTree {
    let empty: Vec<(N, B)> = Vec::new();
    let files = dirs.get(dir).unwrap_or(&empty);
    let mut loaded = preloaded.unwrap_or_else(|| load_module(files, opts));
    let mut children = Vec::new();
    let calls: Vec<(String, String, crate::diag::Range)> = loaded
        .module
        .blocks_of("module")
        .filter_map(|b| {
            let name = b.labels.first()?.clone();
            let source = b.body.attribute("source")?.literal_str()?;
            Some((name, source, b.origin.decl.clone()))
        })
        .collect();
    for (name, source, range) in calls {
        let child_path = if path.is_empty() {
            format!("module.{name}")
        } else {
            format!("{path}.module.{name}")
        };
        if !(source.starts_with("./") || source.starts_with("../")) {
            let Some(manifest) = manifest else { continue };
            if depth >= MAX_DEPTH {
                continue;
            }
            match manifest.get(&key_of(&child_path)) {
                None => loaded.diagnostics.push(not_installed(opts.flavor, range)),
                Some(rec) if dirs.contains_key(&rec.dir) => children.push(load_at(
                    dirs,
                    &rec.dir,
                    child_path,
                    opts,
                    depth + 1,
                    Some(manifest),
                    None,
                )),
                Some(rec) => loaded
                    .diagnostics
                    .push(directory_unreadable(&rec.dir, range)),
            }
            continue;
        }
        let child_dir = join(dir, &source);
        if depth >= MAX_DEPTH {
            continue;
        }
        match child_dir {
            Some(d) if dirs.contains_key(&d) => children.push(load_at(dirs, &d, child_path, opts, depth + 1, manifest, None)),
            other => loaded.diagnostics.push(
                Diagnostic::warning(
                    "Module directory not provided",
                    format!(
                        "The files of {} ({child_path}) were not provided, so its provider requirements are not included.",
                        other.unwrap_or(source)
                    ),
                )
                .with_range(range),
            ),
        }
    }
    ModuleTree {
        path,
        dir: dir.to_string(),
        loaded,
        children,
    }
}

/// Joins a relative module source onto `base` and normalizes `.`/`..`; `None` if it climbs
/// above the tree's root.
pub fn join(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The requirements of every module in the tree, constraints intersected per provider.
pub fn tree_requirements(tree: &ModuleTree, flavor: Flavor) -> ProviderRequirements {
    let mut reqs = ProviderRequirements::default();
    walk(&mut reqs, tree, flavor);
    reqs
}

fn walk(reqs: &mut ProviderRequirements, t: &ModuleTree, flavor: Flavor) {
    add_module(reqs, &t.loaded.module, &t.path, flavor);
    for c in &t.children {
        walk(reqs, c, flavor);
    }
}
