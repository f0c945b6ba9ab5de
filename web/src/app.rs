//! The page: shared state (files, flavour, lock text, hashed packages) and the panels.

use crate::model::config::{analyze, ConfigReport};
use crate::model::lock::HashedPackage;
use crate::model::share::{self, Shared};
use crate::panels::{
    config::ConfigPanel, hash::HashPanel, lock::LockPanel, open::OpenModule, preview::PreviewPanel,
};
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

/// The page's fragment (`#s=...` or anything else).
fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// File entries for `(name, content)` pairs, with fresh ids.
pub(crate) fn entries(files: &[(String, String)]) -> Vec<FileEntry> {
    files
        .iter()
        .enumerate()
        .map(|(i, (n, c))| FileEntry::new(i as u64, n, c))
        .collect()
}

#[component]
fn App() -> impl IntoView {
    // A link's state wins over the samples; a damaged link says why and shows the samples.
    let (start, link_error) = match share::decode(&location_hash()) {
        Some(Ok(s)) => (Some(s), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    let start = start.unwrap_or_else(|| Shared {
        files: samples::CONFIG_FILES
            .iter()
            .map(|(n, c)| (n.to_string(), c.to_string()))
            .collect(),
        lock: samples::LOCK_FILE.to_string(),
        flavor: "terraform".to_string(),
    });
    let files = RwSignal::new(entries(&start.files));
    let flavor = RwSignal::new(Flavor::parse(&start.flavor).unwrap_or_default());
    let link_error = RwSignal::new(link_error);
    let report: Memo<ConfigReport> = Memo::new(move |_| {
        let inputs: Vec<(String, String)> = files
            .get()
            .iter()
            .map(|f| (f.name.get(), f.content.get()))
            .collect();
        analyze(&inputs, flavor.get())
    });
    let lock_text = RwSignal::new(start.lock.clone());
    let hashed = RwSignal::new(Vec::<HashedPackage>::new());
    // Every change is written into the fragment in place (replaceState), so reload keeps it
    // and the address bar is always a link to this view.
    Effect::new(move |_| {
        let state = Shared {
            files: files
                .get()
                .iter()
                .map(|f| (f.name.get(), f.content.get()))
                .collect(),
            lock: lock_text.get(),
            flavor: match flavor.get() {
                Flavor::Terraform => "terraform".to_string(),
                Flavor::OpenTofu => "opentofu".to_string(),
            },
        };
        let frag = share::encode(&state);
        if frag != location_hash() {
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&frag));
            }
        }
    });
    // Back/forward (or a pasted link) to another fragment restores that state.
    let restore = move || match share::decode(&location_hash()) {
        Some(Ok(s)) => {
            files.set(entries(&s.files));
            lock_text.set(s.lock);
            flavor.set(Flavor::parse(&s.flavor).unwrap_or_default());
            link_error.set(None);
        }
        Some(Err(e)) => link_error.set(Some(e)),
        None => {}
    };
    let _ = window_event_listener(leptos::ev::popstate, move |_| restore());
    let _ = window_event_listener(leptos::ev::hashchange, move |_| restore());
    let share_link = move |_| {
        // A new history entry for the link, so back returns to the state before sharing.
        let href = window().location().href().unwrap_or_default();
        if let Ok(h) = window().history() {
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
        }
        if let Some(input) = document()
            .get_element_by_id("share-url")
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e).ok())
        {
            input.set_value(&href);
            input.select();
        }
    };
    view! {
        <header>
            <h1>"tflock playground"</h1>
            <p class="lede">
                "Terraform/OpenTofu provider locking, hashing and override merging, computed by "
                <code>"tflock-core"</code> " compiled to WebAssembly, in this page. Nothing is uploaded."
            </p>
            <div class="toolbar share">
                <button id="share" on:click=share_link>"Share link"</button>
                <input id="share-url" readonly placeholder="the link holds the files, the lock and the flavour (in the #fragment, never sent)" />
                <span id="link-error" class="error" hidden=move || link_error.get().is_none()>
                    {move || link_error.get().map(|e| format!("This link could not be opened: {e}"))}
                </span>
            </div>
        </header>
        <main>
            <OpenModule files lock_text flavor />
            <ConfigPanel files flavor report />
            <HashPanel hashed />
            <LockPanel lock_text hashed />
            <PreviewPanel report lock_text flavor />
        </main>
    }
}
