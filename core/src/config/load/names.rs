//! The names Terraform's block decoders check with `hclsyntax.ValidIdentifier`: the labels
//! of variables, outputs, module calls, resources, data sources, ephemeral resources, checks
//! and actions, and local value names. A label is a quoted string in native syntax and any
//! object key in JSON, so both can name something Terraform refuses; it refuses it in
//! override files too. Reserved variable names are the arguments and block types of a
//! `module` block.

use crate::config::model::Block;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax::valid_identifier;

/// Terraform's `badIdentifierDetail`.
pub const BAD_IDENTIFIER: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

/// Checks the names of top-level block `b` (file `name`, text `src`).
pub fn check_names(name: &str, src: &str, b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    let summaries: &[&str] = match b.kind.as_str() {
        "variable" => {
            check_variable(b, flavor, diags);
            return;
        }
        "locals" => {
            check_locals(name, src, b, diags);
            return;
        }
        "output" => &["Invalid output name"],
        "module" => &["Invalid module instance name"],
        "check" => &["Invalid check block name"],
        "resource" => &["Invalid resource type name", "Invalid resource name"],
        "data" => &["Invalid data source name", "Invalid data resource name"],
        "ephemeral" => &[
            "Invalid ephemeral resource type",
            "Invalid ephemeral resource name",
        ],
        "action" => &["Invalid action type name", "Invalid action name"],
        _ => return,
    };
    for (i, summary) in summaries.iter().enumerate() {
        if let Some(label) = b.labels.get(i) {
            if !valid_identifier(label) {
                diags.push(bad_label(b, i, summary, BAD_IDENTIFIER.to_string()));
            }
        }
    }
    // A check block's data sources are decoded as top-level ones are, up to the first that
    // decodes; those after it are refused as `Multiple data resource blocks`.
    if b.kind == "check" {
        let kept = kept_check_data(b);
        let data = b.body.blocks_of("data").filter(|d| d.labels.len() == 2);
        for (i, d) in data.enumerate() {
            if kept.is_some_and(|k| i > k) {
                break;
            }
            check_names(name, src, d, flavor, diags);
        }
    }
}

/// Which of check block `b`'s data sources (counting those with two labels) Terraform keeps:
/// the first whose names are valid. A data source after it is one too many; one before it
/// had errors and was not kept.
pub(crate) fn kept_check_data(b: &Block) -> Option<usize> {
    b.body
        .blocks_of("data")
        .filter(|d| d.labels.len() == 2)
        .position(|d| d.labels.iter().all(|l| valid_identifier(l)))
}

fn check_variable(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    let Some(label) = b.labels.first() else {
        return;
    };
    let summary = "Invalid variable name";
    if !valid_identifier(label) {
        diags.push(bad_label(b, 0, summary, BAD_IDENTIFIER.to_string()));
    }
    if module_reserved(flavor).contains(&label.as_str()) {
        let detail = format!(
            "The variable name {label:?} is reserved due to its special meaning inside module blocks."
        );
        diags.push(bad_label(b, 0, summary, detail));
    }
}

/// The names a module block takes itself (its schema's arguments and block types), which
/// variables may not use.
pub(crate) fn module_reserved(flavor: Flavor) -> Vec<&'static str> {
    let module = crate::config::schema::module_schema(flavor);
    let blocks = module.blocks.iter().map(|(t, _)| *t);
    module.attrs.iter().map(|(n, _)| *n).chain(blocks).collect()
}

fn check_locals(name: &str, src: &str, b: &Block, diags: &mut Diagnostics) {
    for a in b.body.attributes() {
        if !valid_identifier(&a.name) {
            // The name's own range (HCL's NameRange): the quoted JSON key, as only JSON can
            // spell such a name.
            let start = a.origin.decl.start.byte;
            let end = quoted_end(src.as_bytes(), start).unwrap_or(a.origin.decl.end.byte);
            diags.push(
                Diagnostic::error("Invalid local value name", BAD_IDENTIFIER)
                    .with_range(Range::from_span(name, src, start..end)),
            );
        }
    }
}

/// The end of the JSON string starting at `start` (just past its closing quote).
fn quoted_end(src: &[u8], start: usize) -> Option<usize> {
    if src.get(start) != Some(&b'"') {
        return None;
    }
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn bad_label(b: &Block, i: usize, summary: &str, detail: String) -> Diagnostic {
    let range = b
        .label_ranges
        .get(i)
        .cloned()
        .unwrap_or_else(|| b.origin.decl.clone());
    Diagnostic::error(summary, detail).with_range(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_follow_the_hcl_scanner() {
        for ok in ["a", "_", "o-k", "é-ok", "a1", "null", "_9"] {
            assert!(valid_identifier(ok), "{ok:?}");
        }
        for bad in ["", "1a", "-bad", "a b", "a.b", "a\n", "\"a\"", "a/b"] {
            assert!(!valid_identifier(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_json_key_ends_after_its_closing_quote() {
        assert_eq!(quoted_end(br#""a\"b": 1"#, 0), Some(6));
        assert_eq!(quoted_end(br#"x"#, 0), None);
        assert_eq!(quoted_end(br#""open"#, 0), None);
    }
}
