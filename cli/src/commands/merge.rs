//! `tflock merge [DIR]`: the module after override files are merged, as HCL (or JSON with
//! provenance), and with `--requirements` the provider requirement tree.

use crate::args::given_flavor;
use crate::host::flavor;
use crate::host::workdir;
use crate::output;
use crate::var_flags::VarFlags;
use std::path::PathBuf;
use std::process::ExitCode;
use tflock_core::api::module::{
    load_module_with_changes, provenance_with_lines, render_merged, tree_requirements, LoadOptions,
    ModuleTree, OverrideChanges, Provenance,
};
use tflock_core::api::module::{render_tree, ProviderRequirement};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

/// Arguments of `tflock merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The module directory (default: the current directory).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Whose rules to follow: terraform or opentofu (default: from the module directory,
    /// as `init`).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    pub flavor: Option<String>,
    /// Print JSON (merged text, provenance, what each override file changed, files,
    /// diagnostics) instead of HCL.
    #[arg(long)]
    pub json: bool,
    /// Print the provider requirements of the module and its local child modules instead.
    #[arg(long)]
    pub requirements: bool,
}

#[derive(serde::Serialize)]
struct MergeJson<'a> {
    merged: String,
    files: Files<'a>,
    provenance: Vec<Provenance>,
    changes: Vec<OverrideChanges>,
    diagnostics: &'a [Diagnostic],
}

#[derive(serde::Serialize)]
struct Files<'a> {
    primary: &'a [String],
    overrides: &'a [String],
    shadowed: &'a [String],
}

#[derive(serde::Serialize)]
struct RequirementsJson<'a> {
    providers: Vec<&'a ProviderRequirement>,
    diagnostics: Vec<Diagnostic>,
}

/// Runs `tflock merge`.
pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let flavor = flavor::for_dir(given_flavor(args.flavor.as_deref())?, &args.dir);
    if args.requirements {
        // The values `init` reads decide which modules a `const` variable's source names.
        let (values, diags) = workdir::input_values(&args.dir, &VarFlags::default());
        if diags.has_errors() {
            output::print_diagnostics(&diags);
            return Ok(ExitCode::FAILURE);
        }
        let tree = workdir::load_configuration(&args.dir, flavor, &values)?;
        return requirements(&tree, flavor, args.json);
    }
    // Merging is about this directory's own files: a child module that is not installed
    // (or not readable) has no part in it, so only the requirement tree loads children.
    let (files, unreadable) = match workdir::read_dir_files(&args.dir) {
        Ok(read) => read,
        Err(_) => {
            let mut diags = Diagnostics::new();
            diags.push(unreadable_dir(&args.dir));
            output::print_diagnostics(&diags);
            if args.json {
                emit_json(&MergeJson {
                    merged: String::new(),
                    files: Files {
                        primary: &[],
                        overrides: &[],
                        shadowed: &[],
                    },
                    provenance: Vec::new(),
                    changes: Vec::new(),
                    diagnostics: &diags.0,
                })?;
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    for (name, text) in &files {
        output::remember_source(name.clone(), text);
    }
    let (mut loaded, changes) = load_module_with_changes(&files, &LoadOptions::new(flavor));
    for name in unreadable
        .iter()
        .filter(|n| tflock_core::api::module::config_ext(n, flavor).is_some())
    {
        loaded
            .diagnostics
            .push(tflock_core::api::module::unreadable_file(name));
    }
    let failed = loaded.diagnostics.has_errors();
    output::print_diagnostics(&loaded.diagnostics);
    if args.json {
        emit_json(&MergeJson {
            merged: render_merged(&loaded),
            files: Files {
                primary: &loaded.files.primary,
                overrides: &loaded.files.overrides,
                shadowed: &loaded.files.shadowed,
            },
            provenance: provenance_with_lines(&loaded.module),
            changes,
            diagnostics: &loaded.diagnostics.0,
        })?;
    } else if !failed {
        // Nothing on stdout when loading failed: a partial merge is not the configuration.
        emit(&render_merged(&loaded))?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Terraform's error for a module directory it cannot list (its text names no cause:
/// missing and unreadable are one case to it).
fn unreadable_dir(dir: &std::path::Path) -> Diagnostic {
    Diagnostic::error(
        "Failed to read module directory",
        format!(
            "Module directory {} does not exist or cannot be read.",
            dir.display()
        ),
    )
}

fn requirements(tree: &ModuleTree, flavor: Flavor, json: bool) -> anyhow::Result<ExitCode> {
    let mut diags = workdir::tree_diagnostics(tree);
    let reqs = tree_requirements(tree, flavor);
    diags.extend(reqs.diagnostics.clone());
    let failed = diags.has_errors();
    output::print_diagnostics(&diags);
    if json {
        emit_json(&RequirementsJson {
            providers: reqs.providers.values().collect(),
            diagnostics: diags.0,
        })?;
    } else if !failed {
        println!(
            "\nProviders required by configuration:\n{}",
            render_tree(tree, flavor)
        );
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes to stdout; a closed pipe (`tflock merge | head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// One JSON document, `format_version` first, as every `-json` output.
fn emit_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    emit(&format!("{}\n", crate::output::json_text(value)?))
}
