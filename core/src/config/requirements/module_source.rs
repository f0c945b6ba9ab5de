//! A module call's `source`, evaluated as `init` evaluates it before anything is planned:
//! string literals, templates and parentheses of what is known, `local.<name>` whose
//! expression is known, and `var.<name>`, whose value is the one given for the root module
//! (`-var`, variables files, `TF_VAR_`, see [`input_values`]) or by the module's call, else
//! the variable's default; attributes and constant indexes read into an object, map or list
//! value of a root variable or a local (`var.site.path`, `var.dirs["a"]`, `local.l[0]`).
//!
//! - Terraform 1.15 (`terraform.evalSource` over the init graph, where only `const`
//!   variables are known) reads `const = true` variables only.
//! - OpenTofu 1.8+ (`configs.ModuleCall.decodeStaticSource` with `configs.StaticEvaluator`;
//!   `staticScopeData.GetInputVariable` in `internal/configs/static_scope.go`) reads every
//!   variable except one declared `const = false`, which is its error.
//! - Terraform's `path.module` and `path.root` (the module's directory, `.`).
//!
//! Anything else (function calls, `path.cwd`, `terraform.workspace`, operators) is not
//! modelled: the call gets "Unknown module source" (an error for both flavours, where
//! OpenTofu might have evaluated it), so no call is ever dropped in silence.

use std::collections::BTreeMap;

use crate::config::input_values::{self, InputValues};
use crate::config::load::cty::Val;
use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::Diagnostic;
use crate::flavor::Flavor;
use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::template::{Element, Template};

/// A module call's arguments as the called module's variables see them: each argument's
/// string when it is known (`None` when not), by name.
pub(crate) type CallArgs = BTreeMap<String, Option<String>>;

/// Where a module's variables get their values.
#[derive(Clone, Copy)]
pub(crate) enum Inputs<'a> {
    /// The root module: the values given for it.
    Root(&'a InputValues),
    /// A called module: its call's arguments.
    Call(&'a CallArgs),
    /// Defaults only (a module loaded on its own, or one a test run calls).
    Defaults,
}

/// What a module's expressions may read while `init` evaluates module sources.
#[derive(Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// The module the expressions are written in.
    pub module: &'a Module,
    /// Where its variables get their values.
    pub inputs: Inputs<'a>,
    /// Whose rules to follow.
    pub flavor: Flavor,
    /// The module's directory relative to the working directory (`""` for the root), which
    /// `path.module` names.
    pub dir: &'a str,
}

/// How deeply locals may refer to locals before the value counts as unknown (a cycle is
/// Terraform's and OpenTofu's error elsewhere; here it is only never known).
const MAX_LOCAL_DEPTH: usize = 32;

/// An expression's value: known, or why not (no diagnostics: unknown, which the caller
/// reports as an unknown source).
type Eval = Result<String, Vec<Diagnostic>>;

/// The call's source, `Ok(None)` when it has none (the loader reports that elsewhere).
pub fn module_source(call: &Block, scope: &Scope<'_>) -> Result<Option<String>, Vec<Diagnostic>> {
    let Some(attr) = call.body.attribute("source") else {
        return Ok(None);
    };
    if let Some(s) = attr.literal_str() {
        return Ok(Some(s));
    }
    if let Some(refused) = tuple_or_object(attr) {
        return Err(refused);
    }
    let evaluated = match &attr.value {
        // hclsyntax's placeholder: evaluating it reports its parse errors again, or gives
        // an unknown value.
        Value::Unknown(p) => Err(p.evaluated.clone().unwrap_or_default()),
        Value::Native { expr, .. } => eval(expr, scope, 0),
        Value::Json(node) => node
            .as_str()
            .and_then(|s| hcl_edit::parser::parse_template(s).ok())
            .map_or(Err(Vec::new()), |t| template(&t, scope, 0)),
    };
    match evaluated {
        Ok(s) => Ok(Some(s)),
        Err(diags) if diags.is_empty() => Err(vec![Diagnostic::error(
            "Unknown module source",
            unknown_detail(scope.flavor),
        )
        .with_range(attr.expr_range.clone())]),
        Err(mut diags) => {
            // OpenTofu's errors name the source expression (its `StaticIdentifier`), which
            // for `source = var.x` is the reference itself.
            let name = call.labels.first().map(String::as_str).unwrap_or_default();
            for d in &mut diags {
                d.detail = d
                    .detail
                    .replace("{source}", &format!("module.{name}.source"));
                if d.range.is_none() {
                    d.range = Some(attr.expr_range.clone());
                }
            }
            Err(diags)
        }
    }
}

