//! The bodies of tflock's fuzz targets as plain functions over bytes.
//!
//! `fuzz/fuzz_targets/<name>.rs` hands libFuzzer's input to [`run`]; the stable test
//! `tests/replay.rs` feeds every seed (derived from the fixtures), stored corpus and
//! regression input through the same function, so CI replays them without nightly or a sanitizer build. A body returns
//! normally for any input; a panic (or an assertion about tflock's own invariants) is the
//! finding.

mod config;
mod files;
mod formats;
mod pgp;
mod seeds;
mod zips;

/// A target's body: returns for any input, panics on a finding.
pub type Body = fn(&[u8]);

/// Every target: its name (the directory under `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("lockfile_parse", formats::lockfile_parse),
    ("zip_stream", zips::zip_stream),
    ("zip_random", zips::zip_random),
    ("zip_differential", zips::zip_differential),
    ("openpgp_armor", pgp::openpgp_armor),
    ("openpgp_packets", pgp::openpgp_packets),
    ("sha256sums", formats::sha256sums),
    ("registry_json", formats::registry_json),
    ("mirror_json", formats::mirror_json),
    ("cliconfig", formats::cliconfig),
    ("modules_manifest", formats::modules_manifest),
    ("config_native", config::config_native),
    ("config_json", config::config_json),
    ("render_roundtrip", config::render_roundtrip),
];

/// Runs the body of target `name` on `data`; `false` when no target has that name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match TARGETS.iter().find(|(n, _)| *n == name) {
        Some((_, body)) => {
            body(data);
            true
        }
        None => false,
    }
}

pub use files::{pack_files, unpack_files};
pub use seeds::{seeds, Seed};
pub use zips::ZipSpec;
