//! The syntax-independent configuration tree that loading produces and merging edits.
//!
//! Native (`.tf`) and JSON (`.tf.json`) files both become [`Block`]s of [`Item`]s, so the merge
//! rules are written once. Each node remembers where it came from ([`Origin`]) and, for native
//! syntax, its original text with comments, so untouched parts render exactly as written.

use crate::config::load::json::Node;
use crate::diag::{Pos, Range};

/// Where a node came from: the file and Terraform's declaration range for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file name as the host named it.
    pub file: String,
    /// Terraform's `DeclRange`/`DefRange` (block header, or the attribute's name and value).
    pub decl: Range,
}

/// The original native-syntax text of a node: leading comments, the node itself, trailing comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NativeText {
    /// Whitespace and comment lines before the node (as written).
    pub prefix: String,
    /// The node's own source text.
    pub src: String,
    /// Spaces and a same-line comment after the node.
    pub suffix: String,
}

/// An attribute's value expression, in the syntax it was written in.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Native syntax: the expression's source text and its parsed form.
    Native {
        /// The expression exactly as written.
        src: String,
        /// The parsed expression.
        expr: Box<hcl_edit::expr::Expression>,
    },
    /// JSON syntax: the JSON value (strings are templates, as in Terraform).
    Json(Node),
    /// A value hclsyntax could not parse, which it keeps as a placeholder of unknown value
    /// (`cty.DynamicVal`) after the syntax error: the argument is present, its value is not.
    Unknown(Placeholder),
}

/// What hclsyntax's placeholder for a value gives when Terraform evaluates it while loading.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placeholder {
    /// The diagnostics evaluating it reports (an `ExprSyntaxError` its parse diagnostics
    /// again), its value being unknown; `None` where the value is not the placeholder's
    /// own (see `kept`) or the expression hclsyntax kept is not modelled, and nothing is
    /// said about its value.
    pub evaluated: Option<Vec<crate::diag::Diagnostic>>,
    /// The operation hclsyntax made of a silent placeholder token that is an arithmetic
    /// operator, the placeholder its left operand; the value is then that operation's.
    pub operation: Option<Box<Operation>>,
    /// Whether hclsyntax read the value outside recovery mode (before the file's first
    /// error): reading its text alone then reads it the same way.
    pub read_first: bool,
    /// For a value built around a placeholder (a tuple, object, call or `for` holding
    /// one), what hclsyntax keeps of it, which Terraform evaluates.
    pub kept: Option<Box<crate::hcl_syntax::KeptValue>>,
}

impl Placeholder {
    /// The placeholder's `StartRange`, where the attribute's value `range` was written.
    pub fn start_range(&self, range: &Range) -> Range {
        self.operation
            .as_ref()
            .map_or_else(|| range.clone(), |o| o.start.clone())
    }
}

/// `<placeholder> op <right operand>` as hclsyntax reads `%t` after a file's first error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// `*`, `/` or `%`.
    pub operator: char,
    /// The right operand's text.
    pub rhs: String,
    /// Where the right operand was written.
    pub rhs_range: Range,
    /// Where the whole operation was written.
    pub whole: Range,
    /// Where the placeholder (the operator token) was written: the operation's start.
    pub start: Range,
}

/// `name = value` inside a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// The argument name.
    pub name: String,
    /// The value expression.
    pub value: Value,
    /// Where the whole attribute was written (`decl` covers name through value).
    pub origin: Origin,
    /// The range of the value expression alone.
    pub expr_range: Range,
    /// Original text when written in native syntax.
    pub text: Option<NativeText>,
    /// A JSON value's own text, kept where a diagnostic points inside the value (the
    /// entries of `required_providers`).
    pub json_text: Option<Box<str>>,
}

