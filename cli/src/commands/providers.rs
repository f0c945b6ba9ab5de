//! `tflock providers lock|mirror`.

use crate::args::given_flavor;
use crate::host::cliconfig;
use crate::host::driver::{drive, Host, Kept};
use crate::host::flavor;
use crate::host::hash_cache::HashCache;
use crate::host::http::Http;
use crate::host::locked_platforms;
use crate::host::provider_dir::ProviderDir;
use crate::host::sources::{Method, Sources};
use crate::host::workdir;
use crate::output::{outcome_view, print_diagnostics, report, JsonStream};
use crate::var_flags::VarFlags;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tflock_core::api::input_values;
use tflock_core::api::parse::option_mirror_url;
use tflock_core::api::platforms::{restrict_to_arguments, PlatformRequest, PLATFORMS_ENV};
use tflock_core::api::Platform;
use tflock_core::api::{HashSource, Mode, OutcomeView, PlanOptions, Planner};
use tflock_core::{Diagnostic, Diagnostics, Flavor};

/// Arguments of `tflock providers`.
#[derive(Debug, clap::Args)]
pub struct ProvidersArgs {
    #[command(subcommand)]
    command: Option<ProvidersCommand>,
    /// Whose behaviour to follow (for the requirement tree): terraform or opentofu
    /// (default: from the working directory, as `init`).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    flavor: Option<String>,
    /// `-var` and `-var-file`, in order (for the requirement tree).
    #[command(flatten)]
    vars: VarFlags,
}

#[derive(Debug, clap::Subcommand)]
enum ProvidersCommand {
    /// Record checksums for several platforms in the lock file, hashing while downloading.
    Lock(LockArgs),
    /// Build a network-mirror directory (index.json and <version>.json with h1: and zh:).
    Mirror(MirrorArgs),
}

