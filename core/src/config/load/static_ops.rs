//! HCL's operators on constants (hclsyntax's `BinaryOpExpr` and `UnaryOpExpr` with no
//! evaluation context): each operand converted to the operation's parameter type ("Invalid
//! operand"), `&&` and `||` short-circuiting on a known operand (and dropping the other
//! side's diagnostics), then cty's function: a null operand refused, an unknown one giving
//! an unknown result, and `big.Float`'s undefined results ("Operation failed").

use std::cmp::Ordering;

use hcl_edit::expr::{BinaryOp, BinaryOperator, Expression, UnaryOp, UnaryOperator};
use hcl_edit::Span;

use crate::config::load::cty::{convert_plain, Ty, Val};
use crate::config::load::cty_number::{Nan, Num, Outcome};
use crate::config::load::static_eval::{eval, Expr};
use crate::diag::Diagnostic;

/// The parameter type, result type and undefined-result message of an operator's function.
fn signature(op: BinaryOperator) -> (Ty, Ty, &'static str) {
    use BinaryOperator::*;
    match op {
        Eq | NotEq => (Ty::Dynamic, Ty::Bool, ""),
        Less | LessEq | Greater | GreaterEq => (Ty::Number, Ty::Bool, ""),
        And | Or => (Ty::Bool, Ty::Bool, ""),
        Plus => (
            Ty::Number,
            Ty::Number,
            "can't compute sum of opposing infinities",
        ),
        Minus => (
            Ty::Number,
            Ty::Number,
            "can't subtract infinity from itself",
        ),
        Mul => (Ty::Number, Ty::Number, "can't multiply zero by infinity"),
        Div => (
            Ty::Number,
            Ty::Number,
            "can't divide zero by zero or infinity by infinity",
        ),
        Mod => (
            Ty::Number,
            Ty::Number,
            "can't use modulo with zero and infinity",
        ),
    }
}

/// `convert.Convert(v, want)` for a primitive or dynamic parameter: the converted value, or
/// cty's message; `None` when not modelled.
fn convert(v: Val, want: &Ty) -> Option<Result<Val, String>> {
    match convert_plain(&v, want) {
        Err(None) => None,
        Err(Some(msg)) => Some(Err(msg)),
        Ok(()) => Some(Ok(match (v, want) {
            (Val::String(s), Ty::Number) => Val::Num(Num::parse(&s)?),
            (Val::String(s), Ty::Bool) => Val::Bool(matches!(s.as_str(), "true" | "1")),
            (Val::Number(n), Ty::Number) => Val::Num(Num::parse(&n)?),
            (Val::Unknown(_), t) if *t != Ty::Dynamic => Val::Unknown(t.clone()),
            (v, _) => v,
        })),
    }
}

/// A number result as [`Val`]: its text when it has one.
fn number(n: Num) -> Val {
    match n.text() {
        Some(t) => Val::Number(t),
        None => Val::Num(n),
    }
}

fn invalid_operand(x: &Expr<'_>, side: &str, e: &Expression, msg: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid operand",
        format!("Unsuitable value for {side} operand: {msg}."),
    )
    .with_range(x.range(e.span()))
}

fn operation_failed(x: &Expr<'_>, span: Option<std::ops::Range<usize>>, msg: &str) -> Diagnostic {
    Diagnostic::error(
        "Operation failed",
        format!("Error during operation: {msg}."),
    )
    .with_range(x.range(span))
}

/// `BinaryOpExpr.Value(nil)` of an arithmetic operation whose left operand is hclsyntax's
/// placeholder of unknown value, which reported `lhs_diags`: the right operand converted
/// to a number, its diagnostics, a null refused; the result an unknown number. `None` where
/// the right operand's text is no single operand (another operator would bind first).
pub(crate) fn unknown_left(
    op: &crate::config::model::Operation,
    lhs_diags: Vec<Diagnostic>,
) -> Option<(Val, Vec<Diagnostic>)> {
    let e = hcl_edit::parser::parse_expr(&op.rhs).ok()?;
    if matches!(e, Expression::BinaryOp(_) | Expression::Conditional(_)) {
        return None;
    }
    let x = Expr::in_text(&e, &op.rhs, &op.rhs_range);
    let mut rhs_diags = Vec::new();
    let rhs = eval(&x, &e, &mut rhs_diags)?;
    let mut diags = Vec::new();
    let converted = convert(rhs, &Ty::Number)?;
    if let Err(m) = &converted {
        diags.push(invalid_operand(&x, "right", &e, m));
    }
    let failed = lhs_diags.iter().chain(&rhs_diags).any(Diagnostic::is_error);
    diags.extend(lhs_diags);
    diags.extend(rhs_diags);
    if converted.as_ref().is_ok_and(|v| *v == Val::Null) && !failed {
        diags.push(
            Diagnostic::error(
                "Operation failed",
                "Error during operation: argument must not be null.",
            )
            .with_range(op.whole.clone()),
        );
    }
    Some((Val::Unknown(Ty::Number), diags))
}