/// A block: `kind "label" ... { body }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block type (`resource`, `lifecycle`, ...).
    pub kind: String,
    /// The labels, unquoted.
    pub labels: Vec<String>,
    /// The content.
    pub body: Body,
    /// Where the block header was written.
    pub origin: Origin,
    /// Where each label was written.
    pub label_ranges: Vec<Range>,
    /// Where the opening brace was written.
    pub open_brace: Range,
    /// For a JSON block, where its type name and closing brace were written (a native
    /// block's follow from its header and opening brace).
    pub json_places: Option<Box<JsonPlaces>>,
    /// Original text when written in native syntax.
    pub text: Option<NativeText>,
    /// True once a merge changed this block, so it must be re-rendered from its items.
    pub touched: bool,
    /// A module call's argument names before the first override merged into it: Terraform
    /// reads a merged body with `PartialContent`, so only these count for its required
    /// arguments and no argument is unexpected (`configs.mergeBody`).
    pub base_arguments: Option<Vec<String>>,
}

impl Attribute {
    /// HCL's `NameRange`: the name at the start of the declaration, or in JSON the quoted
    /// key (assuming it has no escapes).
    pub fn name_range(&self) -> Range {
        let quotes = if self.origin.file.ends_with(".json") {
            2
        } else {
            0
        };
        let mut r = self.origin.decl.clone();
        r.end = r.start;
        r.end.column += self.name.chars().count() + quotes;
        r.end.byte += self.name.len() + quotes;
        r
    }
}

/// Where a JSON block's property name (with its quotes) and closing brace were written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPlaces {
    /// The property name's start and end.
    pub kind: (Pos, Pos),
    /// The closing brace's start.
    pub close_brace: Pos,
}

impl Block {
    /// HCL's `TypeRange`: the type keyword, or a JSON property name with its quotes.
    pub fn kind_range(&self) -> Range {
        let mut r = self.origin.decl.clone();
        match &self.json_places {
            Some(p) => (r.start, r.end) = p.kind,
            None => {
                r.end = r.start;
                r.end.column += self.kind.chars().count();
                r.end.byte += self.kind.len();
            }
        }
        r
    }

    /// Where Terraform reports an argument the body lacks: a native body's opening brace (the
    /// first character of the type for a block kept without one after an invalid header), a
    /// JSON object's closing brace.
    pub fn missing_item_range(&self) -> Range {
        match &self.json_places {
            Some(p) => {
                let mut r = self.open_brace.clone();
                r.start = p.close_brace;
                r.end = p.close_brace;
                r.end.column += 1;
                r.end.byte += 1;
                r
            }
            None => {
                let mut r = self.open_brace.clone();
                if r.end.byte > r.start.byte + 1 {
                    r.end = r.start;
                    r.end.column += 1;
                    r.end.byte += 1;
                }
                r
            }
        }
    }
}

/// One element of a body.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// An argument.
    Attribute(Attribute),
    /// A nested block.
    Block(Block),
}

/// The content of a block or file, in source order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Body {
    /// Attributes and blocks in the order written.
    pub items: Vec<Item>,
    /// Comments between the last item and the closing brace (native syntax).
    pub trailing: String,
}

impl Body {
    /// The attribute called `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.items.iter().find_map(|i| match i {
            Item::Attribute(a) if a.name == name => Some(a),
            _ => None,
        })
    }

    /// All attributes in order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.items.iter().filter_map(|i| match i {
            Item::Attribute(a) => Some(a),
            Item::Block(_) => None,
        })
    }

    /// All nested blocks in order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.items.iter().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            Item::Attribute(_) => None,
        })
    }

    /// Nested blocks of type `kind` in order.
    pub fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks().filter(move |b| b.kind == kind)
    }

    /// Replaces the attribute of the same name in place, or appends it.
    pub fn set_attribute(&mut self, attr: Attribute) {
        for item in &mut self.items {
            if let Item::Attribute(a) = item {
                if a.name == attr.name {
                    let mut attr = attr;
                    // Keep the base's spacing (blank lines) but the override's comments.
                    if let (Some(old), Some(new)) = (&a.text, &mut attr.text) {
                        new.prefix = format!(
                            "{}{}",
                            leading_blank_lines(&old.prefix),
                            new.prefix.trim_start_matches([' ', '\t', '\r', '\n'])
                        );
                    }
                    *a = attr;
                    return;
                }
            }
        }
        self.items.push(Item::Attribute(attr));
    }

    /// Removes every attribute called `name`; returns the index of the first removed one.
    pub fn remove_attribute(&mut self, name: &str) -> Option<usize> {
        let first = self
            .items
            .iter()
            .position(|i| matches!(i, Item::Attribute(a) if a.name == name));
        self.items
            .retain(|i| !matches!(i, Item::Attribute(a) if a.name == name));
        first
    }
}

