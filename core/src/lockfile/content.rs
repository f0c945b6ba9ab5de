//! HCL's `Body.Content(schema)` for the native syntax: which attributes and blocks a body may
//! hold, with HCL's diagnostics (missing/unsupported arguments, unsupported block types,
//! wrong label counts) in HCL's order.

use super::spans::Source;
use crate::gotext::suggest::name_suggestion;
use crate::Diagnostic;
use hcl_edit::structure::{Attribute, Block, Body};
use hcl_edit::Span;

/// A block type a body accepts and the names of its labels.
pub(crate) struct BlockSchema {
    pub(crate) ty: &'static str,
    pub(crate) labels: &'static [&'static str],
}

/// An argument a body accepts.
pub(crate) struct AttrSchema {
    pub(crate) name: &'static str,
    pub(crate) required: bool,
}

/// What a body may contain.
pub(crate) struct Schema {
    pub(crate) attrs: &'static [AttrSchema],
    pub(crate) blocks: &'static [BlockSchema],
}

/// The schema-conforming parts of a body.
pub(crate) struct Content<'b> {
    /// Attributes found, by schema name.
    pub(crate) attrs: Vec<(&'static str, &'b Attribute)>,
    /// Blocks of accepted types with the right number of labels, in source order.
    pub(crate) blocks: Vec<&'b Block>,
}

impl<'b> Content<'b> {
    /// The attribute named `name`, if present.
    pub(crate) fn attr(&self, name: &str) -> Option<&'b Attribute> {
        self.attrs.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }
}

/// Decodes `body` against `schema`. `missing_at` is the byte offset HCL reports missing
/// arguments at (the start of the body: the file start, or a block's open brace).
pub(crate) fn content<'b>(
    src: &Source<'_>,
    body: &'b Body,
    missing_at: usize,
    schema: &Schema,
) -> (Content<'b>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut attrs = Vec::new();
    for s in schema.attrs {
        match body.get_attribute(s.name) {
            Some(a) => attrs.push((s.name, a)),
            None if s.required => diags.push(
                Diagnostic::error(
                    "Missing required argument",
                    format!(
                        "The argument \"{}\" is required, but no definition was found.",
                        s.name
                    ),
                )
                .with_range(src.point(missing_at)),
            ),
            None => {}
        }
    }

    let mut blocks = Vec::new();
    for block in body.blocks() {
        let ty = block.ident.as_str();
        let Some(bs) = schema.blocks.iter().find(|b| b.ty == ty) else {
            continue;
        };
        let n = block.labels.len();
        if n > bs.labels.len() {
            let detail = if bs.labels.is_empty() {
                format!("No labels are expected for {ty} blocks.")
            } else {
                format!(
                    "Only {} labels ({}) are expected for {ty} blocks.",
                    bs.labels.len(),
                    bs.labels.join(", ")
                )
            };
            let span = block.labels[bs.labels.len()].span().unwrap_or(0..0);
            diags.push(
                Diagnostic::error(format!("Extraneous label for {ty}"), detail)
                    .with_range(src.range(span)),
            );
            continue;
        }
        if n < bs.labels.len() {
            let brace = open_brace(src, block);
            diags.push(
                Diagnostic::error(
                    format!("Missing {} for {ty}", bs.labels[n]),
                    format!(
                        "All {ty} blocks must have {} labels ({}).",
                        bs.labels.len(),
                        bs.labels.join(", ")
                    ),
                )
                .with_range(src.range(brace..brace + 1)),
            );
            continue;
        }
        blocks.push(block);
    }

    // Go walks the attributes in map order; source order is the stable choice.
    for attr in body.attributes() {
        let name = attr.key.as_str();
        if schema.attrs.iter().any(|s| s.name == name) {
            continue;
        }
        let unset: Vec<&str> = schema
            .attrs
            .iter()
            .filter(|s| !attrs.iter().any(|(n, _)| *n == s.name))
            .map(|s| s.name)
            .collect();
        let suggestion = match name_suggestion(name, &unset) {
            Some(s) => format!(" Did you mean \"{s}\"?"),
            None if schema.blocks.iter().any(|b| b.ty == name) => {
                format!(" Did you mean to define a block of type \"{name}\"?")
            }
            None => String::new(),
        };
        diags.push(
            Diagnostic::error(
                "Unsupported argument",
                format!("An argument named \"{name}\" is not expected here.{suggestion}"),
            )
            .with_range(src.range(attr.key.span().unwrap_or(0..0))),
        );
    }

    for block in body.blocks() {
        let ty = block.ident.as_str();
        if schema.blocks.iter().any(|b| b.ty == ty) {
            continue;
        }
        let types: Vec<&str> = schema.blocks.iter().map(|b| b.ty).collect();
        let suggestion = match name_suggestion(ty, &types) {
            Some(s) => format!(" Did you mean \"{s}\"?"),
            None if schema.attrs.iter().any(|a| a.name == ty) => format!(
                " Did you mean to define argument \"{ty}\"? If so, use the equals sign to assign it a value."
            ),
            None => String::new(),
        };
        diags.push(
            Diagnostic::error(
                "Unsupported block type",
                format!("Blocks of type \"{ty}\" are not expected here.{suggestion}"),
            )
            .with_range(src.range(block.ident.span().unwrap_or(0..0))),
        );
    }

    (Content { attrs, blocks }, diags)
}

/// The byte offset of a block's `{`.
pub(crate) fn open_brace(src: &Source<'_>, block: &Block) -> usize {
    let header_end = block
        .labels
        .last()
        .and_then(|l| l.span())
        .or_else(|| block.ident.span())
        .map_or(0, |s| s.end);
    src.open_brace_after(header_end).unwrap_or(header_end)
}
