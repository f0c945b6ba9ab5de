//! JSON-syntax values printed as native HCL expressions. In Terraform's JSON syntax most
//! strings are templates (printed as quoted templates, which mean the same in native syntax),
//! a few arguments hold expressions or references written as strings (printed bare), and
//! the arguments Terraform decodes without an evaluation context read strings literally.

use crate::config::load::json::{Node, NodeKind};

/// How Terraform reads a JSON string given for one argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A string template (`${ }` and `%{ }` sequences are evaluated).
    Template,
    /// An expression or reference written as a string (`"${aws.west}"`, `"list(string)"`).
    Expression,
    /// A literal string: decoded with no evaluation context, so `${` is just text.
    Literal,
}

/// How argument `name` of a `kind` block reads JSON strings.
pub fn reading(kind: &str, name: &str) -> Reading {
    if is_expression_argument(kind, name) {
        Reading::Expression
    } else if is_literal_argument(kind, name) {
        Reading::Literal
    } else {
        Reading::Template
    }
}

/// Arguments Terraform decodes with a nil `hcl.EvalContext` (`Expr.Value(nil)`,
/// `gohcl.DecodeExpression(expr, nil, ...)`), where a JSON string is not a template.
fn is_literal_argument(kind: &str, name: &str) -> bool {
    matches!(
        (kind, name),
        (
            "variable",
            "default" | "description" | "sensitive" | "nullable" | "ephemeral"
        ) | ("output", "description" | "sensitive" | "ephemeral")
            | ("module", "source" | "version")
            | ("lifecycle", "create_before_destroy" | "prevent_destroy")
            | ("terraform", "required_version")
            | ("provider", "alias" | "version")
    )
}

/// True when argument `name` of a `kind` block takes an expression given as a JSON string.
fn is_expression_argument(kind: &str, name: &str) -> bool {
    matches!(
        (kind, name),
        (_, "depends_on")
            | ("resource" | "data" | "ephemeral" | "action", "provider")
            | ("lifecycle", "ignore_changes" | "replace_triggered_by")
            | ("variable", "type")
            | ("output", "type")
            | ("module", "providers")
            | ("moved" | "removed", "from" | "to")
            | ("import", "to")
    )
}

/// A native quoted string whose value is `s` exactly: template sequences are escaped.
pub(crate) fn quote_literal(s: &str) -> String {
    quote(&s.replace("${", "$${").replace("%{", "%%{"))
}

/// A native quoted string with the same meaning (template sequences kept as they are).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON string template as a native quoted template with the same meaning: the literal
/// parts are escaped, but the text of each `${ }` and `%{ }` sequence is native expression
/// syntax already and is copied as it is (escaping a quote inside it would break it).
pub fn quote_template(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut rest = s;
    while let Some(start) = next_sequence(rest) {
        out.push_str(&quote(&rest[..start])[1..]);
        out.pop();
        let len = sequence_len(&rest[start..]);
        out.push_str(&rest[start..start + len]);
        rest = &rest[start + len..];
    }
    out.push_str(&quote(rest)[1..]);
    out
}

/// The byte offset of the next `${` or `%{` that opens a sequence (`$${` and `%%{` are
/// literal escapes).
fn next_sequence(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if (b[i] == b'$' || b[i] == b'%') && b[i + 1] == b[i] && b.get(i + 2) == Some(&b'{') {
            i += 3;
        } else if (b[i] == b'$' || b[i] == b'%') && b[i + 1] == b'{' {
            return Some(i);
        } else {
            i += 1;
        }
    }
    None
}

/// The length of the sequence opening `s` up to its closing brace, skipping nested
/// brackets and quoted strings (whose own templates may hold braces); all of `s` when
/// it never closes.
fn sequence_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 2;
    while i < b.len() {
        match b[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' if depth == 0 => return i + 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'"' => i += quoted_len(&s[i..]) - 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The length of the native quoted template opening `s` (at its `"`), with its closing quote.
fn quoted_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'"' => return i + 1,
            b'$' | b'%' if b.get(i + 1) == Some(&b[i]) && b.get(i + 2) == Some(&b'{') => i += 2,
            b'$' | b'%' if b.get(i + 1) == Some(&b'{') => i += sequence_len(&s[i..]) - 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Prints `node` as a native expression at indentation `indent`, its strings read as `how`.
pub fn render(node: &Node, indent: &str, how: Reading) -> String {
    match &node.kind {
        NodeKind::Null => "null".into(),
        NodeKind::Bool(b) => b.to_string(),
        NodeKind::Number(n) => n.clone(),
        NodeKind::String(s) if how == Reading::Expression && !s.trim().is_empty() => {
            strip_interpolation(s).to_string()
        }
        NodeKind::String(s) if how == Reading::Literal => quote_literal(s),
        NodeKind::String(s) => quote_template(s),
        NodeKind::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| render(i, indent, how)).collect();
            format!("[{}]", parts.join(", "))
        }
        NodeKind::Object(props) => {
            // "//" is a comment only among a body's properties; in a value it is a key.
            if props.is_empty() {
                return "{}".into();
            }
            let inner = format!("{indent}  ");
            let mut out = String::from("{\n");
            for p in props {
                // Keys are templates too, except where the whole value is read literally.
                let key = match how {
                    Reading::Literal => quote_literal(&p.key),
                    _ => quote_template(&p.key),
                };
                out.push_str(&format!(
                    "{inner}{key} = {}\n",
                    render(&p.value, &inner, how)
                ));
            }
            out.push_str(indent);
            out.push('}');
            out
        }
    }
}

/// `"${aws.west}"` written where an expression is expected means `aws.west`.
fn strip_interpolation(s: &str) -> &str {
    let t = s.trim();
    match t.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
        Some(inner) if !inner.contains("${") => inner.trim(),
        _ => t,
    }
}
