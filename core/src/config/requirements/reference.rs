//! Provider configuration references (`provider = aws.west`, the keys and values of a module
//! call's `providers` map), decoded as Terraform's `decodeProviderConfigRef` decodes them:
//! a quoted reference (`"aws.west"`, Terraform 0.11 style) is read as the reference inside it
//! with a deprecation warning, and the local name must be a normalized provider name.

use crate::addrs::parse_provider_part;
use crate::config::model::{Attribute, Value};
use crate::diag::{Diagnostic, Diagnostics, Pos, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax::valid_identifier;

/// A decoded reference: the provider's local name and the configuration's alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderRef {
    /// The local provider name (`aws`).
    pub name: String,
    /// The alias after the dot (`west`), if any.
    pub alias: Option<String>,
    /// Where the local name was written (Terraform's `NameRange`).
    pub name_range: Range,
}

/// One step of a parsed traversal, with its byte span in the text it was read from.
#[derive(Debug)]
enum Step {
    Attr(String, std::ops::Range<usize>),
    Index(std::ops::Range<usize>),
}

/// Where an expression's text lies, so a byte offset inside it becomes a file position.
pub struct Place<'a> {
    /// The expression's range in its file.
    pub range: &'a Range,
    /// The expression's text (native syntax), to count lines and columns; `None` when the
    /// text is not at hand (JSON), where sub-ranges are approximated by the whole.
    pub text: Option<&'a str>,
}

impl Place<'_> {
    /// The range of bytes `span` of the expression's text.
    pub(crate) fn sub(&self, span: std::ops::Range<usize>) -> Range {
        let Some(text) = self.text else {
            return self.range.clone();
        };
        let pos = |at: usize| {
            let at = at.min(text.len());
            let before = text.get(..at).unwrap_or_default();
            let line_start = before.rfind('\n').map(|i| i + 1);
            let newlines = before.matches('\n').count();
            let column = match line_start {
                Some(ls) => before[ls..].chars().count() + 1,
                None => self.range.start.column + before.chars().count(),
            };
            Pos {
                line: self.range.start.line + newlines,
                column,
                byte: self.range.start.byte + at,
            }
        };
        Range {
            filename: self.range.filename.clone(),
            start: pos(span.start),
            end: pos(span.end),
        }
    }
}

/// Terraform's warning for a reference written as a string.
fn quoted_warning(range: Range) -> Diagnostic {
    quoted_deprecation(Flavor::Terraform, false, range)
}

/// The warning Terraform (or OpenTofu) gives for a reference, or with `keyword` a keyword,
/// written in quotes as 0.11 required (`compat_shim.go`).
pub fn quoted_deprecation(flavor: Flavor, keyword: bool, range: Range) -> Diagnostic {
    let product = match flavor {
        Flavor::Terraform => "Terraform",
        Flavor::OpenTofu => "OpenTofu",
    };
    let (what, whats) = if keyword {
        ("keyword", "keywords")
    } else {
        ("reference", "references")
    };
    let title = if keyword {
        "Quoted keywords"
    } else {
        "Quoted references"
    };
    Diagnostic::warning(
        format!("{title} are deprecated"),
        format!("In this context, {whats} are expected literally rather than in quotes. {product} 0.11 and earlier required quotes, but quoted {whats} are now deprecated and will be removed in a future version of {product}. Remove the quotes surrounding this {what} to silence this warning."),
    )
    .with_range(range)
}

/// The deprecation warning for each element of list attribute `a` (`depends_on`,
/// `ignore_changes`) written as a quoted traversal in native syntax; `skip` says which
/// quoted texts the caller handles itself (`ignore_changes`' `"*"`). JSON strings are
/// the required form there and get none.
pub fn quoted_list_elements(
    a: &Attribute,
    flavor: Flavor,
    skip: impl Fn(&str) -> bool,
    diags: &mut Diagnostics,
) {
    let Value::Native { src, expr } = &a.value else {
        return;
    };
    let Some(items) = expr.as_array() else { return };
    let place = Place {
        range: &a.expr_range,
        text: Some(src),
    };
    quoted_items(
        items.iter(),
        a.expr_range.start.byte,
        &place,
        flavor,
        skip,
        diags,
    );
}

