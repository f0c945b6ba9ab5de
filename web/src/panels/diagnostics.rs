//! A diagnostics list, shared by the configuration and lock panels.

use crate::model::diagnostics::DiagnosticRow;
use leptos::prelude::*;

/// Renders `rows` as a list (or "No diagnostics.").
pub fn diagnostics_list(rows: Vec<DiagnosticRow>) -> AnyView {
    if rows.is_empty() {
        return view! { <p class="ok">"No diagnostics."</p> }.into_any();
    }
    view! {
        <ul class="diagnostics">
            {rows
                .into_iter()
                .map(|d| {
                    view! {
                        <li class=format!("diag {}", d.severity)>
                            <span class="severity">{d.severity}</span>
                            " "
                            <span class="location">{d.location.unwrap_or_default()}</span>
                            " "
                            <strong class="summary">{d.summary}</strong>
                            <div class="detail">{d.detail}</div>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}
