//! `lock(options)`: one call from requirements to a lock file, driving core's lock run
//! against provider registries and network mirrors through a caller-supplied `fetch`.
//!
//! A thin async host over `tflock_core::api::LockRun`, which the CLI drives too: core
//! decides which sources handle a provider (a CLI config's `provider_installation`, or one
//! network mirror), runs the service discovery, registry and mirror conversations, validates
//! every document and words every message; this file only performs each IO request with
//! `fetch` (several at once, as the CLI does) and hashes the zips as they arrive. Nothing is
//! installed and there is no local package cache; filesystem mirrors cannot be read from here.

use crate::convert::{entries, get, opt_string};
use crate::error::{diagnostic_error, error, JsResult};
use crate::hash_cache::JsCache;
use crate::host_sha256::WasmSha256;
use crate::planner::{archive_package, fetched_zip, outcome_js, plan_args};
use crate::platforms::{Ask, Choice};
use js_sys::{Function, Promise, Uint8Array};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use tflock_core::api::cli_config::CliConfig;
use tflock_core::api::cli_config::Credentials;
use tflock_core::api::hash::{ZipHasher, ZipLimits};
use tflock_core::api::lock_file::Locks;
use tflock_core::api::parse::option_mirror_url;
use tflock_core::api::version::Version;
use tflock_core::api::{
    FetchedPackage, HttpResponse, IoId, IoRequest, IoResponse, LockRun, LockSources, Mode, Outcome,
    PackageDownload, PackageId, PlanOptions, Planner, Requirements,
};
use tflock_core::api::{Platform, Provider};
use tflock_core::{Flavor, Severity};
use url::Url;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How many requests a run has in flight at once (a browser allows six connections per
/// host; a Worker six simultaneous subrequests).
const IN_FLIGHT: usize = 6;

fn js_message(v: JsValue) -> String {
    crate::error::message_of(&v, "fetch failed")
}

/// The `Content-Type` of a `Response`-like object (`headers.get("content-type")`).
fn content_type(resp: &JsValue) -> Option<String> {
    let headers = get(resp, "headers");
    let lookup: Function = get(&headers, "get").dyn_into().ok()?;
    lookup
        .call1(&headers, &JsValue::from_str("content-type"))
        .ok()?
        .as_string()
}

/// Hashes a package `Response` as its body streams in, so memory stays bounded whatever
/// the zip's size (a Worker has 128 MB); falls back to `arrayBuffer()` for `Response`-like
/// objects without a readable `body`.
async fn stream_zip(
    resp: &JsValue,
    progress: &dyn Fn(u64, bool),
) -> Result<FetchedPackage, String> {
    let fail = |e: String| e;
    let body = get(resp, "body");
    let reader = if body.is_object() {
        get(&body, "getReader")
            .dyn_into::<Function>()
            .ok()
            .and_then(|f| f.call0(&body).ok())
    } else {
        None
    };
    let Some(reader) = reader else {
        let read: Function = get(resp, "arrayBuffer")
            .dyn_into()
            .map_err(|_| fail("fetch must resolve to a Response".to_string()))?;
        let buf = read.call0(resp).map_err(|e| fail(js_message(e)))?;
        let buf = JsFuture::from(Promise::resolve(&buf))
            .await
            .map_err(|e| fail(js_message(e)))?;
        let bytes = Uint8Array::new(&buf).to_vec();
        progress(bytes.len() as u64, true);
        return fetched_zip(&bytes).map_err(|e| e.message);
    };
    let read: Function = get(&reader, "read")
        .dyn_into()
        .map_err(|_| fail("the response body has no reader".to_string()))?;
    let mut hasher = ZipHasher::with_sha256(ZipLimits::default(), WasmSha256::current());
    let mut buf = Vec::new();
    loop {
        let next = read.call0(&reader).map_err(|e| fail(js_message(e)))?;
        let chunk = JsFuture::from(Promise::resolve(&next))
            .await
            .map_err(|e| fail(js_message(e)))?;
        if get(&chunk, "done").as_bool().unwrap_or(false) {
            break;
        }
        let value = Uint8Array::new(&get(&chunk, "value"));
        buf.resize(value.length() as usize, 0);
        value.copy_to(&mut buf);
        hasher.update(&buf).map_err(|e| fail(e.to_string()))?;
        progress(hasher.bytes_seen(), false);
    }
    let size = hasher.bytes_seen();
    progress(size, true);
    let hashes = crate::hash::checked(hasher.finish()).map_err(|e| fail(js_message(e)))?;
    archive_package(hashes, size).map_err(|e| e.message)
}

/// What a lock run reports while it works (`onProgress` in JavaScript).
#[derive(Debug, Clone, Copy)]
pub enum LockEvent<'a> {
    /// One of the planner's progress lines, with `[bold]` markup, as the CLI prints them.
    Message(&'a str),
    /// A package download: bytes received so far, the size when the server said it, and
    /// whether the download has ended.
    Package {
        /// The provider.
        provider: &'a Provider,
        /// Its version.
        version: &'a Version,
        /// The package's platform.
        platform: &'a Platform,
        /// Bytes received so far.
        received: u64,
        /// `Content-Length`, when given.
        total: Option<u64>,
        /// The last report for this package.
        done: bool,
    },
}

/// The caller's `fetch`, the credentials, the hash cache and where progress goes.
pub(crate) struct Host<'p> {
    fetch: Function,
    credentials: Credentials,
    progress: &'p dyn Fn(LockEvent),
    pub(crate) cache: &'p JsCache,
}

