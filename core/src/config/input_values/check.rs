//! What Terraform says about the values once the root module is loaded
//! (`backendrun.ParseConstVariableValues`): a value that is not a constant, values for
//! variables the module does not declare (a warning, for files), and `const` variables
//! that are required and have no value.

use super::resolve::parses_literally;
use super::{InputValue, InputValues, ValueSource};
use crate::config::load::static_eval::{value, Expr};
use crate::config::load::{parse_syntax, Syntax};
use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics};
use crate::gotext::quote;

/// How many undeclared values get a warning of their own before the rest are counted.
const UNDECLARED_WARNINGS: usize = 2;

/// The diagnostics `values` get against the root module `root` (whose own loading had no
/// errors: Terraform checks values only then). Terraform walks a Go map, so which two
/// undeclared values are named varies between its runs; here they are the first by name.
pub fn check_values(values: &InputValues, root: &Module) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let declared = |name: &str| variable(root, name).is_some();
    for (name, v) in values.iter() {
        if let Some(var) = variable(root, name) {
            diags.extend(evaluation_errors(name, v, var));
        }
    }
    let mut undeclared_in_files = 0;
    for (name, v) in values.iter().filter(|(n, _)| !declared(n)) {
        // Undeclared values are parsed literally, so only a file's expression can fail.
        if matches!(v, InputValue::Expr { .. }) && !text_errors_or_eval(name, v, true).is_empty() {
            continue;
        }
        let file = match v.source() {
            ValueSource::File(file) => file,
            ValueSource::Env => continue,
            ValueSource::Arg => {
                diags.push(Diagnostic::error(
                    "Value for undeclared variable",
                    format!(
                        "A variable named {} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.",
                        quote(name)
                    ),
                ));
                continue;
            }
        };
        if undeclared_in_files < UNDECLARED_WARNINGS {
            diags.push(Diagnostic::warning(
                "Value for undeclared variable",
                format!(
                    "The root module does not declare a variable named {name:?} but a value was found in file {file:?}. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."
                ),
            ));
        }
        undeclared_in_files += 1;
    }
    if undeclared_in_files > UNDECLARED_WARNINGS {
        diags.push(Diagnostic::warning(
            "Values for undeclared variables",
            format!(
                "In addition to the other similar warnings shown, {} other variable(s) defined without being declared.",
                undeclared_in_files - UNDECLARED_WARNINGS
            ),
        ));
    }
    for (name, var) in consts_without_value(root, values) {
        diags.push(
                Diagnostic::error(
                    "No value for required variable",
                    format!(
                        "The root module input variable {name:?} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."
                    ),
                )
                .with_range(var.origin.decl.clone()),
            );
    }
    diags
}

/// The root module's `variable "<name>"` block.
fn variable<'a>(root: &'a Module, name: &str) -> Option<&'a Block> {
    root.blocks_of("variable")
        .find(|v| v.labels.first().map(String::as_str) == Some(name))
}

/// The root's required `const` variables (no default) that `values` gives no value, with
/// their names: what `init` cannot install modules without.
pub(crate) fn consts_without_value<'a>(
    root: &'a Module,
    values: &'a InputValues,
) -> impl Iterator<Item = (&'a String, &'a Block)> + 'a {
    root.blocks_of("variable").filter_map(move |var| {
        let name = var.labels.first()?;
        let lacks = !values.contains_key(name) && var.body.attribute("default").is_none();
        (lacks && is_const(var)).then_some((name, var))
    })
}

/// `const = true`, written as a literal (anything else the loader refuses).
pub(crate) fn is_const(var: &Block) -> bool {
    var.body.attribute("const").is_some_and(|a| match &a.value {
        Value::Unknown(_) => false,
        Value::Native { expr, .. } => {
            matches!(**expr, hcl_edit::expr::Expression::Bool(ref b) if *b.value())
        }
        Value::Json(node) => matches!(node.kind, crate::config::load::json::NodeKind::Bool(true)),
    })
}

/// What parsing the value of declared variable `var` reports (`ParseDeclaredVariableValues`).
fn evaluation_errors(name: &str, v: &InputValue, var: &Block) -> Vec<Diagnostic> {
    text_errors_or_eval(name, v, parses_literally(var))
}

/// `const = false`, written as a literal (OpenTofu's `ConstSet && !Const`).
pub(crate) fn is_const_false(var: &Block) -> bool {
    var.body.attribute("const").is_some_and(|a| match &a.value {
        Value::Unknown(_) => false,
        Value::Native { expr, .. } => {
            matches!(**expr, hcl_edit::expr::Expression::Bool(ref b) if !*b.value())
        }
        Value::Json(node) => matches!(node.kind, crate::config::load::json::NodeKind::Bool(false)),
    })
}

/// HCL's `Value(nil)` on a file's expression: references and function calls are refused
/// (JSON values are literal without a context). A text value (environment, `-var`) is the
/// string itself when `literal`, else `hclsyntax.ParseExpression` on it, named
/// `<value for var.NAME>`, then `Value(nil)`.
fn text_errors_or_eval(name: &str, v: &InputValue, literal: bool) -> Vec<Diagnostic> {
    match v {
        InputValue::Expr { attr, .. } => {
            let Some(x) = Expr::of(attr) else {
                return Vec::new();
            };
            value(&x, x.expr).map(|(_, d)| d).unwrap_or_default()
        }
        InputValue::Text(text) | InputValue::Arg(text) if !literal => {
            let filename = format!("<value for var.{name}>");
            let syntax = crate::hcl_syntax::expression_diagnostics(
                text.as_bytes(),
                &filename,
                crate::diag::Pos {
                    line: 1,
                    column: 1,
                    byte: 0,
                },
            );
            if !syntax.is_empty() {
                return syntax;
            }
            text_value_errors(text, &filename)
        }
        InputValue::Text(_) | InputValue::Arg(_) => Vec::new(),
    }
}

/// `Value(nil)` on a text value's parsed expression: as for a file's, through a one-line
/// file `<name> = <text>` whose ranges are moved back onto the text.
fn text_value_errors(text: &str, filename: &str) -> Vec<Diagnostic> {
    const PREFIX: &str = "v = ";
    if text.contains('\n') {
        // A multi-line value's ranges would need more than a column shift; its evaluation
        // errors are not reported (the syntax is still checked above).
        return Vec::new();
    }
    let src = format!("{PREFIX}{text}\n");
    let mut parse_diags = Diagnostics::new();
    let Some((_, Syntax::Native(body))) = parse_syntax(filename, src.as_bytes(), &mut parse_diags)
    else {
        return Vec::new();
    };
    let Some(attr) = body.attribute("v") else {
        return Vec::new();
    };
    let Some(x) = Expr::of(attr) else {
        return Vec::new();
    };
    let mut diags = value(&x, x.expr).map(|(_, d)| d).unwrap_or_default();
    for d in &mut diags {
        if let Some(r) = d.range.as_mut() {
            for p in [&mut r.start, &mut r.end] {
                p.column = p.column.saturating_sub(PREFIX.len());
                p.byte = p.byte.saturating_sub(PREFIX.len());
            }
        }
    }
    diags
}
