//! Values for the root module's input variables, read before the configuration as `terraform
//! init` (1.15, for its `const` variables) and `providers` read them: `TF_VAR_` environment
//! variables, `terraform.tfvars`, `terraform.tfvars.json` and every `*.auto.tfvars(.json)`
//! beside the root module, then `-var` and `-var-file` in the order given. The host reads
//! the files; this says which ones, what they hold, what Terraform reports about them, and
//! what a `const` variable's value is when a module source reads it.

mod check;
mod files;
mod resolve;

pub use check::check_values;
pub(crate) use check::{consts_without_value, is_const, is_const_false};
pub use files::{collect, files_to_read, is_auto_var_file, DirEntry, VarArg, VarFile, VarFileRead};
pub(crate) use resolve::{as_source, default_val, default_value, root_val, root_value};

use std::collections::BTreeMap;

use crate::config::model::Attribute;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSource {
    /// A variables file (its name as read, which Terraform's messages repeat).
    File(String),
    /// A `TF_VAR_<name>` environment variable.
    Env,
    /// A `-var name=value` option.
    Arg,
}

/// One variable's value, not yet converted to the variable's type.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValue {
    /// An expression in a variables file.
    Expr {
        /// The file's name.
        file: String,
        /// The `name = value` definition.
        attr: Box<Attribute>,
    },
    /// An environment variable's text.
    Text(String),
    /// A `-var` option's text (after the first `=`).
    Arg(String),
}

impl InputValue {
    /// Where the value came from.
    pub fn source(&self) -> ValueSource {
        match self {
            InputValue::Expr { file, .. } => ValueSource::File(file.clone()),
            InputValue::Text(_) => ValueSource::Env,
            InputValue::Arg(_) => ValueSource::Arg,
        }
    }
}

/// Every value found, by variable name; a later source replaces an earlier one.
pub type InputValues = BTreeMap<String, InputValue>;