/// `init`'s errors for a module source or version that is a tuple or object constructor
/// (one hclsyntax kept around a placeholder included: evaluating it first reports its
/// placeholders' errors again); `None` for any other value, or a kept one whose items
/// refer to anything (evaluated in `init`'s scope, not modelled).
pub(super) fn tuple_or_object(attr: &crate::config::model::Attribute) -> Option<Vec<Diagnostic>> {
    use crate::config::load::static_eval::{attribute_value, Expr};
    let kind = |e: &hcl_edit::expr::Expression| match e {
        hcl_edit::expr::Expression::Array(_) => Some("tuple"),
        hcl_edit::expr::Expression::Object(_) => Some("object"),
        _ => None,
    };
    let (kind, mut diags) = match &attr.value {
        Value::Native { expr, .. } => (kind(expr)?, Vec::new()),
        Value::Unknown(_) => {
            let kind = Expr::with_kept(attr, |x| kind(x.expr))?;
            let (_, diags) = attribute_value(attr)?;
            let scoped = ["Variables not allowed", "Function calls not allowed"];
            if diags.iter().any(|d| scoped.contains(&d.summary.as_str())) {
                return None;
            }
            (kind, diags)
        }
        Value::Json(_) => return None,
    };
    diags.push(
        Diagnostic::error(
            "Incorrect value type",
            format!("Invalid expression value: string required, but have {kind}."),
        )
        .with_range(attr.expr_range.clone()),
    );
    Some(diags)
}

fn unknown_detail(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Terraform => "Only literal values and const variables can be evaluated during init.",
        // Not OpenTofu's text: OpenTofu evaluates more (functions, path.*) than is modelled.
        Flavor::OpenTofu => "tflock evaluates only literals, templates, variables and locals in a module source; this expression needs more, so tflock cannot tell which module OpenTofu would install.",
    }
}

/// The arguments `call` (a `module` block of `scope`'s module) passes to the module's
/// variables, each evaluated in `scope`.
pub(crate) fn call_args(call: &Block, scope: &Scope<'_>) -> CallArgs {
    const META: &[&str] = &[
        "source",
        "version",
        "count",
        "for_each",
        "providers",
        "depends_on",
    ];
    call.body
        .attributes()
        .filter(|a| !META.contains(&a.name.as_str()))
        .map(|a| {
            let v = match &a.value {
                Value::Unknown(_) => None,
                Value::Native { expr, .. } => eval(expr, scope, 0).ok(),
                Value::Json(node) => node.as_str().map(str::to_string),
            };
            (a.name.clone(), v)
        })
        .collect()
}

/// `expr`'s string value when it is one of the forms evaluated here and known.
pub(crate) fn eval_string(expr: &Expression, scope: &Scope<'_>) -> Option<String> {
    eval(expr, scope, 0).ok()
}

fn eval(expr: &Expression, scope: &Scope<'_>, depth: usize) -> Eval {
    match expr {
        Expression::String(s) => Ok(s.value().to_string()),
        // A string is wanted, and cty converts these to one.
        Expression::Bool(b) => Ok(b.value().to_string()),
        Expression::Number(n) => number_string(n.value()).ok_or_else(Vec::new),
        Expression::StringTemplate(t) => elements(t.iter(), scope, depth),
        Expression::HeredocTemplate(h) => template(&h.template, scope, depth),
        Expression::Parenthesis(p) => eval(p.inner(), scope, depth),
        Expression::Traversal(t) => {
            let v = traversal(t, scope, depth)?;
            input_values::as_source(v).ok_or_else(Vec::new)
        }
        _ => Err(Vec::new()),
    }
}

/// A number as cty converts it to a string (its shortest decimal, no exponent); `None` for
/// a fraction whose decimal Go and Rust might spell apart.
fn number_string(n: &hcl_edit::Number) -> Option<String> {
    if let Some(i) = n.as_i64() {
        return Some(i.to_string());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.to_string());
    }
    let f = n.as_f64()?;
    let s = format!("{f}");
    // Short fractions (`1.5`, `0.25`) read alike in both; longer ones are not modelled.
    (f.is_finite() && s.len() <= 12).then_some(s)
}

