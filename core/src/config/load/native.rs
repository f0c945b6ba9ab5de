//! Native syntax (`.tf`): `hcl-edit` keeps every comment and byte of layout, which the merged
//! preview needs; this module turns its tree into the configuration model.

use crate::config::model::{
    Attribute, Block, Body, Item, NativeText, Operation, Origin, Placeholder, Value,
};
use crate::diag::{Diagnostic, LineIndex, Range};
use crate::hcl_syntax::{ForHclEdit, KeptItem};
use hcl_edit::structure as hs;
use hcl_edit::{Decorate, Span};

/// Parses a native-syntax file into its top-level body. Syntax errors are reported from
/// `hcl_syntax` before this runs; the error here covers what hcl-edit alone refuses.
/// hcl-edit reads `for_hcl_edit`'s version of the text; every span and all text kept in the
/// model still come from `src`, which has the same offsets.
pub fn parse(name: &str, src: &str, for_hcl_edit: &ForHclEdit) -> Result<Body, Box<Diagnostic>> {
    parse_with(name, src, &for_hcl_edit.apply(src), for_hcl_edit)
}

/// [`parse`], hcl-edit reading `shown` (the same offsets as `src`) as it is.
pub fn parse_shown(name: &str, src: &str, shown: &str) -> Result<Body, Box<Diagnostic>> {
    parse_with(name, src, shown, &ForHclEdit::default())
}

fn parse_with(
    name: &str,
    src: &str,
    shown: &str,
    for_hcl_edit: &ForHclEdit,
) -> Result<Body, Box<Diagnostic>> {
    match hcl_edit::parser::parse_body(shown) {
        Ok(body) => Ok(convert_body(
            &File {
                name,
                src,
                lines: LineIndex::new(src),
                edit: for_hcl_edit,
            },
            body,
            0..usize::MAX,
        )),
        Err(err) => {
            let loc = err.location();
            let at = loc.offset().min(src.len());
            let end = src[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            Err(Box::new(
                Diagnostic::error(
                    "Invalid configuration syntax",
                    format!("{}.", err.message().trim_end_matches('.')),
                )
                .with_range(Range::from_span(name, src, at..end)),
            ))
        }
    }
}

/// The file being converted: its name, text and line index (positions of many nodes).
struct File<'a> {
    name: &'a str,
    src: &'a str,
    lines: LineIndex,
    /// What hcl-edit was shown, for the labels it could not be shown as hclsyntax kept them.
    edit: &'a ForHclEdit,
}

impl File<'_> {
    fn range(&self, span: std::ops::Range<usize>) -> Range {
        self.lines.range(self.name, self.src, span)
    }
}

// The tree is consumed: expressions move into the model instead of being cloned, and each
// converted node's parse tree is freed as the conversion goes, so a file's peak memory is
// one tree, not two.
/// `within` is the byte range of the block the body belongs to (the whole file for the
/// top level): the header-only blocks written there go into it.
fn convert_body(f: &File<'_>, body: hs::Body, within: std::ops::Range<usize>) -> Body {
    let trailing = body
        .decor()
        .suffix()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let mut items: Vec<(std::ops::Range<usize>, Item)> = body
        .into_iter()
        .map(|s| {
            let span = s.span().unwrap_or(0..0);
            let item = match s {
                hs::Structure::Attribute(a) => Item::Attribute(convert_attribute(f, a)),
                hs::Structure::Block(b) => Item::Block(convert_block(f, b)),
            };
            (span, item)
        })
        .collect();
    // hcl-edit was shown these items blanked; they belong to the innermost block whose
    // text holds them, in the order they were written.
    for kept in f.edit.kept_items() {
        let at = kept.at();
        if !within.contains(&at) || items.iter().any(|(span, _)| span.contains(&at)) {
            continue;
        }
        let before = items
            .iter()
            .position(|(span, _)| span.start > at)
            .unwrap_or(items.len());
        items.insert(before, (at..at, kept_item(f, kept)));
    }
    Body {
        items: items.into_iter().map(|(_, item)| item).collect(),
        trailing,
    }
}

