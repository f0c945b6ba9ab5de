//! HCL's `Variables()`: the references an expression makes, each as its root name and, when
//! the next step is `.name`, that name (`var.region` is `("var", Some("region"))`). `for`
//! iterators are local to their expression and not references.

use hcl_edit::expr::{Expression, ForExpr, Traversal, TraversalOperator};
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

use crate::config::load::json::{Node, NodeKind};
use crate::config::model::Value;

/// A reference: the root name and the attribute taken from it, if any.
pub type Reference = (String, Option<String>);

/// The references an attribute's value makes, native or JSON (JSON strings are templates).
pub fn references(value: &Value) -> Vec<Reference> {
    reference_paths(value)
        .into_iter()
        .map(|mut path| {
            let attr = (path.len() > 1).then(|| path.swap_remove(1));
            (path.swap_remove(0), attr)
        })
        .collect()
}

/// [`reference_paths`] of one native expression.
pub fn expression_reference_paths(e: &Expression) -> Vec<Vec<String>> {
    let mut refs = Refs::default();
    refs.visit_expr(e);
    refs.out
}

/// [`expression_reference_paths`], each with the byte span `addrs.ParseRef` gives a
/// reference: its root and, when the next step is `.name`, that name.
pub fn expression_reference_spans(e: &Expression) -> Vec<(Vec<String>, std::ops::Range<usize>)> {
    let mut refs = Refs::default();
    refs.visit_expr(e);
    refs.out.into_iter().zip(refs.spans).collect()
}

/// The references an attribute's value makes, each as its root name followed by the
/// attribute names taken from it up to the first index or splat (`data.x.y[0].id` is
/// `["data", "x", "y"]`), which is as far as an address reaches.
pub fn reference_paths(value: &Value) -> Vec<Vec<String>> {
    let mut refs = Refs::default();
    match value {
        Value::Unknown(_) => {}
        Value::Native { expr, .. } => refs.visit_expr(expr),
        Value::Json(node) => json(node, &mut refs),
    }
    refs.out
}

fn json(node: &Node, refs: &mut Refs) {
    match &node.kind {
        NodeKind::String(s) => {
            if let Ok(t) = hcl_edit::parser::parse_template(s) {
                refs.visit_template(&t);
            }
        }
        NodeKind::Array(items) => items.iter().for_each(|n| json(n, refs)),
        NodeKind::Object(props) => {
            for p in props {
                if let Ok(t) = hcl_edit::parser::parse_template(&p.key) {
                    refs.visit_template(&t);
                }
                json(&p.value, refs);
            }
        }
        _ => {}
    }
}

#[derive(Default)]
struct Refs {
    out: Vec<Vec<String>>,
    /// Each reference's span, beside `out`.
    spans: Vec<std::ops::Range<usize>>,
    locals: Vec<String>,
}

impl Refs {
    fn push(&mut self, path: Vec<String>, span: std::ops::Range<usize>) {
        if !self.locals.iter().any(|l| *l == path[0]) {
            self.out.push(path);
            self.spans.push(span);
        }
    }
}

impl Visit for Refs {
    fn visit_expr(&mut self, e: &Expression) {
        match e {
            Expression::Variable(v) => {
                self.push(vec![v.as_str().to_string()], v.span().unwrap_or(0..0))
            }
            _ => visit::visit_expr(self, e),
        }
    }

    fn visit_traversal(&mut self, t: &Traversal) {
        let Expression::Variable(root) = &t.expr else {
            return visit::visit_traversal(self, t);
        };
        let mut path = vec![root.as_str().to_string()];
        let mut span = root.span().unwrap_or(0..0);
        for (i, op) in t.operators.iter().enumerate() {
            match op.value() {
                TraversalOperator::GetAttr(name) => {
                    path.push(name.as_str().to_string());
                    if i == 0 {
                        if let Some(op) = op.span() {
                            span.end = op.end;
                        }
                    }
                }
                _ => break,
            }
        }
        self.push(path, span);
        for op in &t.operators {
            self.visit_traversal_operator(op);
        }
    }

    fn visit_for_expr(&mut self, f: &ForExpr) {
        // The collection is read outside the iterators' scope.
        self.visit_expr(&f.intro.collection_expr);
        let outer = self.locals.len();
        if let Some(k) = &f.intro.key_var {
            self.locals.push(k.as_str().to_string());
        }
        self.locals.push(f.intro.value_var.as_str().to_string());
        if let Some(k) = &f.key_expr {
            self.visit_expr(k);
        }
        self.visit_expr(&f.value_expr);
        if let Some(c) = &f.cond {
            self.visit_expr(&c.expr);
        }
        self.locals.truncate(outer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn native(src: &str) -> Vec<Reference> {
        let expr: Expression = src.parse().unwrap();
        references(&Value::Native {
            src: src.to_string(),
            expr: Box::new(expr),
        })
    }

    #[test]
    fn finds_roots_and_their_first_attribute() {
        assert_eq!(
            native("var.a == local.b[0] && length(data.x.y.z) > 0"),
            vec![
                ("var".to_string(), Some("a".to_string())),
                ("local".to_string(), Some("b".to_string())),
                ("data".to_string(), Some("x".to_string())),
            ]
        );
        assert_eq!(native("self"), vec![("self".to_string(), None)]);
        assert!(native("true").is_empty());
        assert!(native("\"a-${1}\"").is_empty());
    }

    #[test]
    fn for_iterators_are_not_references() {
        assert_eq!(
            native("[for k, v in var.m : v if k != x]"),
            vec![
                ("var".to_string(), Some("m".to_string())),
                ("x".to_string(), None),
            ]
        );
        assert!(native("[for x in [1, 2] : x]").is_empty());
    }

    #[test]
    fn json_strings_are_templates() {
        let node =
            crate::config::load::json::parse(r#"{"c": "${var.x == 1}", "d": true}"#).unwrap();
        let props = node.as_object().unwrap();
        assert_eq!(
            references(&Value::Json(props[0].value.clone())),
            vec![("var".to_string(), Some("x".to_string()))]
        );
        assert!(references(&Value::Json(props[1].value.clone())).is_empty());
    }
}