/// `var.<name>` or `local.<name>`, and the attributes and constant indexes after it
/// (`var.site.path`, `var.dirs[0]`, `local.cfg.dirs.1`): the value they read.
fn traversal(
    t: &hcl_edit::expr::Traversal,
    scope: &Scope<'_>,
    depth: usize,
) -> Result<Val, Vec<Diagnostic>> {
    let root = t.expr.as_variable().ok_or_else(Vec::new)?;
    let (first, rest) = t.operators.split_first().ok_or_else(Vec::new)?;
    let TraversalOperator::GetAttr(name) = first.value() else {
        return Err(Vec::new());
    };
    let base = match (root.as_str(), rest.is_empty()) {
        // Known as text (a string, or a call's argument), else as a whole value, which a
        // local may hold for a later traversal to read into (`local.site.dirs[0]`).
        ("var", true) => match variable(scope, name.as_str()) {
            Ok(text) => Val::String(text),
            Err(diags) if diags.is_empty() => variable_val(scope, name.as_str())?,
            Err(diags) => return Err(diags),
        },
        ("var", false) => variable_val(scope, name.as_str())?,
        // A local read whole is known only as text, as before traversals were read.
        ("local", true) => match local(scope, name.as_str(), depth)? {
            v @ Val::String(_) => v,
            _ => return Err(Vec::new()),
        },
        ("local", false) => local(scope, name.as_str(), depth)?,
        ("path", true) => Val::String(path_attr(scope, name.as_str())?),
        _ => return Err(Vec::new()),
    };
    rest.iter()
        .try_fold(base, |v, op| step(v, op.value()))
        .ok_or_else(Vec::new)
}

/// One attribute or constant index into a known value (HCL's `GetAttr` and `Index`, with
/// cty's conversions of the key: a number names a map key, a numeric string a list index).
fn step(v: Val, op: &TraversalOperator) -> Option<Val> {
    let key = match op {
        TraversalOperator::GetAttr(name) => Key::Name(name.as_str().to_string()),
        TraversalOperator::LegacyIndex(i) => Key::Index(usize::try_from(*i.value()).ok()?),
        TraversalOperator::Index(Expression::String(s)) => Key::Name(s.value().to_string()),
        TraversalOperator::Index(Expression::Number(n)) => match n.value().as_u64() {
            Some(i) => Key::Index(usize::try_from(i).ok()?),
            None => return None,
        },
        _ => return None,
    };
    match (v, key) {
        (Val::Object(attrs), Key::Name(name)) => {
            attrs.into_iter().find(|(n, _)| *n == name).map(|(_, v)| v)
        }
        (Val::Object(attrs), Key::Index(i)) => {
            let name = i.to_string();
            attrs.into_iter().find(|(n, _)| *n == name).map(|(_, v)| v)
        }
        (Val::Tuple(items), Key::Index(i)) => items.into_iter().nth(i),
        (Val::Tuple(items), Key::Name(name)) => {
            // Only an index may be written as a string (`l["0"]`), not an attribute.
            if matches!(op, TraversalOperator::GetAttr(_)) {
                return None;
            }
            items.into_iter().nth(name.parse().ok()?)
        }
        _ => None,
    }
}

/// What a traversal step reads: an attribute or map key, or a list index.
enum Key {
    Name(String),
    Index(usize),
}

/// A local's or literal's whole value, for traversals to read into: objects and tuples of
/// what [`eval`] knows.
fn value_of(expr: &Expression, scope: &Scope<'_>, depth: usize) -> Result<Val, Vec<Diagnostic>> {
    match expr {
        Expression::Array(items) => items
            .iter()
            .map(|i| value_of(i, scope, depth))
            .collect::<Result<_, _>>()
            .map(Val::Tuple),
        Expression::Object(obj) => {
            crate::config::load::static_eval::object_val(obj, |e| value_of(e, scope, depth))
        }
        Expression::Parenthesis(p) => value_of(p.inner(), scope, depth),
        Expression::Traversal(t) => traversal(t, scope, depth),
        Expression::Number(n) => Ok(Val::Number(n.value().to_string())),
        Expression::Bool(b) => Ok(Val::Bool(*b.value())),
        _ => eval(expr, scope, depth).map(Val::String),
    }
}

fn template(t: &Template, scope: &Scope<'_>, depth: usize) -> Eval {
    elements(t.iter(), scope, depth)
}

fn elements<'a>(els: impl Iterator<Item = &'a Element>, scope: &Scope<'_>, depth: usize) -> Eval {
    let mut out = String::new();
    for el in els {
        match el {
            Element::Literal(l) => out.push_str(l.value()),
            Element::Interpolation(i) => out.push_str(&eval(&i.expr, scope, depth)?),
            Element::Directive(_) => return Err(Vec::new()),
        }
    }
    Ok(out)
}

