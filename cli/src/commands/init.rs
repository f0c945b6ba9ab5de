//! `tflock init [-upgrade] [-lockfile=readonly] [-plugin-dir=DIR]...`: resolve, download,
//! verify and install providers into `.terraform/providers` and write the lock file, like
//! `terraform init`. Its other flags are in [`crate::terraform_flags`].

use crate::args::given_flavor;
use crate::host::cliconfig;
use crate::host::driver::{drive, Host, Kept};
use crate::host::flavor;
use crate::host::http::Http;
use crate::host::provider_dir::{Package, ProviderDir};
use crate::host::sources::{Method, Sources};
use crate::host::workdir;
use crate::output::{print_diagnostics, report};
use crate::var_flags::VarFlags;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tflock_core::api::input_values;
use tflock_core::api::plan::PackageLocation;
use tflock_core::api::Platform;
use tflock_core::api::{
    init_config_report, requirements, HashSource, Mode, Outcome, PlanOptions, Planner,
};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

/// Arguments of `tflock init`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Terraform's other init flags (-input, -backend, -backend-config, -var, \
    -reconfigure...) are accepted and ignored; -from-module is refused."
)]
pub struct InitArgs {
    /// Ignore the lock file's selections and pick the newest allowed versions.
    #[arg(long)]
    pub upgrade: bool,
    /// `readonly`: never write the lock file; fail if the providers needed changed.
    #[arg(long, value_name = "MODE")]
    pub lockfile: Option<String>,
    /// Whose behaviour to follow: terraform or opentofu (default: the lock file's header,
    /// else opentofu when the module has .tofu files, else terraform).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    pub flavor: Option<String>,
    /// How many requests and downloads run at once.
    #[arg(long, default_value_t = 8)]
    pub parallelism: usize,
    /// Print the outcome as one JSON document (`format_version` first) instead of messages.
    #[arg(long)]
    pub json: bool,
    /// Install only from this filesystem mirror directory, ignoring the CLI config's
    /// `provider_installation`; repeat for several.
    #[arg(long = "plugin-dir", value_name = "DIR")]
    pub plugin_dir: Vec<PathBuf>,
    /// As for `providers lock` (the CLI config's `tflock_metadata_hashes = true` sets both);
    /// `init` downloads the one package it installs, so no download is saved here.
    #[arg(long = "metadata-hashes")]
    pub metadata_hashes: bool,
    /// `-var` and `-var-file`, in order.
    #[command(flatten)]
    pub vars: VarFlags,
    /// Terraform refuses positional arguments; kept to say so in its words.
    #[arg(hide = true)]
    pub extra: Vec<String>,
}

