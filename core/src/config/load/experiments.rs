//! Terraform's first look at each file (`sniffActiveExperiments`), before decoding it: the
//! `language` edition and the `experiments` argument of its `terraform` blocks. Release
//! builds allow no experiments, so any `experiments` argument is an error.

use crate::config::model::{Attribute, Body, Value};
use crate::diag::{Diagnostic, Diagnostics};
use crate::version::CoreVersion;

/// The only language edition there is.
const FIRST_EDITION: &str = "TF2021";

/// The edition and experiment errors of one file's `terraform` blocks, in block order.
pub fn check_file(body: &Body, diags: &mut Diagnostics) {
    for b in body.blocks_of("terraform").filter(|b| b.labels.is_empty()) {
        if let Some(a) = b.body.attribute("language") {
            language(a, diags);
        }
        if let Some(a) = b.body.attribute("experiments") {
            diags.push(
                Diagnostic::error(
                    "Module uses experimental features",
                    "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.",
                )
                .with_range(a.name_range()),
            );
        }
    }
}

fn language(a: &Attribute, diags: &mut Diagnostics) {
    let version = CoreVersion::TERRAFORM;
    let (summary, detail) = match keyword(&a.value) {
        None => (
            "Invalid language edition",
            format!("The language argument expects a bare language edition keyword. Terraform {version} supports only language edition {FIRST_EDITION}, which is the default."),
        ),
        Some(kw) if kw != FIRST_EDITION => {
            // Go compares the strings byte by byte.
            let rel = if kw.as_str() > FIRST_EDITION {
                "newer"
            } else {
                "different"
            };
            (
                "Unsupported language edition",
                format!("Terraform v{version} only supports language edition {FIRST_EDITION}. This module requires a {rel} version of Terraform CLI."),
            )
        }
        Some(_) => return,
    };
    diags.push(Diagnostic::error(summary, detail).with_range(a.expr_range.clone()));
}

/// `hcl.ExprAsKeyword`: a bare name (in JSON, a string holding one).
fn keyword(v: &Value) -> Option<String> {
    match v {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => match expr.as_ref() {
            hcl_edit::expr::Expression::Variable(v) => Some(v.as_str().to_string()),
            _ => None,
        },
        Value::Json(n) => n
            .as_str()
            .filter(|s| crate::hcl_syntax::valid_identifier(s))
            .map(str::to_string),
    }
}
