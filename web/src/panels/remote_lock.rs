//! Panel 5: the Lock action. Runs the npm package's `lock()` host (`tflock_wasm::lock_with`:
//! the browser's `fetch`, signature checks and streamed hashing as the CLI does them) against
//! a network mirror, a registry or the origin registries, with per-package progress, and
//! shows the new lock file (copy, download, use in panel 3) and its change from panel 3's.

use super::diagnostics::diagnostics_list;
use crate::model::config::ConfigReport;
use crate::model::remote_lock::{request, result, LockResult, SourceKind, MIRROR_DEFAULT};
use leptos::prelude::*;
use leptos::task::spawn_local;
use tflock_core::api::lock_file::strip_markup;
use tflock_core::Flavor;
use tflock_wasm::LockEvent;
use wasm_bindgen::{JsCast, JsValue};

/// localStorage keys: the source is the user's, kept on this machine, never in a link.
const KIND_KEY: &str = "tflock.lock.source";
const URL_KEY: &str = "tflock.lock.url";

/// One package's download as the page shows it.
#[derive(Debug, Clone, PartialEq)]
struct PackageRow {
    label: String,
    received: u64,
    total: Option<u64>,
    done: bool,
}

fn stored(key: &str) -> Option<String> {
    window()
        .local_storage()
        .ok()
        .flatten()?
        .get_item(key)
        .ok()
        .flatten()
}

fn store(key: &str, value: &str) {
    if let Some(s) = window().local_storage().ok().flatten() {
        let _ = s.set_item(key, value);
    }
}

/// The window's `fetch`, bound to it.
fn window_fetch() -> Option<js_sys::Function> {
    let w: JsValue = window().into();
    let f: js_sys::Function = js_sys::Reflect::get(&w, &"fetch".into())
        .ok()?
        .dyn_into()
        .ok()?;
    Some(f.bind0(&w))
}

