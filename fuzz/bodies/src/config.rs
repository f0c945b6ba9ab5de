//! Module loading (native and JSON HCL, with override files) and the merged rendering.
//!
//! Inputs are module directories in the [`crate::files`] container.

use crate::files::unpack_files;
use tflock_core::config::{load_module, render_merged, requirements, LoadOptions, LoadedModule};
use tflock_core::Flavor;

fn load(files: &[(String, Vec<u8>)], flavor: Flavor) -> LoadedModule {
    let loaded = load_module(files, &LoadOptions { flavor });
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

/// A module that loads without errors renders to HCL that loads without errors and renders
/// to the same text again.
pub fn render_roundtrip(data: &[u8]) {
    let files = unpack_files(data);
    let flavor = Flavor::Terraform;
    let loaded = load(&files, flavor);
    if loaded.diagnostics.has_errors() {
        return;
    }
    let text = render_merged(&loaded);
    let again = load(&[("main.tf".to_owned(), text.clone().into_bytes())], flavor);
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
