//! What Terraform's block decoders refuse while decoding an override file, before any merge:
//! a whole `check` block, and the condition blocks of a variable (`validation`), an output
//! (`precondition`) or a resource, data source or ephemeral resource (`precondition` and
//! `postcondition` in `lifecycle`). Terraform reports these per block in file order, after the
//! block's own name checks, so they come before every merge error.

use crate::config::model::Block;
use crate::diag::{Diagnostic, Diagnostics};

/// Terraform's error for a `check` block in an override file (at the block's header).
pub fn refuse_check(b: &Block, diags: &mut Diagnostics) {
    diags.push(
        Diagnostic::error(
            "Can't override check blocks",
            "Override files cannot override check blocks.",
        )
        .with_range(b.origin.decl.clone()),
    );
}

/// Terraform's errors for the condition blocks inside top-level block `b` of an override file.
pub fn refuse_conditions(b: &Block, diags: &mut Diagnostics) {
    match b.kind.as_str() {
        "variable" => refuse_each(b.body.blocks_of("validation"), diags),
        "output" => refuse_each(b.body.blocks_of("precondition"), diags),
        "resource" | "data" | "ephemeral" => {
            for lc in b.body.blocks_of("lifecycle") {
                refuse_each(
                    lc.body
                        .blocks()
                        .filter(|c| matches!(c.kind.as_str(), "precondition" | "postcondition")),
                    diags,
                );
            }
        }
        _ => {}
    }
}

/// `decodeCheckRuleBlock`'s override error, named after the block's type.
fn refuse_each<'a>(blocks: impl Iterator<Item = &'a Block>, diags: &mut Diagnostics) {
    for c in blocks {
        diags.push(
            Diagnostic::error(
                format!("Can't override {} blocks", c.kind),
                format!("Override files cannot override {:?} blocks.", c.kind),
            )
            .with_range(c.origin.decl.clone()),
        );
    }
}