/// [`quoted_list_elements`] for list `items` read from `place`'s text, their spans counted
/// from byte `base` of the file.
pub fn quoted_items<'e>(
    items: impl Iterator<Item = &'e hcl_edit::expr::Expression>,
    base: usize,
    place: &Place<'_>,
    flavor: Flavor,
    skip: impl Fn(&str) -> bool,
    diags: &mut Diagnostics,
) {
    for item in items {
        use hcl_edit::Span;
        let Some(text) = native_quoted(item) else {
            continue;
        };
        if skip(&text) {
            continue;
        }
        let span = item.span().unwrap_or(base..base);
        let rel = span.start.saturating_sub(base)..span.end.saturating_sub(base);
        if parse_traversal(&text).is_none() {
            // The shim parses the text as a traversal anyway and reports why it is none,
            // with positions in the text after the opening quote (escapes not counted).
            let Some((summary, detail, at)) = traversal_error(&text) else {
                continue;
            };
            let from = rel.start + 1;
            diags.push(
                Diagnostic::error(summary, detail)
                    .with_range(place.sub(from + at.start..from + at.end)),
            );
        }
        diags.push(quoted_deprecation(flavor, false, place.sub(rel)));
    }
}

/// One token of a traversal's text as hclsyntax's scanner reads it (the kinds
/// [`traversal_error`] tells apart).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tok {
    Ident,
    Number,
    Dot,
    OBrack,
    CBrack,
    Star,
    Other,
    Eof,
}

/// The tokens of `text` with their byte ranges, ending with [`Tok::Eof`]; `None` when it
/// holds a character whose scanning is not modelled here (quotes, non-ASCII, characters
/// the scanner reports as invalid).
fn traversal_tokens(text: &str) -> Option<Vec<(Tok, std::ops::Range<usize>)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = match c {
            b' ' => {
                i += 1;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-')
                {
                    i += 1;
                }
                out.push((Tok::Ident, start..i));
                continue;
            }
            b'0'..=b'9' => {
                let digits = |mut j: usize| {
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    j
                };
                i = digits(i);
                if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                    i = digits(i + 1);
                }
                out.push((Tok::Number, start..i));
                continue;
            }
            b'.' => Tok::Dot,
            b'[' => Tok::OBrack,
            b']' => Tok::CBrack,
            b'*' => Tok::Star,
            b'%' | b'/' | b'+' | b'-' | b':' | b',' => Tok::Other,
            _ => return None,
        };
        i += 1;
        out.push((tok, start..i));
    }
    // hclsyntax's end-of-input token is one byte wide in the ranges Terraform reports.
    out.push((Tok::Eof, b.len()..b.len() + 1));
    Some(out)
}

/// The error `hclsyntax.ParseTraversalAbs` reports for `text` when it is no traversal
/// (summary, detail, byte range in `text`); `None` when it is one or when its scanning is
/// not modelled ([`traversal_tokens`]).
pub(crate) fn traversal_error(
    text: &str,
) -> Option<(&'static str, &'static str, std::ops::Range<usize>)> {
    let toks = traversal_tokens(text)?;
    let at = |i: usize| {
        toks.get(i)
            .cloned()
            .unwrap_or((Tok::Eof, text.len()..text.len() + 1))
    };
    if at(0).0 != Tok::Ident {
        // Terraform reports more than the parser's "Variable name required" for an empty
        // traversal; not modelled.
        return None;
    }
    let mut i = 1;
    loop {
        let (tok, r) = at(i);
        match tok {
            Tok::Eof => return None,
            Tok::Dot => {
                let (name, r) = at(i + 1);
                match name {
                    Tok::Ident => i += 2,
                    Tok::Star => {
                        return Some((
                            "Attribute name required",
                            "Splat expressions (.*) may not be used here.",
                            r,
                        ))
                    }
                    _ => {
                        return Some((
                            "Attribute name required",
                            "Dot must be followed by attribute name.",
                            r,
                        ))
                    }
                }
            }
            Tok::OBrack => {
                let (key, r) = at(i + 1);
                match key {
                    Tok::Number => {
                        let (close, r) = at(i + 2);
                        if close != Tok::CBrack {
                            return Some((
                                "Unclosed index brackets",
                                "Index key must be followed by a closing bracket.",
                                r,
                            ));
                        }
                        i += 3;
                    }
                    Tok::Star => {
                        return Some((
                            "Attribute name required",
                            "Splat expressions ([*]) may not be used here.",
                            r,
                        ))
                    }
                    _ => return Some((
                        "Index value required",
                        "Index brackets must contain either a literal number or a literal string.",
                        r,
                    )),
                }
            }
            _ => {
                return Some((
                    "Invalid character",
                    "Expected an attribute access or an index operator.",
                    r,
                ))
            }
        }
    }
}