/// `BinaryOpExpr.Value(nil)`.
pub(crate) fn binary(x: &Expr<'_>, op: &BinaryOp, diags: &mut Vec<Diagnostic>) -> Option<Val> {
    let operator = *op.operator.value();
    let (param, result, nan) = signature(operator);
    let mut lhs_diags = Vec::new();
    let lhs = eval(x, &op.lhs_expr, &mut lhs_diags)?;
    let mut rhs_diags = Vec::new();
    let rhs = eval(x, &op.rhs_expr, &mut rhs_diags)?;
    let mut conv = Vec::new();
    let lhs = convert(lhs, &param)?
        .map_err(|m| conv.push(invalid_operand(x, "left", &op.lhs_expr, &m)))
        .ok();
    let rhs = convert(rhs, &param)?
        .map_err(|m| conv.push(invalid_operand(x, "right", &op.rhs_expr, &m)))
        .ok();
    let (Some(lhs), Some(rhs)) = (lhs, rhs) else {
        diags.extend(conv);
        diags.extend(lhs_diags);
        diags.extend(rhs_diags);
        return Some(Val::Unknown(result));
    };
    if matches!(operator, BinaryOperator::And | BinaryOperator::Or) {
        let and = operator == BinaryOperator::And;
        if let Some((v, left)) = short_circuit(and, &lhs, &rhs, &lhs_diags) {
            diags.extend(if left { lhs_diags } else { rhs_diags });
            return Some(v);
        }
    }
    let failed = lhs_diags.iter().chain(&rhs_diags).any(Diagnostic::is_error);
    diags.extend(lhs_diags);
    diags.extend(rhs_diags);
    if failed {
        return Some(Val::Unknown(result));
    }
    let whole = op.span();
    let nullable = matches!(operator, BinaryOperator::Eq | BinaryOperator::NotEq);
    if !nullable && (lhs == Val::Null || rhs == Val::Null) {
        diags.push(operation_failed(x, whole, "argument must not be null"));
        return Some(Val::Unknown(result));
    }
    let unknown = matches!(lhs, Val::Unknown(_)) || matches!(rhs, Val::Unknown(_));
    use BinaryOperator::*;
    let value = match operator {
        Eq | NotEq => {
            let eq = equals(&lhs, &rhs)?;
            match (eq, operator) {
                (Val::Bool(b), NotEq) => Val::Bool(!b),
                (v, _) => v,
            }
        }
        _ if unknown => Val::Unknown(result),
        And | Or => {
            let (Val::Bool(a), Val::Bool(b)) = (&lhs, &rhs) else {
                return None;
            };
            Val::Bool(if operator == And { *a && *b } else { *a || *b })
        }
        Less | LessEq | Greater | GreaterEq => {
            let o = nums(&lhs, &rhs).and_then(|(a, b)| a.cmp(&b))?;
            Val::Bool(match operator {
                Less => o == Ordering::Less,
                LessEq => o != Ordering::Greater,
                Greater => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
        Plus | Minus | Mul | Div | Mod => {
            let (a, b) = nums(&lhs, &rhs)?;
            let out: Outcome = match operator {
                Plus => a.add(b),
                Minus => a.add(b.neg()),
                Mul => a.mul(b),
                Div => a.div(b),
                _ => a.modulo(b),
            };
            match out? {
                Ok(n) => number(n),
                Err(Nan) => {
                    diags.push(operation_failed(x, whole, nan));
                    Val::Unknown(result)
                }
            }
        }
    };
    Some(value)
}

fn nums(a: &Val, b: &Val) -> Option<(Num, Num)> {
    let num = |v: &Val| match v {
        Val::Num(n) => Some(*n),
        Val::Number(t) => Num::parse(t),
        _ => None,
    };
    Some((num(a)?, num(b)?))
}

/// hclsyntax's `ShortCircuit` for `&&` (`and`) and `||`: the forced result and whether
/// it keeps the left side's diagnostics (else the right's).
fn short_circuit(and: bool, l: &Val, r: &Val, l_diags: &[Diagnostic]) -> Option<(Val, bool)> {
    let known = |v: &Val| !matches!(v, Val::Unknown(_));
    // cty's `True()`: a null is not true (and so `False()`).
    let truth = |v: &Val| *v == Val::Bool(true);
    let unknown = || Val::Unknown(Ty::Bool);
    // The value that decides: `false` for `&&`, `true` for `||`.
    let decides = |v: &Val| if and { !truth(v) } else { truth(v) };
    if !known(l) && !known(r) {
        return (!l_diags.iter().any(Diagnostic::is_error)).then(|| (unknown(), true));
    }
    if known(l) && decides(l) {
        return Some((Val::Bool(!and), true));
    }
    if known(r) && decides(r) {
        return Some((Val::Bool(!and), false));
    }
    if !known(l) && !decides(r) {
        return Some((unknown(), true));
    }
    if !known(r) && !decides(l) {
        return Some((unknown(), false));
    }
    None
}

/// cty's `Value.Equals` for the values constant expressions have; `None` when not
/// modelled (numbers whose floats may differ from their rationals, non-ASCII strings cty
/// would normalise).
fn equals(a: &Val, b: &Val) -> Option<Val> {
    let unknown = Val::Unknown(Ty::Bool);
    let known_not_null = |v: &Val| !matches!(v, Val::Null | Val::Unknown(_));
    match (a, b) {
        (Val::Null, Val::Null) => return Some(Val::Bool(true)),
        (Val::Null, o) | (o, Val::Null) if known_not_null(o) => return Some(Val::Bool(false)),
        _ => {}
    }
    match (a, b) {
        (Val::Unknown(_), Val::Unknown(_)) => return Some(unknown),
        (k, Val::Unknown(t)) | (Val::Unknown(t), k) => {
            let dynamic = *k == Val::Null || has_dynamic(t);
            return Some(if !dynamic && k.ty() != *t {
                Val::Bool(false)
            } else {
                unknown
            });
        }
        _ => {}
    }
    let (ta, tb) = (a.ty(), b.ty());
    // A null inside is of a known type; only an unknown of dynamic type leaves the type
    // open (`HasWhollyKnownType`).
    if !wholly_known(a) || !wholly_known(b) {
        let apart = !conforms(&ta, &tb) && !conforms(&tb, &ta);
        return Some(if apart { Val::Bool(false) } else { unknown });
    }
    if ta != tb {
        return Some(Val::Bool(false));
    }
    Some(Val::Bool(same(a, b)?))
}

/// cty's `HasWhollyKnownType`: no unknown of dynamic type anywhere inside.
fn wholly_known(v: &Val) -> bool {
    match v {
        Val::Unknown(t) => *t != Ty::Dynamic,
        Val::Tuple(items) => items.iter().all(wholly_known),
        Val::Object(attrs) => attrs.iter().all(|(_, v)| wholly_known(v)),
        _ => true,
    }
}

/// Deep equality of two known values of one wholly known type.
fn same(a: &Val, b: &Val) -> Option<bool> {
    Some(match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Null, _) | (_, Val::Null) => false,
        (Val::Unknown(_), _) | (_, Val::Unknown(_)) => return None,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::String(x), Val::String(y)) => {
            if x != y && !(x.is_ascii() && y.is_ascii()) {
                return None;
            }
            x == y
        }
        (Val::Tuple(xs), Val::Tuple(ys)) => {
            for (x, y) in xs.iter().zip(ys) {
                if !same(x, y)? {
                    return Some(false);
                }
            }
            true
        }
        (Val::Object(xs), Val::Object(ys)) => {
            for ((_, x), (_, y)) in xs.iter().zip(ys) {
                if !same(x, y)? {
                    return Some(false);
                }
            }
            true
        }
        _ => {
            let (x, y) = nums(a, b)?;
            x.cmp(&y)? == Ordering::Equal
        }
    })
}

