//! `tflock verify`: checks installed packages (and a plugin cache) against the lock file.

use crate::args::given_flavor;
use crate::host::cliconfig;
use crate::host::flavor;
use crate::host::provider_dir::ProviderDir;
use crate::host::workdir;
use crate::output::{print_diagnostics, print_json};
use std::path::Path;
use std::process::ExitCode;
use tflock_core::api::hash::{package_matches_any_hash, PackageHash, PackageHashes};
use tflock_core::api::Platform;
use tflock_core::Diagnostic;

/// Arguments of `tflock verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Whose behaviour to follow: terraform or opentofu (default: from the working
    /// directory, as `init`).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    pub flavor: Option<String>,
    /// Platform whose installed packages to check (default: this machine's).
    #[arg(long, value_name = "OS_ARCH")]
    pub platform: Option<String>,
    /// Also check the plugin cache directory from the CLI configuration.
    #[arg(long = "plugin-cache")]
    pub plugin_cache: bool,
    /// Print one JSON document (`format_version`, `platform`, `checks`).
    #[arg(long)]
    pub json: bool,
}

/// `verify -json`'s document (`print_json` adds `format_version`).
#[derive(serde::Serialize)]
struct VerifyJson<'a> {
    /// The platform whose installed packages were checked.
    platform: String,
    /// One check per locked provider and place (working directory, plugin cache).
    checks: &'a [Check],
}

/// One installed package checked against the lock.
#[derive(serde::Serialize)]
struct Check {
    provider: String,
    version: String,
    path: String,
    h1: Option<String>,
    status: &'static str,
    message: Option<String>,
}

/// Runs `tflock verify`.
pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let given = given_flavor(args.flavor.as_deref())?;
    let platform = match &args.platform {
        Some(s) => {
            Platform::parse(s).map_err(|e| anyhow::anyhow!("invalid -platform {s:?}: {e}"))?
        }
        None => Platform::current(),
    };
    let dir = Path::new(".");
    let flavor = flavor::for_dir(given, dir);
    let (locks, mut diags) = workdir::read_lock(dir, flavor)?;
    let mut places = vec![(
        "working directory",
        ProviderDir::new(dir.join(".terraform").join("providers")),
    )];
    if args.plugin_cache {
        let (cfg, cfg_diags) = cliconfig::load(flavor)?;
        diags.extend(cfg_diags);
        match cliconfig::plugin_cache_dir(&cfg) {
            Some(cache) => places.push(("plugin cache", ProviderDir::new(cache))),
            // Asked for and not checked: say so rather than pass on the working
            // directory alone.
            None => diags.push(Diagnostic::error(
                "No plugin cache directory",
                "The --plugin-cache option was given, but neither the CLI configuration (plugin_cache_dir) nor TF_PLUGIN_CACHE_DIR names a plugin cache directory to check.",
            )),
        }
    }
    print_diagnostics(&diags);
    if diags.has_errors() {
        return Ok(ExitCode::FAILURE);
    }
    let mut checks = Vec::new();
    for lock in locks.providers() {
        let preferred: Vec<PackageHash> = lock.preferred_hashes();
        for (place, pdir) in &places {
            let path = pdir.package_dir(lock.addr(), lock.version(), &platform);
            let mut check = Check {
                provider: lock.addr().to_string(),
                version: lock.version().to_string(),
                path: path.display().to_string(),
                h1: None,
                status: "ok",
                message: None,
            };
            if !path.is_dir() {
                if *place == "working directory" {
                    check.status = "missing";
                    check.message = Some(format!(
                        "the provider {} {} is not installed for {platform} at {}",
                        lock.addr(),
                        lock.version(),
                        path.display()
                    ));
                    checks.push(check);
                }
                continue;
            }
            match crate::host::package::hash_dir(&path) {
                Err(e) => {
                    check.status = "error";
                    check.message = Some(e);
                }
                Ok(h1) => {
                    if !package_matches_any_hash(PackageHashes::Unpacked(&h1), &preferred) {
                        check.status = "mismatch";
                        check.message = Some(format!(
                            "the cached package for {} {} (in {}) does not match any of the checksums recorded in the dependency lock file",
                            lock.addr(),
                            lock.version(),
                            path.display()
                        ));
                    }
                    check.h1 = Some(h1.to_string());
                }
            }
            checks.push(check);
        }
    }
    let failed = checks.iter().any(|c| c.status != "ok");
    if args.json {
        print_json(&VerifyJson {
            platform: platform.to_string(),
            checks: &checks,
        })?;
    } else {
        for c in &checks {
            match &c.message {
                None => println!("- {} {}: ok ({})", c.provider, c.version, c.path),
                Some(m) => eprintln!("Error: {m}"),
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
