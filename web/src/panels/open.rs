//! Opening a whole module: a picked folder (with `modules/` subfolders and
//! `.terraform.lock.hcl`) or a `.zip` of one replaces panel 1's files and panel 3's lock; the
//! files Terraform would leave out are listed with the core's reason.

use crate::app::{entries, FileEntry};
use crate::model::open::{open, unzip, Opened};
use leptos::prelude::*;
use leptos::task::spawn_local;
use tflock_core::Flavor;
use web_sys::{FileList, HtmlInputElement};

/// The bytes of a picked or dropped file.
async fn bytes_of(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buf = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("{}: cannot be read: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// A file's path under the picked folder (`webkitRelativePath`, which web-sys does not bind);
/// a single picked or dropped file has only its name.
fn path_of(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| f.name())
}

/// What was opened, for the summary: the folder's name, or the file's.
fn label_of(files: &[web_sys::File]) -> String {
    let first = files.first().map(path_of).unwrap_or_default();
    match (files.len(), first.split_once('/')) {
        (1, _) | (_, None) => first,
        (_, Some((top, _))) => format!("{top}/"),
    }
}

/// Reads `files` (a folder's, with relative paths, or `.zip` archives) into `(path, bytes)`.
async fn read_all(files: Vec<web_sys::File>) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for f in files {
        let bytes = bytes_of(&f).await?;
        let path = path_of(&f);
        if path.ends_with(".zip") {
            out.extend(unzip(&bytes).map_err(|e| format!("{path}: {e}"))?);
        } else {
            out.push((path, bytes));
        }
    }
    Ok(out)
}

#[component]
pub fn OpenModule(
    files: RwSignal<Vec<FileEntry>>,
    lock_text: RwSignal<String>,
    flavor: RwSignal<Flavor>,
) -> impl IntoView {
    let opened = RwSignal::new(None::<Result<(String, Opened), String>>);
    let load = move |list: Option<FileList>| {
        let Some(list) = list else { return };
        let picked: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        let label = label_of(&picked);
        spawn_local(async move {
            let result = read_all(picked)
                .await
                .map(|e| (label, open(e, flavor.get_untracked())));
            if let Ok((_, o)) = &result {
                files.set(entries(&o.files));
                if let Some(lock) = &o.lock {
                    lock_text.set(lock.clone());
                }
            }
            opened.set(Some(result));
        });
    };
    // `webkitdirectory` (pick a whole folder) is no attribute the view macro knows; set it once
    // the input exists.
    let folder = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    view! {
           <div
               id="open-module"
               class="dropzone"
               on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
               on:drop=move |ev: web_sys::DragEvent| {
                   ev.prevent_default();
                   load(ev.data_transfer().and_then(|d| d.files()));
               }
           >
               "Open a module: a folder "
               <input
                   id="folder-input"
                   type="file"
                   node_ref=folder
                   multiple
                   on:change=move |ev| {
                       let input: HtmlInputElement = event_target(&ev);
                       load(input.files());
                   }
               />
               " or a .zip of one (pick or drop) "
               <input
                   id="module-zip-input"
                   type="file"
                   accept=".zip"
                   on:change=move |ev| {
                       let input: HtmlInputElement = event_target(&ev);
                       load(input.files());
                   }
               />
               {move || match opened.get() {
                   None => ().into_any(),
                   Some(Err(e)) => view! { <p class="error" id="open-error">{e}</p> }.into_any(),
                   Some(Ok((label, o))) => view! {
                       <p id="open-summary">
                           {format!(
                               "{label}: {} configuration files{}; {} ignored",
                               o.files.len(),
                               if o.lock.is_some() { " and the lock file" } else { "" },
                               o.ignored.len(),
                           )}
                       </p>
                       <ul id="ignored-files">
                           {o.ignored
                               .into_iter()
                               .map(|(p, r)| {
    let shown = p.clone();
    view! {
                                   <li data-path=p>
                                       <code class="path">{shown}</code>
                                       " "
                                       <span class="reason">{r}</span>
                                   </li>
                               }
                               })
                               .collect_view()}
                       </ul>
                   }
                   .into_any(),
               }}
           </div>
       }
}
