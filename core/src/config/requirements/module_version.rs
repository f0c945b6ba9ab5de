//! A module call's `version`, as Terraform 1.15's `init` evaluates it before installing the
//! module (`evalVersionConstraint` in `internal/terraform/node_module_install.go`): it may
//! refer to variables and locals only ("Invalid module version" at the first other
//! reference), must be known ("Unknown module version"), a string ("Incorrect value type"
//! for a tuple or object), and go-version's constraint syntax ("Invalid version
//! constraint"); `null` is no constraint. A call with a constraint names a registry module,
//! so its `source` must be a registry address (`config::source_addr`). A call with
//! any of these errors is not installed, so nothing below it is loaded.
//!
//! Only what tflock can evaluate is judged (literals, templates, known variables and
//! locals); anything else (a function call) passes unchecked.

use super::module_source::{eval_string, Scope};
use crate::config::load::static_eval::Expr;
use crate::config::model::{Block, Value};
use crate::diag::Diagnostic;
use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::Span;

const UNKNOWN: &str = "Only literal values and const variables can be evaluated during init.";

/// Whether OpenTofu takes the call as asking for a registry module: it sets `version` to
/// anything but a literal `null` (`ModuleCall.VersionAttr`, dropped for a null value in
/// `decodeStaticVersion`, `internal/configs/module_call.go`). A variable that evaluates to
/// null is not followed: it counts as set.
pub(crate) fn tofu_version_set(call: &Block) -> bool {
    call.body
        .attribute("version")
        .is_some_and(|a| match &a.value {
            Value::Native { expr, .. } => !matches!(expr.as_ref(), Expression::Null(_)),
            Value::Json(node) => !matches!(node.kind, crate::config::load::json::NodeKind::Null),
            Value::Unknown(_) => true,
        })
}

/// The call's `version` checked as `init` checks it: `Ok(Some(constraint))` when it sets
/// one, `Ok(None)` when it sets none (or tflock cannot tell), `Err` with the errors that
/// stop the call from being installed.
pub(crate) fn check_version(
    call: &Block,
    scope: &Scope<'_>,
) -> Result<Option<String>, Vec<Diagnostic>> {
    let Some(attr) = call.body.attribute("version") else {
        return Ok(None);
    };
    let range = attr.expr_range.clone();
    let error = |summary: &str, detail: &str, at| {
        Err(vec![Diagnostic::error(summary, detail).with_range(at)])
    };
    let value = match &attr.value {
        // hclsyntax's placeholder: evaluating it reports its parse errors again, or gives
        // an unknown value.
        Value::Unknown(p) => {
            if let Some(refused) = super::module_source::tuple_or_object(attr) {
                return Err(refused);
            }
            return match &p.evaluated {
                Some(again) if !again.is_empty() => Err(again.clone()),
                Some(_) => error("Unknown module version", UNKNOWN, range),
                None => Ok(None),
            };
        }
        Value::Json(node) => node.as_str().map(str::to_string),
        Value::Native { expr, .. } => {
            let Some(x) = Expr::of(attr) else {
                return Ok(None);
            };
            if let Some(span) = first_other_reference(expr) {
                return error(
                    "Invalid module version",
                    "The module version can only reference constant input variables and local values.",
                    x.range(Some(span)),
                );
            }
            match expr.as_ref() {
                Expression::Null(_) => return Ok(None),
                Expression::Bool(b) => Some(b.value().to_string()),
                Expression::Number(n) => Some(n.value().to_string()),
                Expression::Array(_) | Expression::Object(_) => {
                    return Err(super::module_source::tuple_or_object(attr).unwrap_or_default());
                }
                e => {
                    if super::call_arguments::surely_unknown(e, scope.module, 0) {
                        return error("Unknown module version", UNKNOWN, range);
                    }
                    eval_string(e, scope)
                }
            }
        }
    };
    let Some(text) = value else {
        return Ok(None);
    };
    if !crate::version::check_config_syntax(&text) {
        return error(
            "Invalid version constraint",
            "This string does not use correct version constraint syntax.",
            range,
        );
    }
    Ok(Some(text))
}