/// An item hclsyntax kept that hcl-edit was not shown: a block with an empty body after an
/// invalid header (its body's and opening brace's ranges are the type's, so a missing label
/// is reported at the type and a missing argument at its start), or an argument with a
/// placeholder value.
fn kept_item(f: &File<'_>, kept: &KeptItem) -> Item {
    let bytes = |span: crate::hcl_syntax::Span| span.start.byte..span.end.byte;
    match kept {
        KeptItem::Block {
            kind,
            kind_span,
            labels,
        } => {
            let at = bytes(*kind_span);
            let last = labels.last().map_or(at.clone(), |(_, l)| bytes(*l));
            Item::Block(Block {
                kind: kind.clone(),
                labels: labels.iter().map(|(text, _)| text.clone()).collect(),
                body: Body::default(),
                origin: Origin {
                    file: f.name.to_string(),
                    decl: f.range(at.start..last.end),
                },
                label_ranges: labels.iter().map(|(_, l)| f.range(bytes(*l))).collect(),
                // hclsyntax's placeholder for the missing brace is the type's range.
                open_brace: f.range(at.clone()),
                json_places: None,
                text: None,
                touched: false,
                base_arguments: None,
            })
        }
        KeptItem::Unknown {
            name,
            name_span,
            value_span,
            end,
            evaluated,
            operation,
            read_first,
        } => Item::Attribute(Attribute {
            name: name.clone(),
            value: Value::Unknown(Placeholder {
                evaluated: evaluated.clone(),
                read_first: *read_first,
                // Only what is not modelled above is read again.
                kept: evaluated
                    .is_none()
                    .then(|| {
                        let at = value_span.start.byte;
                        crate::hcl_syntax::kept_value(f.src.as_bytes(), f.name, at, *read_first)
                    })
                    .flatten()
                    .map(Box::new),
                operation: operation.map(|(operator, op, rhs)| {
                    let at = bytes(rhs);
                    Box::new(Operation {
                        operator,
                        rhs: f.src.get(at.clone()).unwrap_or_default().to_string(),
                        rhs_range: f.range(at.clone()),
                        whole: f.range(bytes(*value_span).start..at.end),
                        start: f.range(bytes(op)),
                    })
                }),
            }),
            origin: Origin {
                file: f.name.to_string(),
                decl: f.range(name_span.start.byte..*end),
            },
            expr_range: f.range(bytes(*value_span)),
            text: None,
            json_text: None,
        }),
    }
}

fn text_of<T: Decorate + Span>(src: &str, node: &T) -> NativeText {
    let span = node.span().unwrap_or(0..0);
    NativeText {
        prefix: node
            .decor()
            .prefix()
            .map(|s| s.to_string())
            .unwrap_or_default(),
        // A block the file ends inside was closed after the text (`ForHclEdit::apply`):
        // its text is what the file has.
        src: src
            .get(span.start.min(src.len())..span.end.min(src.len()))
            .unwrap_or_default()
            .to_string(),
        suffix: node
            .decor()
            .suffix()
            .map(|s| s.to_string())
            .unwrap_or_default(),
    }
}

fn convert_attribute(f: &File<'_>, a: hs::Attribute) -> Attribute {
    let (name, src) = (f.name, f.src);
    let span = a.span().unwrap_or(0..0);
    let expr_span = a.value.span().unwrap_or_else(|| span.clone());
    let text = text_of(src, &a);
    Attribute {
        name: a.key.as_str().to_string(),
        value: Value::Native {
            src: src.get(expr_span.clone()).unwrap_or_default().to_string(),
            expr: Box::new(a.value),
        },
        origin: Origin {
            file: name.to_string(),
            decl: f.range(span.clone()),
        },
        expr_range: f.range(expr_span),
        text: Some(text),
        json_text: None,
    }
}

fn convert_block(f: &File<'_>, b: hs::Block) -> Block {
    let (name, src) = (f.name, f.src);
    let ident = b.ident.span().unwrap_or(0..0);
    let block_span = b.span().unwrap_or(0..0);
    let last = b
        .labels
        .last()
        .and_then(|l| l.span())
        .unwrap_or_else(|| ident.clone());
    let label_ranges = b
        .labels
        .iter()
        .map(|l| f.range(l.span().unwrap_or_else(|| last.clone())))
        .collect();
    // The brace is the first `{` after the header (only whitespace/comments lie between).
    let brace = src
        .get(last.end..)
        .and_then(|rest| rest.find('{'))
        .map_or(last.end, |i| last.end + i);
    let text = text_of(src, &b);
    Block {
        kind: b.ident.as_str().to_string(),
        labels: b
            .labels
            .iter()
            .map(|l| {
                let recovered = l.span().and_then(|s| f.edit.label_at(s.start));
                recovered.unwrap_or(l.as_str()).to_string()
            })
            .collect(),
        body: convert_body(f, b.body, block_span.clone()),
        origin: Origin {
            file: name.to_string(),
            decl: f.range(ident.start..last.end.max(ident.start)),
        },
        label_ranges,
        open_brace: f.range(brace..(brace + 1).min(src.len())),
        json_places: None,
        text: Some(text),
        touched: false,
        base_arguments: None,
    }
}
