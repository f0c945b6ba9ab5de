//! `tflock merge [DIR]`: the module after override files are merged, as HCL (or JSON with
//! provenance), and with `--requirements` the provider requirement tree.

use crate::host::workdir;
use crate::output;
use std::path::PathBuf;
use std::process::ExitCode;
use tflock_core::config::requirements::{render_tree, ProviderRequirement};
use tflock_core::config::{
    load_module_with_changes, provenance_with_lines, render_merged, tree_requirements, LoadOptions,
    ModuleTree, OverrideChanges, Provenance,
};
use tflock_core::{Diagnostic, Flavor};

/// Arguments of `tflock merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The module directory (default: the current directory).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Whose rules to follow: terraform or opentofu.
    #[arg(long, default_value = "terraform")]
    pub flavor: String,
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
    let flavor = Flavor::parse(&args.flavor).ok_or_else(|| {
        anyhow::anyhow!(
            "invalid -flavor {:?}: use terraform or opentofu",
            args.flavor
        )
    })?;
    let tree = workdir::load_configuration(&args.dir, flavor)?;
    if args.requirements {
        return requirements(&tree, flavor, args.json);
    }
    let loaded = &tree.loaded;
    let failed = loaded.diagnostics.has_errors();
    output::print_diagnostics(&loaded.diagnostics);
    if args.json {
        // The change records come from merging the root directory's files once more with
        // recording on; the merge is the same, so the records describe `merged`.
        let files = workdir::read_dir_files(&args.dir)?;
        let (_, changes) = load_module_with_changes(&files, &LoadOptions { flavor });
        emit_json(&MergeJson {
            merged: render_merged(loaded),
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
        emit(&render_merged(loaded))?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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

fn emit_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    emit(&format!("{}\n", serde_json::to_string_pretty(value)?))
}