/// `var.<name>`: the value its module gets, when the flavour may read it here.
fn variable(scope: &Scope<'_>, name: &str) -> Eval {
    let var = readable_variable(scope, name)?;
    let value = match scope.inputs {
        Inputs::Root(values) => input_values::root_value(var, name, values),
        Inputs::Call(args) => match args.get(name) {
            Some(given) => given.clone(),
            None => input_values::default_value(var),
        },
        Inputs::Defaults => input_values::default_value(var),
    };
    value.ok_or_else(Vec::new)
}

/// `var.<name>`'s whole value, for a traversal to read into (a call's arguments are known
/// only as strings, which have no attributes).
fn variable_val(scope: &Scope<'_>, name: &str) -> Result<Val, Vec<Diagnostic>> {
    let var = readable_variable(scope, name)?;
    let value = match scope.inputs {
        Inputs::Root(values) => input_values::root_val(var, name, values),
        Inputs::Call(args) if args.contains_key(name) => None,
        Inputs::Call(_) | Inputs::Defaults => input_values::default_val(var),
    };
    value.ok_or_else(Vec::new)
}

/// `var.<name>`'s declaration, when the flavour may read it here.
fn readable_variable<'m>(scope: &Scope<'m>, name: &str) -> Result<&'m Block, Vec<Diagnostic>> {
    let var = scope
        .module
        .blocks_of("variable")
        .find(|v| v.labels.first().map(String::as_str) == Some(name))
        .ok_or_else(Vec::new)?;
    match scope.flavor {
        Flavor::Terraform if !input_values::is_const(var) => return Err(Vec::new()),
        Flavor::OpenTofu if input_values::is_const_false(var) => {
            // Without a range: `module_source` gives it the source expression's.
            return Err(vec![Diagnostic::error(
                "Unable to use variable in static context",
                format!(
                    "The variable {} cannot be used in a static context, because it is declared as \"const = false\".",
                    crate::gotext::quote(name)
                ),
            )]);
        }
        _ => {}
    }
    let given = match scope.inputs {
        Inputs::Root(values) => values.contains_key(name),
        Inputs::Call(args) => args.contains_key(name),
        Inputs::Defaults => false,
    };
    if scope.flavor == Flavor::OpenTofu
        && matches!(scope.inputs, Inputs::Root(_))
        && !given
        && var.body.attribute("default").is_none()
    {
        // `Meta.rootModuleCall` asks for the value; tflock never prompts, which OpenTofu
        // reports as with input disabled, then `enhanceDiagnostics` names what needed it
        // (`TestStaticPlanVariables`: "module.mod.source depends on var.src which is not
        // available").
        return Err(vec![
            Diagnostic::error(
                format!("Failed to request input from user for variable var.{name}"),
                "",
            )
            .with_range(var.origin.decl.clone()),
            Diagnostic::error(
                "Unable to compute static value",
                format!("{{source}} depends on var.{name} which is not available"),
            ),
        ]);
    }
    Ok(var)
}

/// `path.module` and `path.root` as Terraform's init graph knows them: the module's
/// directory as its installer joined it onto the root's `.` (`m`, `../mod`), and `.`.
/// `path.cwd` (an absolute path) stays unknown, as does every `path.*` for OpenTofu, whose
/// static evaluation is not modelled here.
fn path_attr(scope: &Scope<'_>, name: &str) -> Eval {
    if scope.flavor != Flavor::Terraform {
        return Err(Vec::new());
    }
    match name {
        "module" if scope.dir.is_empty() => Ok(".".to_string()),
        "module" => Ok(scope.dir.to_string()),
        "root" => Ok(".".to_string()),
        _ => Err(Vec::new()),
    }
}

