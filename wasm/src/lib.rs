//! `tflock-wasm`: the npm package `tflock`, thin wasm-bindgen bindings over `tflock-core`.
//!
//! Every exported function converts JavaScript values into the core's types, calls the
//! core, and converts the result back into plain objects (camelCase keys). Nothing here
//! decides anything a Terraform or OpenTofu rule decides: that lives in `tflock-core`.
//! Failures never trap: they are thrown as JavaScript `Error`s carrying the diagnostic's
//! `severity`, `summary`, `detail`, `file` and `range` (see [`error`]).

// The npm package is two modules (wasm/npm/README.md, "Size"): `api` (the synchronous
// exports) and `lock` (the registry host, the planner, OpenPGP), each built alone; the
// helpers one half shares with the other are unused in the half built without it.
#![cfg_attr(
    not(all(feature = "api", feature = "lock")),
    allow(dead_code, unused_imports)
)]

#[cfg(feature = "lock")]
mod checksums;
mod config;
mod convert;
pub mod error;
mod hash;
#[cfg(feature = "lock")]
mod hash_cache;
mod host_sha256;
mod lockfile;
#[cfg(feature = "lock")]
mod planner;
#[cfg(feature = "lock")]
mod platforms;
#[cfg(feature = "lock")]
mod registry_host;
mod ts;
#[cfg(feature = "lock")]
mod update;
mod version;
mod views;

#[cfg(feature = "lock")]
pub use checksums::verify_sha256_sums;
#[cfg(feature = "api")]
pub use config::load_module;
#[cfg(feature = "api")]
pub use hash::{hash_files, hash_zip, ZipHasher};
pub use host_sha256::set_sha256;
#[cfg(feature = "api")]
pub use lockfile::{diff_lock, format_lock, lock_coverage, merge_lock, parse_lock};
#[cfg(feature = "lock")]
pub use planner::Planner;
#[cfg(feature = "lock")]
pub use registry_host::{lock, lock_with, LockEvent};
#[cfg(feature = "api")]
pub use version::{canonical_constraints, parse_constraints, select_version};

/// `version()`: the release of the core this package was built from, as `tflock version`
/// prints it (the same workspace version as the native CLI).
#[cfg(feature = "api")]
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
