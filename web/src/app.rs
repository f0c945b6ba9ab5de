//! The page: shared state (files, flavour, lock text, hashed packages) and the panels.

use crate::model::config::analyze;
use crate::model::lock::HashedPackage;
use crate::model::share::{self, Shared};
use crate::panels::{
    config::ConfigPanel, hash::HashPanel, lock::LockPanel, open::OpenModule, preview::PreviewPanel,
    remote_lock::RemoteLockPanel,
};
use crate::samples;
use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;
use std::time::Duration;
use tflock_core::Flavor;
use wasm_bindgen::prelude::wasm_bindgen;

/// How long typing must pause before the module is analysed again and the link rewritten:
/// a keystroke in a 200-file module then costs nothing, and a pause one analysis.
const DEBOUNCE: Duration = Duration::from_millis(150);

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

/// Ids never reused within the page: a list replaced as a whole (an opened folder, a link)
/// must not share keys with the rows it replaces, or the keyed list would keep their views.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl FileEntry {
    pub fn new(name: &str, content: &str) -> FileEntry {
        FileEntry {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
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

/// `performance.now()` in milliseconds (sub-millisecond where the browser allows).
fn now_ms() -> f64 {
    let w: wasm_bindgen::JsValue = window().into();
    let perf = js_sys::Reflect::get(&w, &"performance".into()).unwrap_or_default();
    js_sys::Reflect::get(&perf, &"now".into())
        .ok()
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
        .and_then(|f| f.call0(&perf).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or_else(js_sys::Date::now)
}

/// Runs the last `work` handed to the returned scheduler once [`DEBOUNCE`] has passed
/// without another.
fn debouncer() -> impl Fn(Box<dyn FnOnce()>) + Copy + 'static {
    let pending = StoredValue::new(None::<TimeoutHandle>);
    move |work| {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        pending.set_value(set_timeout_with_handle(work, DEBOUNCE).ok());
    }
}

/// The last analysis of panel 1's files: how many, how long the analysis took, and how long
/// until the view showed it (the next animation frame, after the DOM updates).
#[derive(Clone, Copy, Default)]
struct Recompute {
    generation: u32,
    files: usize,
    ms: f64,
    shown_ms: f64,
}

/// The page's fragment (`#s=...` or anything else).
fn location_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// File entries for `(name, content)` pairs, with fresh ids.
pub(crate) fn entries(files: &[(String, String)]) -> Vec<FileEntry> {
    files.iter().map(|(n, c)| FileEntry::new(n, c)).collect()
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
        platforms: share::default_platforms(),
    });
    let files = RwSignal::new(entries(&start.files));
    let flavor = RwSignal::new(Flavor::parse(&start.flavor).unwrap_or_default());
    let link_error = RwSignal::new(link_error);
    let inputs = move || -> Vec<(String, String)> {
        files
            .get()
            .iter()
            .map(|f| (f.name.get(), f.content.get()))
            .collect()
    };
    // The first analysis at once; later ones once typing pauses, timed for the status line.
    let report = RwSignal::new(analyze(&start.files, flavor.get_untracked()));
    let recompute = RwSignal::new(Recompute {
        files: start.files.len(),
        ..Recompute::default()
    });
    let analyze_later = debouncer();
    Effect::new(move |first: Option<()>| {
        let (now, fl) = (inputs(), flavor.get());
        if first.is_none() {
            return;
        }
        analyze_later(Box::new(move || {
            let t0 = now_ms();
            let files = now.len();
            report.set(analyze(&now, fl));
            let ms = now_ms() - t0;
            request_animation_frame(move || {
                let shown_ms = now_ms() - t0;
                recompute.update(|r| {
                    *r = Recompute {
                        generation: r.generation + 1,
                        files,
                        ms,
                        shown_ms,
                    }
                });
            });
        }));
    });
    let lock_text = RwSignal::new(start.lock.clone());
    let platforms = RwSignal::new(start.platforms.clone());
    let hashed = RwSignal::new(Vec::<HashedPackage>::new());
    // Every change is written into the fragment in place (replaceState), once typing pauses,
    // so reload keeps it and the address bar is always a link to this view.
    let state_now = move || Shared {
        files: inputs(),
        lock: lock_text.get(),
        flavor: flavor.get().to_string(),
        platforms: platforms.get(),
    };
    let write_link = |state: &Shared| {
        let frag = share::encode(state);
        if frag != location_hash() {
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&frag));
            }
        }
    };
    let write_link_later = debouncer();
    Effect::new(move |_| {
        let state = state_now();
        write_link_later(Box::new(move || write_link(&state)));
    });
    // Back/forward (or a pasted link) to another fragment restores that state.
    let restore = move || match share::decode(&location_hash()) {
        Some(Ok(s)) => {
            files.set(entries(&s.files));
            lock_text.set(s.lock);
            flavor.set(Flavor::parse(&s.flavor).unwrap_or_default());
            platforms.set(s.platforms);
            link_error.set(None);
        }
        Some(Err(e)) => link_error.set(Some(e)),
        None => {}
    };
    let _ = window_event_listener(leptos::ev::popstate, move |_| restore());
    let _ = window_event_listener(leptos::ev::hashchange, move |_| restore());
    let share_link = move |_| {
        // The state as it is now (a debounced write may be pending), then a new history
        // entry for the link, so back returns to the state before sharing.
        write_link(&untrack(state_now));
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
                <span
                    id="recompute"
                    data-generation=move || recompute.get().generation.to_string()
                    data-ms=move || format!("{:.2}", recompute.get().ms)
                    data-shown-ms=move || format!("{:.2}", recompute.get().shown_ms)
                >
                    {move || {
                        let r = recompute.get();
                        if r.generation == 0 {
                            String::new()
                        } else {
                            format!(
                                "{} files analysed in {:.1} ms, shown after {:.1} ms",
                                r.files, r.ms, r.shown_ms
                            )
                        }
                    }}
                </span>
                <span id="link-error" class="error" hidden=move || link_error.get().is_none()>
                    {move || link_error.get().map(|e| format!("This link could not be opened: {e}"))}
                </span>
            </div>
        </header>
        <main>
            <OpenModule files lock_text flavor />
            <ConfigPanel files flavor report=report.read_only() />
            <HashPanel hashed />
            <LockPanel lock_text hashed platforms />
            <PreviewPanel report=report.read_only() lock_text flavor />
            <RemoteLockPanel report=report.read_only() lock_text flavor platforms />
        </main>
    }
}
