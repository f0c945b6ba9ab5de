//! Remote module calls resolved through the module manifest `init` writes
//! (`.terraform/modules/modules.json`): their requirements count, local modules inside them
//! resolve relative to the installed directory, and a call the manifest lacks is Terraform's
//! `Module not installed` error at the call.

use std::path::Path;
use tflock_core::collections::SortedMap;
use tflock_core::config::modules_manifest::ModuleManifest;
use tflock_core::config::requirements::load_tree_with_manifest;
use tflock_core::config::{tree_requirements, LoadOptions, ModuleTree};
use tflock_core::Flavor;
use tflock_tests::fixtures;

type Dirs = SortedMap<String, Vec<(String, Vec<u8>)>>;

/// Every `.tf` file under `root`, grouped by directory relative to `root`.
fn read_all(root: &Path) -> Dirs {
    fn walk(root: &Path, dir: &Path, out: &mut Dirs) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read fixture dir")
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|x| x == "tf") {
                let rel = dir
                    .strip_prefix(root)
                    .expect("below root")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.entry(rel).or_default().push((
                    e.file_name().to_string_lossy().to_string(),
                    std::fs::read(&path).expect("read"),
                ));
            }
        }
    }
    let mut out = Dirs::new();
    walk(root, root, &mut out);
    out
}

fn fixture() -> (Dirs, ModuleManifest) {
    let root = fixtures("config").join("remote-modules");
    let manifest =
        std::fs::read(root.join(".terraform/modules/modules.json")).expect("read manifest");
    (
        read_all(&root),
        ModuleManifest::parse(&manifest).expect("valid manifest"),
    )
}

fn paths(t: &ModuleTree, out: &mut Vec<(String, String)>) {
    out.push((t.path.clone(), t.dir.clone()));
    for c in &t.children {
        paths(c, out);
    }
}

#[test]
fn installed_remote_modules_and_their_local_children_join_the_tree() {
    let (dirs, manifest) = fixture();
    let opts = LoadOptions::new(Flavor::Terraform);
    let tree = load_tree_with_manifest(&dirs, &SortedMap::new(), "", &manifest, &opts);
    let mut got = Vec::new();
    paths(&tree, &mut got);
    let want: Vec<(String, String)> = [
        ("", ""),
        ("module.vpc", ".terraform/modules/vpc"),
        ("module.vpc.module.sub", ".terraform/modules/vpc/sub"),
        ("module.local", "modules/local"),
        (
            "module.local.module.inner",
            ".terraform/modules/local.inner",
        ),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(got, want);

    let reqs = tree_requirements(&tree, Flavor::Terraform);
    let summary: Vec<(String, String)> = reqs
        .providers
        .values()
        .map(|p| (p.provider.clone(), p.constraints.clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "registry.example.com/acme/demo".to_string(),
                "~> 1.2, >= 1.2.1".to_string()
            ),
            (
                "registry.example.com/acme/other".to_string(),
                ">= 0.4.0, < 0.6.0".to_string()
            ),
        ]
    );
    fn all_diags(t: &ModuleTree) -> usize {
        t.diagnostics().iter().count() + t.children.iter().map(all_diags).sum::<usize>()
    }
    assert_eq!(all_diags(&tree), 0);
}

#[test]
fn a_remote_call_missing_from_the_manifest_is_module_not_installed_at_the_call() {
    let (dirs, manifest) = fixture();
    let without_vpc = ModuleManifest {
        records: manifest
            .records
            .into_iter()
            .filter(|r| !r.key.starts_with("vpc"))
            .collect(),
    };
    for (flavor, tool) in [(Flavor::Terraform, "terraform"), (Flavor::OpenTofu, "tofu")] {
        let tree = load_tree_with_manifest(
            &dirs,
            &SortedMap::new(),
            "",
            &without_vpc,
            &LoadOptions::new(flavor),
        );
        let d: Vec<_> = tree.calls.iter().collect();
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].summary, "Module not installed");
        assert_eq!(
            d[0].detail,
            format!("This module is not yet installed. Run \"{tool} init\" to install all modules required by this configuration.")
        );
        let r = d[0].range.as_ref().expect("a range");
        assert_eq!(r.filename, "main.tf");
        assert_eq!((r.start.line, r.start.column), (10, 1));
        assert!(tree.children.iter().all(|c| c.path != "module.vpc"));
    }
}

#[test]
fn a_recorded_directory_that_was_deleted_is_reported() {
    let (mut dirs, manifest) = fixture();
    dirs.remove(".terraform/modules/local.inner");
    let tree = load_tree_with_manifest(
        &dirs,
        &SortedMap::new(),
        "",
        &manifest,
        &LoadOptions::new(Flavor::Terraform),
    );
    let local = tree
        .children
        .iter()
        .find(|c| c.path == "module.local")
        .expect("local module");
    let d: Vec<_> = local.calls.iter().collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].summary, "Failed to read module directory");
    assert_eq!(
        d[0].detail,
        "Module directory .terraform/modules/local.inner does not exist or cannot be read."
    );
    assert_eq!(
        d[0].range.as_ref().map(|r| r.filename.as_str()),
        Some("modules/local/main.tf")
    );
}
