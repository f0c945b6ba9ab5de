//! Override rules for `terraform` blocks: `required_providers` entry by entry (each entry
//! replaced whole), `required_version` replaced as a list (Terraform only), and the state
//! storage block replaced wholesale, `cloud` winning over `backend` within one override file.

use crate::config::assemble::duplicate_cloud;
use crate::config::model::{Attribute, Block, Body, Item};
use crate::config::module::{Index, Module};
use crate::config::requirements::entry_errors;
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;

/// Applies the `terraform` blocks of one override file.
pub fn merge_terraform(
    module: &mut Module,
    ix: &mut Index,
    blocks: &[&Block],
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    if blocks.is_empty() {
        return;
    }
    // required_version (Terraform): the file's list replaces the module's list.
    if flavor == Flavor::Terraform {
        let versions: Vec<&Attribute> = blocks
            .iter()
            .filter_map(|b| b.body.attribute("required_version"))
            .collect();
        if !versions.is_empty() {
            replace_required_version(module, ix, blocks[0], &versions);
        }
    }
    // State storage: at most one of each kind per override file.
    let backends: Vec<&Block> = blocks
        .iter()
        .flat_map(|b| b.body.blocks_of("backend"))
        .collect();
    let clouds: Vec<&Block> = blocks
        .iter()
        .flat_map(|b| b.body.blocks_of("cloud"))
        .collect();
    if let [first, second, ..] = backends.as_slice() {
        diags.push(
            Diagnostic::error(
                "Duplicate backend configuration",
                format!("Each override file may have only one backend configuration. A backend was previously configured at {}.", first.origin.decl),
            )
            .with_range(second.origin.decl.clone()),
        );
    } else if let [only] = backends.as_slice() {
        replace_state_storage(module, ix, blocks[0], only);
    }
    if let [first, second, ..] = clouds.as_slice() {
        diags.push(
            duplicate_cloud(&first.origin.decl, flavor).with_range(second.origin.decl.clone()),
        );
    } else if let [only] = clouds.as_slice() {
        replace_state_storage(module, ix, blocks[0], only);
    }
    // required_providers: each entry replaces the whole entry of that local name.
    for b in blocks {
        for rp in b.body.blocks_of("required_providers") {
            for entry in rp.body.attributes() {
                if let Some(target) = required_providers_block(module, ix, b, rp) {
                    // Terraform decoded the replaced entry with its file, so its errors
                    // stand even though the merged module no longer has it.
                    if let Some(old) = target.body.attribute(&entry.name) {
                        entry_errors(old, flavor, diags);
                    }
                    target.body.set_attribute(entry.clone());
                    target.touched = true;
                }
            }
        }
    }
}

/// Index of the first `terraform` block, creating an empty one (from the override's header)
/// when the primary files have none.
fn terraform_block(module: &mut Module, ix: &mut Index, over: &Block) -> usize {
    if let Some(i) = module.blocks.iter().position(|b| b.kind == "terraform") {
        return i;
    }
    let mut b = over.clone();
    b.body = Body::default();
    b.touched = true;
    module.blocks.push(b);
    let i = module.blocks.len() - 1;
    ix.add(i, &module.blocks[i]);
    i
}

/// The module's `required_providers` block (the first primary one), created if absent.
fn required_providers_block<'m>(
    module: &'m mut Module,
    ix: &mut Index,
    over_tf: &Block,
    over_rp: &Block,
) -> Option<&'m mut Block> {
    let found = module.blocks.iter().enumerate().find_map(|(i, b)| {
        if b.kind != "terraform" {
            return None;
        }
        b.body
            .items
            .iter()
            .position(|it| matches!(it, Item::Block(nb) if nb.kind == "required_providers"))
            .map(|j| (i, j))
    });
    let (i, j) = match found {
        Some(p) => p,
        None => {
            let i = terraform_block(module, ix, over_tf);
            let mut rp = over_rp.clone();
            rp.body = Body::default();
            rp.touched = true;
            let tb = &mut module.blocks[i];
            tb.body.items.push(Item::Block(rp));
            tb.touched = true;
            (i, tb.body.items.len() - 1)
        }
    };
    let tb = &mut module.blocks[i];
    tb.touched = true;
    match tb.body.items.get_mut(j) {
        Some(Item::Block(b)) => Some(b),
        _ => None,
    }
}

fn replace_required_version(
    module: &mut Module,
    ix: &mut Index,
    over_tf: &Block,
    versions: &[&Attribute],
) {
    let mut at: Option<(usize, usize)> = None;
    for (i, b) in module.blocks.iter_mut().enumerate() {
        if b.kind != "terraform" {
            continue;
        }
        if let Some(j) = b.body.remove_attribute("required_version") {
            at.get_or_insert((i, j));
            b.touched = true;
        }
    }
    let (i, j) = match at {
        Some(p) => p,
        None => {
            let i = terraform_block(module, ix, over_tf);
            (i, module.blocks[i].body.items.len())
        }
    };
    let tb = &mut module.blocks[i];
    tb.touched = true;
    let j = j.min(tb.body.items.len());
    tb.body
        .items
        .insert(j, Item::Attribute(versions[0].clone()));
    // Several required_version arguments in one override file (in separate terraform blocks)
    // all apply; one block can hold only one, so the rest get a block each.
    for extra in &versions[1..] {
        let mut b = over_tf.clone();
        b.body = Body {
            items: vec![Item::Attribute((*extra).clone())],
            trailing: String::new(),
        };
        b.touched = true;
        module.blocks.insert(i + 1, b);
    }
}

/// Replaces the module's backend/cloud block (whichever exists) with `new`, wholesale.
fn replace_state_storage(module: &mut Module, ix: &mut Index, over_tf: &Block, new: &Block) {
    let mut at: Option<(usize, usize)> = None;
    for (i, b) in module.blocks.iter_mut().enumerate() {
        if b.kind != "terraform" {
            continue;
        }
        let before = b.body.items.len();
        let mut first = None;
        let mut k = 0;
        b.body.items.retain(|it| {
            let drop = matches!(it, Item::Block(nb) if matches!(nb.kind.as_str(), "backend" | "cloud" | "state_store"));
            if drop && first.is_none() {
                first = Some(k);
            }
            k += 1;
            !drop
        });
        if b.body.items.len() != before {
            b.touched = true;
            if let Some(f) = first {
                at.get_or_insert((i, f));
            }
        }
    }
    let (i, j) = match at {
        Some(p) => p,
        None => {
            let i = terraform_block(module, ix, over_tf);
            (i, module.blocks[i].body.items.len())
        }
    };
    let tb = &mut module.blocks[i];
    tb.touched = true;
    let j = j.min(tb.body.items.len());
    tb.body.items.insert(j, Item::Block(new.clone()));
}
