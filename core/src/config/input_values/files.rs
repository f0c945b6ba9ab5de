//! Which variables files Terraform reads and what each defines (`arguments.Vars.CollectValues`
//! and `addVarsFromFile`): syntax errors, `variable` blocks written where values belong, any
//! other block; `-var` options; every error here stops the command before the configuration
//! is loaded.

use super::{InputValue, InputValues};
use crate::config::load::{json_attributes, parse_syntax, Syntax};
use crate::config::model::Item;
use crate::diag::{Diagnostic, Diagnostics};
use crate::gotext::quote;

/// The file Terraform reads first (then its `.json` form).
const DEFAULT_VARS_FILE: &str = "terraform.tfvars";

/// One entry of the root module's directory, as the host sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name.
    pub name: String,
    /// A directory itself (not a link to one).
    pub is_dir: bool,
    /// Whether the name resolves (a link whose target is missing does not).
    pub resolves: bool,
}

/// A variables file as the host read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarFile {
    /// The name, relative to the root module's directory.
    pub name: String,
    /// Its bytes, or why there are none.
    pub read: VarFileRead,
}

/// The outcome of reading one variables file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarFileRead {
    /// The file's bytes.
    Bytes(Vec<u8>),
    /// The name does not resolve to a file (a dangling link).
    Missing,
    /// Any other read error, in the host's words.
    Failed(String),
}

/// One `-var` or `-var-file` option, in the order given on the command line (Terraform
/// gathers both into one list, so a later one replaces an earlier one of either kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarArg {
    /// `-var NAME=VALUE`, as written.
    Var(String),
    /// `-var-file FILE`, as the host read it (named as given).
    File(VarFile),
}

/// Whether `name` is read automatically beside `terraform.tfvars`.
pub fn is_auto_var_file(name: &str) -> bool {
    name.ends_with(".auto.tfvars") || name.ends_with(".auto.tfvars.json")
}

/// The variables files to read, in Terraform's order: `terraform.tfvars` and its `.json`
/// form when they resolve, then every `*.auto.tfvars(.json)` entry by name, dangling links
/// included (reading them is what fails).
pub fn files_to_read(entries: &[DirEntry]) -> Vec<String> {
    let mut out = Vec::new();
    for default in [
        DEFAULT_VARS_FILE.to_string(),
        format!("{DEFAULT_VARS_FILE}.json"),
    ] {
        if entries.iter().any(|e| e.name == default && e.resolves) {
            out.push(default);
        }
    }
    let mut auto: Vec<&DirEntry> = entries
        .iter()
        .filter(|e| !e.is_dir && is_auto_var_file(&e.name))
        .collect();
    auto.sort_by(|a, b| a.name.cmp(&b.name));
    out.extend(auto.into_iter().map(|e| e.name.clone()));
    out
}

/// The values `env` (`TF_VAR_`-stripped name and text pairs), `files` (in the order of
/// [`files_to_read`]) and `args` (the `-var` and `-var-file` options in command-line order)
/// define, later ones replacing earlier ones, and the errors reading them
/// (`arguments.Vars.CollectValues`).
pub fn collect(
    env: &[(String, String)],
    files: &[VarFile],
    args: &[VarArg],
) -> (InputValues, Diagnostics) {
    let mut values = InputValues::new();
    let mut diags = Diagnostics::new();
    for (name, text) in env {
        values.insert(name.clone(), InputValue::Text(text.clone()));
    }
    for file in files {
        read_file(file, &mut values, &mut diags);
    }
    for arg in args {
        match arg {
            VarArg::Var(raw) => var_option(raw, &mut values, &mut diags),
            VarArg::File(file) => read_file(file, &mut values, &mut diags),
        }
    }
    (values, diags)
}

/// `-var NAME=VALUE`: split at the first `=`; the value's text is parsed later, by the
/// declared variable's type.
fn var_option(raw: &str, values: &mut InputValues, diags: &mut Diagnostics) {
    let Some((name, text)) = raw.split_once('=') else {
        diags.push(Diagnostic::error(
            "Invalid -var option",
            format!("The given -var option {} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", quote(raw)),
        ));
        return;
    };
    if let Some(trimmed) = name.strip_suffix(' ') {
        diags.push(Diagnostic::error(
            "Invalid -var option",
            format!(
                "Variable name {} is invalid due to trailing space. Did you mean -var=\"{trimmed}={}\"?",
                quote(name),
                text.strip_prefix(' ').unwrap_or(text)
            ),
        ));
        return;
    }
    values.insert(name.to_string(), InputValue::Arg(text.to_string()));
}

fn read_file(file: &VarFile, values: &mut InputValues, diags: &mut Diagnostics) {
    let bytes = match &file.read {
        VarFileRead::Bytes(b) => b,
        VarFileRead::Missing => {
            diags.push(Diagnostic::error(
                "Failed to read variables file",
                format!("Given variables file {} does not exist.", file.name),
            ));
            return;
        }
        VarFileRead::Failed(why) => {
            diags.push(Diagnostic::error(
                "Failed to read variables file",
                format!("Error while reading {}: {why}.", file.name),
            ));
            return;
        }
    };
    let mut file_diags = Diagnostics::new();
    let Some((src, syntax)) = parse_syntax(&file.name, bytes, &mut file_diags) else {
        diags.extend(file_diags);
        return;
    };
    let failed = file_diags.has_errors();
    diags.extend(file_diags);
    if failed {
        return;
    }
    let body = match syntax {
        Syntax::Native(body) => body,
        Syntax::Json(root) => {
            let mut json_diags = Diagnostics::new();
            let body = json_attributes(&file.name, &src, root, &mut json_diags);
            let failed = json_diags.has_errors();
            diags.extend(json_diags);
            if failed {
                return;
            }
            body
        }
    };
    // A `variable` block is the usual mistake; Terraform says so and reads nothing more.
    let mut declared = false;
    for b in body
        .blocks()
        .filter(|b| b.kind == "variable" && b.labels.len() == 1)
    {
        declared = true;
        let name = &b.labels[0];
        diags.push(
            Diagnostic::error(
                "Variable declaration in .tfvars file",
                format!(
                    "A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable {name:?}, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in {}, use the definition syntax instead:\n    {name} = <value>",
                    file.name
                ),
            )
            .with_range(b.kind_range()),
        );
    }
    if declared {
        return;
    }
    if let Some(b) = body.blocks().next() {
        diags.push(
            Diagnostic::error(
                format!("Unexpected {:?} block", b.kind),
                "Blocks are not allowed here.",
            )
            .with_range(b.kind_range()),
        );
    }
    for item in body.items {
        if let Item::Attribute(a) = item {
            values.insert(
                a.name.clone(),
                InputValue::Expr {
                    file: file.name.clone(),
                    attr: Box::new(a),
                },
            );
        }
    }
}
