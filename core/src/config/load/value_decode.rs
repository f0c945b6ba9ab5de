//! What Terraform's decoders refuse in argument values while loading a module, below the
//! block schema: a variable's `type` (HCL's `typeexpr` with Terraform's quoted and legacy
//! forms), its `default` against that type, `nullable = false` with a null default, `const`
//! with `sensitive`/`ephemeral`, and the constant bools and strings of variables, outputs
//! and resource and `removed` lifecycles (`gohcl.DecodeExpression` with no evaluation
//! context).
//!
//! Native syntax only: a JSON file's values are read through another path in HCL, not
//! modelled here, so nothing is said about them.

use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::Span;

use crate::config::load::cty::{convert, convert_plain, Ty, Val};
use crate::config::load::static_eval::{decode, value, Expr};
use crate::config::model::Block;
use crate::diag::{Diagnostic, Diagnostics, Range};

const INVALID_TYPE: &str = "Invalid type specification";

/// Checks the values of top-level block `b` of a native file; `override_file` as Terraform
/// decodes override files (a variable without `type` there has no type to check against).
pub fn check_block(b: &Block, override_file: bool, diags: &mut Diagnostics) {
    if b.origin.file.ends_with(".json") {
        return;
    }
    match b.kind.as_str() {
        "variable" if b.labels.len() == 1 => variable(b, override_file, diags),
        "output" if b.labels.len() == 1 => {
            for (name, ty) in [
                ("description", Ty::String),
                ("sensitive", Ty::Bool),
                ("ephemeral", Ty::Bool),
                ("deprecated", Ty::String),
            ] {
                decode_into(b, name, &ty, diags);
            }
            // An output's type goes straight to typeexpr: no quoted or legacy forms.
            if let Some(a) = b.body.attribute("type") {
                let typed = |x: &Expr<'_>| {
                    let mut found = Vec::new();
                    get_type(x, x.expr, &mut found).map(|_| found)
                };
                match Expr::with_kept(a, typed) {
                    Some(found) => diags.extend(found),
                    None => unknown_type(a, diags),
                }
                if let Some(found) = Expr::of(a).and_then(|x| typed(&x)) {
                    diags.extend(found);
                }
            }
        }
        "terraform" if b.labels.is_empty() => {
            // `decodeProviderMetaBlock`: a provider_meta body must be a static map, so each
            // argument is evaluated without a context (when the body has only arguments).
            for pm in b.body.blocks_of("provider_meta") {
                if pm.labels.len() != 1 || pm.body.blocks().next().is_some() {
                    continue;
                }
                for x in pm.body.attributes().filter_map(Expr::of) {
                    if let Some((_, found)) = value(&x, x.expr) {
                        diags.extend(found);
                    }
                }
            }
        }
        "removed" if b.labels.is_empty() => {
            for lc in b
                .body
                .blocks_of("lifecycle")
                .filter(|l| l.labels.is_empty())
            {
                decode_into(lc, "destroy", &Ty::Bool, diags);
            }
        }
        _ => {}
    }
}

/// Whether variable block `b`'s own `default` does not convert to its own `type`: Terraform
/// then keeps an unknown default, which a later override merge does not check again.
pub(crate) fn own_default_fails(b: &Block, override_file: bool) -> bool {
    if b.origin.file.ends_with(".json") {
        return false;
    }
    let mut d = Diagnostics::new();
    variable(b, override_file, &mut d);
    d.iter().any(|x| {
        x.summary == "Invalid default value for variable"
            && x.detail.starts_with("This default value is not compatible")
    })
}

/// Whether `b`'s default fails to evaluate (a reference or a function call): Terraform reads
/// it as unknown then, which converts to any type and is not checked again when merged.
pub(crate) fn default_fails_to_evaluate(b: &Block) -> bool {
    b.body
        .attribute("default")
        .and_then(crate::config::load::static_eval::attribute_value)
        .is_some_and(|(_, found)| found.iter().any(Diagnostic::is_error))
}

