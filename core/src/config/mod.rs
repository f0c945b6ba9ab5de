//! Module loading from in-memory files, override merging and provider requirements.
//!
//! The host hands in one directory's files as `(name, bytes)`; [`load_module`] classifies them
//! (primary, override, ignored, OpenTofu shadowing), parses native and JSON syntax, appends the
//! primary files with Terraform's duplicate checks and merges the override files in order.
//! [`render_merged`] prints the result as HCL and [`provenance`] says where each part came from.

pub mod assemble;
pub mod changes;
pub mod files;
pub mod input_values;
pub mod literal;
pub mod load;
pub mod merge;
pub mod mock_data;
pub mod model;
pub mod module;
pub mod modules_manifest;
pub mod provenance;
pub mod render;
pub mod requirements;
pub mod schema;
pub mod source_addr;
pub mod test_files;
pub mod types;
pub mod variables;

pub use changes::{Change, ChangeKind, OverrideChanges, Previous};
pub use files::{classify, FileSet};
pub use model::{Attribute, Block, Body, Item, Origin, Value};
pub use module::Module;
pub use provenance::{provenance, provenance_with_lines, Provenance};
pub use requirements::{
    load_tree, load_tree_with_root, requirements, tree_requirements, ModuleTree,
    ProviderRequirements,
};

use crate::diag::Diagnostics;
use crate::flavor::Flavor;

/// Settings for loading a module.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadOptions {
    /// Whose rules and messages to follow.
    pub flavor: Flavor,
    /// The release every module's `required_version` is checked against when a tree is
    /// loaded; `None` skips the check (OpenTofu's rules for it are not followed yet).
    pub core_version: Option<crate::version::CoreVersion>,
    /// The root module's input values (`-var`, variables files, `TF_VAR_`), which its
    /// module sources read through `const` variables; empty leaves them their defaults.
    pub values: input_values::InputValues,
}

impl LoadOptions {
    /// The flavour's rules, `required_version` checked against the Terraform release
    /// tflock follows (Terraform flavour only).
    pub fn new(flavor: Flavor) -> LoadOptions {
        let core_version = match flavor {
            Flavor::Terraform => Some(crate::version::CoreVersion::TERRAFORM),
            Flavor::OpenTofu => None,
        };
        LoadOptions {
            flavor,
            core_version,
            values: input_values::InputValues::new(),
        }
    }
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions::new(Flavor::default())
    }
}

/// The outcome of loading one module directory.
#[derive(Debug, Clone, Default)]
pub struct LoadedModule {
    /// The merged module (partial when there are errors).
    pub module: Module,
    /// Everything Terraform would report while loading, in its order.
    pub diagnostics: Diagnostics,
    /// Which files were primary, override or hidden.
    pub files: FileSet,
    /// The texts of the files Terraform decodes more of than `module` holds: lost, or cut
    /// at a syntax error, as hclsyntax's recovery there is not followed.
    pub incomplete: Vec<String>,
}

/// Loads one directory's files (name → bytes; names without directory parts).
pub fn load_module<N: AsRef<str>, B: AsRef<[u8]>>(
    files: &[(N, B)],
    opts: &LoadOptions,
) -> LoadedModule {
    load::<N, B, false>(files, opts).0
}

