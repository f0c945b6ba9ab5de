//! Drives core's sans-IO lock run: performs its IO requests on a bounded pool of worker
//! threads and feeds responses back as they complete, so downloads overlap.

use super::hash_cache::HashCache;
use super::mirror_dir;
use super::package::{download as download_package, hash_local, Fetched};
use super::provider_dir::ProviderDir;
use super::sources::Sources;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tflock_core::api::hash::PackageHash;
use tflock_core::api::version::Version;
use tflock_core::api::{IoId, IoRequest, IoResponse, LocalPlace, LockRun, PackageId, Planner};
use tflock_core::api::{Platform, Provider};

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

/// Runs `planner` to completion with core's [`LockRun`]: the main thread takes its IO
/// requests and responses, the workers only perform them. Returns the zips kept for
/// installation.
pub fn drive(planner: &mut Planner, host: &Host<'_>) -> Kept {
    let bars = MultiProgress::with_draw_target(if host.show_progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    });
    let (job_tx, job_rx) = mpsc::channel::<(IoId, IoRequest)>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(IoId, Performed)>();
    let mut kept = Kept::new();
    let mut set = host.sources.set();
    let mut run = LockRun::new(planner, &mut set);

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
                let Ok((id, req)) = job else { return };
                if done_tx.send((id, perform(host, &req, &bars))).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);

        let mut outstanding = 0usize;
        loop {
            // The commands print the planner's messages in their final order; live output
            // is the progress bars only, so no line appears twice on a terminal.
            run.progress();
            match run.requests() {
                Ok(requests) => {
                    for req in requests {
                        outstanding += 1;
                        if job_tx.send(req).is_err() {
                            outstanding -= 1;
                        }
                    }
                }
                Err(e) => eprintln!("internal error: {e}"),
            }
            if outstanding == 0 {
                break;
            }
            let Ok((id, (response, fetched))) = done_rx.recv() else {
                break;
            };
            outstanding -= 1;
            if let Some((p, f)) = fetched {
                kept.insert((p.provider, p.version, p.platform), f);
            }
            if let Err(e) = run.respond(id, response) {
                eprintln!("internal error: {e}");
            }
        }
        drop(job_tx);
    });
    kept
}

/// A response, and the package fetched for it when one was.
type Performed = (IoResponse, Option<(PackageId, Fetched)>);

fn perform(host: &Host<'_>, req: &IoRequest, bars: &MultiProgress) -> Performed {
    if let Some(response) = host.sources.perform(req) {
        return (response, None);
    }
    let fetched = |package: &PackageId, result: Result<Fetched, String>| match result {
        Ok(f) => (
            IoResponse::Package(Ok(f.package.clone())),
            Some((package.clone(), f)),
        ),
        Err(e) => (IoResponse::Package(Err(e)), None),
    };
    match req {
        IoRequest::ReadLocalCopy { place, package } => {
            let dir = match place {
                LocalPlace::Installed => host.installed.as_ref(),
                LocalPlace::PluginCache => host.cache.as_ref(),
            };
            (IoResponse::LocalCopy(local_h1(dir, package)), None)
        }
        IoRequest::Download {
            download,
            package,
            known_zh,
        } => {
            if let Some(dir) = &host.mirror_dir {
                let p = package;
                if let Some(f) =
                    mirror_dir::reuse(dir, &p.provider, &p.version, &p.platform, known_zh.as_ref())
                {
                    return fetched(package, Ok(f));
                }
            }
            if host.keep_dir.is_none() {
                let cached = host
                    .hash_cache
                    .as_ref()
                    .zip(known_zh.as_ref())
                    .and_then(|(cache, zh)| cache.get(zh));
                if let Some(package) = cached {
                    return (IoResponse::Package(Ok(package)), None);
                }
            }
            let bar = package_bar(bars, package);
            let result = download_package(
                host.sources.http(),
                download,
                host.keep_dir.as_deref(),
                &bar,
            );
            bar.finish_and_clear();
            fetched(package, result)
        }
        IoRequest::HashLocal {
            path,
            is_dir,
            package,
        } => {
            let bar = package_bar(bars, package);
            let result = hash_local(path, *is_dir, &bar);
            bar.finish_and_clear();
            fetched(package, result)
        }
        // `Sources::perform` answered these above.
        IoRequest::Get { .. } | IoRequest::ListDir { .. } => (
            IoResponse::Http(Err("internal error: not a package request".into())),
            None,
        ),
    }
}

/// A progress bar for one package's bytes.
fn package_bar(bars: &MultiProgress, package: &PackageId) -> ProgressBar {
    let bar = bars.add(ProgressBar::new(0));
    bar.set_style(
        ProgressStyle::with_template("  {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(format!(
        "{} {} {}",
        package.provider, package.version, package.platform
    ));
    bar
}

fn local_h1(dir: Option<&ProviderDir>, p: &PackageId) -> Option<PackageHash> {
    let h = dir?.installed_h1(&p.provider, &p.version, &p.platform)?;
    PackageHash::parse(&h).ok()
}
