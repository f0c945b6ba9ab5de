//! The panels of the page and the pieces they share.

pub mod config;
pub mod diagnostics;
pub mod hash;
pub mod lock;
pub mod open;
pub mod preview;
pub mod remote_lock;

use leptos::prelude::*;
use tflock_core::Flavor;

/// One `<option>` per flavour: core's name as the value, its product name as the label.
pub fn flavor_options() -> impl IntoView {
    Flavor::ALL
        .map(|f| view! { <option value=f.name()>{f.product()}</option> })
        .to_vec()
}
