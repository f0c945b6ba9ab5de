//! What Terraform says about the values once the root module is loaded
//! (`backendrun.ParseConstVariableValues`): a value that is not a constant, values for
//! variables the module does not declare (a warning, for files), and `const` variables
//! that are required and have no value.

use super::{InputValue, InputValues, ValueSource};
use crate::config::load::static_eval::{value, Expr};
use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics};

/// How many undeclared values get a warning of their own before the rest are counted.
const UNDECLARED_WARNINGS: usize = 2;

/// The diagnostics `values` get against the root module `root` (whose own loading had no
/// errors: Terraform checks values only then). Terraform walks a Go map, so which two
/// undeclared values are named varies between its runs; here they are the first by name.
pub fn check_values(values: &InputValues, root: &Module) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let declared = |name: &str| variable(root, name).is_some();
    for (_, v) in values.iter().filter(|(n, _)| declared(n)) {
        diags.extend(evaluation_errors(v));
    }
    let mut undeclared_in_files = 0;
    for (name, v) in values.iter().filter(|(n, _)| !declared(n)) {
        if !evaluation_errors(v).is_empty() {
            continue;
        }
        let ValueSource::File(file) = v.source() else {
            continue;
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
    for var in root.blocks_of("variable") {
        let Some(name) = var.labels.first() else {
            continue;
        };
        if values.contains_key(name) || var.body.attribute("default").is_some() {
            continue;
        }
        if is_const(var) {
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
    }
    diags
}

/// The root module's `variable "<name>"` block.
fn variable<'a>(root: &'a Module, name: &str) -> Option<&'a Block> {
    root.blocks_of("variable")
        .find(|v| v.labels.first().map(String::as_str) == Some(name))
}

/// `const = true`, written as a literal (anything else the loader refuses).
pub(crate) fn is_const(var: &Block) -> bool {
    var.body.attribute("const").is_some_and(|a| match &a.value {
        Value::Native { expr, .. } => {
            matches!(**expr, hcl_edit::expr::Expression::Bool(ref b) if *b.value())
        }
        Value::Json(node) => matches!(node.kind, crate::config::load::json::NodeKind::Bool(true)),
    })
}

/// HCL's `Value(nil)` on a file's expression: references and function calls are refused.
/// JSON values are literal without a context, and an environment variable's text is
/// parsed by the variable's type, which is not modelled here (no errors).
fn evaluation_errors(v: &InputValue) -> Vec<Diagnostic> {
    let InputValue::Expr { attr, .. } = v else {
        return Vec::new();
    };
    let Some(x) = Expr::of(attr) else {
        return Vec::new();
    };
    value(&x, x.expr).map(|(_, d)| d).unwrap_or_default()
}