/// `local.<name>`: its expression's value, evaluated in the same scope.
fn local(scope: &Scope<'_>, name: &str, depth: usize) -> Result<Val, Vec<Diagnostic>> {
    if depth >= MAX_LOCAL_DEPTH {
        return Err(Vec::new());
    }
    let attr = scope
        .module
        .blocks_of("locals")
        .find_map(|b| b.body.attribute(name))
        .ok_or_else(Vec::new)?;
    match &attr.value {
        Value::Unknown(_) => Err(Vec::new()),
        Value::Native { expr, .. } => value_of(expr, scope, depth + 1),
        Value::Json(node) => node
            .as_str()
            .map(|s| Val::String(s.to_string()))
            .ok_or_else(Vec::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load_module, LoadOptions};

    fn sources(text: &str) -> Vec<Result<Option<String>, String>> {
        let loaded = load_module(&[("main.tf", text)], &LoadOptions::default());
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        loaded
            .module
            .blocks_of("module")
            .map(|b| {
                let scope = Scope {
                    module: &loaded.module,
                    inputs: Inputs::Defaults,
                    flavor: Flavor::Terraform,
                    dir: "",
                };
                module_source(b, &scope).map_err(|d| d[0].summary.clone())
            })
            .collect()
    }

    #[test]
    fn path_module_is_the_modules_directory_and_path_root_the_roots() {
        let text = r#"
module "a" {
  source = "${path.module}/sub"
}
module "b" {
  source = "${path.root}/sub"
}
module "c" {
  source = "${path.cwd}/sub"
}
"#;
        let loaded = load_module(&[("main.tf", text)], &LoadOptions::default());
        let at = |dir: &str, flavor: Flavor| -> Vec<Option<String>> {
            let scope = Scope {
                module: &loaded.module,
                inputs: Inputs::Defaults,
                flavor,
                dir,
            };
            loaded
                .module
                .blocks_of("module")
                .map(|b| module_source(b, &scope).ok().flatten())
                .collect()
        };
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            at("", Flavor::Terraform),
            vec![some("./sub"), some("./sub"), None]
        );
        assert_eq!(
            at("../mod", Flavor::Terraform),
            vec![some("../mod/sub"), some("./sub"), None]
        );
        assert_eq!(at("", Flavor::OpenTofu), vec![None, None, None]);
    }

    #[test]
    fn literals_templates_of_literals_and_const_variables_are_known() {
        let got = sources(
            r#"
variable "c" {
  const   = true
  default = "./mod"
}
variable "v" {
  default = "./mod"
}
module "a" {
  source = "./mod"
}
module "b" {
  source = "${"./mod"}"
}
module "c" {
  source = "./m${"od"}"
}
module "d" {
  source = ("./mod")
}
module "e" {
  source = var.c
}
module "f" {
  source = "${var.c}/sub"
}
module "g" {
  source = var.v
}
module "h" {
  source = aws_instance.x.id
}
module "i" {
  source = lower("./MOD")
}
"#,
        );
        let ok = |s: &str| Ok(Some(s.to_string()));
        let unknown = Err("Unknown module source".to_string());
        assert_eq!(
            got,
            vec![
                ok("./mod"),
                ok("./mod"),
                ok("./mod"),
                ok("./mod"),
                ok("./mod"),
                ok("./mod/sub"),
                unknown.clone(),
                unknown.clone(),
                unknown
            ]
        );
    }

    #[test]
    fn root_values_replace_a_const_default_and_text_is_parsed_by_the_variable_type() {
        use crate::config::input_values::{collect, InputValue, VarArg, VarFile, VarFileRead};
        let text = r#"
variable "s" {
  type    = string
  const   = true
  default = "./a"
}
variable "l" {
  type    = any
  const   = true
  default = "./a"
}
variable "n" {
  default = "./a"
}
module "s" {
  source = var.s
}
module "l" {
  source = var.l
}
module "n" {
  source = var.n
}
"#;
        let loaded = load_module(&[("main.tf", text)], &LoadOptions::default());
        let file = VarFile {
            name: "x.tfvars".into(),
            read: VarFileRead::Bytes(b"s = \"./file\"\nn = \"./b\"\n".to_vec()),
        };
        let sources = |values: &InputValues| -> Vec<Option<String>> {
            loaded
                .module
                .blocks_of("module")
                .map(|b| {
                    let scope = Scope {
                        module: &loaded.module,
                        inputs: Inputs::Root(values),
                        flavor: Flavor::Terraform,
                        dir: "",
                    };
                    module_source(b, &scope).ok().flatten()
                })
                .collect()
        };
        let (values, diags) = collect(
            &[("l".into(), "\"./env\"".into())],
            std::slice::from_ref(&file),
            &[],
        );
        assert!(diags.is_empty(), "{diags:?}");
        // A non-const variable stays unknown whatever its value.
        assert_eq!(
            sources(&values),
            [Some("./file".into()), Some("./env".into()), None]
        );
        let (values, _) = collect(&[], &[file], &[VarArg::Var("s=./arg".into())]);
        assert_eq!(values.get("s"), Some(&InputValue::Arg("./arg".into())));
        assert_eq!(
            sources(&values)[..2],
            [Some("./arg".into()), Some("./a".into())]
        );
        // `any` parses the text as HCL: an unquoted path is not a string there.
        let (values, _) = collect(&[("l".into(), "./env".into())], &[], &[]);
        assert_eq!(sources(&values)[1], None);
    }
}