/// Decodes argument `name` of `b` into `ty` as gohcl does, its diagnostics to `diags` (a
/// resource's lifecycle flags are decoded among its references, `static_refs`).
pub(crate) fn decode_into(b: &Block, name: &str, ty: &Ty, diags: &mut Diagnostics) -> Option<Val> {
    let a = b.body.attribute(name)?;
    let (found, decoded) = decode(a, ty)?;
    diags.extend(found);
    decoded
}

fn variable(b: &Block, override_file: bool, diags: &mut Diagnostics) {
    decode_into(b, "description", &Ty::String, diags);
    // A type that cannot be read (a form not modelled) leaves the default unchecked.
    let mut ty = if override_file {
        None
    } else {
        Some(Ty::Dynamic)
    };
    if let Some(a) = b.body.attribute("type") {
        ty = match Expr::with_kept(a, |x| variable_type(x, diags)) {
            Some(ty) => Some(ty),
            None => {
                unknown_type(a, diags);
                Expr::of(a).and_then(|x| variable_type(&x, diags))
            }
        };
    }
    let flag = |name: &str, diags: &mut Diagnostics| {
        decode_into(b, name, &Ty::Bool, diags) == Some(Val::Bool(true))
    };
    let sensitive = flag("sensitive", diags);
    let ephemeral = flag("ephemeral", diags);
    let constant = flag("const", diags);
    if constant {
        for (set, what) in [(sensitive, "sensitive"), (ephemeral, "ephemeral")] {
            if set {
                diags.push(
                    Diagnostic::error(
                        format!("Const variable cannot be {what}"),
                        format!("A variable that is marked as \"const\" cannot also be marked as \"{what}\"."),
                    )
                    .with_range(b.origin.decl.clone()),
                );
            }
        }
    }
    // Without a `nullable` argument a variable is nullable; one that does not decode
    // leaves it not nullable.
    let nullable = match b.body.attribute("nullable") {
        None => Some(true),
        Some(a) => crate::config::load::static_eval::decode(a, &Ty::Bool).map(|(found, v)| {
            diags.extend(found);
            v == Some(Val::Bool(true))
        }),
    };
    if let Some(a) = b.body.attribute("default") {
        default(a, ty.as_ref(), nullable, diags);
    }
    decode_into(b, "deprecated", &Ty::String, diags);
}

fn default(
    a: &crate::config::model::Attribute,
    ty: Option<&Ty>,
    nullable: Option<bool>,
    diags: &mut Diagnostics,
) {
    let Some((v, found)) = crate::config::load::static_eval::attribute_value(a) else {
        return;
    };
    diags.extend(found);
    let mut is_null = v == Val::Null;
    if let Some(ty) = ty {
        match convert(&v, ty) {
            Ok(()) => {}
            Err(None) => return,
            Err(Some(msg)) => {
                diags.push(
                    Diagnostic::error(
                        "Invalid default value for variable",
                        format!("This default value is not compatible with the variable's type constraint: {msg}."),
                    )
                    .with_range(a.expr_range.clone()),
                );
                is_null = false;
            }
        }
    }
    if is_null && nullable == Some(false) {
        diags.push(
            Diagnostic::error(
                "Invalid default value for variable",
                "A null default value is not valid when nullable=false.",
            )
            .with_range(a.expr_range.clone()),
        );
    }
}

/// `decodeVariableType`: the type constraint, `Some(Dynamic)` when it has errors (which go
/// to `diags`), `None` when a form is not modelled.
fn variable_type(x: &Expr<'_>, diags: &mut Diagnostics) -> Option<Ty> {
    let e = x.expr;
    if let Expression::String(s) = e {
        let detail = match s.value().as_str() {
            "string" => "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"string\".".to_string(),
            w @ ("list" | "map") => format!("Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"{w}\" and write {w}(string) instead to explicitly indicate that the {w} elements are strings."),
            _ => {
                diags.push(
                    Diagnostic::error(
                        "Invalid legacy variable type hint",
                        "To provide a full type expression, remove the surrounding quotes and give the type expression directly.",
                    )
                    .with_range(x.range(e.span())),
                );
                return Some(Ty::Dynamic);
            }
        };
        diags.push(
            Diagnostic::error("Invalid quoted type constraints", detail)
                .with_range(x.range(e.span())),
        );
        return Some(Ty::Dynamic);
    }
    match keyword(e) {
        Some("list") => return Some(Ty::List(Box::new(Ty::Dynamic))),
        Some("map") => return Some(Ty::Map(Box::new(Ty::Dynamic))),
        _ => {}
    }
    let mut found = Vec::new();
    let ty = get_type(x, e, &mut found)?;
    let failed = !found.is_empty();
    diags.extend(found);
    Some(if failed { Ty::Dynamic } else { ty })
}

