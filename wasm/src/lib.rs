//! `tflock-wasm`: the npm package `tflock`, thin wasm-bindgen bindings over `tflock-core`.
//!
//! Every exported function converts JavaScript values into the core's types, calls the
//! core, and converts the result back into plain objects (camelCase keys). Nothing here
//! decides anything a Terraform or OpenTofu rule decides: that lives in `tflock-core`.
//! Failures never trap: they are thrown as JavaScript `Error`s carrying the diagnostic's
//! `severity`, `summary`, `detail`, `file` and `range` (see [`error`]).

mod checksums;
mod config;
mod convert;
pub mod error;
mod hash;
mod hash_cache;
mod host_sha256;
mod lockfile;
mod planner;
mod platforms;
mod registry_host;
mod ts;
mod update;
mod version;
mod views;

pub use checksums::verify_sha256_sums;
pub use config::load_module;
pub use hash::{hash_files, hash_zip, ZipHasher};
pub use host_sha256::set_sha256;
pub use lockfile::{diff_lock, format_lock, lock_coverage, merge_lock, parse_lock};
pub use planner::Planner;
pub use registry_host::{lock, lock_with, LockEvent};
pub use version::{canonical_constraints, parse_constraints, select_version};

/// `version()`: the release of the core this package was built from, as `tflock version`
/// prints it (the same workspace version as the native CLI).
#[wasm_bindgen::prelude::wasm_bindgen(js_name = version)]
pub fn package_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Runs once when the module is instantiated: routes Rust panics (bugs, never bad input)
/// to `console.error` with their message and location instead of an opaque `unreachable`
/// trap. Not `console_error_panic_hook`: this is the same message for a kilobyte less of the
/// size budget (no stack capture; the trap that follows carries the JS stack).
#[cfg(feature = "start")]
#[wasm_bindgen::prelude::wasm_bindgen(start, skip_typescript)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&info.to_string())));
}

#[cfg(feature = "start")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}
