//! Constant expressions as Terraform's decoders evaluate them while loading: HCL's
//! `Expression.Value(nil)` (no variables, no functions) and `gohcl.DecodeExpression` into a
//! bool or string, with hclsyntax's diagnostics and ranges.
//!
//! Only native syntax, and only the expression forms whose behaviour is modelled: literals,
//! tuples, objects (keys that are names, plain strings or unknown), parentheses, operators
//! (`static_ops`), references, function calls and templates of those. Anything else
//! (conditionals, `for`) gives `None`, and callers then say nothing.

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::Span;

use crate::config::load::cty::{convert_plain, Ty, Val};
use crate::config::model::{Attribute, Value};
use crate::config::requirements::reference::Place;
use crate::diag::{Diagnostic, Range};
use crate::hcl_syntax::KeptValue;

/// An attribute's native expression with what is needed to place sub-ranges.
pub struct Expr<'a> {
    /// The parsed expression.
    pub expr: &'a Expression,
    place: Place<'a>,
    base: usize,
    /// For a value hclsyntax kept around placeholders: how its text was shown to hcl-edit.
    kept: Option<&'a KeptValue>,
}

impl<'a> Expr<'a> {
    /// The expression of native-syntax attribute `a` (`None` for JSON).
    pub fn of(a: &'a Attribute) -> Option<Expr<'a>> {
        let Value::Native { src, expr } = &a.value else {
            return None;
        };
        Some(Expr {
            expr,
            place: Place {
                range: &a.expr_range,
                text: Some(src),
            },
            base: a.expr_range.start.byte,
            kept: None,
        })
    }

    /// `expr` parsed from `text` alone (its spans count from 0), which sits at `range`.
    pub fn in_text(expr: &'a Expression, text: &'a str, range: &'a Range) -> Expr<'a> {
        Expr {
            expr,
            place: Place {
                range,
                text: Some(text),
            },
            base: 0,
            kept: None,
        }
    }

    /// The range of sub-expression (or node) span `span` (absolute bytes in the file).
    pub fn range(&self, span: Option<std::ops::Range<usize>>) -> Range {
        let span = span.unwrap_or(self.base..self.base);
        let mut rel = span.start.saturating_sub(self.base)..span.end.saturating_sub(self.base);
        if let Some(k) = self.kept {
            rel = k.written_at(rel.start)..k.written_at(rel.end);
        }
        self.place.sub(rel)
    }

    /// `quoted_items`' warnings (and errors) for list item `item`, counted in the written text
    /// even where a kept value's shown text inserted `0`s before it.
    pub fn quoted_item(
        &self,
        item: &Expression,
        skip: impl Fn(&str) -> bool,
        flavor: crate::Flavor,
        diags: &mut crate::diag::Diagnostics,
    ) {
        use hcl_edit::Span;
        let start = item.span().map_or(self.base, |s| s.start);
        let inserted = self.kept.map_or(0, |k| {
            let at = start.saturating_sub(self.base);
            at - k.written_at(at)
        });
        crate::config::requirements::reference::quoted_items(
            std::iter::once(item),
            self.base + inserted,
            &self.place,
            flavor,
            skip,
            diags,
        );
    }

    /// The range of `e`: a placeholder's own in a kept value, not its `0`'s.
    pub fn range_of(&self, e: &Expression) -> Range {
        match self.placeholder_at(e) {
            Some((at, _)) => self.range(Some(at.clone())),
            None => self.range(e.span()),
        }
    }

    /// Where `e` is one of hclsyntax's placeholders in a kept value: what evaluating it
    /// reports (`Some(None)` where that is not modelled).
    fn placeholder(&self, e: &Expression) -> Option<Option<&'a [Diagnostic]>> {
        Some(self.placeholder_at(e)?.1.as_deref())
    }

    /// The placeholder `e` is in a kept value: its range in the shown text, what
    /// evaluating it reports.
    fn placeholder_at(
        &self,
        e: &Expression,
    ) -> Option<&'a (std::ops::Range<usize>, Option<Vec<Diagnostic>>)> {
        // The `0` itself, not an operation it starts.
        let Expression::Number(_) = e else {
            return None;
        };
        let at = e.span()?.start;
        self.kept?.placeholders.iter().find(|(p, _)| p.start == at)
    }

