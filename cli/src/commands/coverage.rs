//! `tflock lockfile coverage`: which platforms the lock file's checksums cover, learned from
//! registry metadata (signed `SHA256SUMS`, OpenTofu `packages`), mirror indexes and the
//! verified hash cache — without downloading a single provider package.

use crate::args::given_flavor;
use crate::host::cliconfig;
use crate::host::flavor;
use crate::host::hash_cache::HashCache;
use crate::host::http::Http;
use crate::host::sources::Sources;
use crate::host::workdir;
use crate::output::{print_diagnostics, print_json};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;
use tflock_core::api::coverage::{
    coverage_query_failure, learn_hashes, lock_coverage, KnownHashes,
};
use tflock_core::api::Platform;
use tflock_core::api::SortedMap;

/// Arguments of `tflock lockfile coverage`.
#[derive(Debug, clap::Args)]
pub struct CoverageArgs {
    /// Platforms that must be covered (`os_arch`, repeatable). Default: this machine's.
    #[arg(long = "platform", value_name = "OS_ARCH")]
    pub platforms: Vec<String>,
    /// Whose behaviour to follow: terraform or opentofu (default: from the working
    /// directory, as `init`).
    #[arg(long, env = "TFLOCK_FLAVOR")]
    pub flavor: Option<String>,
    /// Print one JSON document (`format_version`, the wanted `platforms`, `providers`).
    #[arg(long)]
    pub json: bool,
}

/// Runs `tflock lockfile coverage`.
pub fn run(args: CoverageArgs) -> anyhow::Result<ExitCode> {
    let given = given_flavor(args.flavor.as_deref())?;
    let mut wanted = Vec::new();
    for s in &args.platforms {
        wanted
            .push(Platform::parse(s).map_err(|e| anyhow::anyhow!("invalid -platform {s:?}: {e}"))?);
    }
    if wanted.is_empty() {
        wanted.push(Platform::current());
    }
    let flavor = flavor::for_dir(given, Path::new("."));
    let (locks, mut diags) = workdir::read_lock(Path::new("."), flavor)?;
    // The CLI config decides where the metadata comes from: its problems are shown as
    // `init` shows them, and an error stops the run before any request.
    let (cfg, cfg_diags) = cliconfig::load(flavor)?;
    diags.extend(cfg_diags);
    if diags.has_errors() {
        print_diagnostics(&diags);
        return Ok(ExitCode::FAILURE);
    }
    let http = Http::new(Duration::from_secs(10), 2)?.with_cli_config(&cfg);
    let sources = match Sources::from_cli_config(&cfg, flavor, http) {
        Ok(sources) => sources,
        Err(diags) => {
            print_diagnostics(&diags);
            return Ok(ExitCode::FAILURE);
        }
    };
    let cache = HashCache::default_location();

    let mut known: KnownHashes = SortedMap::new();
    // (provider, platform) pairs whose metadata could not be retrieved: unknown, not missing.
    let mut unchecked: Vec<(String, String)> = Vec::new();
    for lock in locks.providers() {
        let per_platform = known.entry(lock.addr().clone()).or_default();
        for platform in &wanted {
            match sources.package_meta(lock.addr(), lock.version(), platform) {
                Ok(pkg) => learn_hashes(&pkg, per_platform),
                Err(e) => {
                    if let Some(d) =
                        coverage_query_failure(lock.addr(), lock.version(), platform, &e, flavor)
                    {
                        diags.push(d);
                        unchecked.push((lock.addr().to_string(), platform.to_string()));
                    }
                }
            }
        }
        // The verified hash cache maps a platform's zh: to its h1:.
        if let Some(cache) = &cache {
            cache.add_h1s(per_platform);
        }
    }
    let report = lock_coverage(&locks, &known, &wanted);
    print_diagnostics(&diags);
    let is_unchecked = |provider: &str, platform: &str| {
        unchecked
            .iter()
            .any(|(p, pl)| p == provider && pl == platform)
    };
    if args.json {
        let value: Vec<_> = report
            .providers
            .iter()
            .map(|p| {
                let name = p.provider.to_string();
                let (unknown, missing): (Vec<&String>, Vec<&String>) =
                    p.missing.iter().partition(|pl| is_unchecked(&name, pl));
                serde_json::json!({
                    "provider": name,
                    "version": p.version.to_string(),
                    "covered": p.covered,
                    "missing": missing,
                    "unchecked": unknown,
                    "hashes": p.hash_platforms.iter().map(|(h, ps)| serde_json::json!({"hash": h.to_string(), "platforms": ps})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let wanted: Vec<String> = wanted.iter().map(Platform::to_string).collect();
        print_json(&serde_json::json!({ "platforms": wanted, "providers": value }))?;
    } else {
        for p in &report.providers {
            let name = p.provider.to_string();
            let (unknown, missing): (Vec<&str>, Vec<&str>) = p
                .missing
                .iter()
                .map(String::as_str)
                .partition(|pl| is_unchecked(&name, pl));
            let mut parts = Vec::new();
            if !missing.is_empty() {
                parts.push(format!("missing {}", missing.join(", ")));
            }
            if !unknown.is_empty() {
                parts.push(format!(
                    "not checked {} (see the errors)",
                    unknown.join(", ")
                ));
            }
            let status = if parts.is_empty() {
                "ok".to_string()
            } else {
                parts.join("; ")
            };
            println!(
                "{} {}: covers {} — {status}",
                p.provider.for_display(flavor),
                p.version,
                if p.covered.is_empty() {
                    "no wanted platform".to_string()
                } else {
                    p.covered.join(", ")
                }
            );
        }
    }
    // An error (a source that could not be asked) is 1; a platform known to be missing is
    // a finding, 2, so scripts can tell "fix the lock" from "try again".
    Ok(if diags.has_errors() {
        ExitCode::FAILURE
    } else if report.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::lockfile::DIFFERENCES_FOUND)
    })
}
