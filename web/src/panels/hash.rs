//! Panel 2: provider zips (picked, dropped or embedded samples) → `h1:` and `zh:`, hashed
//! while streaming with a progress bar.

use crate::model::lock::HashedPackage;
use crate::samples;
use crate::stream::{blob_of, hash_blob};
use leptos::prelude::*;
use leptos::task::spawn_local;
use tflock_core::api::parse::package_file_name_parts;
use wasm_bindgen::JsCast;
use web_sys::{Blob, FileList, HtmlInputElement};

/// The hashes of one finished file.
#[derive(Clone, PartialEq)]
struct Done {
    h1: String,
    zh: String,
    /// The `dirhash.HashZip` form, when it differs from `h1` (directory entries).
    h1_archive: Option<String>,
    random_access: bool,
}

/// One file being or having been hashed.
#[derive(Clone, Copy)]
struct Row {
    id: u64,
    name: StoredValue<String>,
    size: f64,
    fed: RwSignal<f64>,
    result: RwSignal<Option<Result<Done, String>>>,
}

#[component]
pub fn HashPanel(hashed: RwSignal<Vec<HashedPackage>>) -> impl IntoView {
    let rows = RwSignal::new(Vec::<Row>::new());
    let next_id = StoredValue::new(0u64);
    let start = move |name: String, blob: Blob| {
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        let row = Row {
            id,
            name: StoredValue::new(name),
            size: blob.size(),
            fed: RwSignal::new(0.0),
            result: RwSignal::new(None),
        };
        rows.update(|v| v.insert(0, row));
        spawn_local(async move {
            let outcome = hash_blob(&blob, |n| row.fed.set(n)).await;
            let done = outcome.map(|h| {
                if let Some(name) = package_file_name_parts(&row.name.get_value()) {
                    let mut hashes = vec![h.hashes.h1.clone(), h.hashes.zh.clone()];
                    if h.hashes.h1_archive != h.hashes.h1 {
                        hashes.push(h.hashes.h1_archive.clone());
                    }
                    hashed.update(|v| v.push(HashedPackage { name, hashes }));
                }
                Done {
                    h1: h.hashes.h1.to_string(),
                    zh: h.hashes.zh.to_string(),
                    h1_archive: (h.hashes.h1_archive != h.hashes.h1)
                        .then(|| h.hashes.h1_archive.to_string()),
                    random_access: h.random_access,
                }
            });
            row.result.set(Some(done));
        });
    };
    let start_files = move |files: Option<FileList>| {
        let Some(files) = files else { return };
        for i in 0..files.length() {
            if let Some(f) = files.get(i) {
                start(f.name(), f.unchecked_into());
            }
        }
    };
    let hash_samples = move |_| {
        for s in samples::ZIPS {
            match blob_of(s.bytes) {
                Ok(b) => start(s.name.to_string(), b),
                Err(e) => leptos::logging::error!("{e}"),
            }
        }
    };
    let dragging = RwSignal::new(false);
    view! {
        <section id="hash" class="panel">
            <h2>"2. Hash provider zips"</h2>
            <p>
                "Files are read as streams and fed to the core's " <code>"ZipHasher"</code>
                " chunk by chunk, so memory stays bounded whatever their size. Hashes of packages named "
                <code>"terraform-provider-TYPE_VERSION_OS_ARCH.zip"</code>
                " also tell panel 3 which platform a locked hash belongs to."
            </p>
            <div
                id="dropzone"
                class=move || if dragging.get() { "dropzone over" } else { "dropzone" }
                on:dragover=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    dragging.set(false);
                    start_files(ev.data_transfer().and_then(|d| d.files()));
                }
            >
                "Drop .zip files here, or "
                <input
                    id="zip-input"
                    type="file"
                    accept=".zip"
                    multiple
                    on:change=move |ev| {
                        let input: HtmlInputElement = event_target(&ev);
                        start_files(input.files());
                        input.set_value("");
                    }
                />
                <button id="hash-sample" on:click=hash_samples>"Hash the sample zips"</button>
            </div>
            <ul id="hash-results">
                <For each=move || rows.get() key=|r| r.id let:row>
                    <li class="hash-row" data-name=row.name.get_value()>
                        <div>
                            <strong class="name">{row.name.get_value()}</strong>
                            " "
                            <span class="size">{format!("{} bytes", row.size)}</span>
                        </div>
                        <progress max=row.size value=move || row.fed.get()></progress>
                        {move || match row.result.get() {
                            None => view! { <p class="pending">"hashing…"</p> }.into_any(),
                            Some(Err(e)) => view! { <p class="error">{e}</p> }.into_any(),
                            Some(Ok(d)) => {
                                view! {
                                    <dl class="hashes">
                                        <dt>"h1"</dt>
                                        <dd class="h1">{d.h1}</dd>
                                        <dt>"zh"</dt>
                                        <dd class="zh">{d.zh}</dd>
                                        {d
                                            .h1_archive
                                            .map(|a| {
                                                view! {
                                                    <dt>"h1 (archive form, the zip has directory entries)"</dt>
                                                    <dd class="h1-archive">{a}</dd>
                                                }
                                            })}
                                    </dl>
                                    <p class="note" hidden=!d.random_access>
                                        "The stream did not match the central directory; hashed again with random access."
                                    </p>
                                }
                                    .into_any()
                            }
                        }}
                    </li>
                </For>
            </ul>
        </section>
    }
}
