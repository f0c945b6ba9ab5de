//! tflock-core: the logic of Terraform's and OpenTofu's provider dependency handling,
//! with no IO. Hosts (the CLI, the Worker, the browser) hand in bytes and get values and
//! diagnostics back.

pub mod addrs;
pub mod api;
pub mod collections;
pub mod config;
pub mod diag;
pub mod diag_text;
pub mod edge;
pub mod flavor;
mod gotext;
pub mod hash;
pub mod hcl_syntax;
pub mod install;
pub mod lockfile;
mod nfc;
pub mod protocol;
pub mod source;
pub mod version;

pub use diag::{Diagnostic, Diagnostics, LineIndex, Pos, Range, Severity};
pub use flavor::Flavor;