/// The text of a native quoted string that Terraform's shim reads as a traversal
/// (`"aws_instance.x"`), if `expr` is one.
pub fn quoted_traversal(expr: &hcl_edit::expr::Expression) -> Option<String> {
    native_quoted(expr).filter(|t| parse_traversal(t).is_some())
}

/// The deprecation warning for keyword attribute `a` (a provisioner's `when`, `on_failure`)
/// written as a quoted name in native syntax.
pub fn quoted_keyword(a: &Attribute, flavor: Flavor, diags: &mut Diagnostics) {
    let Value::Native { expr, .. } = &a.value else {
        return;
    };
    if native_quoted(expr).is_some_and(|t| parse_traversal(&t).is_some()) {
        diags.push(quoted_deprecation(flavor, true, a.expr_range.clone()));
    }
}

fn invalid_ref(detail: impl Into<String>, range: Range) -> Diagnostic {
    Diagnostic::error("Invalid provider configuration reference", detail).with_range(range)
}

/// Parses `name(.attr|[index])*` (an absolute traversal) from `text`; `None` if it is not one.
/// Whether `text` reads as a reference (`aws_instance.x`, `module.m["k"]`).
pub(crate) fn is_traversal(text: &str) -> bool {
    parse_traversal(text).is_some()
}

fn parse_traversal(text: &str) -> Option<Vec<Step>> {
    let ident_end = |from: usize| {
        text[from..]
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
            .map_or(text.len(), |(i, _)| from + i)
    };
    let mut steps = Vec::new();
    let end = ident_end(0);
    let root = &text[..end];
    if !valid_identifier(root) {
        return None;
    }
    steps.push(Step::Attr(root.to_string(), 0..end));
    let mut at = end;
    while at < text.len() {
        let rest = &text[at..];
        if let Some(after) = rest.strip_prefix('.') {
            let start = at + 1;
            if after.starts_with(|c: char| c.is_ascii_digit()) {
                // A legacy index step (`.0`).
                let digits = after
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(after.len());
                steps.push(Step::Index(at..start + digits));
                at = start + digits;
                continue;
            }
            let end = ident_end(start);
            if !valid_identifier(&text[start..end]) {
                return None;
            }
            steps.push(Step::Attr(text[start..end].to_string(), at..end));
            at = end;
        } else if rest.starts_with('[') {
            // Only a literal key keeps this a traversal: a number or a plain string.
            let close = rest.find(']')?;
            let key = rest[1..close].trim();
            let literal = key.parse::<f64>().is_ok()
                || (key.len() >= 2
                    && key.starts_with('"')
                    && key.ends_with('"')
                    && !key[1..key.len() - 1].contains(['"', '\\', '$', '%']));
            if !literal {
                return None;
            }
            steps.push(Step::Index(at..at + close + 1));
            at += close + 1;
        } else {
            return None;
        }
    }
    Some(steps)
}

/// The text of an expression written as a plain quoted string (no interpolation).
fn native_quoted(expr: &hcl_edit::expr::Expression) -> Option<String> {
    if expr.as_str().is_none() && expr.as_string_template().is_none() {
        return None;
    }
    crate::config::model::literal_native_str(expr)
}

/// What one reference expression is: the traversal text, where it starts in the expression's
/// text, and whether it was quoted.
enum Form {
    Traversal {
        text: String,
        offset: usize,
        quoted: bool,
    },
    Other,
}

