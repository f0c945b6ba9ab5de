//! Evaluating lock file expressions without variables or functions, and converting the result
//! to a string, as `gohcl.DecodeExpression(expr, nil, &str)` does.

use super::spans::Source;
use crate::Diagnostic;
use hcl_edit::expr::Expression;
use hcl_edit::template::{Element, Template};
use hcl_edit::Span;

/// A value an expression evaluated to, reduced to what string decoding cares about.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// `null`.
    Null,
    /// A string, or a bool or number already converted to its string form.
    Str(String),
    /// A tuple or object: never convertible to a string.
    Collection,
}

/// What a string decode produced: the string, `None` for null (only allowed where the target
/// is optional), or the diagnostics.
pub(crate) type Decoded = Result<Option<String>, Vec<Diagnostic>>;

/// Decodes `expr` into a string; `null_ok` says whether null is allowed (a `*string` target).
pub(crate) fn decode_string(src: &Source<'_>, expr: &Expression, null_ok: bool) -> Decoded {
    let mut diags = Vec::new();
    let value = eval(src, expr, &mut diags);
    let unsuitable = |why: &str| {
        Diagnostic::error("Unsuitable value type", format!("Unsuitable value: {why}"))
            .with_range(src.range(start_span(src, expr)))
    };
    let decoded = match value {
        // Unknown (after a reported error): HCL still converts and then fails on the value.
        None => {
            diags.push(unsuitable("value must be known"));
            None
        }
        Some(Value::Null) if null_ok => Some(None),
        Some(Value::Null) => {
            diags.push(unsuitable("null value is not allowed"));
            None
        }
        Some(Value::Collection) => {
            diags.push(unsuitable("string required"));
            None
        }
        // cty.StringVal normalizes every string to NFC.
        Some(Value::Str(s)) => Some(Some(crate::nfc::nfc(&s).into_owned())),
    };
    // Like gohcl, any error (even one from evaluating a part of a template whose result is
    // still known) means the value is not used.
    match decoded {
        Some(v) if diags.is_empty() => Ok(v),
        _ => Err(diags),
    }
}

/// The span of `expr` or an empty span at 0 if the parser gave none.
pub(crate) fn span_of(expr: &Expression) -> std::ops::Range<usize> {
    expr.span().unwrap_or(0..0)
}

/// HCL's `StartRange`: the opening bracket of a collection, the text inside the quotes of a
/// plain quoted string, otherwise the whole expression.
pub(crate) fn start_span(src: &Source<'_>, expr: &Expression) -> std::ops::Range<usize> {
    let span = span_of(expr);
    match expr {
        Expression::Parenthesis(p) => start_span(src, p.inner()),
        // A template starts where its first part starts; a lone `"${x}"` (HCL's template
        // wrap) is its own start.
        Expression::StringTemplate(t) if single_interpolation(t).is_some() => span,
        Expression::StringTemplate(t) => match t.iter().next() {
            Some(Element::Literal(l)) => l.span().unwrap_or(span),
            Some(Element::Interpolation(i)) => start_span(src, &i.expr),
            _ => span,
        },
        // `name(`: the function name through the opening parenthesis.
        Expression::FuncCall(_) => {
            let from = span.start.min(src.text.len());
            src.text[from..]
                .find('(')
                .map_or(span.clone(), |i| span.start..span.start + i + 1)
        }
        Expression::Array(_) | Expression::Object(_) => span.start..(span.start + 1).min(span.end),
        Expression::String(_) if span.len() >= 2 => span.start + 1..span.end - 1,
        _ => span,
    }
}

/// Evaluates with no variables and no functions. `None` means unknown; errors are pushed.
fn eval(src: &Source<'_>, expr: &Expression, diags: &mut Vec<Diagnostic>) -> Option<Value> {
    match expr {
        Expression::Null(_) => Some(Value::Null),
        Expression::Bool(b) => Some(Value::Str(b.value().to_string())),
        Expression::Number(n) => Some(Value::Str(number_string(n.value()))),
        Expression::String(s) => Some(Value::Str(s.value().clone())),
        Expression::Array(_) | Expression::Object(_) => Some(Value::Collection),
        // `"${x}"` alone is HCL's template wrap: the value of `x` itself, of any type.
        Expression::StringTemplate(t) => match single_interpolation(t) {
            Some(inner) => eval(src, inner, diags),
            None => eval_template(src, t, diags),
        },
        Expression::HeredocTemplate(h) => eval_template(src, &h.template, diags),
        Expression::Parenthesis(p) => eval(src, p.inner(), diags),
        Expression::Variable(_) | Expression::Traversal(_) => {
            diags.push(variables_not_allowed(src, expr));
            None
        }
        Expression::FuncCall(_) => {
            diags.push(
                Diagnostic::error(
                    "Function calls not allowed",
                    "Functions may not be called here.",
                )
                .with_range(src.range(span_of(expr))),
            );
            None
        }
        // Operators, conditionals and `for` expressions never appear in lock files; rather
        // than evaluate them we reject them with one diagnostic over the whole expression.
        _ => {
            diags.push(
                Diagnostic::error(
                    "Unsupported expression",
                    "Only literal values may be used in a dependency lock file.",
                )
                .with_range(src.range(span_of(expr))),
            );
            None
        }
    }
}

fn single_interpolation(t: &Template) -> Option<&Expression> {
    let mut elements = t.iter();
    match (elements.next(), elements.next()) {
        (Some(Element::Interpolation(i)), None) => Some(&i.expr),
        _ => None,
    }
}

fn variables_not_allowed(src: &Source<'_>, expr: &Expression) -> Diagnostic {
    let span = match expr {
        Expression::Traversal(t) => span_of(&t.expr),
        _ => span_of(expr),
    };
    Diagnostic::error("Variables not allowed", "Variables may not be used here.")
        .with_range(src.range(span))
}

fn eval_template(
    src: &Source<'_>,
    template: &Template,
    diags: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let mut out = String::new();
    let mut known = true;
    for element in template.iter() {
        match element {
            Element::Literal(s) => out.push_str(s.value()),
            // Null or non-string parts are reported and skipped; the result stays known.
            Element::Interpolation(i) => match eval(src, &i.expr, diags) {
                Some(Value::Str(s)) => out.push_str(&s),
                Some(Value::Null) => diags.push(
                    Diagnostic::error(
                        "Invalid template interpolation value",
                        "The expression result is null. Cannot include a null value in a string template.",
                    )
                    .with_range(src.range(span_of(&i.expr))),
                ),
                Some(Value::Collection) => diags.push(
                    Diagnostic::error(
                        "Invalid template interpolation value",
                        "Cannot include the given value in a string template: string required.",
                    )
                    .with_range(src.range(span_of(&i.expr))),
                ),
                None => known = false,
            },
            Element::Directive(_) => {
                diags.push(Diagnostic::error(
                    "Unsupported expression",
                    "Only literal values may be used in a dependency lock file.",
                ));
                known = false;
            }
        }
    }
    known.then_some(Value::Str(out))
}

/// cty's number-to-string conversion (`big.Float.Text('f', -1)`): integers in decimal,
/// fractions in their shortest exact form.
fn number_string(n: &hcl_edit::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    n.as_f64().map(|f| format!("{f}")).unwrap_or_default()
}
