//! Panel 1: editable configuration files → merged module, requirements, diagnostics.

use super::diagnostics::diagnostics_list;
use crate::app::FileEntry;
use crate::model::config::{kind_word, origins, ConfigReport};
use leptos::prelude::*;
use tflock_core::Flavor;

#[component]
pub fn ConfigPanel(
    files: RwSignal<Vec<FileEntry>>,
    flavor: RwSignal<Flavor>,
    report: ReadSignal<ConfigReport>,
) -> impl IntoView {
    let add = move |_| {
        files.update(|v| {
            let n = v.len() + 1;
            let name = (n..)
                .map(|i| format!("extra_{i}.tf"))
                .find(|name| !v.iter().any(|f| f.name.with_untracked(|x| x == name)))
                .unwrap_or_default();
            v.push(FileEntry::new(&name, ""));
        })
    };
    view! {
        <section id="config" class="panel">
            <h2>"1. Configuration & overrides"</h2>
            <div class="toolbar">
                <label>
                    "Flavour "
                    <select
                        id="flavor"
                        prop:value=move || Flavor::name(flavor.get())
                        on:change=move |ev| {
                            flavor.set(Flavor::parse(&event_target_value(&ev)).unwrap_or_default())
                        }
                    >
                        {super::flavor_options()}
                    </select>
                </label>
                <button id="add-file" on:click=add>"Add file"</button>
            </div>
            <div class="columns">
                <div class="files">
                    <For each=move || files.get() key=|f| f.id let:file>
                        <div class="file">
                            <div class="file-head">
                                <input
                                    class="name"
                                    prop:value=move || file.name.get()
                                    on:input=move |ev| file.name.set(event_target_value(&ev))
                                />
                                <button
                                    class="remove"
                                    title="Remove this file"
                                    on:click=move |_| files.update(|v| v.retain(|f| f.id != file.id))
                                >
                                    "✕"
                                </button>
                            </div>
                            <textarea
                                class="content"
                                spellcheck="false"
                                rows="12"
                                prop:value=move || file.content.get()
                                on:input=move |ev| file.content.set(event_target_value(&ev))
                            ></textarea>
                        </div>
                    </For>
                </div>
                <div class="outputs">
                    <h3>"Diagnostics"</h3>
                    <div id="config-diagnostics">
                        {move || diagnostics_list(report.get().diagnostics)}
                    </div>
                    <h3>"Files"</h3>
                    <p id="file-roles">
                        {move || {
                            let r = report.get();
                            let mut s = format!(
                                "primary: {}; overrides: {}",
                                list(&r.primary),
                                list(&r.overrides),
                            );
                            if !r.shadowed.is_empty() {
                                s.push_str(&format!("; shadowed: {}", list(&r.shadowed)));
                            }
                            s
                        }}
                    </p>
                    <h3>"Merged module"</h3>
                    <p class="note" hidden=move || !report.get().failed>
                        "Loading failed: this is the partial merge; the CLI would print nothing."
                    </p>
                    <pre id="merged" class="code">
                        {move || {
                            report
                                .get()
                                .lines
                                .into_iter()
                                .map(|l| {
                                    let class = match l.kind {
                                        Some(k) => format!("line {k}"),
                                        None => "line".to_string(),
                                    };
                                    let label = if l.starts { l.from.clone() } else { String::new() };
                                    view! {
                                        <span class=class title=l.note data-from=l.from data-label=label>
                                            {l.text}
                                        </span>
                                    }
                                })
                                .collect_view()
                        }}
                    </pre>
                    <h3>"What each override changed"</h3>
                    <p class="note">"Override files in Terraform's merge order; later files win."</p>
                    <div id="override-changes">
                        {move || {
                            let r = report.get();
                            if r.changes.is_empty() {
                                return view! { <p>"No override files."</p> }.into_any();
                            }
                            r.changes
                                .into_iter()
                                .map(|c| {
                                    let file = c.file.clone();
                                    let heading = c.file.clone();
                                    view! {
                                        <div class="override-file" data-file=file>
                                            <h4>{heading}</h4>
                                            <ul>
                                                {c
                                                    .changes
                                                    .into_iter()
                                                    .map(|ch| {
                                                        let at = ch
                                                            .range
                                                            .as_ref()
                                                            .map(|r| format!("{}:{}", r.filename, r.start.line))
                                                            .unwrap_or_default();
                                                        let what = if ch.path.is_empty() {
                                                            ch.block.clone()
                                                        } else {
                                                            format!("{} {}", ch.block, ch.path)
                                                        };
                                                        let kind = kind_word(ch.kind);
                                                        view! {
                                                            <li class=format!("change {kind}") data-block=ch.block.clone() data-path=ch.path.clone()>
                                                                <span class="kind">{kind}</span>
                                                                " "
                                                                <code class="what">{what}</code>
                                                                " "
                                                                <span class="at">{at}</span>
                                                                {ch
                                                                    .previous
                                                                    .map(|p| {
                                                                        view! {
                                                                            " was "
                                                                            <code class="previous">{p.text}</code>
                                                                            " from "
                                                                            <span class="from">
                                                                                {format!("{}:{}", p.range.filename, p.range.start.line)}
                                                                            </span>
                                                                        }
                                                                    })}
                                                            </li>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </ul>
                                        </div>
                                    }
                                })
                                .collect_view()
                                .into_any()
                        }}
                    </div>
                    <h3>"Provider requirements"</h3>
                    <pre id="tree" class="code">{move || report.get().tree}</pre>
                    <table id="requirements">
                        <thead>
                            <tr>
                                <th>"provider"</th>
                                <th>"constraints"</th>
                                <th>"origins"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                report
                                    .get()
                                    .requirements
                                    .providers
                                    .values()
                                    .map(|r| {
                                        let origins = origins(r);
                                        view! {
                                            <tr>
                                                <td class="provider">{r.provider.clone()}</td>
                                                <td class="constraints">{r.constraints.clone()}</td>
                                                <td>
                                                    <ul class="origins">
                                                        {origins
                                                            .into_iter()
                                                            .map(|o| {
                                                                view! {
                                                                    <li>
                                                                        <span class="location">{o.location}</span>
                                                                        " " {o.kind} " "
                                                                        <code>{o.local_name}</code>
                                                                        {o.constraint.map(|c| format!(" {c}"))}
                                                                        {(o.module != "root").then(|| format!(" ({})", o.module))}
                                                                    </li>
                                                                }
                                                            })
                                                            .collect_view()}
                                                    </ul>
                                                </td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tbody>
                    </table>
                </div>
            </div>
        </section>
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}