fn native_form(src: &str, expr: &hcl_edit::expr::Expression) -> Form {
    if let Some(s) = native_quoted(expr) {
        return Form::Traversal {
            text: s,
            offset: 1,
            quoted: true,
        };
    }
    // `null`, `true` and `false` are names here too (`provider = null` means the null
    // provider), though hcl-edit reads them as literals.
    if expr.is_variable() || expr.as_traversal().is_some() || expr.is_null() || expr.is_bool() {
        let trimmed = src.trim_end();
        let offset = trimmed.len() - trimmed.trim_start().len();
        return Form::Traversal {
            text: trimmed.trim_start().to_string(),
            offset,
            quoted: false,
        };
    }
    Form::Other
}

/// Decodes the reference expression at `place` (of `form`) for argument `arg`.
fn decode(
    form: Form,
    place: &Place<'_>,
    arg: &str,
    diags: &mut Diagnostics,
) -> Option<ProviderRef> {
    let generic = |diags: &mut Diagnostics| {
        diags.push(invalid_ref(
            format!("The {arg} argument requires a provider type name, optionally followed by a period and then a configuration alias."),
            place.range.clone(),
        ));
    };
    let Form::Traversal {
        text,
        offset,
        quoted,
    } = form
    else {
        generic(diags);
        return None;
    };
    if quoted {
        diags.push(quoted_warning(place.range.clone()));
    }
    let steps = match parse_traversal(&text) {
        Some(s) if (1..=2).contains(&s.len()) => s,
        _ => {
            generic(diags);
            return None;
        }
    };
    let shift = |span: &std::ops::Range<usize>| place.sub(span.start + offset..span.end + offset);
    let Some(Step::Attr(name, name_span)) = steps.first() else {
        generic(diags);
        return None;
    };
    let name_range = shift(name_span);
    match parse_provider_part(name) {
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "Invalid provider local name",
                    format!("{name} is an invalid provider local name: {e}"),
                )
                .with_range(name_range.clone()),
            );
            return None;
        }
        Ok(n) if n != *name => {
            diags.push(
                Diagnostic::error(
                    "Invalid provider local name",
                    format!("Provider names must be normalized. Replace {name:?} with {n:?} to fix this error."),
                )
                .with_range(name_range.clone()),
            );
            return None;
        }
        Ok(_) => {}
    }
    let mut r = ProviderRef {
        name: name.clone(),
        alias: None,
        name_range,
    };
    match steps.get(1) {
        Some(Step::Attr(alias, _)) => r.alias = Some(alias.clone()),
        Some(Step::Index(span)) => diags.push(invalid_ref(
            "Provider name must either stand alone or be followed by a period and then a configuration alias.",
            shift(span),
        )),
        None => {}
    }
    Some(r)
}

/// Decodes attribute `a` (a `provider` argument) as a provider configuration reference.
pub fn attribute_ref(a: &Attribute, diags: &mut Diagnostics) -> Option<ProviderRef> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { src, expr } => decode(
            native_form(src, expr),
            &Place {
                range: &a.expr_range,
                text: Some(src),
            },
            &a.name,
            diags,
        ),
        Value::Json(n) => {
            // A JSON string is read as a traversal (no warning). HCL's JSON parser starts the
            // traversal's positions at the opening quote, so its steps sit one column early.
            let quoted = n.as_str().map(|s| format!("\"{s}\""));
            let form = match n.as_str() {
                Some(s) => Form::Traversal {
                    text: s.to_string(),
                    offset: 0,
                    quoted: false,
                },
                None => Form::Other,
            };
            let place = Place {
                range: &a.expr_range,
                text: quoted.as_deref(),
            };
            decode(form, &place, &a.name, diags)
        }
    }
}

/// One entry of a module call's `providers` map: the child's name for the configuration
/// (the key) and the caller's configuration (the value); `None` where it does not decode.
pub type PassedProvider = (Option<ProviderRef>, Option<ProviderRef>);