    /// Runs `f` on what hclsyntax kept of attribute `a`'s value built around a placeholder.
    pub fn with_kept<T>(a: &Attribute, f: impl FnOnce(&Expr<'_>) -> Option<T>) -> Option<T> {
        let Value::Unknown(p) = &a.value else {
            return None;
        };
        let k = p.kept.as_deref()?;
        // hcl-edit refuses trailing spaces, which a blanked end leaves.
        let expr = hcl_edit::parser::parse_expr(k.shown.trim_end()).ok()?;
        f(&Expr {
            expr: &expr,
            place: Place {
                range: &a.expr_range,
                text: Some(&k.text),
            },
            base: 0,
            kept: Some(k),
        })
    }

    /// The expression's own text at absolute span `span`.
    pub fn text(&self, span: &std::ops::Range<usize>) -> &'a str {
        let text = match self.kept {
            Some(k) => &k.shown,
            None => self.place.text.unwrap_or_default(),
        };
        let s = span.start.saturating_sub(self.base);
        let e = span.end.saturating_sub(self.base);
        text.get(s..e).unwrap_or_default()
    }
}

/// `e.Value(nil)`: the value and the diagnostics evaluating it gives, or `None` when the
/// expression has a form not modelled here.
pub fn value(x: &Expr<'_>, e: &Expression) -> Option<(Val, Vec<Diagnostic>)> {
    let mut diags = Vec::new();
    let v = eval(x, e, &mut diags)?;
    Some((v, diags))
}

/// [`value`] of `e`, its diagnostics added to `diags`.
pub(crate) fn eval(x: &Expr<'_>, e: &Expression, diags: &mut Vec<Diagnostic>) -> Option<Val> {
    if let Some(evaluated) = x.placeholder(e) {
        diags.extend(evaluated?.iter().cloned());
        return Some(Val::Unknown(Ty::Dynamic));
    }
    Some(match e {
        Expression::Null(_) => Val::Null,
        Expression::Bool(b) => Val::Bool(*b.value()),
        Expression::Number(n) => Val::Number(n.value().to_string()),
        Expression::String(s) => Val::String(s.value().to_string()),
        Expression::Array(items) => Val::Tuple(
            items
                .iter()
                .map(|i| eval(x, i, diags))
                .collect::<Option<_>>()?,
        ),
        Expression::Object(obj) => object(x, obj, diags)?,
        Expression::Parenthesis(p) => eval(x, p.inner(), diags)?,
        Expression::UnaryOp(op) => super::static_ops::unary(x, op, diags)?,
        Expression::BinaryOp(op) => super::static_ops::binary(x, op, diags)?,
        Expression::Variable(_) => {
            diags.push(variables_not_allowed(x, e.span()));
            Val::Unknown(Ty::Dynamic)
        }
        Expression::Traversal(t) => {
            // A scope traversal: a name followed by attributes and constant indexes.
            if !matches!(t.expr, Expression::Variable(_)) {
                return None;
            }
            for op in &t.operators {
                match op.value() {
                    TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_) => {}
                    // Literal keys make a traversal step (`true-[null]`: the name `true-`).
                    TraversalOperator::Index(
                        Expression::Number(_)
                        | Expression::String(_)
                        | Expression::Null(_)
                        | Expression::Bool(_),
                    ) => {}
                    // A splat's source fails to evaluate, and its `Each` is then not
                    // evaluated (only its anonymous item, which says nothing).
                    TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => break,
                    _ => return None,
                }
            }
            diags.push(variables_not_allowed(x, t.expr.span()));
            Val::Unknown(Ty::Dynamic)
        }
        Expression::StringTemplate(t) => template(x, t.iter(), diags)?,
        Expression::ForExpr(f) => for_value(x, f, diags)?,
        Expression::FuncCall(_) => {
            diags.push(
                Diagnostic::error(
                    "Function calls not allowed",
                    "Functions may not be called here.",
                )
                .with_range(x.range(e.span())),
            );
            Val::Unknown(Ty::Dynamic)
        }
        _ => return None,
    })
}

/// An object constructor's value. A key written as an expression (`%s = 1` reads as the
/// placeholder modulo `s`) is evaluated with its value; one that fails or is unknown
/// leaves the whole object unknown, as hclsyntax cannot know its attributes then.
fn object(x: &Expr<'_>, obj: &hcl_edit::expr::Object, diags: &mut Vec<Diagnostic>) -> Option<Val> {
    let plain = obj.iter().all(|(k, _)| {
        matches!(
            k,
            ObjectKey::Ident(_) | ObjectKey::Expression(Expression::String(_))
        )
    });
    if plain {
        return object_val(obj, |e| eval(x, e, diags).ok_or(())).ok();
    }
    let mut known = true;
    for (k, v) in obj.iter() {
        let key = match k {
            ObjectKey::Expression(e) if !matches!(e, Expression::String(_)) => {
                let mut key_diags = Vec::new();
                let key = eval(x, e, &mut key_diags)?;
                let failed = key_diags.iter().any(Diagnostic::is_error);
                diags.extend(key_diags);
                Some((key, failed))
            }
            _ => None,
        };
        eval(x, v.expr(), diags)?;
        match key {
            None | Some((_, true)) | Some((Val::Unknown(_), _)) => known &= key.is_none(),
            // Other keys (converted to strings, refused, null) are not modelled here.
            Some(_) => return None,
        }
    }
    // An object of only known keys has been evaluated by `object_val` above.
    (!known).then_some(Val::Unknown(Ty::Dynamic))
}