impl Host<'_> {
    /// `fetch(url)`, the `Response` unread; with a token, `fetch(url, { headers })`
    /// carrying it as a bearer `Authorization`.
    async fn call(&self, url: &Url, token: Option<&str>) -> Result<JsValue, String> {
        let target = JsValue::from_str(url.as_str());
        let call = match token {
            None => self.fetch.call1(&JsValue::NULL, &target),
            Some(token) => {
                let headers = js_sys::Object::new();
                js_sys::Reflect::set(
                    &headers,
                    &JsValue::from_str("Authorization"),
                    &JsValue::from_str(&format!("Bearer {token}")),
                )
                .map_err(js_message)?;
                let init = js_sys::Object::new();
                js_sys::Reflect::set(&init, &JsValue::from_str("headers"), &headers)
                    .map_err(js_message)?;
                self.fetch.call2(&JsValue::NULL, &target, &init)
            }
        }
        .map_err(js_message)?;
        JsFuture::from(Promise::resolve(&call))
            .await
            .map_err(|e| unreachable_text(url, &e))
    }

    /// `fetch(url)`, read whole (registry and mirror documents are small), with
    /// `auth_host`'s token when one is configured.
    async fn get(&self, url: &Url, auth_host: Option<&str>) -> Result<HttpResponse, String> {
        let token = auth_host.and_then(|h| self.credentials.token_for(h));
        let resp = self.call(url, token).await?;
        let status = get(&resp, "status").as_f64().unwrap_or(0.0) as u16;
        let status_text = get(&resp, "statusText").as_string().unwrap_or_default();
        let final_url = get(&resp, "url")
            .as_string()
            .and_then(|u| Url::parse(&u).ok())
            .unwrap_or_else(|| url.clone());
        let content_type = content_type(&resp);
        let read: Function = get(&resp, "arrayBuffer")
            .dyn_into()
            .map_err(|_| "fetch must resolve to a Response".to_string())?;
        let buf = read.call0(&resp).map_err(js_message)?;
        let buf = JsFuture::from(Promise::resolve(&buf))
            .await
            .map_err(js_message)?;
        Ok(HttpResponse {
            status,
            status_text: format!("{status} {status_text}").trim_end().to_string(),
            content_type,
            final_url,
            body: Uint8Array::new(&buf).to_vec(),
            had_credentials: token.is_some(),
        })
    }

    /// Performs one of the run's IO requests; a download the cache knows is answered from
    /// it, and one made is offered to it once verified.
    pub(crate) async fn perform(&self, req: IoRequest) -> IoResponse {
        match req {
            IoRequest::Get { url, auth_host } => {
                IoResponse::Http(self.get(&url, auth_host.as_deref()).await)
            }
            IoRequest::ListDir { path } => IoResponse::Listing(Err(format!(
                "{path}: filesystem mirrors are not available to lock()"
            ))),
            // No working directory and no plugin cache in a JS host.
            IoRequest::ReadLocalCopy { .. } => IoResponse::LocalCopy(None),
            IoRequest::Download {
                download,
                package,
                known_zh,
                ..
            } => {
                if let Some(zh) = &known_zh {
                    if let Some(hit) = self.cache.lookup(zh).await {
                        return IoResponse::Package(Ok(hit));
                    }
                }
                let fetched = self.package(&download, &package).await;
                if let Ok(f) = &fetched {
                    self.cache.note(&package.provider, &package.platform, f);
                }
                IoResponse::Package(fetched)
            }
            IoRequest::HashLocal { .. } => {
                IoResponse::Package(Err("local packages are not available to lock()".to_string()))
            }
        }
    }

    /// Downloads a package archive and hashes it as it streams.
    async fn package(
        &self,
        download: &PackageDownload,
        package: &PackageId,
    ) -> Result<FetchedPackage, String> {
        let token = download
            .auth_host
            .as_deref()
            .and_then(|h| self.credentials.token_for(h));
        let resp = self.call(&download.url, token).await?;
        let status = get(&resp, "status").as_f64().unwrap_or(0.0) as u16;
        let reason = get(&resp, "statusText").as_string().unwrap_or_default();
        download.check_status(status, &reason)?;
        // No `check_length`: `fetch` decodes a compressed body, and its Content-Length
        // counts the encoded bytes.
        let total = content_length(&resp);
        stream_zip(&resp, &|received, done| {
            (self.progress)(LockEvent::Package {
                provider: &package.provider,
                version: &package.version,
                platform: &package.platform,
                received,
                total,
                done,
            })
        })
        .await
    }
}

