//! Printing the merged module as native HCL. Blocks no override touched are printed exactly as
//! written (comments and layout included); merged blocks are rebuilt item by item, each item
//! keeping its own comments and text from whichever file it came from. JSON-syntax items are
//! printed as equivalent native syntax.

pub(crate) mod json_expr;

use crate::config::model::{Attribute, Block, Body, Item, NativeText, Value};
use crate::config::module::Module;

/// Renders the whole module.
pub fn render_module(module: &Module) -> String {
    let mut out = String::new();
    for b in &module.blocks {
        let text = render_block(b, "", "");
        if !out.is_empty() && !text.starts_with('\n') {
            out.push('\n');
        }
        out.push_str(&text);
    }
    out
}

/// Renders one block at indentation `indent`; `parent` is the enclosing block type.
pub fn render_block(b: &Block, indent: &str, parent: &str) -> String {
    let _ = parent;
    if let (false, Some(t)) = (b.touched, &b.text) {
        return format!("{}{}{}\n", reindent(&t.prefix, indent), t.src, t.suffix);
    }
    let mut out = String::new();
    let (prefix, suffix) = match &b.text {
        Some(NativeText { prefix, suffix, .. }) => (reindent(prefix, indent), suffix.clone()),
        None => (indent.to_string(), String::new()),
    };
    out.push_str(&prefix);
    out.push_str(&b.kind);
    for l in &b.labels {
        out.push(' ');
        out.push_str(&json_expr::quote(l));
    }
    out.push_str(" {\n");
    let inner = format!("{indent}  ");
    render_body(&mut out, &b.body, &inner, &b.kind);
    out.push_str(indent);
    out.push('}');
    out.push_str(&suffix);
    out.push('\n');
    out
}

fn render_body(out: &mut String, body: &Body, indent: &str, kind: &str) {
    for item in &body.items {
        match item {
            Item::Attribute(a) => out.push_str(&render_attribute(a, indent, kind)),
            Item::Block(b) => out.push_str(&render_block(b, indent, kind)),
        }
    }
    let trailing = body.trailing.trim_end_matches([' ', '\t']);
    if trailing.trim().is_empty() {
        return;
    }
    for line in trailing.lines() {
        let line = line.trim_start();
        if !line.is_empty() {
            out.push_str(indent);
        }
        out.push_str(line);
        out.push('\n');
    }
}

fn render_attribute(a: &Attribute, indent: &str, kind: &str) -> String {
    match (&a.text, &a.value) {
        (Some(t), _) => format!("{}{}{}\n", reindent(&t.prefix, indent), t.src, t.suffix),
        (None, Value::Unknown(_)) => String::new(),
        (None, Value::Json(node)) => {
            let how = json_expr::reading(kind, &a.name);
            format!(
                "{indent}{} = {}\n",
                a.name,
                json_expr::render(node, indent, how)
            )
        }
        (None, Value::Native { src, .. }) => format!("{indent}{} = {src}\n", a.name),
    }
}

/// Re-indents a node's leading whitespace/comments for its new depth: comment lines and the
/// node's own line start at `indent`; blank lines stay blank.
fn reindent(prefix: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut lines = prefix.split('\n').peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        let t = line.trim_start_matches([' ', '\t']).trim_end_matches('\r');
        if last {
            out.push_str(indent);
            out.push_str(t);
        } else {
            if !t.is_empty() {
                out.push_str(indent);
                out.push_str(t);
            }
            out.push('\n');
        }
    }
    out
}

/// Where one part of the merged module sits in [`render_module`]'s text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The index of the top-level block it belongs to in `Module::blocks`.
    pub top: usize,
    /// The top-level block's address (as `Provenance::block`).
    pub block: String,
    /// The path inside it, empty for the block itself.
    pub path: String,
    /// The file the part came from.
    pub file: String,
    /// 1-based first and last line, leading blank lines left out.
    pub lines: (usize, usize),
}

/// The spans of every top-level block and of every item inside blocks a merge touched, for the
/// exact text [`render_module`] returns (it renders each piece the same way and counts lines).
pub fn render_spans(module: &Module) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut out_len = 0usize;
    let mut line = 1usize;
    for (top, b) in module.blocks.iter().enumerate() {
        let text = render_block(b, "", "");
        if out_len != 0 && !text.starts_with('\n') {
            line += 1;
            out_len += 1;
        }
        let addr = crate::config::changes::address(b);
        let first = spans.len();
        let header_line = push_span(&mut spans, &addr, "", &b.origin.file, &text, line);
        if b.touched {
            body_spans(&mut spans, &addr, "", b, "  ", header_line + 1);
        }
        for s in &mut spans[first..] {
            s.top = top;
        }
        line += text.matches('\n').count();
        out_len += text.len();
    }
    spans
}

/// Records the span of one rendered piece starting at `line`; returns the line of its first
/// non-blank line (a block's header when it has no leading comment).
fn push_span(
    spans: &mut Vec<Span>,
    block: &str,
    path: &str,
    file: &str,
    text: &str,
    line: usize,
) -> usize {
    let lines: Vec<&str> = text.trim_end_matches('\n').split('\n').collect();
    let blank = lines.iter().take_while(|l| l.trim().is_empty()).count();
    let first = line + blank.min(lines.len().saturating_sub(1));
    let last = line + lines.len().saturating_sub(1);
    spans.push(Span {
        top: 0,
        block: block.to_string(),
        path: path.to_string(),
        file: file.to_string(),
        lines: (first, last),
    });
    // The header follows the block's own comment lines.
    let comments = lines[blank.min(lines.len())..]
        .iter()
        .take_while(|l| l.trim_start().starts_with(['#', '/']))
        .count();
    first + comments
}

/// Spans of the items of touched block `b`, whose first item starts at `line`.
fn body_spans(
    spans: &mut Vec<Span>,
    addr: &str,
    prefix: &str,
    b: &Block,
    indent: &str,
    line: usize,
) {
    let mut line = line;
    for item in &b.body.items {
        let (text, path, file) = match item {
            Item::Attribute(a) => (
                render_attribute(a, indent, &b.kind),
                format!("{prefix}{}", a.name),
                &a.origin.file,
            ),
            Item::Block(nb) => (
                render_block(nb, indent, &b.kind),
                format!("{prefix}{}", crate::config::changes::address(nb)),
                &nb.origin.file,
            ),
        };
        let header = push_span(spans, addr, &path, file, &text, line);
        if let Item::Block(nb) = item {
            if nb.touched {
                body_spans(
                    spans,
                    addr,
                    &format!("{path}."),
                    nb,
                    &format!("{indent}  "),
                    header + 1,
                );
            }
        }
        line += text.matches('\n').count();
    }
}
