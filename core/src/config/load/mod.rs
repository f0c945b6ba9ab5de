//! Turning one file's bytes into the configuration model: encoding checks, the syntax chosen
//! by file name, and the top-level schema checks Terraform applies to every file.

mod content;
pub(crate) mod cty;
pub(crate) mod cty_number;
mod decode_rules;
mod experiments;
pub mod json;
mod json_body;
mod legacy;
pub(crate) mod names;
mod native;
mod overrides;
pub(crate) mod static_eval;
mod static_ops;
mod static_refs;
pub(crate) mod test_file_rules;
mod text;
mod value_decode;

use crate::config::model::{Block, Body, Item};
use crate::config::schema;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax;

pub(crate) use json_body::attributes as json_attributes;
pub use text::decode;
pub(crate) use value_decode::own_default_fails;

/// One parsed configuration file.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The file name as given.
    pub name: String,
    /// The decoded source text (BOM removed for native syntax).
    pub src: String,
    /// Top-level blocks (attributes are rejected while parsing).
    pub body: Body,
}

/// One file's parsed syntax, before any schema is applied.
pub(crate) enum Syntax {
    /// A `.json` file's document.
    Json(json::Node),
    /// A native file's top-level body.
    Native(Body),
}

/// Parses `bytes` as file `name` (JSON if the name ends in `.json`) into its decoded text and
/// syntax: hclsyntax's verdict and words first for native files (hcl-edit accepts some files
/// hclsyntax refuses, and words its errors differently), then the encoding check, then the
/// parser. `None` when it could not be parsed; problems go to `diags`. Configuration and
/// test files share it.
pub(crate) fn parse_syntax(
    name: &str,
    bytes: &[u8],
    diags: &mut Diagnostics,
) -> Option<(String, Syntax)> {
    let json = name.ends_with(".json");
    let mut for_hcl_edit = hcl_syntax::ForHclEdit::default();
    if !json {
        let syntax;
        (syntax, for_hcl_edit) = hcl_syntax::check(bytes, name);
        // A redefined attribute leaves the body whole (the first definition counts), and
        // Terraform goes on to decode it, as it decodes the body hclsyntax recovers after
        // another error; a recovery hcl-edit cannot be shown ends the file here.
        let fatal = |d: &Diagnostic| d.is_error() && d.summary != "Attribute redefined";
        let stop = syntax.iter().any(fatal) && !for_hcl_edit.recovered();
        diags.extend(syntax);
        if stop {
            return None;
        }
    }
    let src = match decode(name, bytes, json) {
        Ok(s) => s,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let syntax = if json {
        match json::parse(&src) {
            // HCL refuses a root that is not an object (or an array of them) and decodes an
            // empty body in its place.
            Ok(root) if root.as_object().is_none() && root.as_array().is_none() => {
                let (summary, detail) = json::ROOT_NOT_OBJECT;
                let range = Range::from_span(name, &src, root.start_span());
                diags.push(Diagnostic::error(summary, detail).with_range(range));
                return None;
            }
            Ok(root) => Syntax::Json(root),
            Err(e) => {
                for (summary, detail, span) in &e.before {
                    let range = Range::from_span(name, &src, span.clone());
                    diags.push(Diagnostic::error(*summary, detail.clone()).with_range(range));
                }
                let range = match e.token {
                    Some(token) => Range::offset_into_token(name, &src, token, e.span.start),
                    None => Range::from_span(name, &src, e.span),
                };
                diags.push(Diagnostic::error(e.summary, e.detail).with_range(range));
                if let Some(root) = e.root {
                    let (summary, detail) = json::ROOT_NOT_OBJECT;
                    let range = Range::from_span(name, &src, root);
                    diags.push(Diagnostic::error(summary, detail).with_range(range));
                }
                return None;
            }
        }
    } else {
        match native::parse(name, &src, &for_hcl_edit) {
            Ok(body) => Syntax::Native(body),
            Err(d) => {
                diags.push(*d);
                return None;
            }
        }
    };
    Some((src, syntax))
}

/// Parses `bytes` as file `name`: JSON syntax if the name ends in `.json`, else native.
/// `override_file` applies the rules Terraform's decoders have for override files.
/// Returns `None` when the file could not be parsed at all; problems go to `diags`.
pub fn parse_file(
    name: &str,
    bytes: &[u8],
    flavor: Flavor,
    override_file: bool,
    diags: &mut Diagnostics,
) -> Option<ParsedFile> {
    let json = name.ends_with(".json");
    let (src, syntax) = parse_syntax(name, bytes, diags)?;
    let mut body = match syntax {
        Syntax::Json(root) => {
            json_body::convert_file(name, &src, root, flavor, override_file, diags)
        }
        Syntax::Native(body) => body,
    };
    if !json {
        check_top_level(&mut body, flavor, diags);
    }
    // Terraform sniffs a file's edition and experiments before decoding it.
    if flavor == Flavor::Terraform {
        experiments::check_file(&body, diags);
    }
    // Terraform decodes block by block: a block's name errors, then what an override file
    // may not contain in it; an override `check` block is refused before its name is read.
    for b in body.blocks() {
        if b.kind == "required_providers" {
            misplaced_required_providers(b, diags);
            continue;
        }
        if override_file && b.kind == "check" {
            overrides::refuse_check(b, diags);
            continue;
        }
        names::check_names(name, &src, b, flavor, diags);
        legacy::check_block(b, flavor, diags);
        content::check_block(b, flavor, override_file, diags);
        decode_rules::check_block(b, flavor, override_file, diags);
        // OpenTofu words several of these differently (and has no `const`); with no
        // OpenTofu oracle at hand they are Terraform's only.
        if flavor == Flavor::Terraform {
            value_decode::check_block(b, override_file, diags);
            static_refs::check_block(b, &src, diags);
        }
        if override_file {
            overrides::refuse_conditions(b, diags);
        }
    }
    // Terraform does not decode a misplaced `required_providers` block any further.
    body.items
        .retain(|i| !matches!(i, Item::Block(b) if b.kind == "required_providers"));
    Some(ParsedFile {
        name: name.to_string(),
        src,
        body,
    })
}

/// Terraform's file schema: only known block types with the right labels at top level.
/// Offending items are reported and dropped, as Terraform does not decode them.
fn check_top_level(body: &mut Body, flavor: Flavor, diags: &mut Diagnostics) {
    body.items.retain(|item| match item {
        Item::Attribute(a) => {
            // The file schema has no arguments to suggest, only its block types.
            let hint = match schema::top_level_labels(&a.name, flavor) {
                Some(_) => format!(" Did you mean to define a block of type {:?}?", a.name),
                None => String::new(),
            };
            diags.push(
                Diagnostic::error(
                    "Unsupported argument",
                    format!("An argument named {:?} is not expected here.{hint}", a.name),
                )
                .with_range(a.name_range()),
            );
            false
        }
        Item::Block(b) => {
            let Some(labels) = schema::top_level_labels(&b.kind, flavor) else {
                let types = schema::top_level_block_types(flavor);
                let hint = crate::gotext::suggest::name_suggestion(&b.kind, &types)
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                diags.push(
                    Diagnostic::error(
                        "Unsupported block type",
                        format!("Blocks of type {:?} are not expected here.{hint}", b.kind),
                    )
                    .with_range(b.kind_range()),
                );
                return false;
            };
            content::labels_fit(b, labels, diags)
        }
    });
}

/// Terraform's file schema takes a top-level `required_providers` block only to say it
/// belongs in `terraform`.
fn misplaced_required_providers(b: &Block, diags: &mut Diagnostics) {
    diags.push(
        Diagnostic::error(
            "Invalid required_providers block",
            "A \"required_providers\" block must be nested inside a \"terraform\" block.",
        )
        .with_range(b.kind_range()),
    );
}