/// `lock()`'s source options in core's types: the `cliConfig` text parsed (its errors
/// first), `hosts` added as `host` blocks, `credentials`, and `networkMirror` (an `https:`
/// URL, core's rule).
fn lock_sources(options: &JsValue, flavor: Flavor) -> JsResult<LockSources> {
    let mut cfg = match opt_string(options, "cliConfig")? {
        None => CliConfig::default(),
        Some(text) => {
            let (cfg, diags) = CliConfig::parse(&text, "cliConfig", flavor);
            if let Some(d) = diags.iter().find(|d| d.severity == Severity::Error) {
                return Err(diagnostic_error(d));
            }
            cfg
        }
    };
    let hosts = get(options, "hosts");
    if !(hosts.is_undefined() || hosts.is_null()) {
        for (host, services) in entries(&hosts, "hosts")? {
            let mut map = tflock_core::api::SortedMap::new();
            for (id, url) in entries(&services, "host services")? {
                map.insert(id, url.as_string().unwrap_or_default());
            }
            cfg.hosts.insert(host, map);
        }
    }
    let credentials = credentials(options)?;
    let network_mirror = match opt_string(options, "networkMirror")? {
        Some(raw) => Some(
            option_mirror_url(&raw, "networkMirror")
                .map_err(|e| diagnostic_error(&e.to_diagnostic()))?,
        ),
        None => None,
    };
    Ok(LockSources {
        cli_config: cfg,
        network_mirror,
        credentials,
    })
}

/// `credentials` (`{ host: token }`, like `TF_TOKEN_<host>` variables, so they win over the
/// `cliConfig`'s `credentials` blocks).
fn credentials(options: &JsValue) -> JsResult<Credentials> {
    let mut creds = Credentials::new();
    let given = get(options, "credentials");
    if !(given.is_undefined() || given.is_null()) {
        for (host, token) in entries(&given, "credentials")? {
            let Some(token) = token.as_string() else {
                return Err(error(
                    "Invalid argument",
                    format!("credentials[{host:?}] must be a token string"),
                ));
            };
            if !creds.add_fallback(&host, &token) {
                return Err(error(
                    "Invalid argument",
                    format!("credentials has an invalid hostname {host:?}"),
                ));
            }
        }
    }
    Ok(creds)
}