/// `hcl.ExprAsKeyword`: a bare name.
fn keyword(e: &Expression) -> Option<&str> {
    match e {
        Expression::Variable(v) => Some(v.as_str()),
        _ => None,
    }
}

/// typeexpr on hclsyntax's placeholder for a value that did not parse: neither a keyword
/// nor a call.
fn unknown_type(a: &crate::config::model::Attribute, diags: &mut Diagnostics) {
    if matches!(a.value, crate::config::model::Value::Unknown(_)) {
        diags.push(err(
            "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).",
            a.expr_range.clone(),
        ));
    }
}

fn err(detail: impl Into<String>, range: Range) -> Diagnostic {
    Diagnostic::error(INVALID_TYPE, detail).with_range(range)
}

/// A function call's pieces as HCL's `ExprCall` gives them.
struct Call<'e> {
    name: &'e str,
    name_range: Range,
    args_range: Range,
    args: Vec<&'e Expression>,
}

fn call<'e>(x: &Expr<'_>, e: &'e Expression) -> Option<Call<'e>> {
    let Expression::FuncCall(c) = e else {
        return None;
    };
    if !c.name.namespace.is_empty() {
        return None;
    }
    let span = e.span()?;
    let open = x.text(&span).find('(')?;
    Some(Call {
        name: c.name.name.as_str(),
        name_range: x.range(Some(span.start..span.start + c.name.name.as_str().len())),
        args_range: x.range(Some(span.start + open..span.end)),
        args: c.args.iter().collect(),
    })
}

/// typeexpr's `getType` for a type constraint with defaults; `None` when a form is not
/// modelled (then nothing may be said about the whole type).
fn get_type(x: &Expr<'_>, e: &Expression, diags: &mut Vec<Diagnostic>) -> Option<Ty> {
    let whole = || x.range_of(e);
    if let Some(kw) = keyword(e) {
        return Some(match kw {
            "bool" => Ty::Bool,
            "string" => Ty::String,
            "number" => Ty::Number,
            "any" => Ty::Dynamic,
            "list" | "map" | "set" => {
                diags.push(err(
                    format!("The {kw} type constructor requires one argument specifying the element type."),
                    whole(),
                ));
                Ty::Dynamic
            }
            "object" => {
                diags.push(err("The object type constructor requires one argument specifying the attribute types and values as a map.", whole()));
                Ty::Dynamic
            }
            "tuple" => {
                diags.push(err("The tuple type constructor requires one argument specifying the element types as a list.", whole()));
                Ty::Dynamic
            }
            _ => {
                diags.push(err(
                    format!("The keyword {kw:?} is not a valid type specification."),
                    whole(),
                ));
                Ty::Dynamic
            }
        });
    }
    if matches!(e, Expression::Parenthesis(_)) {
        // HCL's `ExprCall` sees through no parentheses; not modelled.
        return None;
    }
    let Some(c) = call(x, e) else {
        if matches!(e, Expression::FuncCall(_)) {
            return None;
        }
        diags.push(err("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).", whole()));
        return Some(Ty::Dynamic);
    };
    match c.name {
        "bool" | "string" | "number" => {
            diags.push(err(
                format!(
                    "Primitive type keyword {:?} does not expect arguments.",
                    c.name
                ),
                c.args_range,
            ));
            return Some(Ty::Dynamic);
        }
        "any" => {
            diags.push(err(
                format!(
                    "Type constraint keyword {:?} does not expect arguments.",
                    c.name
                ),
                c.args_range,
            ));
            return Some(Ty::Dynamic);
        }
        _ => {}
    }
    if c.args.len() != 1 {
        let subject = if c.args.len() > 1 {
            let first = c.args[1].span()?;
            let last = c.args[c.args.len() - 1].span()?;
            x.range(Some(first.start..last.end))
        } else {
            c.args_range.clone()
        };
        let detail = match c.name {
            "list" | "set" | "map" => Some(format!(
                "The {} type constructor requires one argument specifying the element type.",
                c.name
            )),
            "object" => Some("The object type constructor requires one argument specifying the attribute types and values as a map.".to_string()),
            "tuple" => Some("The tuple type constructor requires one argument specifying the element types as a list.".to_string()),
            _ => None,
        };
        if let Some(detail) = detail {
            diags.push(err(detail, subject));
            return Some(Ty::Dynamic);
        }
    }
    Some(match c.name {
        "list" => Ty::List(Box::new(get_type(x, c.args[0], diags)?)),
        "set" => Ty::Set(Box::new(get_type(x, c.args[0], diags)?)),
        "map" => Ty::Map(Box::new(get_type(x, c.args[0], diags)?)),
        "object" => object_type(x, c.args[0], diags)?,
        "tuple" => {
            let Expression::Array(items) = c.args[0] else {
                diags.push(err(
                    "Tuple type constructor requires a list of element types.",
                    x.range(c.args[0].span()),
                ));
                return Some(Ty::Dynamic);
            };
            let mut tys = Vec::new();
            for item in items.iter() {
                tys.push(get_type(x, item, diags)?);
            }
            Ty::Tuple(tys)
        }
        "optional" => {
            diags.push(err(
                "Keyword \"optional\" is valid only as a modifier for object type attributes.",
                c.name_range,
            ));
            Ty::Dynamic
        }
        other => {
            diags.push(err(
                format!("Keyword {other:?} is not a valid type constructor."),
                whole(),
            ));
            Ty::Dynamic
        }
    })
}

