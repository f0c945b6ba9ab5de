//! Panel 3: a pasted lock file → diagnostics, canonical text, per-provider coverage.

use super::diagnostics::diagnostics_list;
use crate::model::lock::{check, HashedPackage, LockReport};
use crate::samples;
use leptos::prelude::*;
use tflock_core::Flavor;

#[component]
pub fn LockPanel(
    lock_text: RwSignal<String>,
    hashed: RwSignal<Vec<HashedPackage>>,
    platforms: RwSignal<String>,
) -> impl IntoView {
    let flavor = RwSignal::new(String::from("header"));
    let report: Memo<LockReport> = Memo::new(move |_| {
        let chosen = Flavor::parse(&flavor.get()).ok();
        hashed.with(|h| lock_text.with(|t| check(t, chosen, &platforms.get(), h)))
    });
    view! {
        <section id="lock" class="panel">
            <h2>"3. Lock file check"</h2>
            <div class="toolbar">
                <label>
                    "Flavour "
                    <select
                        id="lock-flavor"
                        prop:value=move || flavor.get()
                        on:change=move |ev| flavor.set(event_target_value(&ev))
                    >
                        <option value="header">"from the header"</option>
                        {super::flavor_options()}
                    </select>
                </label>
                <label>
                    "Platforms "
                    <input
                        id="platforms"
                        prop:value=move || platforms.get()
                        on:input=move |ev| platforms.set(event_target_value(&ev))
                    />
                </label>
                <button id="lock-sample" on:click=move |_| lock_text.set(samples::LOCK_FILE.into())>
                    "Sample lock"
                </button>
            </div>
            <div class="columns">
                <div class="files">
                    <p class="filename">".terraform.lock.hcl"</p>
                    <textarea
                        id="lock-input"
                        class="content"
                        spellcheck="false"
                        rows="24"
                        prop:value=move || lock_text.get()
                        on:input=move |ev| lock_text.set(event_target_value(&ev))
                    ></textarea>
                </div>
                <div class="outputs">
                    <h3>"Diagnostics"</h3>
                    <div id="lock-diagnostics">{move || diagnostics_list(report.get().diagnostics)}</div>
                    <h3>"Coverage"</h3>
                    <p class="note">
                        "A platform is covered when a recorded hash is known to belong to it; here that means a package for it was hashed in panel 2."
                    </p>
                    <p class="error" hidden=move || report.get().bad_platforms.is_empty()>
                        {move || format!("Not os_arch: {}", report.get().bad_platforms.join(", "))}
                    </p>
                    <table id="coverage">
                        <thead>
                            <tr>
                                <th>"provider"</th>
                                <th>"version"</th>
                                <th>"constraints"</th>
                                <th>"h1:"</th>
                                <th>"zh:"</th>
                                <th>"covered"</th>
                                <th>"missing"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                report
                                    .get()
                                    .providers
                                    .into_iter()
                                    .map(|p| {
                                        view! {
                                            <tr>
                                                <td class="provider">{p.provider}</td>
                                                <td>{p.version}</td>
                                                <td>{p.constraints}</td>
                                                <td class="h1-count">{p.h1}</td>
                                                <td class="zh-count">{p.zh}</td>
                                                <td class="covered">{p.covered.join(" ")}</td>
                                                <td class="missing">{p.missing.join(" ")}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tbody>
                    </table>
                    <h3>
                        "As " {move || report.get().flavor.command()} " init would write it "
                        <span id="lock-differs" class="badge">
                            {move || {
                                let r = report.get();
                                match (&r.formatted, r.differs) {
                                    (None, _) => "not formatted: the file has errors",
                                    (Some(_), true) => "differs from the input",
                                    (Some(_), false) => "identical to the input",
                                }
                            }}
                        </span>
                    </h3>
                    <pre id="lock-formatted" class="code">
                        {move || report.get().formatted.unwrap_or_default()}
                    </pre>
                </div>
            </div>
        </section>
    }
}
