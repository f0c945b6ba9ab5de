//! Literal values of variable defaults: what can be known without evaluating anything.
//!
//! A default is checked against its type only when it is a literal: null, bool, number,
//! string without interpolation, or a tuple/object of literals (a leading `-` on a number
//! counts). Anything else (references, function calls, operators, templates) is reported
//! as not statically known, and the caller skips the check with a warning.

use crate::collections::SortedMap;
use crate::config::render::json_expr::quote_literal;
use hcl_edit::expr::{Expression, ObjectKey, UnaryOperator};

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string.
    String(String),
    /// A tuple `[...]`.
    Array(Vec<Literal>),
    /// An object `{...}`.
    Object(SortedMap<String, Literal>),
}

impl Literal {
    /// Native syntax meaning exactly this value (strings escape template sequences).
    pub fn to_native(&self) -> String {
        match self {
            Literal::Null => "null".into(),
            Literal::Bool(b) => b.to_string(),
            Literal::Number(n) => n.clone(),
            Literal::String(s) => quote_literal(s),
            Literal::Array(items) => {
                let parts: Vec<String> = items.iter().map(Literal::to_native).collect();
                format!("[{}]", parts.join(", "))
            }
            Literal::Object(m) => {
                let parts: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{} = {}", quote_literal(k), v.to_native()))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }
}

/// Why an expression has no literal value (said in a warning: the default is not checked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotLiteral {
    /// The source does not parse as an expression.
    #[error("{0}")]
    Syntax(String),
    /// An object key that is not a string, number or bool.
    #[error("an object key is not a string")]
    ObjectKey,
    /// A negated value that is not a number.
    #[error("only a number can be negated")]
    Negation,
    /// A native-syntax template.
    #[error("the string is a template")]
    Template,
    /// A JSON string holding `${` or `%{`.
    #[error("the string is a template with interpolations")]
    JsonTemplate,
    /// A reference.
    #[error("it refers to {0}")]
    Reference(String),
    /// Any other expression (calls, operators, ...).
    #[error("it is not a literal value")]
    Expression,
}

/// The literal value of native-syntax expression source `src`.
pub fn eval_literal(src: &str) -> Result<Literal, NotLiteral> {
    let text = crate::hcl_syntax::expression_for_hcl_edit(src);
    let expr =
        hcl_edit::parser::parse_expr(&text).map_err(|e| NotLiteral::Syntax(e.to_string()))?;
    literal(&expr)
}

fn literal(expr: &Expression) -> Result<Literal, NotLiteral> {
    Ok(match expr {
        Expression::Null(_) => Literal::Null,
        Expression::Bool(b) => Literal::Bool(*b.value()),
        Expression::Number(n) => Literal::Number(n.value().to_string()),
        Expression::String(s) => Literal::String(s.value().to_string()),
        Expression::Array(items) => {
            Literal::Array(items.iter().map(literal).collect::<Result<_, _>>()?)
        }
        Expression::Object(obj) => {
            let mut out = SortedMap::new();
            for (key, value) in obj.iter() {
                let key = match key {
                    ObjectKey::Ident(i) => i.as_str().to_string(),
                    ObjectKey::Expression(e) => match literal(e)? {
                        Literal::String(s) | Literal::Number(s) => s,
                        Literal::Bool(b) => b.to_string(),
                        _ => return Err(NotLiteral::ObjectKey),
                    },
                };
                out.insert(key, literal(value.expr())?);
            }
            Literal::Object(out)
        }
        Expression::Parenthesis(p) => literal(p.inner())?,
        Expression::UnaryOp(op) if *op.operator.value() == UnaryOperator::Neg => {
            match literal(&op.expr)? {
                Literal::Number(n) => Literal::Number(format!("-{n}")),
                _ => return Err(NotLiteral::Negation),
            }
        }
        Expression::StringTemplate(_) | Expression::HeredocTemplate(_) => {
            return Err(NotLiteral::Template)
        }
        Expression::Variable(v) => return Err(NotLiteral::Reference(v.as_str().to_string())),
        _ => return Err(NotLiteral::Expression),
    })
}

/// A JSON-syntax value as a literal; strings containing `${`/`%{` templates are not static.
pub fn json_literal(n: &crate::config::load::json::Node) -> Result<Literal, NotLiteral> {
    use crate::config::load::json::NodeKind;
    Ok(match &n.kind {
        NodeKind::Null => Literal::Null,
        NodeKind::Bool(b) => Literal::Bool(*b),
        NodeKind::Number(t) => Literal::Number(t.clone()),
        NodeKind::String(s) => {
            if s.contains("${") || s.contains("%{") {
                return Err(NotLiteral::JsonTemplate);
            }
            Literal::String(s.clone())
        }
        NodeKind::Array(items) => {
            Literal::Array(items.iter().map(json_literal).collect::<Result<_, _>>()?)
        }
        NodeKind::Object(props) => Literal::Object(
            props
                .iter()
                .map(|p| Ok((p.key.clone(), json_literal(&p.value)?)))
                .collect::<Result<_, NotLiteral>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_evaluate_and_anything_else_is_not_static() {
        assert_eq!(eval_literal("null"), Ok(Literal::Null));
        assert_eq!(eval_literal("-(1.5)"), Ok(Literal::Number("-1.5".into())));
        assert_eq!(
            eval_literal("{ a = [true, \"x\\ty\"], \"b\" = null }"),
            Ok(Literal::Object(SortedMap::from([
                (
                    "a".to_string(),
                    Literal::Array(vec![Literal::Bool(true), Literal::String("x\ty".into())])
                ),
                ("b".to_string(), Literal::Null),
            ])))
        );
        assert!(eval_literal("var.x").is_err());
        assert!(eval_literal("\"${var.x}\"").is_err());
        assert!(eval_literal("upper(\"a\")").is_err());
        assert!(eval_literal("1 + 2").is_err());
    }

    #[test]
    fn what_terraform_accepts_and_hcl_edit_refuses_still_reads() {
        // A repeated key: the last one wins, as when Terraform builds the object.
        assert_eq!(
            eval_literal("{ a = 1, b = 2, a = 3 }"),
            Ok(Literal::Object(SortedMap::from([
                ("a".to_string(), Literal::Number("3".into())),
                ("b".to_string(), Literal::Number("2".into())),
            ])))
        );
        // A line break before an operator inside a `for` expression: not a literal, but
        // not a syntax error either.
        assert_eq!(
            eval_literal("{ for k, v in var.m : k => v\n  if v != null }"),
            Err(NotLiteral::Expression)
        );
    }
}
