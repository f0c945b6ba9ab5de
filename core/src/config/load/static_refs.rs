//! Arguments Terraform's decoders read as static references while loading a module, not as
//! values: `depends_on` (resources, data sources, ephemeral resources, module calls,
//! outputs), a managed resource's `lifecycle.ignore_changes`, and the `from`/`to` of
//! `moved` and the `from` of `removed`. Each must be a static list (`hcl.ExprList`) of
//! single references (`hcl.AbsTraversalForExpr`: a name, attributes, constant indexes).
//!
//! Quoted references (Terraform 0.11's form) are warned about elsewhere; one that does not
//! parse as a reference, and forms whose handling is not modelled (heredocs and templates of
//! literal text alone, a negative index), are left alone. In JSON files only `replace_triggered_by` is checked: each
//! element a string Terraform re-parses as native syntax from its opening quote on.

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::Span;

use crate::config::load::cty::Ty;
use crate::config::load::json::Node;
use crate::config::load::static_eval::{start_range, Expr};
use crate::config::load::value_decode::decode_into;
use crate::config::model::{Attribute, Block, Value};
use crate::config::requirements::reference::quoted_traversal;
use crate::config::variables::expression_reference_paths;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax;

const NOT_A_LIST: &str = "A static list expression is required.";
/// `hcl.AbsTraversalForExpr`'s detail for an expression that is no reference.
pub(crate) const NOT_A_REFERENCE: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/// Checks top-level block `b` of a file whose text is `src`.
pub fn check_block(b: &Block, src: &str, diags: &mut Diagnostics) {
    if b.origin.file.ends_with(".json") {
        if (b.kind.as_str(), b.labels.len()) == ("resource", 2) {
            let lifecycle = b.body.blocks_of("lifecycle").find(|l| l.labels.is_empty());
            if let Some(a) = lifecycle.and_then(|l| l.body.attribute("replace_triggered_by")) {
                json_replace_triggered_by(a, src, diags);
            }
        }
        return;
    }
    match (b.kind.as_str(), b.labels.len()) {
        ("resource" | "data" | "ephemeral", 2) | ("module" | "output", 1) => {
            if let Some(a) = b.body.attribute("depends_on") {
                depends_on(a, src, Flavor::Terraform, diags);
            }
            // `decodeResourceBlock`'s order: `depends_on`, then the lifecycle's flags and
            // references in turn.
            let lifecycle = (b.kind == "resource")
                .then(|| b.body.blocks_of("lifecycle").find(|l| l.labels.is_empty()))
                .flatten();
            if let Some(lc) = lifecycle {
                for flag in ["create_before_destroy", "prevent_destroy"] {
                    decode_into(lc, flag, &Ty::Bool, diags);
                }
                if let Some(a) = lc.body.attribute("replace_triggered_by") {
                    replace_triggered_by(a, diags);
                }
                if let Some(a) = lc.body.attribute("ignore_changes") {
                    ignore_changes(a, src, diags);
                }
            }
        }
        ("moved", 0) => {
            for name in ["from", "to"] {
                if let Some(a) = b.body.attribute(name) {
                    single(a, diags);
                }
            }
        }
        ("removed", 0) => {
            if let Some(a) = b.body.attribute("from") {
                single(a, diags);
            }
        }
        _ => {}
    }
}

