//! The types of a test file's `provider` blocks and Terraform's checks of them
//! (`resolveProviderTypesForTests` and the runs of `validateProviderConfigsForTests` that test
//! the module itself): each test provider takes the type of the first run that uses it,
//! through a run's `providers = { ... }` map or by name, and a run that tests the module
//! itself must see providers of the types the module declares. Runs that call another module
//! (`module { source = ... }`) only type the providers here; Terraform's call-shaped checks
//! of them are not reproduced.

use super::decode::local_providers;
use super::reference::check_providers_map;
use super::tree::ModuleTree;
use crate::addrs::Provider;
use crate::config::test_files::{TestFile, TestProvider};
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;

const SUMMARY: &str = "Provider type mismatch";

/// Local provider names with their types, in the order they were learnt.
type Types = Vec<(String, Provider)>;

/// Local name → type, in the order Terraform's `resolveProviderTypes` learns them: the
/// `required_providers` entries, then the provider blocks' names (default types).
fn module_types(module: &Module, flavor: Flavor) -> Types {
    let (required, _) = local_providers(module, flavor);
    let mut out: Vec<(String, Provider)> = required
        .iter()
        .map(|(name, lp)| (name.clone(), lp.provider.clone()))
        .collect();
    for b in module.blocks_of("provider") {
        let Some(name) = b.labels.first() else {
            continue;
        };
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.clone(), Provider::default_for(name, flavor)));
        }
    }
    out
}

fn lookup<'a>(table: &'a [(String, Provider)], name: &str) -> Option<&'a Provider> {
    table.iter().find(|(n, _)| n == name).map(|(_, p)| p)
}

/// Every "Provider type mismatch" of the root's test files, file by file, run by run.
pub fn validate_test_providers(root: &ModuleTree, flavor: Flavor) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let root_types = module_types(&root.loaded.module, flavor);
    for test in &root.tests {
        let file = &test.file;
        let under_test = |run: &str| {
            test.runs
                .iter()
                .find(|(name, _)| name == run)
                .map(|(_, tree)| module_types(&tree.loaded.module, flavor))
        };
        check_file(
            file,
            &root_types,
            &under_test,
            &root.loaded.module,
            flavor,
            &mut diags,
        );
    }
    diags
}

fn check_file(
    file: &TestFile,
    root_types: &[(String, Provider)],
    under_test: &dyn Fn(&str) -> Option<Types>,
    root: &Module,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    let defined = |name: &str| file.providers.iter().any(|p| p.name == name);
    // Test provider name → the type the first run using it gave it.
    let mut matched: Types = Vec::new();
    // Runs testing the module itself without a `providers` map, checked once every
    // provider has its type.
    let mut by_name_runs = 0usize;
    for run in &file.runs {
        // A run whose module could not be loaded tests the root, as Terraform's does.
        let module_types = run.module.as_ref().and_then(|_| under_test(&run.name));
        let calls_module = module_types.is_some();
        let types = module_types.unwrap_or_else(|| root_types.to_vec());
        let mut scratch = Diagnostics::new();
        let passed: Vec<_> = run
            .providers
            .as_ref()
            .map(|a| check_providers_map(a, &mut scratch))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(child, parent)| Some((child?, parent?)))
            .collect();
        if run.providers.is_some() && !passed.is_empty() {
            for (child, parent) in passed {
                let child_type = lookup(&types, &child.name)
                    .cloned()
                    .unwrap_or_else(|| Provider::default_for(&child.name, flavor));
                let parent_type = match lookup(&matched, &parent.name) {
                    Some(t) => t.clone(),
                    None => {
                        if defined(&parent.name) {
                            matched.push((parent.name.clone(), child_type.clone()));
                        }
                        child_type.clone()
                    }
                };
                if !calls_module && parent_type != child_type {
                    diags.push(
                        Diagnostic::error(
                            SUMMARY,
                            format!(
                                "The local name {:?} in {} represents provider {:?}, but {:?} in the root module represents {:?}.\n\nThis means the provider definition for {:?} within {}, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
                                parent.name,
                                file.name,
                                parent_type.to_string(),
                                child.name,
                                child_type.to_string(),
                                parent.name,
                                file.name
                            ),
                        )
                        .with_range(parent.name_range.clone()),
                    );
                }
            }
        } else {
            for (name, addr) in &types {
                if lookup(&matched, name).is_none() && defined(name) {
                    matched.push((name.clone(), addr.clone()));
                }
            }
            if !calls_module {
                by_name_runs += 1;
            }
        }
    }
    let type_of = |p: &TestProvider| {
        lookup(&matched, &p.name)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(&p.name, flavor))
    };
    for _ in 0..by_name_runs {
        check_against_module(file, root, root_types, &type_of, flavor, diags);
    }
}

