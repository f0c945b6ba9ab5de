//! Terraform's `MergeBodies`: the shallow body merge used for provider, module, resource and
//! data blocks. Attributes replace by name; nested blocks replace *all* base blocks of the same
//! type (a `dynamic "foo"` block counts as type `foo`); nested content is never merged.

use crate::collections::SortedSet;
use crate::config::model::{Block, Body, Item};

/// The type a nested block stands for: its own, or a `dynamic` block's label.
fn effective_type(b: &Block) -> &str {
    if b.kind == "dynamic" {
        b.labels.first().map_or("dynamic", String::as_str)
    } else {
        &b.kind
    }
}

/// Merges `over` into `base`, skipping the attributes and block types the caller handles itself.
pub fn merge_bodies(base: &mut Body, over: &Body, skip_attrs: &[&str], skip_blocks: &[&str]) {
    for a in over.attributes() {
        if !skip_attrs.contains(&a.name.as_str()) {
            base.set_attribute(a.clone());
        }
    }
    let over_blocks: Vec<&Block> = over
        .blocks()
        .filter(|b| !skip_blocks.contains(&b.kind.as_str()))
        .collect();
    replace_blocks(base, &over_blocks);
}

/// Drops every base block whose (effective) type appears in `over_blocks` and puts the override
/// blocks where the first dropped block was (or at the end), keeping their order.
pub fn replace_blocks(base: &mut Body, over_blocks: &[&Block]) {
    if over_blocks.is_empty() {
        return;
    }
    let types: SortedSet<&str> = over_blocks.iter().map(|b| effective_type(b)).collect();
    let mut at = None;
    let mut kept = Vec::with_capacity(base.items.len());
    for item in base.items.drain(..) {
        match &item {
            Item::Block(b) if types.contains(effective_type(b)) => {
                at.get_or_insert(kept.len());
            }
            _ => kept.push(item),
        }
    }
    let at = at.unwrap_or(kept.len());
    let new = over_blocks.iter().map(|b| Item::Block((*b).clone()));
    kept.splice(at..at, new);
    base.items = kept;
}
