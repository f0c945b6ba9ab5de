//! `tflock providers mirror DIR`: a network-mirror directory (archives, `index.json`,
//! `<version>.json` with `h1:` and `zh:`), updated in place. Archives already there that
//! are the ones the sources announce are hashed where they are, not downloaded again.

use super::providers::{choose_platforms, prepare, single, MirrorArgs, Prepared};
use crate::host::atomic::{write_atomic, FileMode};
use crate::host::driver::{drive, Host};
use crate::host::hash_cache::HashCache;
use crate::host::http::Http;
use crate::host::mirror_dir;
use crate::host::sources::Sources;
use crate::output::{print_diagnostics, print_json, report};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;
use tflock_core::api::mirror as plan;
use tflock_core::api::mirror::mirror_reuse_summary;
use tflock_core::api::mirror::{hostname_for_display, unpacked_source};
use tflock_core::api::{FetchedPackage, Mode, PlanOptions, Planner};
use tflock_core::{Diagnostic, Diagnostics};

/// (host, namespace, type, version) of a mirrored release.
type MirrorKey = (String, String, String, String);
/// (platform, archive file name, hashes) of one mirrored package.
type MirrorArchive = (String, String, Vec<String>);

/// `providers mirror -json`'s document (`print_json` adds `format_version`).
#[derive(serde::Serialize)]
struct MirrorJson {
    /// The mirror directory, as given.
    target: String,
    /// The platforms mirrored.
    platforms: Vec<String>,
    /// Packages downloaded into the mirror this run.
    downloaded: usize,
    /// Packages already in the mirror whose checksums matched the signed ones.
    skipped: usize,
    /// Packages copied from a filesystem mirror.
    copied: usize,
    /// Per provider and version, what happened to each platform's package.
    providers: Vec<MirroredRelease>,
}

/// One provider version of the mirror.
#[derive(serde::Serialize)]
struct MirroredRelease {
    provider: String,
    version: String,
    platforms: Vec<MirroredPackage>,
}

/// One platform's package in the mirror.
#[derive(serde::Serialize)]
struct MirroredPackage {
    platform: String,
    /// The archive's path under the target directory.
    file: String,
    /// `downloaded`, `skipped` (already there and matching) or `copied`.
    status: &'static str,
    /// `h1:` and `zh:`, as `<version>.json` records them.
    hashes: Vec<String>,
}

