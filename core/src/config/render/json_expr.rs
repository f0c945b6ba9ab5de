//! JSON-syntax values printed as native HCL expressions. In Terraform's JSON syntax most
//! strings are templates (printed as quoted templates, which mean the same in native syntax),
//! but a few arguments hold expressions or references written as strings; those print bare.

use crate::config::load::json::{Node, NodeKind};

/// True when argument `name` of a `kind` block takes an expression given as a JSON string.
pub fn is_expression_argument(kind: &str, name: &str) -> bool {
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

/// Prints `node` as a native expression at indentation `indent`; `raw` prints strings bare.
pub fn render(node: &Node, indent: &str, raw: bool) -> String {
    match &node.kind {
        NodeKind::Null => "null".into(),
        NodeKind::Bool(b) => b.to_string(),
        NodeKind::Number(n) => n.clone(),
        NodeKind::String(s) if raw && !s.trim().is_empty() => strip_interpolation(s).to_string(),
        NodeKind::String(s) => quote(s),
        NodeKind::Array(items) => {
            let parts: Vec<String> = items.iter().map(|i| render(i, indent, raw)).collect();
            format!("[{}]", parts.join(", "))
        }
        NodeKind::Object(props) => {
            let props: Vec<_> = props.iter().filter(|p| p.key != "//").collect();
            if props.is_empty() {
                return "{}".into();
            }
            let inner = format!("{indent}  ");
            let mut out = String::from("{\n");
            for p in props {
                out.push_str(&format!(
                    "{inner}{} = {}\n",
                    quote(&p.key),
                    render(&p.value, &inner, raw)
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