/// A run testing the module itself by name: each test provider a `required_providers`
/// entry (or one of its `configuration_aliases`) or a provider block of the module names
/// must have the module's type.
fn check_against_module(
    file: &TestFile,
    root: &Module,
    root_types: &[(String, Provider)],
    type_of: &dyn Fn(&TestProvider) -> Provider,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    let find = |key: &str| file.providers.iter().find(|p| p.key() == key);
    let mismatch = |p: &TestProvider,
                    ty: &Provider,
                    theirs: &str,
                    want: &Provider,
                    shared: bool| {
        let others = if shared {
            ", or other provider definitions with the same name, have"
        } else {
            " has"
        };
        Diagnostic::error(
            SUMMARY,
            format!(
                "The provider {:?} in {} represents provider {:?}, but {:?} in the root module represents {:?}.\n\nThis means the provider definition for {:?} within {}{others} been referenced by multiple run blocks and assigned to different provider types.",
                p.key(),
                file.name,
                ty.to_string(),
                theirs,
                want.to_string(),
                p.key(),
                file.name
            ),
        )
        .with_range(p.decl.clone())
    };
    let (required, _) = local_providers(root, flavor);
    for (name, lp) in required.iter() {
        let keys = std::iter::once(name.as_str()).chain(
            lp.aliases
                .iter()
                .map(String::as_str)
                .filter(|a| a.contains('.')),
        );
        for key in keys {
            if let Some(p) = find(key) {
                let ty = type_of(p);
                if ty != lp.provider {
                    diags.push(mismatch(p, &ty, key, &lp.provider, true));
                }
            }
        }
    }
    for b in root.blocks_of("provider") {
        let Some(name) = b.labels.first() else {
            continue;
        };
        let key = match b.body.attribute("alias").and_then(|a| a.literal_str()) {
            Some(alias) => format!("{name}.{alias}"),
            None => name.clone(),
        };
        let Some(p) = find(&key) else { continue };
        let want = lookup(root_types, name)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(name, flavor));
        let ty = type_of(p);
        if ty != want {
            diags.push(mismatch(p, &ty, &key, &want, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::collections::SortedMap;
    use crate::config::{load_tree, LoadOptions};

    /// The `Provider type mismatch` errors of a root whose files are `files` (a `setup/`
    /// prefix puts a file in the module a run calls), as `file:line,col-col`.
    fn mismatches(files: &[(&str, &str)]) -> Vec<String> {
        let mut dirs: SortedMap<String, Vec<(String, Vec<u8>)>> = SortedMap::new();
        for (name, text) in files {
            let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
            let mut list = dirs.get(dir).cloned().unwrap_or_default();
            list.push((file.to_string(), text.as_bytes().to_vec()));
            dirs.insert(dir.to_string(), list);
        }
        let tree = load_tree(&dirs, "", &LoadOptions::default());
        tree.diagnostics()
            .iter()
            .filter(|d| d.summary == super::SUMMARY)
            .map(|d| {
                let r = d.range.as_ref().expect("range");
                format!(
                    "{}:{},{}-{}",
                    r.filename, r.start.line, r.start.column, r.end.column
                )
            })
            .collect()
    }

    const REQUIRES_FOO_AND_BAR: &str = "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n    bar = {\n      source = \"hashicorp/bar\"\n    }\n  }\n}\n";

    #[test]
    fn a_runs_providers_map_of_another_type_points_at_the_test_files_name() {
        let test = "provider \"foo\" {}\n\nprovider \"bar\" {}\n\nrun \"by_name\" {}\n\nrun \"mapped\" {\n  providers = {\n    foo = bar\n  }\n}\n";
        assert_eq!(
            mismatches(&[("main.tf", REQUIRES_FOO_AND_BAR), ("main.tftest.hcl", test)]),
            ["main.tftest.hcl:9,11-14"]
        );
        // Mapped first, `bar` takes `foo`'s type and nothing disagrees.
        let first = "provider \"foo\" {}\n\nprovider \"bar\" {}\n\nrun \"mapped\" {\n  providers = {\n    foo = bar\n  }\n}\n";
        assert!(mismatches(&[
            ("main.tf", REQUIRES_FOO_AND_BAR),
            ("main.tftest.hcl", first)
        ])
        .is_empty());
    }

    #[test]
    fn a_provider_a_run_module_typed_differently_points_at_its_block() {
        let root = "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n  }\n}\n";
        let setup = root.replace("hashicorp/foo", "hashicorp/bar");
        let test = "provider \"foo\" {}\n\nrun \"setup\" {\n  module {\n    source = \"./setup\"\n  }\n}\n\nrun \"main\" {}\n";
        assert_eq!(
            mismatches(&[
                ("main.tf", root),
                ("main.tftest.hcl", test),
                ("setup/main.tf", &setup)
            ]),
            ["main.tftest.hcl:1,1-15"]
        );
    }
}