/// Runs `tflock providers mirror`.
pub(super) fn run(args: MirrorArgs) -> anyhow::Result<ExitCode> {
    let [target] = args.target.as_slice() else {
        let mut d = Diagnostics::new();
        d.push(Diagnostic::error(
            "No output directory specified",
            "The providers mirror command requires an output directory as a command-line argument.",
        ));
        print_diagnostics(&d);
        return Ok(ExitCode::FAILURE);
    };
    let p = match prepare(Path::new("."), &args.common, &[])? {
        Ok(p) if !args.lock_file => Prepared {
            previous: tflock_core::api::lock_file::Locks::new(),
            ..p
        },
        Ok(p) => p,
        Err(diags) => {
            print_diagnostics(&diags);
            return Ok(ExitCode::FAILURE);
        }
    };
    let http = Http::new(Duration::from_secs(10), 2)?.with_cli_config(&p.cli_cfg);
    let sources = match Sources::from_cli_config(&p.cli_cfg, p.flavor, http) {
        Ok(sources) => sources,
        Err(diags) => {
            print_diagnostics(&diags);
            return Ok(ExitCode::FAILURE);
        }
    };
    let hash_cache = HashCache::default_location();
    let platforms = match choose_platforms(&p, &sources, hash_cache.as_ref(), false) {
        Ok(platforms) => platforms,
        Err(d) => {
            print_diagnostics(&single(*d));
            return Ok(ExitCode::FAILURE);
        }
    };
    let platform_names = platforms.iter().map(ToString::to_string).collect();
    std::fs::create_dir_all(target)?;
    let staging = tempfile::Builder::new()
        .prefix(".tflock-mirror-")
        .tempdir_in(target)?;
    let host = Host {
        sources: &sources,
        installed: None,
        cache: None,
        keep_dir: Some(staging.path().to_path_buf()),
        parallelism: args.common.parallelism,
        show_progress: !args.common.json,
        hash_cache: None,
        mirror_dir: Some(target.clone()),
    };
    let options = PlanOptions::new(p.flavor, Mode::ProvidersLock, platforms);
    let mut planner = Planner::new(p.requirements, p.previous, options);
    let kept = drive(&mut planner, &host);
    let outcome = planner.finish();
    if outcome.has_errors() {
        report(&outcome, p.flavor, args.common.json)?;
        return Ok(ExitCode::FAILURE);
    }
    // Group by provider and version, then write archives and the two index files.
    let mut by_version: BTreeMap<MirrorKey, Vec<MirrorArchive>> = BTreeMap::new();
    let mut problems = Diagnostics::new();
    let (mut reused, mut downloaded, mut copied) = (0usize, 0usize, 0usize);
    // In `kept`'s order: providers, then versions by precedence (not as strings).
    let mut releases: Vec<MirroredRelease> = Vec::new();
    for ((provider, version, platform), fetched) in &kept {
        // A mirror holds archives: an unpacked directory (from a filesystem mirror) has
        // none to copy, and leaving it out silently would make a mirror that lacks it.
        let FetchedPackage::Archive { hashes, .. } = &fetched.package else {
            problems.push(unpacked_source(
                &provider.for_display(p.flavor),
                &version.to_string(),
                &platform.to_string(),
                p.flavor.product(),
            ));
            continue;
        };
        let dest = mirror_dir::archive_path(target, provider, version, platform);
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let status = match (&fetched.kept, &fetched.local) {
            // Already in place, and the planner authenticated it like a download.
            _ if fetched.reused => {
                reused += 1;
                "skipped"
            }
            (Some(tmp), _) => {
                std::fs::rename(tmp.path(), &dest)?;
                downloaded += 1;
                "downloaded"
            }
            // An archive of a filesystem mirror is read where it is, so it is copied.
            (None, Some(path)) => {
                let bytes = std::fs::read(path)?;
                write_atomic(&dest, &bytes, FileMode::Fixed(0o644))?;
                copied += 1;
                "copied"
            }
            (None, None) => anyhow::bail!(
                "the package of {provider} {version} for {platform} was not kept for the mirror"
            ),
        };
        let filename = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let hashes = vec![hashes.h1.to_string(), hashes.zh.to_string()];
        let package = MirroredPackage {
            platform: platform.to_string(),
            file: dest
                .strip_prefix(target)
                .unwrap_or(&dest)
                .display()
                .to_string(),
            status,
            hashes: hashes.clone(),
        };
        let (provider_name, version_name) = (provider.to_string(), version.to_string());
        match releases.last_mut() {
            Some(r) if r.provider == provider_name && r.version == version_name => {
                r.platforms.push(package)
            }
            _ => releases.push(MirroredRelease {
                provider: provider_name,
                version: version_name,
                platforms: vec![package],
            }),
        }
        by_version
            .entry((
                hostname_for_display(&provider.hostname),
                provider.namespace.clone(),
                provider.r#type.clone(),
                version.to_string(),
            ))
            .or_default()
            .push((platform.to_string(), filename, hashes));
    }
    for ((host_dir, ns, ty, version), archives) in by_version {
        // Which documents change, and how, is the edge mirror's publish plan for uploads
        // (`core::api::mirror`, the edge mirror's plan): the archives in `<version>.json`, then the version in
        // `index.json`.
        let dir = format!("{host_dir}/{ns}/{ty}");
        let updates = archives
            .iter()
            .flat_map(|(platform, filename, hashes)| {
                plan::after_upload(&dir, &version, platform, filename, hashes)
            })
            .collect();
        for doc in plan::per_document(updates) {
            let path = target.join(&doc.key);
            let next = doc
                .apply(read_doc(&path)?.as_deref())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if let Some(bytes) = next {
                write_atomic(&path, &bytes, FileMode::Fixed(0o644))?;
            }
        }
        if !args.common.json {
            println!(
                "- Mirrored {dir} {version} for {} platform(s)",
                archives.len()
            );
        }
    }
    if args.common.json {
        print_json(&MirrorJson {
            target: target.display().to_string(),
            platforms: platform_names,
            downloaded,
            skipped: reused,
            copied,
            providers: releases,
        })?;
    } else if let Some(line) = mirror_reuse_summary(reused, downloaded) {
        println!("{line}");
    }
    print_diagnostics(&outcome.diagnostics);
    print_diagnostics(&problems);
    Ok(if problems.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The document at `path`, if it exists.
fn read_doc(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}
