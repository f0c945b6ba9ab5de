//! Diagnostics as Terraform's CLI prints them (`command/format`): the location line with its
//! context, the source snippet, the detail word-wrapped, plain or coloured. Above `diag` and
//! `hcl_syntax`: the context string is found by parsing the file again, as Terraform does.

mod context;
mod json_nav;
mod render;
mod snippet;
mod wrap;

pub use context::context_string;
pub use render::{colorize, render, render_all, Sources, Style, DEFAULT_WIDTH};
pub use snippet::{locate, Located, Snippet};
pub use wrap::wrap;