fn has_dynamic(t: &Ty) -> bool {
    match t {
        Ty::Dynamic => true,
        Ty::List(e) | Ty::Set(e) | Ty::Map(e) => has_dynamic(e),
        Ty::Tuple(es) => es.iter().any(has_dynamic),
        Ty::Object(attrs) => attrs.iter().any(|(_, t, _)| has_dynamic(t)),
        _ => false,
    }
}

/// cty's `TestConformance`: whether `t` conforms to `to` (where `to` says dynamic,
/// anything does).
fn conforms(t: &Ty, to: &Ty) -> bool {
    match (t, to) {
        (_, Ty::Dynamic) => true,
        (Ty::Tuple(xs), Ty::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| conforms(x, y))
        }
        (Ty::Object(xs), Ty::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|((n, x, _), (m, y, _))| n == m && conforms(x, y))
        }
        (Ty::List(x), Ty::List(y)) | (Ty::Set(x), Ty::Set(y)) | (Ty::Map(x), Ty::Map(y)) => {
            conforms(x, y)
        }
        _ => t == to,
    }
}

/// `UnaryOpExpr.Value(nil)`: `-` on a number, `!` on a bool.
pub(crate) fn unary(x: &Expr<'_>, op: &UnaryOp, diags: &mut Vec<Diagnostic>) -> Option<Val> {
    let neg = *op.operator.value() == UnaryOperator::Neg;
    let ty = if neg { Ty::Number } else { Ty::Bool };
    let mut found = Vec::new();
    let v = eval(x, &op.expr, &mut found)?;
    let v = match convert(v, &ty)? {
        Ok(v) => Some(v),
        Err(m) => {
            found.push(invalid_operand(x, "unary", &op.expr, &m));
            None
        }
    };
    let failed = found.iter().any(Diagnostic::is_error);
    diags.extend(found);
    let v = match v {
        Some(v) if !failed => v,
        _ => return Some(Val::Unknown(ty)),
    };
    Some(match v {
        Val::Null => {
            diags.push(operation_failed(x, op.span(), "argument must not be null"));
            Val::Unknown(ty)
        }
        Val::Unknown(_) => Val::Unknown(ty),
        Val::Bool(b) => Val::Bool(!b),
        v => number(nums(&v, &v)?.0.neg()),
    })
}