/// Whether `e` is a static reference (`Some(root name)`), not one (`None` inside `Ok`), or
/// a form not modelled (`Err`).
fn reference(e: &Expression) -> Result<Option<&str>, ()> {
    match e {
        Expression::Variable(v) => Ok(Some(v.as_str())),
        // hclsyntax reads these keywords as literals that still act as references here.
        Expression::Bool(b) => Ok(Some(if *b.value() { "true" } else { "false" })),
        Expression::Null(_) => Ok(Some("null")),
        Expression::Traversal(t) => {
            let Expression::Variable(root) = &t.expr else {
                return Ok(None);
            };
            for op in &t.operators {
                match op.value() {
                    TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_) => {}
                    TraversalOperator::Index(Expression::String(_)) => {}
                    // hcl-edit folds a negation into the number; hclsyntax keeps an
                    // operator there, which makes an index expression, not a reference.
                    TraversalOperator::Index(Expression::Number(n))
                        if !n.value().as_f64().is_some_and(|f| f < 0.0) => {}
                    TraversalOperator::Index(_) => return Ok(None),
                    TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                        return Ok(None)
                    }
                }
            }
            Ok(Some(root.as_str()))
        }
        // An interpolation makes a template no quoted reference, and hclsyntax's template
        // (even `"${a.b}"`, one interpolation alone) has no traversal form.
        Expression::StringTemplate(t)
            if t.iter()
                .any(|e| !matches!(e, hcl_edit::template::Element::Literal(_))) =>
        {
            Ok(None)
        }
        Expression::StringTemplate(_) | Expression::HeredocTemplate(_) => Err(()),
        _ => Ok(None),
    }
}

/// hclsyntax's placeholder for a value that did not parse, read where Terraform wants a
/// static list or reference (`detail` says which): it is neither, and is not evaluated.
/// `None` for any other value, or a kept expression not modelled.
fn placeholder(a: &Attribute, detail: &str) -> Option<Diagnostic> {
    let Value::Unknown(p) = &a.value else {
        return None;
    };
    p.evaluated.as_ref()?;
    // `hcl.ExprList` points at the expression's start, `hcl.AbsTraversalForExpr` at all of it.
    let at = if detail == NOT_A_LIST {
        p.start_range(&a.expr_range)
    } else {
        a.expr_range.clone()
    };
    Some(Diagnostic::error("Invalid expression", detail).with_range(at))
}

/// `hcl.ExprList`: the elements of a tuple constructor, or the diagnostic for anything else;
/// `None` for parentheses (not modelled).
fn static_list<'e>(
    x: &Expr<'_>,
    e: &'e Expression,
) -> Option<Result<Vec<&'e Expression>, Diagnostic>> {
    Some(match e {
        Expression::Parenthesis(_) => return None,
        Expression::Array(items) => Ok(items.iter().collect()),
        // HCL points at where the expression starts.
        _ => {
            Err(Diagnostic::error("Invalid expression", NOT_A_LIST).with_range(start_range(x, e)?))
        }
    })
}

fn not_a_reference(x: &Expr<'_>, e: &Expression) -> Diagnostic {
    Diagnostic::error("Invalid expression", NOT_A_REFERENCE).with_range(x.range_of(e))
}

/// A native quoted string that reads as a reference: the shim takes it (with a warning).
fn quoted_reference(e: &Expression) -> bool {
    quoted_traversal(e).is_some()
}

/// `DecodeDependsOn` on an argument of a test file (`expect_failures`, `plan_options`'
/// `replace` and `target`): a static list of single references.
pub(crate) fn static_references(a: &Attribute, flavor: crate::Flavor, diags: &mut Diagnostics) {
    if a.origin.file.ends_with(".json") {
        return;
    }
    crate::config::requirements::reference::quoted_list_elements(a, flavor, |_| false, diags);
    // A list cut short is read from the kept value; its text is not at hand here.
    depends_on(a, "", flavor, diags);
}

fn depends_on(a: &Attribute, src: &str, flavor: Flavor, diags: &mut Diagnostics) -> Option<()> {
    if let Some(found) = kept(a, with_quoted(depends_on_list, |_| false, flavor)) {
        diags.extend(found);
        return Some(());
    }
    if matches!(a.value, Value::Unknown(_)) {
        // A tuple cut short at a failing item (`[a.b, x.%d]`) checks the items before it;
        // a value that is wholly a placeholder is no list.
        if cut_list(
            a,
            src,
            diags,
            |_| false,
            flavor,
            |x, items, diags| {
                depends_on_items(x, items, diags);
                Some(())
            },
        )
        .is_none()
        {
            diags.extend(placeholder(a, NOT_A_LIST));
        }
        return Some(());
    }
    depends_on_list(&Expr::of(a)?, diags)
}

