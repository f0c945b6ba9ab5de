//! The root module's input-variable values that `init`, `providers` and `providers lock`
//! read before anything else (`terraform.tfvars`, `*.auto.tfvars`, `TF_VAR_`, `-var`,
//! `-var-file`): which files to read, what reading them reports, and what the values get
//! against the loaded root. A tree reads them through `LoadOptions::values`.

pub use crate::config::input_values::{
    check_values, collect, files_to_read, DirEntry, InputValue, InputValues, ValueSource, VarArg,
    VarFile, VarFileRead,
};

use crate::config::ModuleTree;
use crate::diag::Diagnostics;

/// What the values get against a loaded tree: nothing when the root module itself has
/// errors (Terraform stops before reading values then) or has no configuration or test
/// files (`init` and `providers` stop at `configs.IsEmptyDir` first), else
/// [`check_values`] on the root.
pub fn check_tree(values: &InputValues, tree: &ModuleTree) -> Diagnostics {
    let files = &tree.loaded.files;
    let empty = files.primary.is_empty() && files.overrides.is_empty() && tree.tests.is_empty();
    if tree.loaded.diagnostics.has_errors() || empty {
        return Diagnostics::new();
    }
    check_values(values, &tree.loaded.module)
}
