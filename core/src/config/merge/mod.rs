//! Terraform's `mergeFile`: applying one override file to the module, block kind by block kind
//! in Terraform's processing order, with its exact errors.

mod body;
mod terraform;
mod variable;

pub use body::merge_bodies;

use crate::config::load::ParsedFile;
use crate::config::model::{Attribute, Block, Value};
use crate::config::module::{block_key, Index, Module};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;

/// Merges override file `file` into `module`.
pub fn merge_file(
    module: &mut Module,
    ix: &mut Index,
    file: &ParsedFile,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    let blocks: Vec<&Block> = file.body.blocks().collect();
    let of = |kind: &'static str| blocks.iter().copied().filter(move |b| b.kind == kind);

    terraform::merge_terraform(
        module,
        ix,
        of("terraform").collect::<Vec<_>>().as_slice(),
        flavor,
        diags,
    );
    for b in of("provider") {
        merge_provider(module, ix, b, diags);
    }
    for b in of("variable") {
        if let Some(base) = base_mut(module, ix, b, diags) {
            variable::merge_variable(base, b, diags);
        }
    }
    for b in of("locals") {
        for a in b.body.attributes() {
            match ix.locals.get(&a.name) {
                Some(&(bi, ii)) => {
                    let base = &mut module.blocks[bi];
                    base.body.items[ii] = crate::config::model::Item::Attribute(a.clone());
                    base.touched = true;
                }
                None => diags.push(
                    Diagnostic::error(
                        "Missing base local value definition to override",
                        format!("There is no local value named {:?}. An override file can only override a local value that was already defined in a primary configuration file.", a.name),
                    )
                    .with_range(a.origin.decl.clone()),
                ),
            }
        }
    }
    for b in of("output") {
        if let Some(base) = base_mut(module, ix, b, diags) {
            merge_output(base, b, flavor, diags);
        }
    }
    for b in of("module") {
        if let Some(base) = base_mut(module, ix, b, diags) {
            merge_module_call(base, b, diags);
        }
    }
    for kind in ["resource", "data"] {
        for b in of(kind) {
            if let Some(base) = base_mut(module, ix, b, diags) {
                merge_resource(base, b, flavor, diags);
            }
        }
    }
    if flavor == Flavor::OpenTofu {
        for b in of("ephemeral") {
            if let Some(base) = base_mut(module, ix, b, diags) {
                merge_resource(base, b, flavor, diags);
            }
        }
    }
    for b in of("moved") {
        diags.push(
            Diagnostic::error(
                "Cannot override 'moved' blocks",
                "Records of moved objects can appear only in normal files, not in override files.",
            )
            .with_range(b.origin.decl.clone()),
        );
    }
    for b in of("import") {
        diags.push(
            Diagnostic::error(
                "Cannot override 'import' blocks",
                "Import blocks can appear only in normal files, not in override files.",
            )
            .with_range(b.origin.decl.clone()),
        );
    }
    if flavor == Flavor::OpenTofu {
        for b in of("removed") {
            diags.push(
                Diagnostic::error(
                    "Cannot override 'Removed' blocks",
                    "Removed blocks can appear only in normal files, not in override files.",
                )
                .with_range(b.origin.decl.clone()),
            );
        }
    }
    if flavor == Flavor::Terraform {
        for b in of("action") {
            if let Some(base) = base_mut(module, ix, b, diags) {
                merge_bodies(&mut base.body, &b.body, &[], &[]);
                base.touched = true;
            }
        }
    }
    // `check`, `provider_meta` (and for Terraform `removed`, `ephemeral`) are ignored in
    // override files: Terraform parses them but never merges them.
}

