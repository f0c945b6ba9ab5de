//! Variable overrides: fields replaced one by one (validation blocks stay), then the default is
//! re-checked against the (possibly new) type, with a detail saying what the override changed.

use crate::config::literal::{eval_literal, json_literal, Literal};
use crate::config::load::{default_fails_to_evaluate, own_default_fails};
use crate::config::model::{Block, Value};
use crate::config::types::Type;
use crate::diag::{Diagnostic, Diagnostics};

/// Merges override variable `over` into `base`.
pub fn merge_variable(base: &mut Block, over: &Block, diags: &mut Diagnostics) {
    let old_type = type_of(base);
    // A default that already failed to evaluate or to meet its own block's type (reported
    // while loading) is unknown from then on, and converts to any type.
    let unknown_default = if over.body.attribute("default").is_some() {
        own_default_fails(over, true) || default_fails_to_evaluate(over)
    } else {
        own_default_fails(base, false) || default_fails_to_evaluate(base)
    };
    for a in over.body.attributes() {
        base.body.set_attribute(a.clone());
    }
    base.touched = true;
    let type_set = over.body.attribute("type").is_some();
    let default_set = over.body.attribute("default").is_some();
    if type_set && !default_set {
        keep_converted_default(base, old_type.as_ref());
    }
    let Some(default) = base.body.attribute("default") else {
        return;
    };
    if unknown_default {
        return;
    }
    let value = match &default.value {
        Value::Unknown(_) => return,
        Value::Native { src, .. } => eval_literal(src),
        Value::Json(n) => json_literal(n),
    };
    let value = match value {
        Ok(v) => v,
        Err(e) => {
            {
                diags.push(
                    Diagnostic::warning(
                        "Default value not checked",
                        format!("tflock cannot evaluate this variable's default value statically ({e}), so it was not checked against the type constraint."),
                    )
                    .with_range(default.expr_range.clone()),
                );
            }
            return;
        }
    };
    if value == Literal::Null {
        let nullable_false = base
            .body
            .attribute("nullable")
            .is_some_and(|a| match &a.value {
                Value::Unknown(_) => false,
                Value::Native { expr, .. } => expr.as_bool() == Some(false),
                Value::Json(n) => {
                    matches!(n.kind, crate::config::load::json::NodeKind::Bool(false))
                }
            });
        if nullable_false {
            diags.push(
                Diagnostic::error(
                    "Invalid default value for variable",
                    "A null default value is not valid when nullable=false.",
                )
                .with_range(over.origin.decl.clone()),
            );
        }
        return;
    }
    let Some(ty) = type_of(base) else {
        return;
    };
    let converted = crate::config::load::cty::convert_plain(
        &crate::config::load::cty::Val::from(&value),
        &crate::config::load::cty::Ty::from(&ty),
    );
    if let Err(Some(err)) = converted {
        let detail = match (type_set, default_set) {
            (true, false) => format!("Overriding this variable's type constraint has made its default value invalid: {err}."),
            (false, true) => format!("The overridden default value for this variable is not compatible with the variable's type constraint: {err}."),
            _ => format!("This variable's default value is not compatible with its type constraint: {err}."),
        };
        diags.push(
            Diagnostic::error("Invalid default value for variable", detail)
                .with_range(over.origin.decl.clone()),
        );
    }
}

/// The variable's type constraint, when it has one tflock can read.
fn type_of(variable: &Block) -> Option<Type> {
    variable
        .body
        .attribute("type")
        .and_then(|a| match &a.value {
            Value::Unknown(_) => None,
            Value::Native { expr, .. } => Type::parse(expr),
            Value::Json(n) => n
                .as_str()
                .and_then(|s| {
                    hcl_edit::parser::parse_expr(&crate::hcl_syntax::expression_for_hcl_edit(s))
                        .ok()
                })
                .and_then(|e| Type::parse(&e)),
        })
}

/// Terraform converts a default to its block's type when it decodes the block, and an
/// override of the type alone re-converts that converted value: `default = 0` under
/// `type = string` stays the string "0" when an override makes the type `any`. The merged
/// text says so by writing the converted value.
fn keep_converted_default(variable: &mut Block, decoded_as: Option<&Type>) {
    let Some(ty) = decoded_as else {
        return;
    };
    let Some(default) = variable.body.attribute("default") else {
        return;
    };
    let written = match &default.value {
        Value::Unknown(_) => return,
        Value::Native { src, .. } => eval_literal(src),
        Value::Json(n) => json_literal(n),
    };
    let Some(converted) = written.ok().and_then(|w| Some((ty.convert(&w)?, w))) else {
        return;
    };
    if converted.0 == converted.1 {
        return;
    }
    let src = converted.0.to_native();
    let Ok(expr) = hcl_edit::parser::parse_expr(&src) else {
        return;
    };
    let mut attr = default.clone();
    attr.value = Value::Native {
        src,
        expr: Box::new(expr),
    };
    attr.text = None;
    variable.body.set_attribute(attr);
}
