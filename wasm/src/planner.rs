//! The sans-IO install planner as a JavaScript class: `next()` hands out requests,
//! `answer(id, answer)` takes the host's findings, `finish()` returns the outcome.

use crate::config::diagnostics;
use crate::convert::{bytes, entries, flavor, get, opt_string, string, strings, to_js};
use crate::error::{diagnostic_error, error, invalid_argument, JsResult};
use crate::host_sha256::WasmSha256;
use crate::lockfile::{lock_arg, lock_js};
use crate::views::{sorted, OutcomeJs};
use serde::Serialize;
use tflock_core::api::hash::{hash_zip_with, PackageHash, ZipHashes, ZipLimits};
use tflock_core::api::lock_file::Locks;
use tflock_core::api::plan::DownloadResponse;
use tflock_core::api::plan::{Answer, AvailableVersions, Need, NeedId};
use tflock_core::api::platforms::{PlatformRequest, PlatformSpec};
use tflock_core::api::version::{Constraints, Version};
use tflock_core::api::SortedMap;
use tflock_core::api::{
    requirements, FetchedPackage, HashSource, Mode, Outcome, OutcomeView, PlanOptions,
    Requirements, SourceError, SourceErrorKind, SourcePackage,
};
use tflock_core::api::{Platform, Provider};
use tflock_core::Flavor;
use wasm_bindgen::prelude::*;

/// A request as JavaScript sees it; `kind` says which answer fits.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestJs {
    id: u32,
    kind: &'static str,
    provider: String,
    version: Option<String>,
    platform: Option<String>,
    location: Option<serde_json::Value>,
    expect: Vec<String>,
    known_zh: Option<String>,
}

fn request_js(id: NeedId, need: &Need) -> JsResult<RequestJs> {
    let mut r = RequestJs {
        id: id.0,
        kind: "versions",
        provider: String::new(),
        version: None,
        platform: None,
        location: None,
        expect: Vec::new(),
        known_zh: None,
    };
    let (provider, version, platform) = match need {
        Need::Versions { provider } => (provider, None, None),
        Need::InstalledPackage {
            provider,
            version,
            platform,
        } => {
            r.kind = "installedPackage";
            (provider, Some(version), Some(platform))
        }
        Need::CachedPackage {
            provider,
            version,
            platform,
        } => {
            r.kind = "cachedPackage";
            (provider, Some(version), Some(platform))
        }
        Need::PackageMeta {
            provider,
            version,
            platform,
        } => {
            r.kind = "packageMeta";
            (provider, Some(version), Some(platform))
        }
        Need::Package {
            provider,
            version,
            platform,
            location,
            expect,
            known_zh,
        } => {
            r.kind = "package";
            r.location = Some(sorted(location)?);
            r.expect = expect.iter().map(ToString::to_string).collect();
            r.known_zh = known_zh.as_ref().map(ToString::to_string);
            (provider, Some(version), Some(platform))
        }
    };
    r.provider = provider.to_string();
    r.version = version.map(ToString::to_string);
    r.platform = platform.map(ToString::to_string);
    Ok(r)
}

/// `{ error: { message, kind?, hostname?, mirrorUrl? } }` as the core's `SourceError`.
fn source_error(e: &JsValue) -> JsResult<SourceError> {
    let message = string(e, "message")?;
    let kind = match opt_string(e, "kind")?.as_deref() {
        None | Some("other") => SourceErrorKind::Other,
        Some("host_no_providers" | "hostNoProviders") => SourceErrorKind::HostNoProviders {
            hostname: string(e, "hostname")?,
            other_version: get(e, "otherVersion").as_bool().unwrap_or(false),
        },
        Some("provider_not_known" | "providerNotKnown") => SourceErrorKind::ProviderNotKnown,
        Some("platform_not_supported" | "platformNotSupported") => {
            SourceErrorKind::PlatformNotSupported {
                mirror_url: opt_string(e, "mirrorUrl")?,
            }
        }
        Some(other) => return Err(invalid_argument(format!("unknown error kind {other:?}"))),
    };
    Ok(SourceError { kind, message })
}

/// A downloaded zip as the planner wants it: every hash, the digest and the size.
pub fn fetched_zip(zip: &[u8]) -> Result<FetchedPackage, SourceError> {
    let hashes = hash_zip_with(zip, &ZipLimits::default(), &WasmSha256::current());
    let hashes = crate::hash::checked(hashes)
        .map_err(|e| SourceError::other(crate::error::message_of(&e, "hashing failed")))?;
    archive_package(hashes, zip.len() as u64)
}

