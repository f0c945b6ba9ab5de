//! Serializing a lock set byte-for-byte as Terraform's `SaveLocksToBytes` does (hclwrite
//! tokens, then hclwrite formatting). Every string goes through `cty.StringVal` there, which
//! normalizes to NFC, so [`quote`] does too.

use super::hcl_string::quote;
use super::model::{Locks, ProviderLock};
use crate::Flavor;

/// The first header line naming the command that maintains the file.
pub fn header_line(flavor: Flavor) -> String {
    format!(
        "# This file is maintained automatically by \"{} init\".",
        flavor.command()
    )
}

/// The second header line.
pub const HEADER_SECOND_LINE: &str = "# Manual edits may be lost in future updates.";

/// One provider block as plain text fields, in the order they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockText<'a> {
    /// The block label: the provider address' `String()` form.
    pub label: String,
    /// `Version.String()`.
    pub version: String,
    /// The canonical constraints; empty means the argument is omitted.
    pub constraints: String,
    /// The hashes in the order to write them; empty means the argument is omitted.
    pub hashes: Vec<&'a str>,
}

/// Renders already-ordered provider blocks with the header for `flavor`.
pub fn render_blocks(flavor: Flavor, blocks: &[BlockText<'_>]) -> String {
    let mut out = header(flavor);
    for b in blocks {
        out.push('\n');
        render_block(&mut out, b);
    }
    out
}

/// The two header lines for `flavor`, each ending in a newline.
pub fn header(flavor: Flavor) -> String {
    format!("{}\n{HEADER_SECOND_LINE}\n", header_line(flavor))
}

/// Appends one `provider` block (ending in `}` and a newline).
pub fn render_block(out: &mut String, b: &BlockText<'_>) {
    out.push_str("provider ");
    out.push_str(&quote(&b.label));
    out.push_str(" {\n");
    // hclwrite aligns the `=` of consecutive single-line attributes; the multi-line
    // `hashes` list is never part of that group.
    if b.constraints.is_empty() {
        out.push_str("  version = ");
        out.push_str(&quote(&b.version));
        out.push('\n');
    } else {
        out.push_str("  version     = ");
        out.push_str(&quote(&b.version));
        out.push_str("\n  constraints = ");
        out.push_str(&quote(&b.constraints));
        out.push('\n');
    }
    if !b.hashes.is_empty() {
        out.push_str("  hashes = [\n");
        for h in &b.hashes {
            out.push_str("    ");
            out.push_str(&quote(h));
            out.push_str(",\n");
        }
        out.push_str("  ]\n");
    }
    out.push_str("}\n");
}

/// The text fields of `lock` as Terraform writes them.
pub fn block_text(lock: &ProviderLock) -> BlockText<'_> {
    BlockText {
        label: lock.addr().to_string(),
        version: lock.version().to_string(),
        constraints: lock.constraints_string(),
        hashes: lock.hashes().iter().map(|h| h.as_str()).collect(),
    }
}

/// The bytes Terraform (or OpenTofu, per `flavor`) writes for `locks`.
pub fn write_locks(locks: &Locks, flavor: Flavor) -> String {
    let blocks: Vec<BlockText<'_>> = locks.providers().map(block_text).collect();
    render_blocks(flavor, &blocks)
}

/// The flavour a file's header names: OpenTofu when its first line is the `"tofu init"`
/// header, otherwise Terraform (also for files without a header).
pub fn header_flavor(src: &str) -> Flavor {
    header_names(src).unwrap_or(Flavor::Terraform)
}

/// The product whose header line (`"terraform init"` / `"tofu init"`) opens the file, or
/// `None` when its first line is neither (no header, an empty file): a missing header is
/// no evidence either way, which callers weighing other signals need to tell apart.
pub fn header_names(src: &str) -> Option<Flavor> {
    let first = src.lines().next().unwrap_or("");
    let first = first.strip_prefix('\u{feff}').unwrap_or(first);
    [Flavor::OpenTofu, Flavor::Terraform]
        .into_iter()
        .find(|f| first.trim_end_matches('\r') == header_line(*f))
}