/// A quoted template: its parts evaluated in order. Only literal text is modelled as a
/// value; a template whose interpolations were refused is unknown (with their errors), and
/// any other is `None`, so callers say nothing rather than guess its conversion.
fn template<'e>(
    x: &Expr<'_>,
    parts: impl Iterator<Item = &'e hcl_edit::template::Element>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Val> {
    use hcl_edit::template::Element;
    let mut text = String::new();
    let (before, mut computed) = (diags.len(), false);
    for part in parts {
        match part {
            Element::Literal(l) => text.push_str(l.value()),
            Element::Interpolation(i) => {
                eval(x, &i.expr, diags)?;
                computed = true;
            }
            Element::Directive(_) => return None,
        }
    }
    if diags.len() > before {
        Some(Val::Unknown(Ty::Dynamic))
    } else if computed {
        None
    } else {
        Some(Val::String(text))
    }
}

/// `ForExpr.Value(nil)` as far as its collection decides it: a null, unknown or
/// non-iterable collection; a known one (its items evaluated) is not modelled.
fn for_value(
    x: &Expr<'_>,
    f: &hcl_edit::expr::ForExpr,
    diags: &mut Vec<Diagnostic>,
) -> Option<Val> {
    let coll = &f.intro.collection_expr;
    let v = eval(x, coll, diags)?;
    let refused = |summary: &str, detail: String| {
        Diagnostic::error(summary, detail).with_range(x.range(coll.span()))
    };
    let ty = v.ty();
    if v == Val::Null {
        diags.push(refused(
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.".into(),
        ));
    } else if matches!(ty, Ty::String | Ty::Number | Ty::Bool) {
        diags.push(refused(
            "Iteration over non-iterable value",
            format!(
                "A value of type {} cannot be used as the collection in a 'for' expression.",
                ty.friendly_name()
            ),
        ));
    } else if ty != Ty::Dynamic && (f.cond.is_some() || !matches!(v, Val::Unknown(_))) {
        return None;
    }
    Some(Val::Unknown(Ty::Dynamic))
}

fn variables_not_allowed(x: &Expr<'_>, root: Option<std::ops::Range<usize>>) -> Diagnostic {
    Diagnostic::error("Variables not allowed", "Variables may not be used here.")
        .with_range(x.range(root))
}

/// HCL's `StartRange` of `e`: where `gohcl` points at a value that does not decode.
pub fn start_range(x: &Expr<'_>, e: &Expression) -> Option<Range> {
    if x.placeholder_at(e).is_some() {
        return Some(x.range_of(e));
    }
    let span = e.span()?;
    Some(match e {
        Expression::String(_) => {
            // The literal inside the quotes; hclsyntax places an empty string's empty
            // literal one column past its closing quote.
            if span.end - span.start <= 2 {
                return Some(x.range(Some(span.end..span.end + 1)));
            }
            x.range(Some(span.start + 1..span.end - 1))
        }
        // A `for` expression starts at its bracket too (hclsyntax's `OpenRange`).
        Expression::Array(_) | Expression::Object(_) | Expression::ForExpr(_) => {
            x.range(Some(span.start..span.start + 1))
        }
        Expression::Parenthesis(p) => start_range(x, p.inner())?,
        // A lone interpolation is hclsyntax's `TemplateWrapExpr`, which starts with its
        // quotes; another template starts where its first part does.
        Expression::StringTemplate(t)
            if t.len() == 1
                && matches!(
                    t.iter().next(),
                    Some(hcl_edit::template::Element::Interpolation(_))
                ) =>
        {
            x.range(Some(span))
        }
        Expression::StringTemplate(t) => match t.iter().next()? {
            hcl_edit::template::Element::Literal(l) => x.range(l.span()),
            hcl_edit::template::Element::Interpolation(i) => start_range(x, &i.expr)?,
            hcl_edit::template::Element::Directive(_) => return None,
        },
        Expression::UnaryOp(_) => x.range(Some(span.start..span.start + 1)),
        Expression::BinaryOp(op) => start_range(x, &op.lhs_expr)?,
        // hcl-edit folds `-1` into one number; hclsyntax keeps a negation, which starts
        // at its operator.
        Expression::Number(_) if x.text(&span).starts_with('-') => {
            x.range(Some(span.start..span.start + 1))
        }
        Expression::FuncCall(_) => {
            let open = x.text(&span).find('(')?;
            x.range(Some(span.start..span.start + open + 1))
        }
        Expression::Traversal(t) => match splat_marker(t) {
            Ok(Some(marker)) => x.range(Some(marker)),
            Ok(None) => x.range(Some(span)),
            Err(()) => return None,
        },
        _ => x.range(Some(span)),
    })
}