/// Options shared by `lock` and `mirror`.
#[derive(Debug, clap::Args)]
pub(super) struct Common {
    /// Target platform (`os_arch`, or `locked`: every platform the lock file covers);
    /// repeat for several. Default: `TFLOCK_PLATFORMS` (comma-separated), else the CLI
    /// config's `tflock_platforms`, else this machine's — and for `lock`, also every
    /// platform a several-platform lock covers.
    #[arg(long = "platform", value_name = "OS_ARCH")]
    platforms: Vec<String>,
    /// Whose behaviour to follow: terraform or opentofu (default: the lock file's header,
    /// else opentofu when the module has .tofu files, else terraform).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    flavor: Option<String>,
    /// How many requests and downloads run at once.
    #[arg(long, default_value_t = 8)]
    pub(super) parallelism: usize,
    /// Print JSON on stdout: one document with `format_version` first (`lock` over several
    /// root modules: NDJSON, one message per line, as Terraform's `-json` streams).
    #[arg(long)]
    pub(super) json: bool,
    /// `-var` and `-var-file`, in order.
    #[command(flatten)]
    pub(super) vars: VarFlags,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Terraform's -test-directory is accepted and ignored.")]
struct LockArgs {
    #[command(flatten)]
    common: Common,
    /// Consult this filesystem mirror instead of the origin registries.
    #[arg(long = "fs-mirror", value_name = "DIR", conflicts_with = "net_mirror")]
    fs_mirror: Option<PathBuf>,
    /// Consult this network mirror (an https: base URL) instead of the origin registries.
    #[arg(long = "net-mirror", value_name = "URL")]
    net_mirror: Option<String>,
    /// Use the plugin cache directory from the CLI configuration.
    #[arg(long = "enable-plugin-cache")]
    enable_plugin_cache: bool,
    /// Provider source addresses to limit the run to, and/or root module directories to
    /// lock one after another (sharing downloads and the hash cache); default `.`.
    targets: Vec<String>,
    /// Do not read or write the shared hash cache (`~/.cache/tflock/zh`).
    #[arg(long = "no-hash-cache")]
    no_hash_cache: bool,
    /// Take each platform's h1: from the source's metadata (OpenTofu's `packages`, a
    /// network mirror's hashes) once one downloaded package per provider matched it; the
    /// CLI config's `tflock_metadata_hashes = true` sets it for every run.
    #[arg(long = "metadata-hashes")]
    metadata_hashes: bool,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Terraform's -var and -var-file are accepted and ignored.")]
pub(super) struct MirrorArgs {
    #[command(flatten)]
    pub(super) common: Common,
    /// `false`: ignore the lock file's versions and take the newest allowed.
    #[arg(long = "lock-file", value_name = "BOOL", action = clap::ArgAction::Set, default_value_t = true)]
    pub(super) lock_file: bool,
    /// The mirror directory to create or update.
    #[arg(value_name = "TARGET")]
    pub(super) target: Vec<PathBuf>,
}

/// Runs `tflock providers ...`.
pub fn run(args: ProvidersArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(ProvidersCommand::Lock(a)) => lock(a),
        Some(ProvidersCommand::Mirror(a)) => super::providers_mirror::run(a),
        None => tree(args.flavor.as_deref(), &args.vars),
    }
}

/// `tflock providers`: the requirement tree, like `terraform providers`.
fn tree(flavor: Option<&str>, vars: &VarFlags) -> anyhow::Result<ExitCode> {
    let flavor = flavor::for_dir(given_flavor(flavor)?, Path::new("."));
    let (values, mut diags) = workdir::input_values(Path::new("."), vars);
    if diags.has_errors() {
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }
    let tree = workdir::load_configuration(Path::new("."), flavor, &values)?;
    if let Some(root) = tree.root_load_errors(flavor) {
        diags.extend(root);
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }
    diags.extend(workdir::tree_diagnostics(&tree));
    diags.extend(input_values::check_tree(&values, &tree));
    // Terraform refuses a tree whose requirements do not decode (a bad constraint, source).
    diags.extend(workdir::requirements(&tree, flavor).0.diagnostics);
    let diags = tflock_core::api::providers_config_report(diags);
    if diags.has_errors() {
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }
    println!("\nProviders required by configuration:");
    print!("{}", tflock_core::api::module::render_tree(&tree, flavor));
    // Terraform prints the warnings (a quoted provider reference, say) after the tree.
    if !diags.is_empty() {
        eprintln!();
        print_diagnostics(&diags);
    }
    Ok(ExitCode::SUCCESS)
}

/// The platforms to work for: core resolves the `-platform` flags, `TFLOCK_PLATFORMS` and
/// (with `keep_locked`, for `providers lock`) the platforms the lock covers; the line it
/// has to say goes to stderr.
pub(super) fn choose_platforms(
    p: &Prepared,
    sources: &Sources,
    cache: Option<&HashCache>,
    keep_locked: bool,
) -> Result<Vec<Platform>, Box<Diagnostic>> {
    let locked = p
        .platforms
        .needs_locked(&p.previous, keep_locked)
        .then(|| locked_platforms::learn(&p.previous, sources, cache));
    let choice = p
        .platforms
        .resolve(&Platform::current(), locked.as_ref(), keep_locked)?;
    if let Some(line) = &choice.message {
        eprintln!("{line}");
    }
    Ok(choice.platforms)
}

/// What `lock` and `mirror` read before asking any source.
pub(super) struct Prepared {
    pub(super) flavor: Flavor,
    pub(super) platforms: PlatformRequest,
    pub(super) cli_cfg: tflock_core::api::cli_config::CliConfig,
    pub(super) requirements: tflock_core::api::Requirements,
    pub(super) previous: tflock_core::api::lock_file::Locks,
}

pub(super) fn prepare(
    dir: &Path,
    common: &Common,
    provider_args: &[String],
) -> anyhow::Result<Result<Prepared, Diagnostics>> {
    let flavor = flavor::for_dir(given_flavor(common.flavor.as_deref())?, dir);
    let (values, mut diags) = workdir::input_values(dir, &common.vars);
    if diags.has_errors() {
        return Ok(Err(diags));
    }
    let (cli_cfg, cfg_diags) = cliconfig::load(flavor)?;
    diags.extend(cfg_diags);
    let env = std::env::var(PLATFORMS_ENV).ok();
    let platforms = PlatformRequest::new(
        &common.platforms,
        env.as_deref(),
        cli_cfg.tflock_platforms.as_deref(),
    )
    .unwrap_or_else(|bad| {
        diags.extend(bad);
        PlatformRequest::default()
    });
    let tree = workdir::load_configuration(dir, flavor, &values)?;
    if let Some(root) = tree.root_load_errors(flavor) {
        diags.extend(root);
        return Ok(Err(diags));
    }
    diags.extend(workdir::tree_diagnostics(&tree));
    diags.extend(input_values::check_tree(&values, &tree));
    let (reqs, planner_reqs) = workdir::requirements(&tree, flavor);
    diags.extend(reqs.diagnostics.clone());
    let (requirements, arg_diags) = restrict_to_arguments(&planner_reqs, provider_args, flavor);
    diags.extend(arg_diags);
    let (previous, lock_diags) = workdir::read_lock(dir, flavor)?;
    diags.extend(lock_diags);
    if diags.has_errors() {
        return Ok(Err(diags));
    }
    if !diags.is_empty() {
        print_diagnostics(&diags);
    }
    Ok(Ok(Prepared {
        flavor,
        platforms,
        cli_cfg,
        requirements,
        previous,
    }))
}

fn lock(args: LockArgs) -> anyhow::Result<ExitCode> {
    // Arguments naming existing directories are root modules; the rest are providers.
    let (dirs, providers): (Vec<String>, Vec<String>) = args
        .targets
        .iter()
        .cloned()
        .partition(|t| Path::new(t).is_dir());
    let dirs: Vec<PathBuf> = if dirs.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        dirs.into_iter().map(PathBuf::from).collect()
    };
    let cache = if args.no_hash_cache {
        None
    } else {
        HashCache::default_location()
    };
    // Several root modules with -json stream one line per module (NDJSON), never
    // back-to-back documents a JSON parser cannot read; one module prints one document.
    let stream = (dirs.len() > 1 && args.common.json).then(JsonStream::start);
    let mut failed = false;
    for dir in &dirs {
        if dirs.len() > 1 && !args.common.json {
            println!("\n{}:", dir.display());
        }
        let done = lock_one(dir, &args, &providers, cache.as_ref(), stream.as_ref())?;
        failed |= !done;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Locks one root module; returns whether it succeeded.
fn lock_one(
    dir: &Path,
    args: &LockArgs,
    providers: &[String],
    cache: Option<&HashCache>,
    stream: Option<&JsonStream>,
) -> anyhow::Result<bool> {
    // A module that cannot be planned has its diagnostics on stderr in every mode; a
    // stream also says it failed.
    let failed = |diags: &Diagnostics| -> anyhow::Result<bool> {
        print_diagnostics(diags);
        if let Some(stream) = stream {
            root_result(stream, dir, None);
        }
        Ok(false)
    };
    let p = match prepare(dir, &args.common, providers)? {
        Ok(p) => p,
        Err(diags) => return failed(&diags),
    };
    let http = Http::new(Duration::from_secs(10), 2)?.with_cli_config(&p.cli_cfg);
    // Like Terraform, ignore the CLI config's installation methods: upstream registries by
    // default, or exactly the mirror given.
    let method = if let Some(dir) = &args.fs_mirror {
        Method::FilesystemMirror {
            path: dir.display().to_string(),
        }
    } else if let Some(raw) = &args.net_mirror {
        match option_mirror_url(raw, "-net-mirror") {
            Ok(base) => Method::NetworkMirror {
                base,
                trust_all_hashes: false,
            },
            Err(e) => {
                return failed(&single(e.to_diagnostic()));
            }
        }
    } else {
        Method::Registry
    };
    let sources = Sources::only(vec![method], &p.cli_cfg, p.flavor, http);
    let platforms = match choose_platforms(&p, &sources, cache, true) {
        Ok(platforms) => platforms,
        Err(d) => return failed(&single(*d)),
    };
    let cache_dir = if args.enable_plugin_cache {
        cliconfig::plugin_cache_dir(&p.cli_cfg)
    } else {
        None
    };
    let mut options = PlanOptions::new(p.flavor, Mode::ProvidersLock, platforms);
    options.plugin_cache = cache_dir.is_some();
    options.plugin_cache_may_break_lock = p.cli_cfg.plugin_cache_may_break_dependency_lock_file;
    options.hash_source =
        HashSource::choose(args.metadata_hashes, p.cli_cfg.tflock_metadata_hashes);
    let host = Host {
        sources: &sources,
        installed: None,
        cache: cache_dir.map(ProviderDir::new),
        keep_dir: None,
        parallelism: args.common.parallelism,
        show_progress: !args.common.json,
        hash_cache: cache.cloned(),
        mirror_dir: None,
    };
    let mut planner = Planner::new(p.requirements, p.previous, options);
    let fetched = drive(&mut planner, &host);
    let mut outcome = planner.finish();
    if let Some(cache) = cache {
        remember_verified(cache, &outcome, &fetched);
    }
    if outcome.write_lock && !outcome.has_errors() {
        if let Err(d) = workdir::write_lock(dir, &outcome.new_lock, p.flavor) {
            outcome.diagnostics.push(*d);
        }
    }
    // As in the one-module document, the planner's diagnostics are the view's.
    match stream {
        Some(stream) => root_result(stream, dir, Some(outcome_view(&outcome, p.flavor))),
        None => report(&outcome, p.flavor, args.common.json)?,
    }
    Ok(!outcome.has_errors())
}

/// The `lock_result` message of one root module in a `-json` stream: `lock` is the document
/// one module alone prints (without `format_version`: the stream's `version` message
/// carries it), null when the module failed before anything was locked.
fn root_result(stream: &JsonStream, dir: &Path, view: Option<OutcomeView>) {
    let ok = view.as_ref().is_some_and(|v| !v.diagnostics.has_errors());
    let shown = dir.display().to_string();
    let mut fields = serde_json::Map::new();
    fields.insert("root".into(), shown.clone().into());
    fields.insert("success".into(), ok.into());
    fields.insert(
        "lock".into(),
        serde_json::to_value(view).unwrap_or(serde_json::Value::Null),
    );
    let (level, message) = if ok {
        ("info", format!("{shown}: providers locked"))
    } else {
        ("error", format!("{shown}: providers lock failed"))
    };
    stream.message(level, &message, "lock_result", fields);
}

/// Adds every package the planner authenticated to the hash cache.
fn remember_verified(cache: &HashCache, outcome: &tflock_core::api::Outcome, fetched: &Kept) {
    for ((provider, _version, platform), f) in fetched {
        if tflock_core::api::hash_cache::verified(outcome, provider, platform) {
            let _ = cache.put(&f.package);
        }
    }
}

pub(super) fn single(d: Diagnostic) -> Diagnostics {
    let mut diags = Diagnostics::new();
    diags.push(d);
    diags
}