/// Decodes every key and value of a module call's `providers` map (attribute `a`), with the
/// warnings and errors Terraform reports about them.
pub fn check_providers_map(a: &Attribute, diags: &mut Diagnostics) -> Vec<PassedProvider> {
    let mut out = Vec::new();
    match &a.value {
        Value::Unknown(_) => {}
        Value::Native { src, expr } => {
            let Some(obj) = expr.as_object() else {
                // Not a map: Terraform's own error for that is outside requirements.
                return out;
            };
            let base = a.expr_range.start.byte;
            for (k, v) in obj.iter() {
                use hcl_edit::Span;
                let key_form = match k {
                    hcl_edit::expr::ObjectKey::Ident(i) => Form::Traversal {
                        text: i.as_str().to_string(),
                        offset: 0,
                        quoted: false,
                    },
                    hcl_edit::expr::ObjectKey::Expression(e) => {
                        let span = e.span().unwrap_or(0..0);
                        let text = src
                            .get(span.start.saturating_sub(base)..span.end.saturating_sub(base))
                            .unwrap_or_default();
                        native_form(text, e)
                    }
                };
                let mut pair = Vec::with_capacity(2);
                for (form, span) in [
                    (key_form, k.span()),
                    (
                        {
                            let span = v.expr().span().unwrap_or(0..0);
                            let text = src
                                .get(span.start.saturating_sub(base)..span.end.saturating_sub(base))
                                .unwrap_or_default();
                            native_form(text, v.expr())
                        },
                        v.expr().span(),
                    ),
                ] {
                    let span = span.unwrap_or(base..base);
                    let rel = span.start.saturating_sub(base)..span.end.saturating_sub(base);
                    let whole = Place {
                        range: &a.expr_range,
                        text: Some(src),
                    }
                    .sub(rel.clone());
                    let place = Place {
                        range: &whole,
                        text: src.get(rel),
                    };
                    pair.push(decode(form, &place, "providers", diags));
                }
                let value = pair.pop().flatten();
                out.push((pair.pop().flatten(), value));
            }
        }
        Value::Json(n) => {
            let Some(props) = n.as_object() else {
                return out;
            };
            let place = Place {
                range: &a.expr_range,
                text: None,
            };
            for p in props {
                let key = Form::Traversal {
                    text: p.key.clone(),
                    offset: 0,
                    quoted: false,
                };
                let value = match p.value.as_str() {
                    Some(s) => Form::Traversal {
                        text: s.to_string(),
                        offset: 0,
                        quoted: false,
                    },
                    None => Form::Other,
                };
                let key = decode(key, &place, "providers", diags);
                out.push((key, decode(value, &place, "providers", diags)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversals_are_names_attributes_and_literal_indexes() {
        let steps = parse_traversal("aws.west").expect("traversal");
        assert_eq!(steps.len(), 2);
        assert!(parse_traversal("aws[0]").is_some());
        assert!(parse_traversal("aws[\"k\"].x").is_some());
        for bad in ["", "aws eu", "aws.", "1aws", "aws[var.x]", "aws.*"] {
            assert!(parse_traversal(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn a_quoted_text_that_is_no_traversal_gets_the_parsers_error_at_its_token() {
        // Summaries and byte ranges as Terraform 1.15.5 reported them for these texts in
        // `depends_on` (`terraform validate -json`, columns less the opening quote's).
        let cases = [
            (
                "aws_instance.%s",
                "Dot must be followed by attribute name.",
                13..14,
            ),
            (
                "aws_instance.*",
                "Splat expressions (.*) may not be used here.",
                13..14,
            ),
            (
                "aws_instance.a[x]",
                "Index brackets must contain either a literal number or a literal string.",
                15..16,
            ),
            (
                "aws_instance.a[*]",
                "Splat expressions ([*]) may not be used here.",
                15..16,
            ),
            (
                "aws_instance.a[0",
                "Index key must be followed by a closing bracket.",
                16..17,
            ),
            (
                "aws_instance.a b",
                "Expected an attribute access or an index operator.",
                15..16,
            ),
        ];
        for (text, detail, range) in cases {
            let (_, got, at) = traversal_error(text).expect(text);
            assert_eq!((got, at), (detail, range), "{text:?}");
        }
        // Traversals, and texts whose scanning is not modelled, give none.
        for text in [
            "aws_instance.a",
            "aws_instance.a[0].b",
            "1aws",
            "aws.\"k\"",
            "aws.é",
        ] {
            assert!(traversal_error(text).is_none(), "{text:?}");
        }
    }
}