/// `navigator.clipboard.writeText(text)`, where the browser offers it.
fn copy_text(text: &str) {
    let w: JsValue = window().into();
    let nav = js_sys::Reflect::get(&w, &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    let clip = js_sys::Reflect::get(&nav, &"clipboard".into()).unwrap_or(JsValue::UNDEFINED);
    if let Ok(write) = js_sys::Reflect::get(&clip, &"writeText".into()) {
        if let Ok(write) = write.dyn_into::<js_sys::Function>() {
            let _ = write.call1(&clip, &text.into());
        }
    }
}

/// Runs `lock_with` for the page's inputs and reports into the signals.
async fn run_lock(
    req: crate::model::remote_lock::LockRequest,
    flavor: Flavor,
    lines: RwSignal<Vec<String>>,
    packages: RwSignal<Vec<PackageRow>>,
) -> Result<LockResult, String> {
    let fetch = window_fetch().ok_or("this browser has no fetch")?;
    let progress = move |event: LockEvent| match event {
        LockEvent::Message(line) => lines.update(|v| v.push(strip_markup(line))),
        LockEvent::Package {
            provider,
            version,
            platform,
            received,
            total,
            done,
        } => {
            let label = format!("{provider} {version} {platform}");
            packages.update(|rows| {
                let row = PackageRow {
                    label: label.clone(),
                    received,
                    total,
                    done,
                };
                match rows.iter_mut().find(|r| r.label == label) {
                    Some(r) => *r = row,
                    None => rows.push(row),
                }
            });
        }
    };
    let outcome = tflock_wasm::lock_with(
        req.requirements,
        req.previous,
        req.options,
        req.source,
        fetch,
        &progress,
    )
    .await
    .map_err(|e| tflock_wasm::error::message_of(&e, "the lock run failed"))?;
    Ok(result(&outcome, flavor))
}

fn package_rows(rows: Vec<PackageRow>) -> impl IntoView {
    rows.into_iter()
        .map(|r| {
            let size = match r.total {
                Some(t) => format!("{} / {t} bytes", r.received),
                None => format!("{} bytes", r.received),
            };
            let max = r.total.unwrap_or(r.received.max(1)) as f64;
            view! {
                <li class="package" class:done=r.done data-done=r.done.to_string()>
                    <code>{r.label}</code>
                    " "
                    <progress max=max value=r.received as f64></progress>
                    " "
                    <span class="size">{size}</span>
                    {r.done.then_some(" ✓")}
                </li>
            }
        })
        .collect_view()
}

fn outcome_view(r: LockResult) -> AnyView {
    let text = r.text.clone();
    let download = text.as_ref().map(|t| {
        format!(
            "data:text/plain;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(t))
        )
    });
    view! {
        <h3>"Diagnostics"</h3>
        <div id="remote-lock-diagnostics">{diagnostics_list(r.diagnostics)}</div>
        {text
            .map(|t| {
                let copied = t.clone();
                view! {
                    <h3>".terraform.lock.hcl"</h3>
                    <div class="toolbar">
                        <button id="remote-lock-copy" on:click=move |_| copy_text(&copied)>
                            "Copy"
                        </button>
                        <a id="remote-lock-download" download=".terraform.lock.hcl" href=download>
                            "Download"
                        </a>
                    </div>
                    <pre id="remote-lock-text" class="code">{t}</pre>
                }
            })}
        <h3>"Change from panel 3's lock"</h3>
        <pre id="remote-lock-diff" class="code">{r.diff}</pre>
        <h3>"Messages"</h3>
        <pre id="remote-lock-messages" class="code">{r.messages.join("\n")}</pre>
    }
    .into_any()
}

#[component]
pub fn RemoteLockPanel(
    report: ReadSignal<ConfigReport>,
    lock_text: RwSignal<String>,
    flavor: RwSignal<Flavor>,
    platforms: RwSignal<String>,
) -> impl IntoView {
    let kind = RwSignal::new(SourceKind::parse(&stored(KIND_KEY).unwrap_or_default()));
    let url = RwSignal::new(stored(URL_KEY).unwrap_or_else(|| MIRROR_DEFAULT.to_string()));
    Effect::new(move |_| {
        store(KIND_KEY, kind.get().as_str());
        store(URL_KEY, &url.get());
    });
    let running = RwSignal::new(false);
    let lines = RwSignal::new(Vec::<String>::new());
    let packages = RwSignal::new(Vec::<PackageRow>::new());
    let outcome = RwSignal::new(None::<Result<LockResult, String>>);
    let new_text = move || {
        outcome.with(|o| match o {
            Some(Ok(r)) => r.text.clone(),
            _ => None,
        })
    };
    let start = move |_| {
        let fl = flavor.get_untracked();
        let req = report.with_untracked(|r| {
            lock_text.with_untracked(|t| {
                request(
                    r,
                    t,
                    fl,
                    kind.get_untracked(),
                    &url.get_untracked(),
                    &platforms.get_untracked(),
                )
            })
        });
        lines.set(Vec::new());
        packages.set(Vec::new());
        let req = match req {
            Ok(req) => req,
            Err(e) => return outcome.set(Some(Err(e))),
        };
        outcome.set(None);
        running.set(true);
        spawn_local(async move {
            let r = run_lock(req, fl, lines, packages).await;
            outcome.set(Some(r));
            running.set(false);
        });
    };
    view! {
        <section id="remote-lock" class="panel">
            <h2>"5. Lock from a registry or mirror"</h2>
            <p class="hint">
                "Runs " <code>"providers lock"</code> " in this page for panel 1's requirements, "
                "starting from panel 3's lock, through the browser's fetch: the server must allow "
                "this page by CORS (the tflock edge mirror does; " <code>"cargo xtask worker-dev --https"</code>
                " serves one at " <code>{MIRROR_DEFAULT}</code> "). The URL is kept in this browser only."
            </p>
            <div class="toolbar">
                <label>
                    "Source "
                    <select
                        id="remote-lock-kind"
                        prop:value=move || kind.get().as_str()
                        on:change=move |ev| kind.set(SourceKind::parse(&event_target_value(&ev)))
                    >
                        <option value="mirror">"Network mirror (https)"</option>
                        <option value="registry">"Registry (providers.v1 URL)"</option>
                        <option value="origin">"Origin registries (service discovery)"</option>
                    </select>
                </label>
                <label>
                    "URL "
                    <input
                        id="remote-lock-url"
                        size="40"
                        prop:disabled=move || kind.get() == SourceKind::Origin
                        prop:value=move || url.get()
                        on:input=move |ev| url.set(event_target_value(&ev))
                    />
                </label>
                <label>
                    "Platforms "
                    <input
                        id="remote-lock-platforms"
                        prop:value=move || platforms.get()
                        on:input=move |ev| platforms.set(event_target_value(&ev))
                    />
                </label>
                <button id="remote-lock-run" prop:disabled=move || running.get() on:click=start>
                    {move || if running.get() { "Locking…" } else { "Lock" }}
                </button>
                <button
                    id="remote-lock-use"
                    prop:disabled=move || new_text().is_none()
                    on:click=move |_| {
                        if let Some(t) = new_text() {
                            lock_text.set(t);
                        }
                    }
                >
                    "Use as panel 3's lock"
                </button>
            </div>
            <div id="remote-lock-status" data-state=move || {
                if running.get() {
                    "running"
                } else {
                    outcome.with(|o| match o {
                        None => "idle",
                        Some(Ok(r)) if r.text.is_some() => "done",
                        Some(_) => "failed",
                    })
                }
            }>
                <ul id="remote-lock-packages">{move || package_rows(packages.get())}</ul>
                <pre id="remote-lock-progress" class="code">{move || lines.get().join("\n")}</pre>
                {move || match outcome.get() {
                    None => ().into_any(),
                    Some(Err(e)) => view! { <p id="remote-lock-error" class="error">{e}</p> }.into_any(),
                    Some(Ok(r)) => outcome_view(r),
                }}
            </div>
        </section>
    }
}
