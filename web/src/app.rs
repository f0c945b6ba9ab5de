//! The page: shared state (files, flavour, lock text, hashed packages) and the panels.

use crate::model::config::{analyze, ConfigReport};
use crate::model::lock::HashedPackage;
use crate::panels::{config::ConfigPanel, hash::HashPanel, lock::LockPanel, preview::PreviewPanel};
use crate::samples;
use leptos::prelude::*;
use tflock_core::Flavor;
use wasm_bindgen::prelude::wasm_bindgen;

/// One editable configuration file.
#[derive(Clone, Copy)]
pub(crate) struct FileEntry {
    /// Stable key for the list.
    pub id: u64,
    /// File name (`main.tf`, `modules/vpc/main.tf`).
    pub name: RwSignal<String>,
    /// File text.
    pub content: RwSignal<String>,
}

impl FileEntry {
    pub fn new(id: u64, name: &str, content: &str) -> FileEntry {
        FileEntry {
            id,
            name: RwSignal::new(name.to_string()),
            content: RwSignal::new(content.to_string()),
        }
    }
}

/// Entry point called by the wasm-bindgen glue once the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let files = RwSignal::new(
        samples::CONFIG_FILES
            .iter()
            .enumerate()
            .map(|(i, (n, c))| FileEntry::new(i as u64, n, c))
            .collect::<Vec<_>>(),
    );
    let flavor = RwSignal::new(Flavor::Terraform);
    let report: Memo<ConfigReport> = Memo::new(move |_| {
        let inputs: Vec<(String, String)> = files
            .get()
            .iter()
            .map(|f| (f.name.get(), f.content.get()))
            .collect();
        analyze(&inputs, flavor.get())
    });
    let lock_text = RwSignal::new(samples::LOCK_FILE.to_string());
    let hashed = RwSignal::new(Vec::<HashedPackage>::new());
    view! {
        <header>
            <h1>"tflock playground"</h1>
            <p class="lede">
                "Terraform/OpenTofu provider locking, hashing and override merging, computed by "
                <code>"tflock-core"</code> " compiled to WebAssembly, in this page. Nothing is uploaded."
            </p>
        </header>
        <main>
            <ConfigPanel files flavor report />
            <HashPanel hashed />
            <LockPanel lock_text hashed />
            <PreviewPanel report lock_text flavor />
        </main>
    }
}
