//! Panel 4: the configuration's requirements against the lock of panel 3.

use crate::model::config::ConfigReport;
use crate::model::preview::{preview, Status};
use leptos::prelude::*;
use tflock_core::Flavor;

#[component]
pub fn PreviewPanel(
    report: ReadSignal<ConfigReport>,
    lock_text: RwSignal<String>,
    flavor: RwSignal<Flavor>,
) -> impl IntoView {
    let rows =
        move || report.with(|r| lock_text.with(|t| preview(&r.requirements, t, flavor.get())));
    view! {
        <section id="preview" class="panel">
            <h2>"4. Lock preview"</h2>
            <p>
                "Panel 1's requirements against panel 3's lock, without the network: what "
                <code>"init"</code> " would have to add, upgrade or drop."
            </p>
            {move || match rows() {
                Err(e) => view! { <p class="error">"The lock file has errors: " {e}</p> }.into_any(),
                Ok(rows) => {
                    view! {
                        <table id="preview-table">
                            <thead>
                                <tr>
                                    <th>"provider"</th>
                                    <th>"constraints"</th>
                                    <th>"status"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {rows
                                    .into_iter()
                                    .map(|r| {
                                        let (class, text) = match r.status {
                                            Status::Locked(v) => ("locked", format!("locked at {v}")),
                                            Status::Missing => ("missing", "missing from the lock: init would select and record a version".to_string()),
                                            Status::Conflict(m) => ("conflict", m),
                                            Status::Unused(v) => ("unused", format!("locked at {v} but not required: init would remove it")),
                                        };
                                        view! {
                                            <tr class=class>
                                                <td class="provider">{r.provider}</td>
                                                <td>{r.constraints}</td>
                                                <td class="status">{text}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