/// The base block an override block applies to, or the "missing base" error.
fn base_mut<'m>(
    module: &'m mut Module,
    ix: &Index,
    over: &Block,
    diags: &mut Diagnostics,
) -> Option<&'m mut Block> {
    let key = block_key(over)?;
    if let Some(&i) = ix.blocks.get(&key) {
        return module.blocks.get_mut(i);
    }
    let name = over.labels.last().cloned().unwrap_or_default();
    let ty = over.labels.first().cloned().unwrap_or_default();
    let (summary, detail) = match over.kind.as_str() {
        "variable" => ("Missing base variable declaration to override", format!("There is no variable named {name:?}. An override file can only override a variable that was already declared in a primary configuration file.")),
        "output" => ("Missing base output definition to override", format!("There is no output named {name:?}. An override file can only override an output that was already defined in a primary configuration file.")),
        "module" => ("Missing module call to override", format!("There is no module call named {name:?}. An override file can only override a module call that was defined in a primary configuration file.")),
        "resource" => ("Missing resource to override", format!("There is no {ty} resource named {name:?}. An override file can only override a resource block defined in a primary configuration file.")),
        "data" => ("Missing data resource to override", format!("There is no {ty} data resource named {name:?}. An override file can only override a data block defined in a primary configuration file.")),
        "ephemeral" => ("Missing ephemeral resource to override", format!("There is no {ty} ephemeral resource named {name:?}. An override file can only override an ephemeral block defined in a primary configuration file.")),
        "action" => ("Missing resource to override", format!("There is no action named {name:?}. An override file can only override a resource block defined in a primary configuration file.")),
        _ => return None,
    };
    diags.push(Diagnostic::error(summary, detail).with_range(over.origin.decl.clone()));
    None
}

fn merge_provider(module: &mut Module, ix: &mut Index, over: &Block, diags: &mut Diagnostics) {
    let Some(key) = block_key(over) else { return };
    if let Some(&i) = ix.blocks.get(&key) {
        let base = &mut module.blocks[i];
        merge_bodies(&mut base.body, &over.body, &[], &[]);
        base.touched = true;
        return;
    }
    match crate::config::module::provider_alias(over) {
        // An absent default configuration counts as empty, so the override simply adds one.
        None => {
            let i = module.blocks.len();
            module.blocks.push(over.clone());
            ix.add(i, over);
        }
        Some(alias) => diags.push(
            Diagnostic::error(
                "Missing base provider configuration for override",
                format!(
                    "There is no {} provider configuration with the alias {alias:?}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.",
                    over.labels.first().map_or("", String::as_str)
                ),
            )
            .with_range(over.origin.decl.clone()),
        ),
    }
}

/// `depends_on` may not appear in override blocks; Terraform points at its first reference,
/// so an empty list is accepted.
fn reject_depends_on(over: &Block, diags: &mut Diagnostics) {
    let Some(a) = over.body.attribute("depends_on") else {
        return;
    };
    let first = first_element_range(a);
    if let Some(range) = first {
        diags.push(
            Diagnostic::error(
                "Unsupported override",
                "The depends_on argument may not be overridden.",
            )
            .with_range(range),
        );
    }
}

fn first_element_range(a: &Attribute) -> Option<crate::diag::Range> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { .. } => crate::config::load::first_dependency(a),
        Value::Json(n) => match n.as_array() {
            Some([]) => None,
            _ => Some(a.expr_range.clone()),
        },
    }
}

fn merge_output(base: &mut Block, over: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    reject_depends_on(over, diags);
    for a in over.body.attributes() {
        if a.name == "depends_on" {
            continue;
        }
        // Terraform's Output.merge never reads `deprecated`; OpenTofu's takes a non-empty one.
        if a.name == "deprecated"
            && (flavor == Flavor::Terraform || a.literal_str().is_some_and(|s| s.is_empty()))
        {
            continue;
        }
        // An empty description in the override does not replace the base one.
        if a.name == "description" && a.literal_str().is_some_and(|s| s.is_empty()) {
            continue;
        }
        base.body.set_attribute(a.clone());
    }
    base.touched = true;
}