impl Attribute {
    /// The range of the part of a native value at byte `span` of its file (a sub-expression's
    /// span), counted through the value's own text; `None` for JSON or a span outside it.
    pub fn sub_range(&self, span: std::ops::Range<usize>) -> Option<Range> {
        let Value::Native { src, .. } = &self.value else {
            return None;
        };
        let base = self.expr_range.start;
        let pos = |at: usize| -> Option<Pos> {
            let before = src.get(..at.checked_sub(base.byte)?)?;
            let line_start = before.rfind('\n').map(|i| i + 1);
            let lines = before.matches('\n').count();
            let column = match line_start {
                Some(i) => before[i..].chars().count() + 1,
                None => base.column + before.chars().count(),
            };
            Some(Pos {
                line: base.line + lines,
                column,
                byte: at,
            })
        };
        Some(Range {
            filename: self.expr_range.filename.clone(),
            start: pos(span.start)?,
            end: pos(span.end)?,
        })
    }

    /// The value as a literal string, when it is one (no interpolation).
    pub fn literal_str(&self) -> Option<String> {
        match &self.value {
            Value::Unknown(_) => None,
            Value::Native { expr, .. } => literal_native_str(expr),
            Value::Json(node) => node
                .as_str()
                .filter(|s| !s.contains("${"))
                .map(str::to_string),
        }
    }

    /// True when the value is an empty tuple/list literal (`[]`).
    pub fn is_empty_list(&self) -> bool {
        match &self.value {
            Value::Unknown(_) => false,
            Value::Native { expr, .. } => expr.as_array().is_some_and(|a| a.is_empty()),
            Value::Json(node) => node.as_array().is_some_and(|a| a.is_empty()),
        }
    }

    /// True when the value is a tuple or object literal (`[...]`, `{...}`).
    pub fn is_collection(&self) -> bool {
        match &self.value {
            Value::Unknown(_) => false,
            Value::Native { expr, .. } => expr.is_array() || expr.is_object(),
            Value::Json(node) => node.as_array().is_some() || node.as_object().is_some(),
        }
    }

    /// True when the value is an empty object/map literal (`{}`).
    pub fn is_empty_object(&self) -> bool {
        match &self.value {
            Value::Unknown(_) => false,
            Value::Native { expr, .. } => expr.as_object().is_some_and(|o| o.is_empty()),
            Value::Json(node) => node.as_object().is_some_and(|o| o.is_empty()),
        }
    }
}

/// The blank lines at the start of a node's prefix (`"\n\n"` for two).
fn leading_blank_lines(prefix: &str) -> String {
    let mut out = String::new();
    for line in prefix.split('\n').take(prefix.matches('\n').count()) {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            break;
        }
    }
    out
}

/// A native expression's string value when it is a plain quoted string without interpolation.
pub fn literal_native_str(expr: &hcl_edit::expr::Expression) -> Option<String> {
    use hcl_edit::template::Element;
    if let Some(s) = expr.as_str() {
        return Some(s.to_string());
    }
    let tpl = expr.as_string_template()?;
    let mut out = String::new();
    for el in tpl.iter() {
        match el {
            Element::Literal(l) => out.push_str(l.value()),
            _ => return None,
        }
    }
    Some(out)
}