/// Loads one directory like [`load_module`] and also says what each override file changed,
/// in merge order, with each change's lines in [`render_merged`]'s text.
pub fn load_module_with_changes<N: AsRef<str>, B: AsRef<[u8]>>(
    files: &[(N, B)],
    opts: &LoadOptions,
) -> (LoadedModule, Vec<OverrideChanges>) {
    let (loaded, mut changes) = load::<N, B, true>(files, opts);
    // A change's final item is the merged module's item declared where the change wrote it:
    // its provenance record (found by range, so blocks sharing an address, or one file setting
    // an argument twice, cannot be confused) has its lines.
    let records = provenance::provenance_with_lines(&loaded.module);
    // (file, declaration byte, path) -> lines.
    type Place<'a> = (&'a str, usize, &'a str);
    let by_place: crate::collections::SortedMap<Place, Option<(usize, usize)>> = records
        .iter()
        .map(|p| {
            let key = (
                p.range.filename.as_str(),
                p.range.start.byte,
                p.path.as_str(),
            );
            (key, p.merged_lines)
        })
        .collect();
    for c in changes.iter_mut() {
        for ch in c.changes.iter_mut() {
            ch.merged_lines = ch.range.as_ref().and_then(|r| {
                by_place
                    .get(&(r.filename.as_str(), r.start.byte, ch.path.as_str()))
                    .copied()
                    .flatten()
            });
        }
    }
    (loaded, changes)
}

/// The loader; `RECORD` is a constant so builds that never ask for change records (the npm
/// package) do not carry the recording code. Only this shim is generic over the hosts' file
/// types: the loading itself exists once in the binary.
fn load<N: AsRef<str>, B: AsRef<[u8]>, const RECORD: bool>(
    files: &[(N, B)],
    opts: &LoadOptions,
) -> (LoadedModule, Vec<OverrideChanges>) {
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_ref(), b.as_ref()))
        .collect();
    load_files::<RECORD>(&files, opts)
}

fn load_files<const RECORD: bool>(
    files: &[(&str, &[u8])],
    opts: &LoadOptions,
) -> (LoadedModule, Vec<OverrideChanges>) {
    let flavor = opts.flavor;
    let set = classify(files.iter().map(|(n, _)| *n), flavor);
    let by_name: crate::collections::SortedMap<&str, &[u8]> = files.iter().copied().collect();
    let bytes_of = |name: &str| by_name.get(name).copied();
    let mut diags = Diagnostics::new();
    let parse = |names: &[String], override_files: bool, diags: &mut Diagnostics| {
        names
            .iter()
            .filter_map(|n| {
                let bytes = bytes_of(n).unwrap_or_default();
                load::parse_file(n, bytes, flavor, override_files, diags)
            })
            .collect::<Vec<_>>()
    };
    let primaries = parse(&set.primary, false, &mut diags);
    let overrides = parse(&set.overrides, true, &mut diags);
    // Decoding errors keep every block; only a file that did not parse is lost, or the part
    // of one after a syntax error.
    let held =
        |parsed: &[load::ParsedFile], n: &String| parsed.iter().any(|f| f.name == *n && !f.partial);
    let incomplete: Vec<String> = set
        .primary
        .iter()
        .filter(|n| !held(&primaries, n))
        .chain(set.overrides.iter().filter(|n| !held(&overrides, n)))
        .map(|n| String::from_utf8_lossy(bytes_of(n).unwrap_or_default()).into_owned())
        .collect();
    let unreadable = !incomplete.is_empty();
    let mut module = assemble::append_primaries(primaries, flavor, &mut diags);
    let mut ix = module::Index::build(&module);
    let mut merge_diags = Diagnostics::new();
    let mut changes = Vec::new();
    if RECORD {
        changes =
            changes::merge_recording(&mut module, &mut ix, &overrides, flavor, &mut merge_diags);
    } else {
        for file in &overrides {
            merge::merge_file(&mut module, &mut ix, file, flavor, &mut merge_diags);
        }
    }
    // Terraform merges what hclsyntax recovered from a file with syntax errors; tflock has
    // none of that file, so a base block it lacks may well be there for Terraform.
    diags.extend(
        merge_diags
            .0
            .into_iter()
            .filter(|d| !(unreadable && d.summary.starts_with("Missing "))),
    );
    let loaded = LoadedModule {
        module,
        diagnostics: diags,
        files: set,
        incomplete,
    };
    (loaded, changes)
}

/// The merged configuration as native HCL text.
pub fn render_merged(loaded: &LoadedModule) -> String {
    render::render_module(&loaded.module)
}