/// The planner's view of a hashed zip of `size` bytes.
pub fn archive_package(hashes: ZipHashes, size: u64) -> Result<FetchedPackage, SourceError> {
    let mut sha256 = [0u8; 32];
    hex::decode_to_slice(hashes.zh.value(), &mut sha256)
        .map_err(|e| SourceError::other(e.to_string()))?;
    Ok(FetchedPackage::Archive {
        hashes,
        sha256,
        size,
    })
}

/// A registry `download` answer fetched from `url`, validated for the request, with the
/// `SHA256SUMS` document and signature the host fetched from the URLs it names.
pub fn registry_package(
    flavor: Flavor,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
    body: &[u8],
    url: &url::Url,
) -> Result<tflock_core::api::plan::PackageMeta, SourceError> {
    let addr = provider.to_string();
    DownloadResponse::parse(body, &addr)
        .and_then(|d| {
            d.validate(
                flavor,
                &addr,
                &version.to_string(),
                &platform.os,
                &platform.arch,
                url,
            )
        })
        .map_err(|e| SourceError::other(e.0))
}

/// Converts the host's answer to the request `need` (see the `Answer` TypeScript type).
fn answer_for(flavor: Flavor, need: &Need, a: &JsValue) -> JsResult<Answer> {
    let err = get(a, "error");
    let failed = !(err.is_undefined() || err.is_null());
    Ok(match need {
        Need::Versions { .. } if failed => Answer::Versions(Err(source_error(&err)?)),
        Need::Versions { .. } => {
            let versions = strings(&get(a, "versions"), "versions")?
                .iter()
                .filter_map(|v| Version::parse_flavored(v, flavor).ok())
                .collect();
            let w = get(a, "warnings");
            let warnings = if w.is_undefined() || w.is_null() {
                Vec::new()
            } else {
                strings(&w, "warnings")?
            };
            Answer::Versions(Ok(AvailableVersions { versions, warnings }))
        }
        Need::InstalledPackage { .. } | Need::CachedPackage { .. } => {
            let h1 = opt_string(a, "h1")?
                .map(|h| {
                    PackageHash::parse(&h)
                        .map_err(|_| error("Invalid provider hash string", format!("{h:?}")))
                })
                .transpose()?;
            Answer::LocalPackage(h1)
        }
        Need::PackageMeta { .. } if failed => Answer::PackageMeta(Err(source_error(&err)?)),
        Need::PackageMeta {
            provider,
            version,
            platform,
        } => {
            let reg = get(a, "registry");
            let url = string(&reg, "url")?;
            let url = url::Url::parse(&url)
                .map_err(|e| invalid_argument(format!("registry.url {url:?}: {e}")))?;
            let body = bytes(&get(&reg, "download"), "registry.download")?;
            let sums = bytes(&get(&reg, "sha256sums"), "registry.sha256sums")?;
            let signature = bytes(&get(&reg, "signature"), "registry.signature")?;
            Answer::PackageMeta(
                registry_package(flavor, provider, version, platform, &body, &url).map(|meta| {
                    SourcePackage::Registry {
                        meta: Box::new(meta),
                        sha256sums: sums,
                        signature,
                    }
                }),
            )
        }
        Need::Package { .. } if failed => Answer::Package(Err(source_error(&err)?)),
        Need::Package { .. } => Answer::Package(fetched_zip(&bytes(&get(a, "bytes"), "bytes")?)),
    })
}

/// The planner's settings from `{ requirements, lock?, platforms, flavor?, mode?,
/// metadataHashes? }`.
pub fn plan_args(options: &JsValue) -> JsResult<(Requirements, Locks, PlanOptions)> {
    let flavor = flavor(options)?;
    let mut reqs = Requirements::new();
    for (addr, c) in entries(&get(options, "requirements"), "requirements")? {
        let provider = Provider::parse(&addr, flavor)
            .map_err(|e| error("Invalid provider source address", format!("{addr:?}: {e}")))?;
        let text = c.as_string().unwrap_or_default();
        let parsed = Constraints::parse(&text, flavor)
            .map_err(|e| error("Invalid version constraint", e.message()))?;
        reqs.insert(provider, parsed);
    }
    let lock = get(options, "lock");
    let locks = if lock.is_undefined() || lock.is_null() {
        Locks::new()
    } else {
        lock_arg(&lock, Some(flavor))?.0
    };
    // `locked`, or no list, is left to `lock()` to resolve (wasm/src/platforms.rs).
    let given = get(options, "platforms");
    let names = if given.is_undefined() {
        Vec::new()
    } else {
        strings(&given, "platforms")?
    };
    // Core's words for a bad name (the CLI's, naming the -platform option).
    let request = PlatformRequest::new(&names, None, None)
        .map_err(|d| d.iter().next().map_or(JsValue::NULL, diagnostic_error))?;
    let platforms = request
        .specs
        .into_iter()
        .filter_map(|s| match s {
            PlatformSpec::Platform(p) => Some(p),
            PlatformSpec::Locked => None,
        })
        .collect();
    let mode = match opt_string(options, "mode")? {
        None => Mode::ProvidersLock,
        Some(m) => Mode::parse(&m).ok_or_else(|| {
            invalid_argument(format!(
                "unknown mode {m:?}: expected \"providers-lock\", \"init\" or \"init-upgrade\""
            ))
        })?,
    };
    // Terraform's init refuses legacy addresses before planning.
    if let Some(d) = requirements::legacy_address_errors(&reqs, mode)
        .iter()
        .next()
    {
        return Err(diagnostic_error(d));
    }
    let mut opts = PlanOptions::new(flavor, mode, platforms);
    opts.hash_source = hash_source(options);
    Ok((reqs, locks, opts))
}