/// `lock({ requirements, lock?, platforms, fetch, flavor?, mode?, hosts?, cliConfig?,
/// networkMirror?, credentials?, onProgress?, cache?, metadataHashes? })`: runs the planner (`providers lock` by
/// default) against the origin registries, the `cliConfig`'s `provider_installation`
/// methods, or one `networkMirror`, performing every request with `fetch(url)` (anything
/// returning a `Response`-like `{ status, statusText, url, headers?, arrayBuffer() }`), and
/// resolves to the outcome: the new lock file text, the change, the diagnostics and the
/// product's messages. `hosts` maps a hostname to its service URLs, like a CLI config `host`
/// block (`{ "example.com": { "providers.v1": "http://…/" } }`); `credentials` maps a
/// hostname (a mirror's `host:port`) to a bearer token sent only with its registry or mirror
/// documents, never with package downloads; `onProgress(event)` hears each progress line and
/// each package's received bytes.
#[wasm_bindgen(js_name = lock, unchecked_return_type = "PlanOutcome")]
pub async fn lock(
    #[wasm_bindgen(unchecked_param_type = "LockOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let (mut reqs, mut locks, opts) = plan_args(&options)?;
    let flavor = opts.flavor;
    let names = get(&options, "platforms");
    let names = (!names.is_undefined())
        .then(|| crate::convert::strings(&names, "platforms"))
        .transpose()?;
    let sources = lock_sources(&options, flavor)?;
    let choice = if crate::platforms::needs_choice(names.as_deref()) {
        // `locked` stands for the platforms of the lock as given: for `updateProvider()`,
        // the bumped provider's.
        let mut learn_from = locks.clone();
        if crate::update::is_update(&options) {
            let keep: Vec<_> = reqs.keys().cloned().collect();
            tflock_core::api::lock_file::retain_required(&mut learn_from, &keep);
        }
        Some(Choice::new(
            &options,
            names.as_deref().unwrap_or_default(),
            sources.cli_config.tflock_platforms.as_deref(),
            learn_from,
        )?)
    } else {
        None
    };
    let update = crate::update::planned(&options, &mut reqs, &mut locks, flavor)?;
    let listener = get(&options, "onProgress").dyn_into::<Function>().ok();
    let report = |event: LockEvent| {
        if let Some(f) = &listener {
            let _ = f.call1(&JsValue::NULL, &event_js(event));
        }
    };
    let fetch = fetch_option(&options)?;
    let cache = JsCache::from_options(&options)?;
    let run = Run {
        sources,
        fetch,
        progress: &report,
        cache,
        choice,
        coverage: crate::platforms::is_coverage(&options),
    };
    let (mut outcome, platforms, note) = match run_lock(reqs, locks, opts, run).await? {
        Ran::Lock(outcome, platforms, note) => (outcome, platforms, note),
        Ran::Coverage(found) => return Ok(found),
    };
    if let Some(update) = update {
        outcome = update.outcome(outcome);
    }
    let value = outcome_js(&outcome, flavor)?;
    let names: Vec<String> = platforms.iter().map(ToString::to_string).collect();
    crate::error::set(
        value.unchecked_ref(),
        "platforms",
        &crate::convert::to_js(&names)?,
    );
    let note = note.map_or(JsValue::NULL, |n| JsValue::from_str(&n));
    crate::error::set(value.unchecked_ref(), "platformNote", &note);
    Ok(value)
}

/// What a run works with besides the planner's settings.
struct Run<'p> {
    sources: LockSources,
    fetch: Function,
    progress: &'p dyn Fn(LockEvent),
    cache: JsCache,
    /// The platforms still to choose (`locked`, or none given).
    choice: Option<Choice>,
    /// `lockfile coverage` for the bin: the sources' hashes for the lock's providers.
    coverage: bool,
}

/// What a run produced.
enum Ran {
    /// The outcome, the platforms locked and the line about how they were chosen.
    Lock(Outcome, Vec<Platform>, Option<String>),
    /// `{ known, unchecked, diagnostics }` for the bin's `lockfile coverage`.
    Coverage(JsValue),
}

/// The `fetch` option: a function.
fn fetch_option(options: &JsValue) -> JsResult<Function> {
    get(options, "fetch")
        .dyn_into()
        .map_err(|_| error("Invalid argument", "\"fetch\" must be a function"))
}

/// `lock()` for Rust callers in the browser (the playground): the same sources, requests and
/// hashing, with the requirements, lock, options and sources in core's types; `fetch`
/// performs every request.
pub async fn lock_with(
    reqs: Requirements,
    locks: Locks,
    opts: PlanOptions,
    sources: LockSources,
    fetch: Function,
    progress: &dyn Fn(LockEvent),
) -> JsResult<Outcome> {
    let run = Run {
        sources,
        fetch,
        progress,
        cache: JsCache::none(),
        choice: None,
        coverage: false,
    };
    match run_lock(reqs, locks, opts, run).await? {
        Ran::Lock(outcome, ..) => Ok(outcome),
        Ran::Coverage(_) => Err(error("Internal error", "no lock run")),
    }
}

