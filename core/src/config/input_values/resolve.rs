//! A root variable's value as `init` reads it into a module source (Terraform 1.15: `const`
//! variables only; OpenTofu: any): the value given (`-var`, `-var-file`, the automatic
//! files, `TF_VAR_`), else the default (`backendrun.ParseConstVariableValues`, then the init graph's
//! `nodeRootVariable`). A text value (environment, `-var`) is the string itself for a
//! variable without a type or of a primitive type, an HCL expression otherwise
//! (`configs.VariableParsingMode`).

use super::{InputValue, InputValues};
use crate::config::load::cty::Val;
use crate::config::load::json::{Node, NodeKind};
use crate::config::load::static_eval::{value, Expr};
use crate::config::model::{Attribute, Block, Value};
use crate::diag::{Pos, Range};
use hcl_edit::expr::Expression;

/// The string root variable `var` (named `name`) stands for in a module source: the value
/// given in `values`, else its default; `None` when that is not a known string. Whether the
/// variable may be read there at all is the flavour's rule, decided by the caller.
pub(crate) fn root_value(var: &Block, name: &str, values: &InputValues) -> Option<String> {
    match values.get(name) {
        Some(InputValue::Expr { attr, .. }) => match &attr.value {
            Value::Unknown(_) => None,
            Value::Native { .. } => {
                let x = Expr::of(attr)?;
                let (v, diags) = value(&x, x.expr)?;
                if !diags.is_empty() {
                    return None;
                }
                as_source(v)
            }
            Value::Json(node) => node.as_str().map(str::to_string),
        },
        Some(InputValue::Text(text) | InputValue::Arg(text)) => {
            if parses_literally(var) {
                Some(text.clone())
            } else {
                // An HCL expression: only a plain quoted string is modelled here; anything
                // else leaves the source unknown, which the caller reports.
                match hcl_edit::parser::parse_expr(text).ok()? {
                    Expression::String(s) => Some(s.value().to_string()),
                    _ => None,
                }
            }
        }
        None => default_value(var),
    }
}

/// The whole value root variable `var` (named `name`) has when a module source reads into
/// it (`var.site.path`, `var.dirs[0]`): the value given in `values`, else its default, as
/// written (an object, tuple or primitive; `None` when it is not a constant). The variable's
/// type does not change what an attribute or index reads, so it is not converted.
pub(crate) fn root_val(var: &Block, name: &str, values: &InputValues) -> Option<Val> {
    match values.get(name) {
        Some(InputValue::Expr { attr, .. }) => attribute_val(attr),
        Some(InputValue::Text(text) | InputValue::Arg(text)) => {
            if parses_literally(var) {
                Some(Val::String(text.clone()))
            } else {
                text_val(text)
            }
        }
        None => default_val(var),
    }
}

/// The variable's default as a whole value (see [`root_val`]).
pub(crate) fn default_val(var: &Block) -> Option<Val> {
    attribute_val(var.body.attribute("default")?)
}

/// A constant attribute's value; `None` when evaluating it reports anything.
fn attribute_val(attr: &Attribute) -> Option<Val> {
    match &attr.value {
        Value::Unknown(_) => None,
        Value::Native { .. } => {
            let x = Expr::of(attr)?;
            let (v, diags) = value(&x, x.expr)?;
            diags.is_empty().then_some(v)
        }
        Value::Json(node) => Some(json_val(node)),
    }
}

/// A `-var` or `TF_VAR_` text parsed as HCL (the variable's type is not primitive).
fn text_val(text: &str) -> Option<Val> {
    let expr = hcl_edit::parser::parse_expr(text).ok()?;
    let pos = Pos {
        line: 1,
        column: 1,
        byte: 0,
    };
    let range = Range {
        filename: String::new(),
        start: pos,
        end: pos,
    };
    let (v, diags) = value(&Expr::in_text(&expr, text, &range), &expr)?;
    diags.is_empty().then_some(v)
}

/// A JSON variables file's value: strings are literal there.
fn json_val(node: &Node) -> Val {
    match &node.kind {
        NodeKind::Null => Val::Null,
        NodeKind::Bool(b) => Val::Bool(*b),
        NodeKind::Number(n) => Val::Number(n.clone()),
        NodeKind::String(s) => Val::String(s.clone()),
        NodeKind::Array(items) => Val::Tuple(items.iter().map(json_val).collect()),
        NodeKind::Object(props) => {
            let mut attrs: Vec<(String, Val)> = Vec::new();
            for p in props {
                attrs.retain(|(n, _)| *n != p.key);
                attrs.push((p.key.clone(), json_val(&p.value)));
            }
            crate::collections::sort_by(&mut attrs, |a, b| a.0.cmp(&b.0));
            Val::Object(attrs)
        }
    }
}

/// The variable's default, when it is a literal string.
pub(crate) fn default_value(var: &Block) -> Option<String> {
    var.body.attribute("default")?.literal_str()
}

/// A value converted to the string a module source needs (cty's primitive conversions).
pub(crate) fn as_source(v: Val) -> Option<String> {
    match v {
        Val::String(s) | Val::Number(s) => Some(s),
        Val::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `VariableParseLiteral`: no `type`, or a primitive one (`string`, `number`, `bool`, and
/// the legacy quoted `"string"`, which the loader reports); any other type, `any`
/// included, is parsed as HCL.
pub(crate) fn parses_literally(var: &Block) -> bool {
    let Some(ty) = var.body.attribute("type") else {
        return true;
    };
    let primitive = |s: &str| matches!(s, "string" | "number" | "bool");
    match &ty.value {
        Value::Unknown(_) => false,
        Value::Native { expr, .. } => match &**expr {
            Expression::Variable(v) => primitive(v.as_str()),
            Expression::String(s) => s.value() == "string",
            _ => false,
        },
        Value::Json(node) => node.as_str().is_some_and(primitive),
    }
}
