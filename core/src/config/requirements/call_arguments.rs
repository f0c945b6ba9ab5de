//! A module call's arguments against the variables its module declares, as `terraform init`
//! decodes them (Terraform 1.15's init graph, `ModuleVariableTransformer`): a variable
//! without a default must be given, and every other argument must name a variable.

use super::tree::ModuleTree;
use crate::config::model::{Block, Item};
use crate::config::schema::{module_schema, BodySchema};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;
use crate::gotext::suggest::name_suggestion;

/// The argument errors of every module call in `tree` whose module was loaded, and the
/// paths of the modules whose calls had errors: Terraform goes no deeper below those.
pub fn check_call_arguments(tree: &ModuleTree, flavor: Flavor) -> (Diagnostics, Vec<String>) {
    let mut diags = Diagnostics::new();
    let mut stopped = Vec::new();
    walk(tree, module_schema(flavor), &mut diags, &mut stopped);
    (diags, stopped)
}

/// `reserved`: what the module block itself takes (hidden from the variables' schema:
/// arguments by name, block types by type).
fn walk(
    tree: &ModuleTree,
    reserved: &BodySchema,
    diags: &mut Diagnostics,
    stopped: &mut Vec<String>,
) {
    for child in &tree.children {
        let name = child.path.rsplit("module.").next().unwrap_or_default();
        let call = tree
            .loaded
            .module
            .blocks_of("module")
            .find(|b| b.labels.first().map(String::as_str) == Some(name));
        let mut found = Diagnostics::new();
        if let Some(call) = call {
            check_call(call, &child.loaded.module, reserved, &mut found);
        }
        let failed = found.has_errors();
        diags.extend(found);
        if failed {
            stopped.push(child.path.clone());
        } else {
            walk(child, reserved, diags, stopped);
        }
    }
}

fn check_call(
    call: &Block,
    child: &crate::config::Module,
    reserved: &BodySchema,
    diags: &mut Diagnostics,
) {
    let json = call.origin.file.ends_with(".json");
    let variables: Vec<(&str, bool)> = child
        .blocks_of("variable")
        .filter_map(|v| {
            let name = v.labels.first()?;
            Some((name.as_str(), v.body.attribute("default").is_none()))
        })
        .collect();
    let given = |n: &str| call.body.attribute(n).is_some();
    for (name, required) in &variables {
        if *required && !given(name) {
            diags.push(
                Diagnostic::error(
                    "Missing required argument",
                    format!("The argument {name:?} is required, but no definition was found."),
                )
                .with_range(call.missing_item_range()),
            );
        }
    }
    let unset: Vec<&str> = variables
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !given(n))
        .collect();
    for item in &call.body.items {
        match item {
            Item::Attribute(a) => {
                if reserved.attrs.iter().any(|(n, _)| *n == a.name)
                    || variables.iter().any(|(n, _)| *n == a.name)
                {
                    continue;
                }
                let hint = name_suggestion(&a.name, &unset)
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                let (summary, detail) = if json {
                    let detail = format!("No argument or block type is named {:?}.{hint}", a.name);
                    ("Extraneous JSON object property", detail)
                } else {
                    let detail =
                        format!("An argument named {:?} is not expected here.{hint}", a.name);
                    ("Unsupported argument", detail)
                };
                diags.push(Diagnostic::error(summary, detail).with_range(a.name_range()));
            }
            Item::Block(b) => {
                if reserved.blocks.iter().any(|(t, _)| *t == b.kind) {
                    continue;
                }
                let hint = if variables.iter().any(|(n, _)| *n == b.kind) {
                    format!(" Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.", b.kind)
                } else {
                    String::new()
                };
                let range = b.kind_range();
                diags.push(
                    Diagnostic::error(
                        "Unsupported block type",
                        format!("Blocks of type {:?} are not expected here.{hint}", b.kind),
                    )
                    .with_range(range),
                );
            }
        }
    }
}