fn object_type(x: &Expr<'_>, arg: &Expression, diags: &mut Vec<Diagnostic>) -> Option<Ty> {
    let Expression::Object(obj) = arg else {
        diags.push(err("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.", x.range(arg.span())));
        return Some(Ty::Dynamic);
    };
    let mut attrs: Vec<(String, Ty, bool)> = Vec::new();
    for (k, v) in obj.iter() {
        let name = match k {
            ObjectKey::Ident(i) => i.as_str().to_string(),
            // Parenthesised keys are not modelled.
            ObjectKey::Expression(Expression::Parenthesis(_)) => return None,
            ObjectKey::Expression(ke) => match keyword(ke) {
                Some(n) => n.to_string(),
                None => {
                    diags.push(err(
                        "Object constructor map keys must be attribute names.",
                        x.range(ke.span()),
                    ));
                    continue;
                }
            },
        };
        let mut aty_expr = v.expr();
        let mut optional = false;
        let mut default: Option<(&Expression, Val)> = None;
        if let Some(c) = call(x, aty_expr).filter(|c| c.name == "optional") {
            match c.args.len() {
                0 => {
                    diags.push(err(
                        "Optional attribute modifier requires the attribute type as its argument.",
                        c.args_range,
                    ));
                    continue;
                }
                1 => optional = true,
                2 => {
                    let (val, found) = value(x, c.args[1])?;
                    let failed = found.iter().any(Diagnostic::is_error);
                    diags.extend(found);
                    if !failed {
                        optional = true;
                        default = Some((c.args[1], val));
                    }
                }
                _ => diags.push(err(
                    "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                    c.args_range,
                )),
            }
            aty_expr = c.args[0];
        }
        let aty = get_type(x, aty_expr, diags)?;
        if let Some((dexpr, dval)) = default {
            match convert_plain(&dval, &aty) {
                Ok(()) => {}
                Err(None) => return None,
                Err(Some(msg)) => diags.push(
                    Diagnostic::error(
                        "Invalid default value for optional attribute",
                        format!("This default value is not compatible with the attribute's type constraint: {msg}."),
                    )
                    .with_range(x.range(dexpr.span())),
                ),
            }
        }
        attrs.retain(|(n, _, _)| *n != name);
        attrs.push((name, aty, optional));
    }
    crate::collections::sort_by(&mut attrs, |a, b| a.0.cmp(&b.0));
    Some(Ty::Object(attrs))
}
