//! Which platforms `lock()` works for when `platforms` does not name them all: `locked`
//! among them (every platform the lock covers), or none given (the `cliConfig`'s
//! `tflock_platforms`; for the npm bin also `TFLOCK_PLATFORMS` and this machine's platform,
//! keeping a several-platform lock's). Core's `PlatformRequest` decides, as for the CLI's
//! `providers lock`; this file learns the lock's platforms as the CLI's
//! `host/locked_platforms.rs` does (one package-metadata query per locked provider, and the
//! cache's `h1:` of each `zh:`), and the hashes `lockfile coverage` checks a lock against.

use crate::convert::{get, opt_string, to_js};
use crate::error::{diagnostic_error, error, JsResult};
use crate::hash_cache::JsCache;
use crate::registry_host::Host;
use std::future::Future;
use std::pin::Pin;
use tflock_core::api::coverage::{coverage_query_failure, learn_hashes, KnownHashes};
use tflock_core::api::hash::PackageHash;
use tflock_core::api::lock_file::Locks;
use tflock_core::api::platforms::{
    locked_platforms, probe_platforms, PlatformOrigin, PlatformRequest, LOCKED,
};
use tflock_core::api::version::Version;
use tflock_core::api::{
    FetchedPackage, MetadataQuery, MetadataStep, PackageId, Platform, Provider, SortedMap,
    SourceError, SourcePackage, SourceSet,
};
use tflock_core::{Diagnostics, Flavor};
use wasm_bindgen::JsValue;

/// The bin's `TFLOCK_PLATFORMS` value (cli.js); not part of the documented options.
const ENV: &str = "__platformsEnv";
/// The bin's platform in `os_arch` form (cli.js), for the CLI's default.
const CURRENT: &str = "__currentPlatform";

/// The platforms still to choose, and the locks to learn the covered ones from.
pub struct Choice {
    request: PlatformRequest,
    current: Option<Platform>,
    /// The probe order's start without `current`: any order finds the lock's platforms.
    fallback: Platform,
    learn_from: Locks,
}

/// Whether `lock()`'s `platforms` (`names`, `None` when absent) leave the choice to core.
pub fn needs_choice(names: Option<&[String]>) -> bool {
    names.is_none_or(|n| n.is_empty() || n.iter().any(|p| p == LOCKED))
}

impl Choice {
    /// The request from `platforms` (`names`), the bin's environment value and the CLI
    /// configuration's list; `learn_from` is the lock whose platforms `locked` stands for.
    pub fn new(
        options: &JsValue,
        names: &[String],
        config: Option<&[String]>,
        learn_from: Locks,
    ) -> JsResult<Choice> {
        let env = opt_string(options, ENV)?;
        let request = PlatformRequest::new(names, env.as_deref(), config).map_err(first_error)?;
        let current = match opt_string(options, CURRENT)? {
            Some(p) => Some(
                Platform::parse(&p).map_err(|e| error("Invalid target platform", e.to_string()))?,
            ),
            None => None,
        };
        Ok(Choice {
            request,
            current,
            fallback: Platform::new("linux", "amd64"),
            learn_from,
        })
    }

    /// What to ask the sources first: the locked providers, probed for the platforms they
    /// cover, when the request needs the lock's platforms.
    pub fn ask(&self, keep_locked: bool) -> Option<Ask> {
        self.request
            .needs_locked(&self.learn_from, keep_locked)
            .then(|| Ask {
                locks: self.learn_from.clone(),
                platforms: probe_platforms(self.current.as_ref().unwrap_or(&self.fallback)),
                probe: true,
            })
    }

    /// The platforms to lock and the line to tell the user (the CLI's stderr line), from
    /// what [`learn`] found for [`Choice::ask`].
    pub fn resolve(
        self,
        learned: Option<&Learned>,
        keep_locked: bool,
    ) -> JsResult<(Vec<Platform>, Option<String>)> {
        let current = match (&self.current, &self.request.origin) {
            (Some(p), _) => p,
            (None, PlatformOrigin::Default) => {
                return Err(error(
                    "Invalid argument",
                    "\"platforms\" is required (os_arch names, or \"locked\")",
                ))
            }
            // Only the default uses this machine's platform.
            (None, _) => &self.fallback,
        };
        let locked = learned.map(|l| locked_platforms(&self.learn_from, &l.known));
        let choice = self
            .request
            .resolve(current, locked.as_ref(), keep_locked)
            .map_err(|d| diagnostic_error(&d))?;
        Ok((choice.platforms, choice.message))
    }
}

/// Which locked providers to ask about which platforms (see [`learn`]).
pub struct Ask {
    locks: Locks,
    platforms: Vec<Platform>,
    probe: bool,
}

impl Ask {
    /// Every one of `platforms` for every provider `locks` has (`lockfile coverage`).
    pub fn all(locks: &Locks, platforms: &[Platform]) -> Ask {
        Ask {
            locks: locks.clone(),
            platforms: platforms.to_vec(),
            probe: false,
        }
    }
}