fn merge_module_call(base: &mut Block, over: &Block, diags: &mut Diagnostics) {
    reject_depends_on(over, diags);
    if base.base_arguments.is_none() {
        base.base_arguments = Some(base.body.attributes().map(|a| a.name.clone()).collect());
    }
    let mut skip = vec!["depends_on"];
    if over
        .body
        .attribute("providers")
        .is_some_and(Attribute::is_empty_object)
    {
        skip.push("providers");
    }
    merge_bodies(&mut base.body, &over.body, &skip, &[]);
    base.touched = true;
}

/// An override that sets `count` where the base has `for_each` (or the reverse) leaves
/// Terraform 1.15.5 with both: it never re-checks the combination, silently repeats by
/// `count` and can crash while planning. The merged module says what Terraform does (only
/// `count`) and a warning says why, instead of a module Terraform would then reject.
fn keep_count_over_for_each(base: &mut Block, over: &Block, diags: &mut Diagnostics) {
    if base.body.attribute("count").is_none() || base.body.attribute("for_each").is_none() {
        return;
    }
    let from_override = if over.body.attribute("count").is_some() {
        "count comes from this override and for_each from an earlier definition"
    } else {
        "for_each comes from this override and count from an earlier definition"
    };
    diags.push(
        Diagnostic::warning(
            "Override combines count and for_each",
            format!(
                "After merging, {} {:?} has both count and for_each ({from_override}). Terraform keeps both, repeats the resource by count, ignores for_each and can fail while planning; the merged module keeps only count. Override the same one of the two that the base sets.",
                base.kind,
                base.labels.join(".")
            ),
        )
        .with_range(over.origin.decl.clone()),
    );
    base.body.remove_attribute("for_each");
}

fn merge_resource(base: &mut Block, over: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    use crate::config::model::Item;
    merge_bodies(
        &mut base.body,
        &over.body,
        &["depends_on"],
        &["lifecycle", "connection", "provisioner"],
    );
    keep_count_over_for_each(base, over, diags);
    // Only managed resources merge lifecycle settings, connection and provisioners; the
    // override's lifecycle arguments other than these (e.g. replace_triggered_by) and its
    // conditions are not merged, exactly as Terraform's Resource.merge.
    if base.kind == "resource" {
        let mut merged_args = vec!["create_before_destroy", "prevent_destroy", "ignore_changes"];
        if flavor == Flavor::OpenTofu {
            merged_args.push("destroy");
        }
        if let Some(ol) = over.body.blocks_of("lifecycle").next() {
            let updates: Vec<&Attribute> = ol
                .body
                .attributes()
                .filter(|a| merged_args.contains(&a.name.as_str()))
                .filter(|a| !(a.name == "ignore_changes" && a.is_empty_list()))
                .collect();
            let triggers: Vec<&Block> = ol.body.blocks_of("action_trigger").collect();
            let existing = base.body.items.iter_mut().find_map(|i| match i {
                Item::Block(b) if b.kind == "lifecycle" => Some(b),
                _ => None,
            });
            match existing {
                Some(bl) => {
                    for a in &updates {
                        bl.body.set_attribute((*a).clone());
                        bl.touched = true;
                    }
                    if flavor == Flavor::Terraform && !triggers.is_empty() {
                        body::replace_blocks(&mut bl.body, &triggers);
                        bl.touched = true;
                    }
                }
                None if !updates.is_empty() || !triggers.is_empty() => {
                    let mut nb = ol.clone();
                    nb.body.items.retain(|i| match i {
                        Item::Attribute(a) => updates.iter().any(|u| u.name == a.name),
                        Item::Block(b) => flavor == Flavor::Terraform && b.kind == "action_trigger",
                    });
                    nb.touched = true;
                    base.body.items.push(Item::Block(nb));
                }
                None => {}
            }
        }
        for kind in ["connection", "provisioner"] {
            let ob: Vec<&Block> = over.body.blocks_of(kind).collect();
            body::replace_blocks(&mut base.body, &ob);
        }
    }
    reject_depends_on(over, diags);
    base.touched = true;
}