/// `metadataHashes: true`: the CLI's `-metadata-hashes`.
fn hash_source(options: &JsValue) -> HashSource {
    HashSource::choose(get(options, "metadataHashes").as_bool() == Some(true), None)
}

/// The outcome as JavaScript sees it: core's [`OutcomeView`] with camelCase keys, plus the
/// lock as an object and each diagnostic's `file`, as every other binding returns them.
pub fn outcome_js(o: &Outcome, flavor: Flavor) -> JsResult<JsValue> {
    let mut value = sorted(&OutcomeJs::new(&OutcomeView::new(o, flavor)))?;
    // Already in the bindings' casing; camel-casing again would rename map keys.
    value["lock"] = sorted(&lock_js(&o.new_lock, flavor))?;
    value["diagnostics"] = sorted(&diagnostics(&o.diagnostics))?;
    to_js(&value)
}

/// The planner behind `init` and `providers lock`, driven from JavaScript.
#[wasm_bindgen]
pub struct Planner {
    inner: Option<tflock_core::api::Planner>,
    flavor: Flavor,
    pending: SortedMap<u32, Need>,
}

#[wasm_bindgen]
impl Planner {
    /// `new Planner({ requirements, lock?, platforms, flavor?, mode? })`; `mode` defaults to
    /// `"providers-lock"`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PlannerOptions")] options: JsValue,
    ) -> JsResult<Planner> {
        let (reqs, locks, opts) = plan_args(&options)?;
        Ok(Planner {
            flavor: opts.flavor,
            inner: Some(tflock_core::api::Planner::new(reqs, locks, opts)),
            pending: SortedMap::new(),
        })
    }

    /// The next request to perform, or `null` when every request that can be made now has
    /// been handed out (answer the outstanding ones, then ask again).
    #[wasm_bindgen(unchecked_return_type = "PlannerRequest | null")]
    #[allow(clippy::should_implement_trait)] // JS protocol name; not an iterator of values.
    pub fn next(&mut self) -> JsResult<JsValue> {
        let inner = self.inner.as_mut().ok_or_else(finished)?;
        match inner.next() {
            None => Ok(JsValue::NULL),
            Some(req) => {
                let js = request_js(req.id, &req.need)?;
                self.pending.insert(req.id.0, req.need);
                to_js(&js)
            }
        }
    }

    /// Feeds the host's answer to request `id` back.
    pub fn answer(
        &mut self,
        id: u32,
        #[wasm_bindgen(unchecked_param_type = "PlannerAnswer")] answer: JsValue,
    ) -> JsResult<()> {
        let need = self
            .pending
            .get(&id)
            .ok_or_else(|| invalid_argument(format!("no outstanding request with id {id}")))?;
        let a = answer_for(self.flavor, need, &answer)?;
        let inner = self.inner.as_mut().ok_or_else(finished)?;
        inner
            .answer(NeedId(id), a)
            .map_err(|e| invalid_argument(e.to_string()))?;
        self.pending.remove(&id);
        Ok(())
    }

    /// True when nothing is queued or outstanding: call `finish()`.
    #[wasm_bindgen(js_name = isDone)]
    pub fn is_done(&self) -> bool {
        self.inner.as_ref().is_some_and(|p| p.is_done())
    }

    /// Ends the run (outstanding requests count as failures) and returns the outcome.
    #[wasm_bindgen(unchecked_return_type = "PlanOutcome")]
    pub fn finish(&mut self) -> JsResult<JsValue> {
        let inner = self.inner.take().ok_or_else(finished)?;
        outcome_js(&inner.finish(), self.flavor)
    }
}

fn finished() -> JsValue {
    invalid_argument("this Planner has already finished; create a new one")
}