/// What the sources and the cache said: hashes per provider and platform, the failures,
/// and the `(provider, platform)` pairs they left unchecked.
pub struct Learned {
    known: KnownHashes,
    diags: Diagnostics,
    unchecked: Vec<(String, String)>,
}

/// The first error of a list as a thrown `Error`.
fn first_error(diags: Diagnostics) -> JsValue {
    diags
        .iter()
        .next()
        .map_or_else(|| error("Invalid target platform", ""), diagnostic_error)
}

/// The sources' metadata for one package, each request performed with the host's `fetch`.
async fn metadata(
    set: &mut SourceSet,
    host: &Host<'_>,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
) -> Result<SourcePackage, SourceError> {
    let package = PackageId {
        provider: provider.clone(),
        version: version.clone(),
        platform: platform.clone(),
    };
    let mut query = MetadataQuery::new(set, &package);
    loop {
        match query.step(set) {
            MetadataStep::Answer(found) => return found,
            MetadataStep::Request(req) => query.respond(host.perform(req).await),
        }
    }
}

/// Adds to each platform's hashes the `h1:` the cache has for its `zh:`s (the CLI's
/// `HashCache::add_h1s`).
async fn add_h1s(cache: &JsCache, per_platform: &mut SortedMap<Platform, Vec<PackageHash>>) {
    for hashes in per_platform.values_mut() {
        let zhs: Vec<PackageHash> = hashes.iter().filter(|h| h.is_zh()).cloned().collect();
        for zh in zhs {
            if let Some(FetchedPackage::Archive { hashes: found, .. }) = cache.lookup(&zh).await {
                if !hashes.contains(&found.h1) {
                    hashes.push(found.h1);
                }
            }
        }
    }
}

/// Asks the sources (and the cache) what `ask` names: all its platforms, or with `probe`
/// until one answers (any platform's answer lists them all). A failure is core's coverage
/// diagnostic, with the pair it leaves unchecked; "not supported" is none (the release
/// lacks the platform), and only after it does probing ask the next platform. Boxed, so
/// the lock run's own future stays as it was (its code is the module's largest function).
pub fn learn<'a>(
    ask: &'a Ask,
    set: &'a mut SourceSet,
    host: &'a Host<'a>,
    flavor: Flavor,
) -> Pin<Box<dyn Future<Output = Learned> + 'a>> {
    Box::pin(async move {
        let mut out = Learned {
            known: KnownHashes::new(),
            diags: Diagnostics::new(),
            unchecked: Vec::new(),
        };
        for lock in ask.locks.providers() {
            let mut per_platform = SortedMap::new();
            for platform in &ask.platforms {
                match metadata(set, host, lock.addr(), lock.version(), platform).await {
                    Ok(pkg) => {
                        learn_hashes(&pkg, &mut per_platform);
                        if ask.probe {
                            break;
                        }
                    }
                    Err(e) => {
                        let failed = coverage_query_failure(
                            lock.addr(),
                            lock.version(),
                            platform,
                            &e,
                            flavor,
                        );
                        if let Some(d) = failed {
                            if ask.probe {
                                break;
                            }
                            out.diags.push(d);
                            out.unchecked
                                .push((lock.addr().to_string(), platform.to_string()));
                        }
                    }
                }
            }
            add_h1s(host.cache, &mut per_platform).await;
            out.known.insert(lock.addr().clone(), per_platform);
        }
        out
    })
}

/// `lock({ __coverage: true, lock, platforms, ... })` (the bin's `lockfile coverage`):
/// `{ known, unchecked, diagnostics, display }` — `known` for `lockCoverage()`, `unchecked`
/// the `[provider, platform]` pairs whose metadata could not be had (with their
/// diagnostics), `display` each provider's name as the CLI prints it.
pub fn coverage(learned: Learned, flavor: Flavor) -> JsResult<JsValue> {
    use crate::error::set;
    use js_sys::{Array, Object};
    let Learned {
        known,
        diags,
        unchecked,
    } = learned;
    let strings = |items: &mut dyn Iterator<Item = String>| {
        items.map(|s| JsValue::from_str(&s)).collect::<Array>()
    };
    let table = Object::new();
    let display = Object::new();
    for (provider, per_platform) in known {
        let row = Object::new();
        for (platform, hashes) in per_platform {
            set(
                &row,
                &platform.to_string(),
                &strings(&mut hashes.iter().map(ToString::to_string)),
            );
        }
        let name = provider.to_string();
        set(&table, &name, &row);
        set(
            &display,
            &name,
            &JsValue::from_str(&provider.for_display(flavor)),
        );
    }
    let unchecked: Array = unchecked
        .into_iter()
        .map(|(p, pl)| JsValue::from(strings(&mut [p, pl].into_iter())))
        .collect();
    let out = Object::new();
    set(&out, "known", &table);
    set(&out, "unchecked", &unchecked);
    set(
        &out,
        "diagnostics",
        &to_js(&crate::config::diagnostics(&diags))?,
    );
    set(&out, "display", &display);
    Ok(out.into())
}

/// Whether `lock()` was called for `lockfile coverage`.
pub fn is_coverage(options: &JsValue) -> bool {
    get(options, "__coverage").as_bool() == Some(true)
}
