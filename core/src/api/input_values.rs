//! The root module's input-variable values that `init`, `providers` and `providers lock`
//! read before anything else (`terraform.tfvars`, `*.auto.tfvars`, `TF_VAR_`): which files
//! to read, what reading them reports, and what the values get against the loaded root.

pub use crate::config::input_values::{
    check_values, collect, files_to_read, DirEntry, InputValue, InputValues, ValueSource, VarFile,
    VarFileRead,
};

use crate::config::ModuleTree;
use crate::diag::Diagnostics;

/// What the values get against a loaded tree: nothing when the root module itself has
/// errors (Terraform stops before reading values then), else [`check_values`] on the root.
pub fn check_tree(values: &InputValues, tree: &ModuleTree) -> Diagnostics {
    if tree.loaded.diagnostics.has_errors() {
        return Diagnostics::new();
    }
    check_values(values, &tree.loaded.module)
}