fn depends_on_list(x: &Expr<'_>, diags: &mut Diagnostics) -> Option<()> {
    let items = match static_list(x, x.expr)? {
        Ok(items) => items,
        Err(d) => {
            diags.push(d);
            return Some(());
        }
    };
    depends_on_items(x, items, diags);
    Some(())
}

/// What `check` finds in a value built around a placeholder, read as hclsyntax kept it;
/// `None` when not modelled.
fn kept(
    a: &Attribute,
    check: impl FnOnce(&Expr<'_>, &mut Diagnostics) -> Option<()>,
) -> Option<Diagnostics> {
    Expr::with_kept(a, |x| {
        let mut found = Diagnostics::new();
        check(x, &mut found)?;
        Some(found)
    })
}

/// A list kept as unknown while loading for a placeholder inside it. hclsyntax cut it
/// short at an item that failed to parse (`[a.b, x.%s]`): Terraform decodes the items before
/// it (`items` checks them), then refuses the one it kept of the failing item (a
/// placeholder, a template or index around one), which is no reference. Or it read it whole
/// (`[{ k = %s }, a.b]` after the file's first error): each item holding a placeholder is
/// refused, in its place among the others.
fn cut_list(
    a: &Attribute,
    src: &str,
    diags: &mut Diagnostics,
    skip: impl Fn(&str) -> bool,
    flavor: Flavor,
    items: impl Fn(&Expr<'_>, Vec<&Expression>, &mut Diagnostics) -> Option<()>,
) -> Option<()> {
    let Value::Unknown(p) = &a.value else {
        return None;
    };
    let range = &a.expr_range;
    let text = src.get(range.start.byte..range.end.byte)?;
    let read = hcl_syntax::tuple_read(text, p.read_first)?;
    if read.cut.is_none() && read.holding.is_empty() {
        return None;
    }
    // hcl-edit is shown a number where each item holding a placeholder was written.
    let mut shown = text.to_string();
    for r in &read.holding {
        let width = r.end.checked_sub(r.start)?;
        shown.replace_range(
            r.clone(),
            &format!("0{}", " ".repeat(width.checked_sub(1)?)),
        );
    }
    let (kept, failed) = match (&read.cut, read.separator) {
        (Some((cut, failed)), _) => (format!("{}]", shown.get(..*cut)?), Some(failed.clone())),
        (None, Some(end)) => (format!("{}]", shown.get(..end)?), None),
        (None, None) => (shown, None),
    };
    let expr = hcl_edit::parser::parse_expr(&hcl_syntax::expression_for_hcl_edit(&kept)).ok()?;
    let x = Expr::in_text(&expr, text, range);
    let Expression::Array(list) = &expr else {
        return None;
    };
    let mut found = Diagnostics::default();
    if read.holding.is_empty() {
        items(&x, list.iter().collect(), &mut found)?;
    } else {
        for item in list.iter() {
            let at = item.span().map(|s| s.start);
            match read.holding.iter().find(|r| Some(r.start) == at) {
                Some(r) => found.push(
                    Diagnostic::error("Invalid expression", NOT_A_REFERENCE)
                        .with_range(x.range(Some(r.clone()))),
                ),
                None => items(&x, vec![item], &mut found)?,
            }
        }
    }
    warn_quoted_in_place(&x, list.iter(), &skip, flavor, &mut found);
    diags.extend(found);
    if let Some(failed) = failed {
        diags.push(
            Diagnostic::error("Invalid expression", NOT_A_REFERENCE)
                .with_range(x.range(Some(failed))),
        );
    }
    Some(())
}

/// The legacy pass reads only lists it parsed: the quoted references of a list kept around
/// a placeholder are warned about here, each in its place among the items' errors, as
/// Terraform decodes item by item.
fn warn_quoted_in_place<'e>(
    x: &Expr<'_>,
    items: impl Iterator<Item = &'e Expression>,
    skip: &impl Fn(&str) -> bool,
    flavor: Flavor,
    found: &mut Diagnostics,
) {
    for item in items {
        let mut warned = Diagnostics::default();
        x.quoted_item(item, skip, flavor, &mut warned);
        let Some(at) = warned
            .iter()
            .find_map(|d| d.range.as_ref())
            .map(|r| r.start.byte)
        else {
            continue;
        };
        let before = found
            .iter()
            .position(|d| d.range.as_ref().is_some_and(|r| r.start.byte > at))
            .unwrap_or(found.0.len());
        for (i, d) in warned.into_iter().enumerate() {
            found.0.insert(before + i, d);
        }
    }
}

/// A kept list's own check, then its quoted references warned about in place.
fn with_quoted<'c>(
    check: impl FnOnce(&Expr<'_>, &mut Diagnostics) -> Option<()> + 'c,
    skip: impl Fn(&str) -> bool + 'c,
    flavor: Flavor,
) -> impl FnOnce(&Expr<'_>, &mut Diagnostics) -> Option<()> + 'c {
    move |x, found| {
        check(x, found)?;
        if let Expression::Array(list) = x.expr {
            warn_quoted_in_place(x, list.iter(), &skip, flavor, found);
        }
        Some(())
    }
}

/// Where the first reference `depends_on` decodes to is (Terraform points there when an
/// override sets it); `None` when it decodes to none: not a list, empty, or no item a
/// reference (those items are refused while loading).
pub(crate) fn first_dependency(a: &Attribute) -> Option<Range> {
    let x = Expr::of(a)?;
    let Ok(items) = static_list(&x, x.expr)? else {
        return None;
    };
    items.into_iter().find_map(|item| {
        if quoted_reference(item) {
            // The shim reads the traversal inside the quotes.
            let mut r = x.range(item.span());
            r.start.column += 1;
            r.start.byte += 1;
            r.end.column = r.end.column.saturating_sub(1);
            r.end.byte = r.end.byte.saturating_sub(1);
            return Some(r);
        }
        match reference(item) {
            Ok(Some(root)) if root != "action" => Some(x.range(item.span())),
            _ => None,
        }
    })
}

fn depends_on_items(x: &Expr<'_>, items: Vec<&Expression>, diags: &mut Diagnostics) {
    for item in items {
        if quoted_reference(item) {
            continue;
        }
        match reference(item) {
            Ok(Some("action")) => diags.push(
                Diagnostic::error(
                    "Invalid depends_on Action Reference",
                    "The depends_on attribute cannot reference action blocks directly. You must reference a resource or data source instead.",
                )
                .with_range(x.range(item.span())),
            ),
            Ok(Some(_)) | Err(()) => {}
            Ok(None) => {
                if !matches!(item, Expression::String(_)) {
                    diags.push(not_a_reference(x, item));
                }
            }
        }
    }
}

fn ignore_changes(a: &Attribute, src: &str, diags: &mut Diagnostics) -> Option<()> {
    // `["*"]` is an error reported on its own, not a quoted reference.
    if let Some(found) = kept(
        a,
        with_quoted(ignore_changes_list, |t| t == "*", Flavor::Terraform),
    ) {
        diags.extend(found);
        return Some(());
    }
    if matches!(a.value, Value::Unknown(_)) {
        // `["*"]` is an error reported on its own, not a quoted reference.
        if cut_list(
            a,
            src,
            diags,
            |t| t == "*",
            Flavor::Terraform,
            ignore_changes_items,
        )
        .is_none()
        {
            diags.extend(placeholder(a, NOT_A_LIST));
        }
        return Some(());
    }
    ignore_changes_list(&Expr::of(a)?, diags)
}

fn ignore_changes_list(x: &Expr<'_>, diags: &mut Diagnostics) -> Option<()> {
    if matches!(x.expr, Expression::Variable(v) if v.as_str() == "all") {
        return Some(());
    }
    let items = match static_list(x, x.expr)? {
        Ok(items) => items,
        Err(d) => {
            diags.push(d);
            return Some(());
        }
    };
    ignore_changes_items(x, items, diags)
}

/// The references of an `ignore_changes` list; `None` where a form is not modelled.
fn ignore_changes_items(
    x: &Expr<'_>,
    items: Vec<&Expression>,
    diags: &mut Diagnostics,
) -> Option<()> {
    let mut star = None;
    let mut references = 0;
    for item in items {
        if matches!(item, Expression::String(s) if s.value() == "*") {
            diags.push(
                Diagnostic::error(
                    "Invalid ignore_changes wildcard",
                    "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
                )
                .with_range(x.range(x.expr.span())),
            );
            star = Some(item);
            continue;
        }
        if quoted_reference(item) {
            references += 1;
            continue;
        }
        match reference(item) {
            Ok(Some(_)) => references += 1,
            Err(()) => return None,
            Ok(None) => {
                if matches!(item, Expression::String(_)) {
                    // A quoted text that is no reference: the shim's own errors, not
                    // modelled.
                    return None;
                }
                diags.push(not_a_reference(x, item));
            }
        }
    }
    if let (Some(star), true) = (star, references > 0) {
        diags.push(
            Diagnostic::error(
                "Invalid ignore_changes ruleset",
                "Cannot mix wildcard string \"*\" with non-wildcard references.",
            )
            .with_range(x.range(star.span()))
            .with_context(x.range(x.expr.span())),
        );
    }
    Some(())
}

/// `from`/`to` of `moved`, `from` of `removed`: one static reference (no quoted form).
fn single(a: &Attribute, diags: &mut Diagnostics) {
    // A value built around a placeholder is never a single reference.
    if let Some(found) = kept(a, |x, found| {
        found.push(not_a_reference(x, x.expr));
        Some(())
    }) {
        diags.extend(found);
        return;
    }
    if let Some(d) = placeholder(a, NOT_A_REFERENCE) {
        diags.push(d);
        return;
    }
    let Some(x) = Expr::of(a) else { return };
    // No shim for quoted addresses here: a template is no reference either.
    if let Ok(None) | Err(()) = reference(x.expr) {
        diags.push(not_a_reference(&x, x.expr));
    }
}

/// What one reference in a `replace_triggered_by` element is (`addrs.ParseRef`'s subject).
enum Trigger {
    /// A managed, data or ephemeral resource (or one of its instances or attributes).
    Resource,
    /// `each.<name>` or `count.<name>`.
    Meta(&'static str, String),
    /// Another kind of object (a variable, a local value, `self`, a module call, ...).
    Other,
    /// A bare name, which `ParseRef` reads as a resource type without a resource name.
    TypeOnly,
}

/// How `addrs.ParseRef` reads reference `path` (root name, then the attribute names after
/// it); `None` for a root it treats specially in ways not modelled here (errors, or
/// nothing).
fn trigger(path: &[String]) -> Option<Trigger> {
    let second = path.get(1).cloned();
    let long = |n: usize| path.len() >= n;
    Some(match path[0].as_str() {
        "each" if long(2) => Trigger::Meta("each", second?),
        "count" if long(2) => Trigger::Meta("count", second?),
        "var" | "local" | "path" | "terraform" | "module" if long(2) => Trigger::Other,
        "self" => Trigger::Other,
        "data" | "ephemeral" | "resource" if long(3) => Trigger::Resource,
        "string" | "number" | "bool" | "any" if long(2) => Trigger::Resource,
        "each" | "count" | "var" | "local" | "path" | "terraform" | "module" | "data"
        | "ephemeral" | "resource" | "string" | "number" | "bool" | "any" | "template" | "lazy"
        | "arg" | "action" | "list" | "output" | "check" | "run" | "plan" | "state" => return None,
        _ if long(2) => Trigger::Resource,
        _ => Trigger::TypeOnly,
    })
}

/// `decodeReplaceTriggeredBy`: each element refers to exactly one managed resource, and
/// otherwise only to `count.index` or `each.key`.
fn replace_triggered_by(a: &Attribute, diags: &mut Diagnostics) -> Option<()> {
    if let Some(found) = kept(a, triggers) {
        diags.extend(found);
        return Some(());
    }
    if let Some(d) = placeholder(a, NOT_A_LIST) {
        diags.push(d);
        return Some(());
    }
    triggers(&Expr::of(a)?, diags)
}

/// The elements of a `replace_triggered_by` list; `None` where a form is not modelled.
fn triggers(x: &Expr<'_>, diags: &mut Diagnostics) -> Option<()> {
    let items = match static_list(x, x.expr)? {
        Ok(items) => items,
        Err(d) => {
            diags.push(d);
            return Some(());
        }
    };
    // Terraform goes on to the next element only while no element has failed, so only
    // the first failing element is reported; one not modelled ends the check.
    for item in items {
        if trigger_fails(x, item, diags)? {
            break;
        }
    }
    Some(())
}

/// Checks one `replace_triggered_by` element `item` of `x`: whether it failed, `None` for a
/// form not modelled.
fn trigger_fails(x: &Expr<'_>, item: &Expression, diags: &mut Diagnostics) -> Option<bool> {
    let triggers: Vec<Trigger> = expression_reference_paths(item)
        .iter()
        .map(|p| trigger(p))
        .collect::<Option<_>>()?;
    let range = x.range_of(item);
    let err =
        |summary: &str, detail: &str| Diagnostic::error(summary, detail).with_range(range.clone());
    let before = diags.0.len();
    if triggers.iter().any(|t| matches!(t, Trigger::TypeOnly)) {
        diags.push(err(
            "Invalid reference",
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
        ));
        return Some(true);
    }
    let mut resources = 0;
    for t in &triggers {
        match t {
            Trigger::Resource => resources += 1,
            Trigger::Meta("each", name) if name != "key" => diags.push(err(
                "Invalid each reference in replace_triggered_by expression",
                "Only each.key may be used in replace_triggered_by.",
            )),
            Trigger::Meta("count", name) if name != "index" => diags.push(err(
                "Invalid count reference in replace_triggered_by expression",
                "Only count.index may be used in replace_triggered_by.",
            )),
            Trigger::Other => diags.push(err(
                "Invalid reference in replace_triggered_by expression",
                "Only resources, count.index, and each.key may be used in replace_triggered_by.",
            )),
            _ => {}
        }
    }
    match resources {
        0 => diags.push(err(
            "Invalid replace_triggered_by expression",
            "Missing resource reference in replace_triggered_by expression.",
        )),
        1 => {}
        _ => diags.push(err(
            "Invalid replace_triggered_by expression",
            "Multiple resource references in replace_triggered_by expression.",
        )),
    }
    Some(diags.0.len() > before)
}

/// `decodeReplaceTriggeredBy` on a JSON value: a list (`hcl.ExprList`) whose elements are
/// strings (`unwrapJSONRefExpr`), each re-parsed as a native expression that starts at its
/// opening quote, so its positions sit one column early. A string that does not parse
/// reports hclsyntax's errors even after an element failed; the reference checks stop at
/// the first failure, as for native syntax.
fn json_replace_triggered_by(a: &Attribute, src: &str, diags: &mut Diagnostics) {
    let Value::Json(node) = &a.value else { return };
    let file = &a.origin.file;
    let whole = |n: &Node| Range::from_span(file, src, n.span.clone());
    let Some(items) = node.as_array() else {
        if !matches!(node.kind, crate::config::load::json::NodeKind::Null) {
            diags.push(
                Diagnostic::error(
                    "Invalid expression",
                    "A static list expression is required.",
                )
                .with_range(whole(node)),
            );
        }
        return;
    };
    let mut failed = false;
    for item in items {
        let Some(text) = item.as_str() else {
            diags.push(
                Diagnostic::error(
                    "Invalid reference expression",
                    "A single reference string is required.",
                )
                .with_range(whole(item)),
            );
            failed = true;
            continue;
        };
        let at = Range::from_span(file, src, item.span.start..item.span.start);
        let syntax = crate::hcl_syntax::expression_diagnostics(text.as_bytes(), file, at.start);
        failed |= syntax.iter().any(Diagnostic::is_error);
        diags.extend(syntax);
        if failed {
            continue;
        }
        let parsed =
            hcl_edit::parser::parse_expr(&crate::hcl_syntax::expression_for_hcl_edit(text));
        let Ok(expr) = parsed else {
            // hclsyntax accepts what hcl-edit refuses: not followed.
            return;
        };
        let x = Expr::in_text(&expr, text, &at);
        match trigger_fails(&x, &expr, diags) {
            Some(f) => failed = f,
            None => return,
        }
    }
}