/// [`lock_with`] with the caller's verified hash cache: a download whose `zh:` the cache
/// knows is answered from it, and the packages downloaded and verified are offered to it.
async fn run_lock(
    reqs: Requirements,
    locks: Locks,
    mut opts: PlanOptions,
    run: Run<'_>,
) -> JsResult<Ran> {
    let Run {
        sources,
        fetch,
        progress,
        cache,
        choice,
        coverage,
    } = run;
    let mut set = sources.source_set(opts.flavor).map_err(|diags| {
        diags
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map_or_else(
                || error("Invalid provider installation settings", ""),
                diagnostic_error,
            )
    })?;
    let host = Host {
        fetch,
        credentials: sources.credentials(),
        progress,
        cache: &cache,
    };
    // What the sources say before the run: for `lockfile coverage`, or the lock's platforms.
    let keep_locked = opts.mode == Mode::ProvidersLock;
    let ask = if coverage {
        Some(Ask::all(&locks, &opts.platforms))
    } else {
        choice.as_ref().and_then(|c| c.ask(keep_locked))
    };
    let learned = match &ask {
        Some(ask) => Some(crate::platforms::learn(ask, &mut set, &host, opts.flavor).await),
        None => None,
    };
    if coverage {
        let learned = learned.ok_or_else(|| error("Internal error", "nothing learned"))?;
        return Ok(Ran::Coverage(crate::platforms::coverage(
            learned,
            opts.flavor,
        )?));
    }
    let mut note = None;
    if let Some(choice) = choice {
        (opts.platforms, note) = choice.resolve(learned.as_ref(), keep_locked)?;
    }
    let platforms = opts.platforms.clone();
    let internal = |e: tflock_core::api::RunError| error("Internal error", e.to_string());
    let mut planner = Planner::new(reqs, locks, opts);
    let mut run = LockRun::new(&mut planner, &mut set);
    // Requests not started yet, oldest first (a Vec: a VecDeque costs the module 1 KB).
    let mut queue: Vec<(IoId, IoRequest)> = Vec::new();
    type Performing<'h> = Pin<Box<dyn Future<Output = IoResponse> + 'h>>;
    let mut in_flight: Vec<(IoId, Performing<'_>)> = Vec::new();
    loop {
        for line in run.progress() {
            progress(LockEvent::Message(&line));
        }
        queue.extend(run.requests().map_err(internal)?);
        while in_flight.len() < IN_FLIGHT && !queue.is_empty() {
            let (id, req) = queue.remove(0);
            in_flight.push((id, Box::pin(host.perform(req))));
        }
        if in_flight.is_empty() {
            break;
        }
        // The first request to complete, whichever it is.
        let (id, response) = std::future::poll_fn(|cx| {
            for i in 0..in_flight.len() {
                if let Poll::Ready(response) = in_flight[i].1.as_mut().poll(cx) {
                    let (id, _) = in_flight.swap_remove(i);
                    return Poll::Ready((id, response));
                }
            }
            Poll::Pending
        })
        .await;
        run.respond(id, response).map_err(internal)?;
    }
    drop(run);
    drop(in_flight);
    let outcome = planner.finish();
    cache.store(&outcome);
    Ok(Ran::Lock(outcome, platforms, note))
}

/// A progress event as JavaScript sees it (`LockProgress` in the types).
fn event_js(event: LockEvent) -> JsValue {
    let o = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
    };
    match event {
        LockEvent::Message(text) => {
            set("kind", "message".into());
            set("text", text.into());
        }
        LockEvent::Package {
            provider,
            version,
            platform,
            received,
            total,
            done,
        } => {
            set("kind", "package".into());
            set("provider", provider.to_string().into());
            set("version", version.to_string().into());
            set("platform", platform.to_string().into());
            set("received", (received as f64).into());
            set("total", total.map_or(JsValue::NULL, |t| (t as f64).into()));
            set("done", done.into());
        }
    }
    o.into()
}

/// A response's `Content-Length`, when it has one.
fn content_length(resp: &JsValue) -> Option<u64> {
    let headers = get(resp, "headers");
    let lookup: Function = get(&headers, "get").dyn_into().ok()?;
    lookup
        .call1(&headers, &JsValue::from_str("content-length"))
        .ok()?
        .as_string()?
        .trim()
        .parse()
        .ok()
}

/// Why a `fetch` rejected, with what a user can check: `fetch` rejects only when no response
/// came, and browsers then say "Failed to fetch" for a refused connection, an untrusted
/// certificate and a missing CORS header alike, never which.
fn unreachable_text(url: &Url, e: &JsValue) -> String {
    let message = js_message(e.clone());
    format!(
        "request to {url} failed: {message} (the server is unreachable, its TLS certificate is \
         not trusted, or it does not allow this origin by CORS: open the URL in a browser tab \
         to tell which)"
    )
}