/// Terraform's loader's errors for an installed module whose version (`installed`, from the
/// module manifest) the call's `constraint` no longer accepts, at the call's `source`.
pub(crate) fn installed_version_refused(
    constraint: &str,
    installed: Option<&str>,
    flavor: crate::flavor::Flavor,
    at: crate::diag::Range,
) -> Option<Diagnostic> {
    let tool = match flavor {
        crate::flavor::Flavor::Terraform => "terraform",
        crate::flavor::Flavor::OpenTofu => "tofu",
    };
    let detail = match installed {
        None => format!("The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run \"{tool} init\" to install all modules required by this configuration."),
        Some(v) => {
            // Only a release version is checked (go-version's prerelease rules are not
            // modelled).
            let core = crate::version::CoreVersion::parse(v)?;
            if crate::version::check_core_version(constraint, core) != crate::version::CoreCheck::Unmet {
                return None;
            }
            format!("The version requirements have changed since this module was installed and the installed version ({v}) is no longer acceptable. Run \"{tool} init\" to install all modules required by this configuration.")
        }
    };
    Some(Diagnostic::error("Module version requirements have changed", detail).with_range(at))
}

/// The span of the first reference in `e` (in source order) to something other than a
/// variable or a local, as `addrs.ParseRef` spans it: a resource's type and name, a data
/// source's three parts, `module.<name>`, or the first attribute of another root
/// (`path.module`, `terraform.workspace`).
fn first_other_reference(e: &Expression) -> Option<std::ops::Range<usize>> {
    let mut found = None;
    visit(e, &mut |t: &hcl_edit::expr::Traversal| {
        if found.is_some() {
            return;
        }
        let Expression::Variable(root) = &t.expr else {
            return;
        };
        let parts = match root.as_str() {
            "var" | "local" => return,
            "data" => 2,
            "self" => 0,
            _ => 1,
        };
        let start = t.expr.span().map(|s| s.start);
        let end = if parts == 0 {
            t.expr.span().map(|s| s.end)
        } else {
            t.operators
                .get(parts - 1)
                .filter(|o| matches!(o.value(), TraversalOperator::GetAttr(_)))
                .and_then(|o| o.span())
                .map(|s| s.end)
                .or_else(|| t.span().map(|s| s.end))
        };
        if let (Some(s), Some(e)) = (start, end) {
            found = Some(s..e);
        }
    });
    found
}

/// Calls `f` on every traversal in `e`, in source order.
fn visit(e: &Expression, f: &mut dyn FnMut(&hcl_edit::expr::Traversal)) {
    use hcl_edit::template::Element;
    match e {
        Expression::Traversal(t) => {
            f(t);
            visit(&t.expr, f);
            for op in &t.operators {
                if let TraversalOperator::Index(i) = op.value() {
                    visit(i, f);
                }
            }
        }
        Expression::Parenthesis(p) => visit(p.inner(), f),
        Expression::Array(items) => items.iter().for_each(|i| visit(i, f)),
        Expression::Object(obj) => {
            for (k, v) in obj.iter() {
                if let ObjectKey::Expression(k) = k {
                    visit(k, f);
                }
                visit(v.expr(), f);
            }
        }
        Expression::StringTemplate(t) => {
            for el in t.iter() {
                if let Element::Interpolation(i) = el {
                    visit(&i.expr, f);
                }
            }
        }
        Expression::HeredocTemplate(h) => {
            for el in h.template.iter() {
                if let Element::Interpolation(i) = el {
                    visit(&i.expr, f);
                }
            }
        }
        Expression::UnaryOp(op) => visit(&op.expr, f),
        Expression::BinaryOp(op) => {
            visit(&op.lhs_expr, f);
            visit(&op.rhs_expr, f);
        }
        Expression::Conditional(c) => {
            visit(&c.cond_expr, f);
            visit(&c.true_expr, f);
            visit(&c.false_expr, f);
        }
        Expression::FuncCall(c) => c.args.iter().for_each(|a| visit(a, f)),
        // Its key and value name the expression's own symbols; only the collection is read.
        Expression::ForExpr(x) => visit(&x.intro.collection_expr, f),
        _ => {}
    }
}
