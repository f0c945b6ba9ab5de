//! Module loading (native and JSON HCL, with override files) and the merged rendering.
//!
//! Inputs are module directories in the [`crate::files`] container.

use crate::files::unpack_files;
use tflock_core::config::{
    load_module, render_merged, requirements, Block, Body, Item, LoadOptions, LoadedModule,
};
use tflock_core::Flavor;

fn load(files: &[(String, Vec<u8>)], flavor: Flavor) -> LoadedModule {
    let loaded = load_module(files, &LoadOptions::new(flavor));
    for d in loaded.diagnostics.iter() {
        let _ = d.to_string();
    }
    let _ = render_merged(&loaded);
    let _ = requirements(&loaded.module, "", flavor);
    loaded
}

fn is_json(name: &str) -> bool {
    name.ends_with(".json")
}

/// Native HCL files (`.tf`, `.tofu` and their overrides); JSON files are left out.
pub fn config_native(data: &[u8]) {
    let mut files = unpack_files(data);
    files.retain(|(n, _)| !is_json(n));
    for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
        load(&files, flavor);
    }
}

/// JSON HCL files, alone or with native ones (a JSON override of a native base and back).
pub fn config_json(data: &[u8]) {
    let files = unpack_files(data);
    for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
        load(&files, flavor);
    }
}

/// Whether native syntax can spell every argument and block type name in `body`: JSON
/// accepts any string as a name, native HCL only identifiers.
fn native_names(body: &Body) -> bool {
    body.items.iter().all(|item| match item {
        Item::Attribute(a) => is_identifier(&a.name),
        Item::Block(b) => block_names(b),
    })
}

fn block_names(b: &Block) -> bool {
    is_identifier(&b.kind) && native_names(&b.body)
}

/// hclsyntax's identifier: a letter or `_`, then letters, digits, `_` and `-` (ASCII is
/// enough to tell the names the fuzzer invents).
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A module that loads without errors renders to HCL that re-loads and renders to the same
/// text again. Modules with JSON files must only round-trip when their re-load has no
/// errors: Terraform parses a JSON string's template only when it evaluates it, so a
/// broken template (or a name native syntax cannot spell) loads from JSON and is written
/// out as it is by `render_merged` (known gaps, kept in `fuzz/regressions/render_roundtrip/`).
/// Every top-level block has its own lines in the merged text, in order and apart from the
/// others, and every record with lines lies within its block's (the playground marks lines
/// with them).
fn provenance_lines_fit(loaded: &tflock_core::config::LoadedModule, text: &str) {
    let count = text.split_inclusive('\n').count();
    let mut block: Option<(usize, usize)> = None;
    let mut last_end = 0;
    for p in tflock_core::config::provenance_with_lines(&loaded.module) {
        let Some((a, b)) = p.merged_lines else {
            assert!(!p.path.is_empty(), "block {} has no lines\n{text}", p.block);
            continue;
        };
        assert!(
            1 <= a && a <= b && b <= count,
            "{}/{} at {a}-{b} of {count}\n{text}",
            p.block,
            p.path
        );
        if p.path.is_empty() {
            assert!(
                a > last_end,
                "block {} at {a}-{b} overlaps the one before\n{text}",
                p.block
            );
            last_end = b;
            block = Some((a, b));
        } else if let Some((ba, bb)) = block {
            assert!(
                ba <= a && b <= bb,
                "{}/{} at {a}-{b} outside {ba}-{bb}\n{text}",
                p.block,
                p.path
            );
        }
    }
}

/// A change's lines are those of the provenance record of the item it wrote.
fn change_lines_fit(
    files: &[(String, Vec<u8>)],
    flavor: Flavor,
    loaded: &LoadedModule,
    text: &str,
) {
    let (_, changes) =
        tflock_core::config::load_module_with_changes(files, &LoadOptions::new(flavor));
    let records = tflock_core::config::provenance_with_lines(&loaded.module);
    for ch in changes.iter().flat_map(|c| &c.changes) {
        let (Some(lines), Some(range)) = (ch.merged_lines, &ch.range) else {
            continue;
        };
        let record = records
            .iter()
            .find(|p| p.merged_lines == Some(lines) && p.path == ch.path);
        assert_eq!(
            record.map(|p| &p.range),
            Some(range),
            "change {}/{} points at lines {lines:?}\n{text}",
            ch.block,
            ch.path
        );
    }
}

pub fn render_roundtrip(data: &[u8]) {
    let files = unpack_files(data);
    let flavor = Flavor::Terraform;
    let loaded = load(&files, flavor);
    if loaded.diagnostics.has_errors() {
        return;
    }
    let from_json = files.iter().any(|(n, _)| is_json(n));
    let text = render_merged(&loaded);
    let again = load(&[("main.tf".to_owned(), text.clone().into_bytes())], flavor);
    if from_json
        && (again.diagnostics.has_errors() || !loaded.module.blocks.iter().all(block_names))
    {
        return;
    }
    // (After the JSON skip: a JSON argument named "" would pass for a block in the records.)
    provenance_lines_fit(&loaded, &text);
    change_lines_fit(&files, flavor, &loaded, &text);
    assert!(
        !again.diagnostics.has_errors(),
        "merged output does not load: {:?}\n{text}",
        again.diagnostics
    );
    assert_eq!(
        render_merged(&again),
        text,
        "merged output renders differently when reloaded"
    );
}