/// Runs `tflock init`.
pub fn run(args: InitArgs) -> anyhow::Result<ExitCode> {
    let given = given_flavor(args.flavor.as_deref())?;
    if !args.extra.is_empty() {
        print_diagnostics(&single(Diagnostic::error(
            "Too many command line arguments. Did you mean to use -chdir?",
            "",
        )));
        return Ok(ExitCode::FAILURE);
    }
    let readonly = match args.lockfile.as_deref() {
        None => false,
        Some("readonly") => true,
        Some(other) => {
            print_diagnostics(&single(Diagnostic::error(
                "Invalid lockfile mode",
                format!("The -lockfile option {other:?} is not valid. Currently only \"readonly\" is valid."),
            )));
            return Ok(ExitCode::FAILURE);
        }
    };
    if args.upgrade && readonly {
        print_diagnostics(&single(Diagnostic::error(
            "The -upgrade flag conflicts with -lockfile=readonly.",
            "",
        )));
        return Ok(ExitCode::FAILURE);
    }
    let dir = Path::new(".");
    store_plugin_dirs(dir, &args.plugin_dir)
        .map_err(|e| anyhow::anyhow!("Error saving -plugin-dir to workspace directory: {e}"))?;
    let mut diags = Diagnostics::new();
    let flavor = flavor::for_dir(given, dir);
    // Terraform reads the variables files first and stops on their errors.
    let (values, var_diags) = workdir::input_values(dir, &args.vars);
    if var_diags.has_errors() {
        print_diagnostics(&var_diags);
        return Ok(ExitCode::FAILURE);
    }
    diags.extend(var_diags);

    let (cli_cfg, cfg_diags) = cliconfig::load(flavor)?;
    diags.extend(cfg_diags);
    let tree = workdir::load_configuration_for_init(dir, flavor, &values)?;
    let mut config_diags = workdir::tree_diagnostics(&tree);
    config_diags.extend(input_values::check_tree_for_init(&values, &tree));
    let (reqs, planner_reqs) = workdir::requirements(&tree, flavor);
    config_diags.extend(reqs.diagnostics.clone());
    let (config_diags, after_install) =
        init_config_diagnostics(config_diags, tree.init_reports_installer(), flavor);
    // Terraform refuses legacy addresses when it installs providers, a later step than
    // loading (so without the configuration preamble), reached only by a valid configuration.
    let legacy = !config_diags.has_errors();
    let after_install_at = diags.0.len();
    diags.extend(config_diags);
    if legacy {
        diags.extend(requirements::legacy_address_errors(
            &planner_reqs,
            Mode::Init,
        ));
    }
    let (previous, lock_diags) = workdir::read_lock(dir, flavor)?;
    diags.extend(lock_diags);
    if diags.has_errors() {
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }

    let http = Http::new(Duration::from_secs(10), 2)?.with_cli_config(&cli_cfg);
    let sources = if args.plugin_dir.is_empty() {
        match Sources::from_cli_config(&cli_cfg, flavor, http) {
            Ok(sources) => sources,
            Err(diags) => {
                print_diagnostics(&diags);
                return Ok(ExitCode::FAILURE);
            }
        }
    } else {
        // Like Terraform, only these directories, as filesystem mirrors.
        let mirrors = args.plugin_dir.iter().map(|dir| Method::FilesystemMirror {
            path: dir.display().to_string(),
        });
        Sources::only(mirrors.collect(), &cli_cfg, flavor, http)
    };
    let cache_dir = cliconfig::plugin_cache_dir(&cli_cfg);
    let mut options = PlanOptions::new(
        flavor,
        if args.upgrade {
            Mode::InitUpgrade
        } else {
            Mode::Init
        },
        vec![Platform::current()],
    );
    options.readonly = readonly;
    options.plugin_cache = cache_dir.is_some();
    options.plugin_cache_may_break_lock = cli_cfg.plugin_cache_may_break_dependency_lock_file;
    options.hash_source = HashSource::choose(args.metadata_hashes, cli_cfg.tflock_metadata_hashes);

    let providers_dir = dir.join(".terraform").join("providers");
    std::fs::create_dir_all(&providers_dir)?;
    let host = Host {
        sources: &sources,
        installed: Some(ProviderDir::new(&providers_dir)),
        cache: cache_dir.as_ref().map(ProviderDir::new),
        keep_dir: Some(providers_dir.clone()),
        parallelism: args.parallelism,
        show_progress: !args.json,
        hash_cache: None,
        mirror_dir: None,
    };
    if !args.json {
        println!("{}", tflock_core::api::init_header(flavor));
    }
    let mut planner = Planner::new(planner_reqs, previous, options);
    let kept = drive(&mut planner, &host);
    let mut outcome = planner.finish();
    // Like Terraform, packages accepted before another provider failed stay installed.
    if let Err(d) = install_all(&outcome, &kept, &host, flavor) {
        outcome.diagnostics.push(*d);
    }
    if !outcome.has_errors() {
        diags
            .0
            .splice(after_install_at..after_install_at, after_install.0);
    }
    // The configuration's warnings (its deprecations, proxy provider blocks) come first, as
    // Terraform reports them before its own.
    outcome.diagnostics.0.splice(0..0, diags.0);
    if outcome.write_lock && !outcome.has_errors() {
        if let Err(d) = workdir::write_lock(dir, &outcome.new_lock, flavor) {
            outcome.diagnostics.push(*d);
        }
    }
    report(&outcome, flavor, args.json)?;
    Ok(if outcome.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Records `-plugin-dir`s in the data directory's `plugin_path`, as Terraform does for its
/// later commands; one empty `-plugin-dir=` removes the record.
fn store_plugin_dirs(dir: &Path, dirs: &[PathBuf]) -> std::io::Result<()> {
    let path = workdir::data_dir(dir).join("plugin_path");
    match dirs {
        [] => Ok(()),
        [only] if only.as_os_str().is_empty() => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
        _ => {
            let list: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            std::fs::create_dir_all(workdir::data_dir(dir))?;
            std::fs::write(&path, serde_json::to_string_pretty(&list)?)
        }
    }
}

fn single(d: Diagnostic) -> Diagnostics {
    let mut diags = Diagnostics::new();
    diags.push(d);
    diags
}

/// Puts every accepted package in place.
fn install_all(
    outcome: &Outcome,
    kept: &Kept,
    host: &Host<'_>,
    flavor: Flavor,
) -> Result<(), Box<Diagnostic>> {
    let Some(target) = &host.installed else {
        return Ok(());
    };
    for inst in &outcome.installs {
        let key = (
            inst.provider.clone(),
            inst.version.clone(),
            inst.platform.clone(),
        );
        let result = if inst.from_cache {
            match &host.cache {
                Some(cache) => {
                    let src = cache.package_dir(&inst.provider, &inst.version, &inst.platform);
                    target.install(
                        Package::Dir(&src),
                        &inst.provider,
                        &inst.version,
                        &inst.platform,
                    )
                }
                None => Err("no plugin cache directory is configured".to_string()),
            }
        } else if let Some(fetched) = kept.get(&key) {
            match (&fetched.kept, &inst.location) {
                (Some(tmp), _) => target.install(
                    Package::Zip(tmp.path()),
                    &inst.provider,
                    &inst.version,
                    &inst.platform,
                ),
                (None, PackageLocation::LocalArchive(path)) => target.install(
                    Package::Zip(Path::new(path)),
                    &inst.provider,
                    &inst.version,
                    &inst.platform,
                ),
                (None, PackageLocation::LocalDir(path)) => target.install(
                    Package::Dir(Path::new(path)),
                    &inst.provider,
                    &inst.version,
                    &inst.platform,
                ),
                (None, PackageLocation::Url(_)) => {
                    Err("the downloaded package was not kept".to_string())
                }
            }
        } else {
            Err("the package was not fetched".to_string())
        };
        if let Err(e) = result {
            return Err(Box::new(Diagnostic::error(
                "Failed to install provider",
                format!(
                    "Error while installing {} v{}: {e}",
                    inst.provider.for_display(flavor),
                    inst.version
                ),
            )));
        }
        if let (Some(cache), false) = (&host.cache, inst.from_cache) {
            // Populate the shared cache so later runs (and other working directories) can
            // install without the network. Concurrent runs take turns (a file lock), so
            // no run sees a half-replaced package directory.
            let dir = target.package_dir(&inst.provider, &inst.version, &inst.platform);
            let _guard = cache.lock();
            let _ = cache.install(
                Package::Dir(&dir),
                &inst.provider,
                &inst.version,
                &inst.platform,
            );
        }
    }
    Ok(())
}

/// What `init` says about a configuration, as core decides it; OpenTofu's preamble is a
/// message printed before the diagnostics.
/// Also the warnings to report only once providers are installed.
fn init_config_diagnostics(
    config: Diagnostics,
    installs_modules: bool,
    flavor: Flavor,
) -> (Diagnostics, Diagnostics) {
    let report = init_config_report(config, installs_modules, flavor);
    if let Some(message) = report.message {
        eprintln!("\n{message}");
    }
    (report.diagnostics, report.after_install)
}
