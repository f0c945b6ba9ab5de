//! A module call's `source`, evaluated as `terraform init` evaluates it (Terraform 1.15):
//! string literals, templates of literals and parentheses, and `var.<name>` of a `const`
//! variable with a default. Anything else cannot be known before planning: Terraform's
//! "Unknown module source", so no call is ever dropped in silence.

use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::Diagnostic;
use hcl_edit::expr::Expression;
use hcl_edit::template::{Element, Template};

/// The call's source, `Ok(None)` when it has none (the loader reports that elsewhere).
pub fn module_source(call: &Block, module: &Module) -> Result<Option<String>, Box<Diagnostic>> {
    let Some(attr) = call.body.attribute("source") else {
        return Ok(None);
    };
    if let Some(s) = attr.literal_str() {
        return Ok(Some(s));
    }
    let evaluated = match &attr.value {
        Value::Native { expr, .. } => eval(expr, module),
        Value::Json(node) => node
            .as_str()
            .and_then(|s| hcl_edit::parser::parse_template(s).ok())
            .and_then(|t| template(&t, module)),
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

fn eval(expr: &Expression, module: &Module) -> Option<String> {
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
            (root.as_str() == "var").then(|| const_default(module, name.as_str()))?
        }
        _ => None,
    }
}

fn template(t: &Template, module: &Module) -> Option<String> {
    elements(t.iter(), module)
}

fn elements<'a>(els: impl Iterator<Item = &'a Element>, module: &Module) -> Option<String> {
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

/// The default of `variable "<name>" { const = true }`, when it is a literal string.
fn const_default(module: &Module, name: &str) -> Option<String> {
    let var = module
        .blocks_of("variable")
        .find(|v| v.labels.first().map(String::as_str) == Some(name))?;
    if !crate::config::input_values::is_const(var) {
        return None;
    }
    var.body.attribute("default")?.literal_str()
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
            .map(|b| module_source(b, &loaded.module).map_err(|d| d.summary))
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
}
