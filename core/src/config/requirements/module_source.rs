//! A module call's `source`, evaluated as `terraform init` evaluates it (Terraform 1.15):
//! string literals, templates of literals and parentheses, and `var.<name>` of a `const`
//! variable: in the root module the value given for it (`-var`, variables files,
//! `TF_VAR_`), else its default; in a child module its default. Anything else cannot be known before planning: Terraform's
//! "Unknown module source", so no call is ever dropped in silence.

use crate::config::input_values::{self, InputValues};
use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::Diagnostic;
use hcl_edit::expr::Expression;
use hcl_edit::template::{Element, Template};

/// The call's source, `Ok(None)` when it has none (the loader reports that elsewhere).
/// `values` are the root module's input values when `module` is the root.
pub fn module_source(
    call: &Block,
    module: &Module,
    values: Option<&InputValues>,
) -> Result<Option<String>, Box<Diagnostic>> {
    let scope = Scope { module, values };
    let Some(attr) = call.body.attribute("source") else {
        return Ok(None);
    };
    if let Some(s) = attr.literal_str() {
        return Ok(Some(s));
    }
    let evaluated = match &attr.value {
        Value::Native { expr, .. } => eval(expr, &scope),
        Value::Json(node) => node
            .as_str()
            .and_then(|s| hcl_edit::parser::parse_template(s).ok())
            .and_then(|t| template(&t, &scope)),
    };
    evaluated.map(Some).ok_or_else(|| {
        Box::new(
            Diagnostic::error(
                "Unknown module source",
                "Only literal values and const variables can be evaluated during init.",
            )
            .with_range(attr.expr_range.clone()),
        )
    })
}

/// What a source expression may read: the module's `const` variables and their values.
struct Scope<'a> {
    module: &'a Module,
    values: Option<&'a InputValues>,
}

fn eval(expr: &Expression, module: &Scope<'_>) -> Option<String> {
    match expr {
        Expression::String(s) => Some(s.value().to_string()),
        Expression::StringTemplate(t) => elements(t.iter(), module),
        Expression::HeredocTemplate(h) => template(&h.template, module),
        Expression::Parenthesis(p) => eval(p.inner(), module),
        Expression::Traversal(t) => {
            let root = t.expr.as_variable()?;
            let [op] = t.operators.as_slice() else {
                return None;
            };
            let hcl_edit::expr::TraversalOperator::GetAttr(name) = op.value() else {
                return None;
            };
            (root.as_str() == "var").then(|| const_value(module, name.as_str()))?
        }
        _ => None,
    }
}

fn template(t: &Template, module: &Scope<'_>) -> Option<String> {
    elements(t.iter(), module)
}

fn elements<'a>(els: impl Iterator<Item = &'a Element>, module: &Scope<'_>) -> Option<String> {
    let mut out = String::new();
    for el in els {
        match el {
            Element::Literal(l) => out.push_str(l.value()),
            Element::Interpolation(i) => out.push_str(&eval(&i.expr, module)?),
            Element::Directive(_) => return None,
        }
    }
    Some(out)
}

/// The value of `variable "<name>" { const = true }` ([`input_values::const_value`]).
fn const_value(scope: &Scope<'_>, name: &str) -> Option<String> {
    let var = scope
        .module
        .blocks_of("variable")
        .find(|v| v.labels.first().map(String::as_str) == Some(name))?;
    input_values::const_value(var, name, scope.values)
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
            .map(|b| module_source(b, &loaded.module, None).map_err(|d| d.summary))
            .collect()
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
                    module_source(b, &loaded.module, Some(values))
                        .ok()
                        .flatten()
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
