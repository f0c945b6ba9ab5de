//! Drives the core's sans-IO planner: performs its requests on a bounded pool of worker
//! threads and feeds answers back as they complete, so downloads overlap.

use super::hash_cache::HashCache;
use super::mirror_dir;
use super::package::{fetch, Fetched};
use super::provider_dir::ProviderDir;
use super::sources::Sources;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::hash::PackageHash;
use tflock_core::install::{Answer, Need, NeedId, PackageLocation, Planner, Request};
use tflock_core::version::Version;

/// What the host needs to answer requests.
pub struct Host<'a> {
    /// Installation sources.
    pub sources: &'a Sources,
    /// The working directory's provider cache (init), for `InstalledPackage`.
    pub installed: Option<ProviderDir>,
    /// The global plugin cache, for `CachedPackage`.
    pub cache: Option<ProviderDir>,
    /// Where downloaded zips are kept for installation (init); `None` hashes and drops them.
    pub keep_dir: Option<PathBuf>,
    /// Concurrent requests.
    pub parallelism: usize,
    /// Print progress lines and bars (off for `-json`).
    pub show_progress: bool,
    /// Verified package hashes by `zh:`; consulted only when packages need not be kept.
    pub hash_cache: Option<HashCache>,
    /// The mirror directory `providers mirror` updates: an archive already there that is
    /// the one the source announced is hashed in place instead of downloaded.
    pub mirror_dir: Option<PathBuf>,
}

/// Packages fetched during the run, by (provider, version, platform).
pub type Kept = BTreeMap<(Provider, Version, Platform), Fetched>;

/// Runs `planner` to completion. Returns the zips kept for installation.
pub fn drive(planner: &mut Planner, host: &Host<'_>) -> Kept {
    let bars = MultiProgress::with_draw_target(if host.show_progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    });
    let (job_tx, job_rx) = mpsc::channel::<Request>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(
        NeedId,
        Answer,
        Option<(Provider, Version, Platform, Fetched)>,
    )>();
    let mut kept = Kept::new();

    std::thread::scope(|scope| {
        for _ in 0..host.parallelism.max(1) {
            let job_rx = Arc::clone(&job_rx);
            let done_tx = done_tx.clone();
            let bars = bars.clone();
            scope.spawn(move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(req) = job else { return };
                let (answer, fetched) = perform(host, &req.need, &bars);
                if done_tx.send((req.id, answer, fetched)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);

        let mut outstanding = 0usize;
        loop {
            // The commands print the planner's messages in their final order; live output
            // is the progress bars only, so no line appears twice on a terminal.
            planner.drain_progress();
            for req in planner.take_requests() {
                outstanding += 1;
                if job_tx.send(req).is_err() {
                    outstanding -= 1;
                }
            }
            if outstanding == 0 {
                break;
            }
            let Ok((id, answer, fetched)) = done_rx.recv() else {
                break;
            };
            outstanding -= 1;
            if let Some((p, v, pl, f)) = fetched {
                kept.insert((p, v, pl), f);
            }
            if let Err(e) = planner.answer(id, answer) {
                eprintln!("internal error: {e}");
            }
        }
        drop(job_tx);
    });
    kept
}

type Performed = (Answer, Option<(Provider, Version, Platform, Fetched)>);

fn perform(host: &Host<'_>, need: &Need, bars: &MultiProgress) -> Performed {
    match need {
        Need::Versions { provider } => (Answer::Versions(host.sources.versions(provider)), None),
        Need::InstalledPackage {
            provider,
            version,
            platform,
        } => (
            Answer::LocalPackage(local_h1(
                host.installed.as_ref(),
                provider,
                version,
                platform,
            )),
            None,
        ),
        Need::CachedPackage {
            provider,
            version,
            platform,
        } => (
            Answer::LocalPackage(local_h1(host.cache.as_ref(), provider, version, platform)),
            None,
        ),
        Need::PackageMeta {
            provider,
            version,
            platform,
        } => (
            Answer::PackageMeta(host.sources.package_meta(
                provider,
                version,
                &platform.to_string(),
            )),
            None,
        ),
        Need::Package {
            provider,
            version,
            platform,
            location,
            known_zh,
            ..
        } => {
            if let (Some(dir), PackageLocation::Url(_)) = (&host.mirror_dir, location) {
                if let Some(f) =
                    mirror_dir::reuse(dir, provider, version, platform, known_zh.as_ref())
                {
                    let answer = Answer::Package(Ok(f.package.clone()));
                    return (
                        answer,
                        Some((provider.clone(), version.clone(), platform.clone(), f)),
                    );
                }
            }
            if host.keep_dir.is_none() {
                let cached = host
                    .hash_cache
                    .as_ref()
                    .zip(known_zh.as_ref())
                    .and_then(|(cache, zh)| cache.get(zh));
                if let Some(package) = cached {
                    return (Answer::Package(Ok(package)), None);
                }
            }
            let bar = bars.add(ProgressBar::new(0));
            bar.set_style(
                ProgressStyle::with_template(
                    "  {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_message(format!("{provider} {version} {platform}"));
            let result = fetch(
                host.sources.http(),
                host.sources.flavor(),
                location,
                host.keep_dir.as_deref(),
                &bar,
            );
            bar.finish_and_clear();
            match result {
                Ok(f) => {
                    let answer = Answer::Package(Ok(f.package.clone()));
                    (
                        answer,
                        Some((provider.clone(), version.clone(), platform.clone(), f)),
                    )
                }
                Err(e) => (
                    Answer::Package(Err(tflock_core::install::SourceError::other(e))),
                    None,
                ),
            }
        }
    }
}

fn local_h1(
    dir: Option<&ProviderDir>,
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Option<PackageHash> {
    let h = dir?.installed_h1(p, v, platform)?;
    PackageHash::parse(&h).ok()
}
