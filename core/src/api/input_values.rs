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

/// [`check_tree`] for `init`: when the root calls modules (or a test run has one),
/// Terraform's module installer reads the values before it walks the calls, even beside
/// errors in the root module (`installModules` runs on the partly loaded root), so they
/// are checked then too; without calls `init` stops at the root's errors first.
pub fn check_tree_for_init(values: &InputValues, tree: &ModuleTree) -> Diagnostics {
    if tree.loaded.diagnostics.has_errors() && tree.installs_modules() {
        return check_values(values, &tree.loaded.module);
    }
    check_tree(values, tree)
}