/// A traversal whose outermost node in hclsyntax's tree is its one splat (`SplatExpr`,
/// which starts at its marker): the marker's span (`.*` or `[*]`); `Ok(None)` without a
/// splat, `Err` for other forms (several splats, an index after an attribute splat).
fn splat_marker(t: &hcl_edit::expr::Traversal) -> Result<Option<std::ops::Range<usize>>, ()> {
    let mut ops = t.operators.iter();
    while let Some(op) = ops.next() {
        let full = match op.value() {
            TraversalOperator::AttrSplat(_) => false,
            TraversalOperator::FullSplat(_) => true,
            _ => continue,
        };
        // A full splat takes every step after it; an attribute splat only names.
        let rest_taken = ops.all(|o| match o.value() {
            TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => false,
            TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_) => true,
            TraversalOperator::Index(_) => full,
        });
        return if rest_taken {
            op.span().map(Some).ok_or(())
        } else {
            Err(())
        };
    }
    Ok(None)
}

/// [`value`] of attribute `a`'s expression, hclsyntax's placeholder for one that did not
/// parse included (unknown, with what evaluating it reports).
pub fn attribute_value(a: &Attribute) -> Option<(Val, Vec<Diagnostic>)> {
    if let Value::Unknown(p) = &a.value {
        let Some(diags) = p.evaluated.clone() else {
            return Expr::with_kept(a, |x| value(x, x.expr));
        };
        return match &p.operation {
            Some(op) => super::static_ops::unknown_left(op, diags),
            None => Some((Val::Unknown(Ty::Dynamic), diags)),
        };
    }
    let x = Expr::of(a)?;
    value(&x, x.expr)
}

/// `gohcl.DecodeExpression(attr, nil, &target)` for a bool or string target: the
/// evaluation's diagnostics, then "Unsuitable value type" when the value does not convert,
/// is unknown or is null. `None` when not modelled; otherwise the decoded bool (for bool
/// targets) when decoding succeeded.
pub fn decode(a: &Attribute, want: &Ty) -> Option<(Vec<Diagnostic>, Option<Val>)> {
    let (v, mut diags) = attribute_value(a)?;
    let start = match Expr::of(a) {
        Some(x) => start_range(&x, x.expr),
        None => match &a.value {
            Value::Unknown(p) if p.kept.is_some() => Expr::with_kept(a, |x| start_range(x, x.expr)),
            Value::Unknown(p) => Some(p.start_range(&a.expr_range)),
            _ => None,
        },
    };
    let unsuitable = |detail: String| -> Option<Diagnostic> {
        Some(
            Diagnostic::error(
                "Unsuitable value type",
                format!("Unsuitable value: {detail}"),
            )
            .with_range(start.clone()?)
            .with_context(a.expr_range.clone()),
        )
    };
    match convert_plain(&v, want) {
        Err(None) => return None,
        Err(Some(msg)) => {
            diags.push(unsuitable(msg)?);
            return Some((diags, None));
        }
        Ok(()) => {}
    }
    let problem = match v {
        Val::Unknown(_) => Some("value must be known"),
        Val::Null => Some("null value is not allowed"),
        _ => None,
    };
    if let Some(p) = problem {
        diags.push(unsuitable(p.to_string())?);
        return Some((diags, None));
    }
    let decoded = match (&v, want) {
        (Val::String(s), Ty::Bool) => Val::Bool(matches!(s.as_str(), "true" | "1")),
        _ => v,
    };
    Some((diags, Some(decoded)))
}

/// An object constructor's value from its items' values (`field`): keys written as names or
/// quoted strings, a repeated key's last value kept (as Terraform does), attributes sorted.
/// Any other key, or a field `field` refuses, is `Err`.
pub(crate) fn object_val<E: Default>(
    obj: &hcl_edit::expr::Object,
    mut field: impl FnMut(&Expression) -> Result<Val, E>,
) -> Result<Val, E> {
    let mut attrs: Vec<(String, Val)> = Vec::new();
    for (k, v) in obj.iter() {
        let key = match k {
            ObjectKey::Ident(i) => i.as_str().to_string(),
            ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
            ObjectKey::Expression(_) => return Err(E::default()),
        };
        let val = field(v.expr())?;
        attrs.retain(|(n, _)| *n != key);
        attrs.push((key, val));
    }
    crate::collections::sort_by(&mut attrs, |a, b| a.0.cmp(&b.0));
    Ok(Val::Object(attrs))
}
