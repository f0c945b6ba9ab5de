//! Block bodies against the schemas Terraform's decoders read them with (`Content`,
//! `PartialContent`, `JustAttributes` in HCL): unknown arguments and block types, missing
//! required arguments and wrong label counts are errors where Terraform's loader reports them,
//! in native and JSON syntax alike. Without this a configuration Terraform refuses at `init`
//! would still get a lock.

use crate::config::model::{Attribute, Block};
use crate::config::schema::{body_decode, BodyDecode, BodySchema};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;
use crate::gotext::suggest::name_suggestion;

/// Checks top-level block `b` of one file and every nested block Terraform decodes.
pub fn check_block(b: &Block, flavor: Flavor, override_file: bool, diags: &mut Diagnostics) {
    let mut path = vec![b.kind.as_str()];
    check_body(b, &mut path, flavor, override_file, diags);
}

fn check_body<'a>(
    b: &'a Block,
    path: &mut Vec<&'a str>,
    flavor: Flavor,
    override_file: bool,
    diags: &mut Diagnostics,
) {
    // An override's check rules are refused whole (`Can't override ... blocks`), unread.
    if override_file
        && matches!(
            path.last(),
            Some(&("precondition" | "postcondition" | "validation"))
        )
    {
        return;
    }
    let json = b.origin.file.ends_with(".json");
    let decode = body_decode(path, flavor);
    match decode {
        BodyDecode::Any => {}
        BodyDecode::JustAttributes => {
            if let Some(first) = b.body.blocks().next() {
                diags.push(
                    Diagnostic::error(
                        format!("Unexpected {:?} block", first.kind),
                        "Blocks are not allowed here.",
                    )
                    .with_range(first.kind_range()),
                );
            }
        }
        BodyDecode::Content(schema) | BodyDecode::Partial(schema) => {
            let strict = matches!(decode, BodyDecode::Content(_));
            check_required(b, schema, override_file, diags);
            let mut seen_once: Vec<&str> = Vec::new();
            for nested in b.body.blocks() {
                match schema.blocks.iter().find(|(t, _)| *t == nested.kind) {
                    Some((_, labels)) => {
                        if !json && !labels_fit(nested, labels, diags) {
                            continue;
                        }
                        // A second lifecycle block (or check data block) is refused as a
                        // duplicate, unread.
                        if once_only(path, &nested.kind) {
                            if seen_once.contains(&nested.kind.as_str()) {
                                continue;
                            }
                            seen_once.push(&nested.kind);
                        }
                        path.push(nested.kind.as_str());
                        check_body(nested, path, flavor, override_file, diags);
                        path.pop();
                    }
                    None if strict && !json => diags.push(unsupported_block(nested, schema)),
                    None => {}
                }
            }
            if strict {
                for a in b.body.attributes() {
                    if !schema.attrs.iter().any(|(n, _)| *n == a.name) {
                        diags.push(if json {
                            extraneous_property(a, b, schema)
                        } else {
                            unsupported_argument(a, b, schema)
                        });
                    }
                }
            }
        }
    }
}

fn once_only(path: &[&str], kind: &str) -> bool {
    matches!(
        (path, kind),
        (["resource" | "data" | "ephemeral"], "lifecycle") | (["check"], "data")
    )
}

pub(super) fn check_required(
    b: &Block,
    schema: &BodySchema,
    override_file: bool,
    diags: &mut Diagnostics,
) {
    if override_file && schema.relaxed_in_overrides {
        return;
    }
    for (name, required) in schema.attrs {
        if *required && b.body.attribute(name).is_none() {
            diags.push(
                Diagnostic::error(
                    "Missing required argument",
                    format!("The argument {name:?} is required, but no definition was found."),
                )
                .with_range(b.missing_item_range()),
            );
        }
    }
}

/// HCL's label-count errors for a nested block the schema knows; false when it is refused.
pub(super) fn labels_fit(b: &Block, labels: &[&str], diags: &mut Diagnostics) -> bool {
    if b.labels.len() > labels.len() {
        let detail = if labels.is_empty() {
            format!("No labels are expected for {} blocks.", b.kind)
        } else {
            format!(
                "Only {} labels ({}) are expected for {} blocks.",
                labels.len(),
                labels.join(", "),
                b.kind
            )
        };
        let at = b.label_ranges.get(labels.len()).cloned();
        diags.push(header_context(
            b,
            Diagnostic::error(format!("Extraneous label for {}", b.kind), detail)
                .with_range(at.unwrap_or_else(|| b.origin.decl.clone())),
        ));
        return false;
    }
    if b.labels.len() < labels.len() {
        diags.push(header_context(
            b,
            Diagnostic::error(
                format!("Missing {} for {}", labels[b.labels.len()], b.kind),
                format!(
                    "All {} blocks must have {} labels ({}).",
                    b.kind,
                    labels.len(),
                    labels.join(", ")
                ),
            )
            .with_range(b.open_brace.clone()),
        ));
        return false;
    }
    true
}

/// hclsyntax shows a label-count error with the block's header as its context, from the
/// type through the opening brace (the JSON syntax has no such header).
fn header_context(b: &Block, d: Diagnostic) -> Diagnostic {
    if b.json_places.is_some() {
        return d;
    }
    d.with_context(b.kind_range().to(&b.open_brace))
}

/// Schema argument names the block has not set: what HCL suggests from.
fn unset_names<'s>(parent: &Block, schema: &'s BodySchema) -> Vec<&'s str> {
    schema
        .attrs
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| parent.body.attribute(n).is_none())
        .collect()
}

pub(super) fn unsupported_argument(
    a: &Attribute,
    parent: &Block,
    schema: &BodySchema,
) -> Diagnostic {
    let hint = match name_suggestion(&a.name, &unset_names(parent, schema)) {
        Some(s) => format!(" Did you mean {s:?}?"),
        None if schema.blocks.iter().any(|(t, _)| *t == a.name) => {
            format!(" Did you mean to define a block of type {:?}?", a.name)
        }
        None => String::new(),
    };
    Diagnostic::error(
        "Unsupported argument",
        format!("An argument named {:?} is not expected here.{hint}", a.name),
    )
    .with_range(a.name_range())
}

pub(super) fn unsupported_block(b: &Block, schema: &BodySchema) -> Diagnostic {
    let types: Vec<&str> = schema.blocks.iter().map(|(t, _)| *t).collect();
    let hint = match name_suggestion(&b.kind, &types) {
        Some(s) => format!(" Did you mean {s:?}?"),
        None if schema.attrs.iter().any(|(n, _)| *n == b.kind) => format!(
            " Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.",
            b.kind
        ),
        None => String::new(),
    };
    Diagnostic::error(
        "Unsupported block type",
        format!("Blocks of type {:?} are not expected here.{hint}", b.kind),
    )
    .with_range(b.kind_range())
}

fn extraneous_property(a: &Attribute, parent: &Block, schema: &BodySchema) -> Diagnostic {
    let mut names = unset_names(parent, schema);
    names.extend(schema.blocks.iter().map(|(t, _)| *t));
    let hint = name_suggestion(&a.name, &names)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    Diagnostic::error(
        "Extraneous JSON object property",
        format!("No argument or block type is named {:?}.{hint}", a.name),
    )
    .with_range(a.name_range())
    .with_context(a.origin.decl.clone())
}
