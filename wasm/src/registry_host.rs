//! `lock(options)`: one call from requirements to a lock file, driving the planner against
//! provider registries through a caller-supplied `fetch`.
//!
//! This is the host loop the CLI runs (`cli/src/host/sources.rs`), reduced to the origin
//! registry protocol: service discovery (or a `hosts` override, like a CLI config `host`
//! block), `versions`, `download`, `SHA256SUMS` and its signature, and the zips, which are
//! hashed as they arrive. Every document is validated and every message worded by
//! `tflock_core::protocol`; nothing is installed and there is no local package cache.

use crate::convert::{entries, get};
use crate::error::{error, JsResult};
use crate::planner::{fetched_zip, outcome_js, plan_args, registry_package};
use js_sys::{Function, Promise, Uint8Array};
use std::collections::{BTreeMap, HashMap};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::install::{
    self, Answer, AvailableVersions, FetchedPackage, Need, PackageLocation, SourceError,
    SourceErrorKind, SourcePackage,
};
use tflock_core::protocol::discovery::{discovery_url, Discovery};
use tflock_core::protocol::registry::{
    download_path, platform_not_supported, provider_not_known, query_failed, status_error,
    versions_path, VersionsResponse,
};
use tflock_core::protocol::urls::resolve;
use tflock_core::version::Version;
use tflock_core::Flavor;
use url::Url;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// One HTTP answer.
struct Doc {
    status: u16,
    status_text: String,
    final_url: Url,
    body: Vec<u8>,
}

fn js_message(v: JsValue) -> String {
    v.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| v.as_string())
        .unwrap_or_else(|| "fetch failed".to_string())
}

/// The registry host state: the caller's `fetch`, `hosts` overrides and discovered bases.
struct Host {
    flavor: Flavor,
    fetch: Function,
    overrides: BTreeMap<String, BTreeMap<String, String>>,
    discovered: HashMap<String, Result<Url, String>>,
}

impl Host {
    async fn get(&self, url: &Url) -> Result<Doc, String> {
        let call = self
            .fetch
            .call1(&JsValue::NULL, &JsValue::from_str(url.as_str()))
            .map_err(js_message)?;
        let resp = JsFuture::from(Promise::resolve(&call))
            .await
            .map_err(js_message)?;
        let status = get(&resp, "status").as_f64().unwrap_or(0.0) as u16;
        let status_text = get(&resp, "statusText").as_string().unwrap_or_default();
        let final_url = get(&resp, "url")
            .as_string()
            .and_then(|u| Url::parse(&u).ok())
            .unwrap_or_else(|| url.clone());
        let read: Function = get(&resp, "arrayBuffer")
            .dyn_into()
            .map_err(|_| "fetch must resolve to a Response".to_string())?;
        let buf = read.call0(&resp).map_err(js_message)?;
        let buf = JsFuture::from(Promise::resolve(&buf))
            .await
            .map_err(js_message)?;
        Ok(Doc {
            status,
            status_text: format!("{status} {status_text}").trim_end().to_string(),
            final_url,
            body: Uint8Array::new(&buf).to_vec(),
        })
    }

    async fn discover(&self, hostname: &str) -> Result<Url, String> {
        let discovery = match self.overrides.get(hostname) {
            Some(services) => Discovery::from_host_override(hostname, services.clone())?,
            None => {
                let url = discovery_url(hostname)?;
                let doc = self
                    .get(&url)
                    .await
                    .map_err(|e| format!("could not connect to {hostname}: {e}"))?;
                match doc.status {
                    200 => Discovery::parse(&doc.body, &doc.final_url)?,
                    404 => Discovery::parse(b"{}", &doc.final_url)?,
                    _ => {
                        return Err(format!(
                            "failed to request discovery document: {}",
                            doc.status_text
                        ))
                    }
                }
            }
        };
        discovery.providers_v1(hostname, self.flavor)
    }

    async fn base(&mut self, hostname: &str) -> Result<Url, SourceError> {
        if !self.discovered.contains_key(hostname) {
            let result = self.discover(hostname).await;
            self.discovered.insert(hostname.to_string(), result);
        }
        let result = self.discovered[hostname].clone();
        result.map_err(|message| SourceError {
            kind: if message.contains("does not offer") {
                SourceErrorKind::HostNoProviders {
                    hostname: hostname.to_string(),
                }
            } else {
                SourceErrorKind::Other
            },
            message,
        })
    }

    async fn versions(&mut self, p: &Provider) -> Result<AvailableVersions, SourceError> {
        let base = self.base(&p.hostname).await?;
        let url =
            resolve(&base, &versions_path(&p.namespace, &p.r#type)).map_err(SourceError::other)?;
        let addr = p.to_string();
        let doc = self
            .get(&url)
            .await
            .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
        if let Some(err) = status_error(
            doc.status,
            &doc.status_text,
            &addr,
            &p.hostname,
            false,
            || provider_not_known(&p.hostname, &addr),
        ) {
            let kind = if doc.status == 404 {
                SourceErrorKind::ProviderNotKnown
            } else {
                SourceErrorKind::Other
            };
            return Err(SourceError {
                kind,
                message: err.0,
            });
        }
        let parsed =
            VersionsResponse::parse(&doc.body, &addr).map_err(|e| SourceError::other(e.0))?;
        let versions = parsed
            .valid_versions()
            .filter(|e| {
                // Plugin protocols 5 and 6 only, as the CLI host filters.
                e.protocols.is_empty()
                    || e.protocols.iter().any(|p| {
                        let major = p.split('.').next().unwrap_or("");
                        major == "5" || major == "6"
                    })
            })
            .filter_map(|e| Version::parse_flavored(&e.version, self.flavor).ok())
            .collect();
        Ok(AvailableVersions {
            versions,
            warnings: parsed.warnings.clone(),
        })
    }

    async fn small(&self, url: &Url) -> Result<Vec<u8>, SourceError> {
        let doc = self.get(url).await.map_err(SourceError::other)?;
        if doc.status != 200 {
            return Err(SourceError::other(format!(
                "{} returned from {}",
                doc.status_text,
                url.host_str().unwrap_or("")
            )));
        }
        Ok(doc.body)
    }

    async fn package_meta(
        &mut self,
        p: &Provider,
        v: &Version,
        platform: &Platform,
    ) -> Result<SourcePackage, SourceError> {
        let base = self.base(&p.hostname).await?;
        let path = download_path(
            &p.namespace,
            &p.r#type,
            &v.to_string(),
            &platform.os,
            &platform.arch,
        );
        let url = resolve(&base, &path).map_err(SourceError::other)?;
        let addr = p.to_string();
        let doc = self
            .get(&url)
            .await
            .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
        if doc.status == 404 {
            return Err(SourceError {
                kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
                message: platform_not_supported(&addr, &v.to_string(), &platform.to_string()),
            });
        }
        if let Some(err) = status_error(
            doc.status,
            &doc.status_text,
            &addr,
            &p.hostname,
            false,
            String::new,
        ) {
            return Err(SourceError::other(err.0));
        }
        let meta = registry_package(self.flavor, p, v, platform, &doc.body, &doc.final_url)?;
        let sha256sums = self.small(&meta.shasums_url).await?;
        let signature = self.small(&meta.shasums_signature_url).await?;
        Ok(SourcePackage::Registry {
            meta: Box::new(meta),
            sha256sums,
            signature,
        })
    }

    async fn package(&self, location: &PackageLocation) -> Result<FetchedPackage, SourceError> {
        let PackageLocation::Url(u) = location else {
            return Err(SourceError::other(
                "local packages are not available to lock()",
            ));
        };
        let url = Url::parse(u).map_err(|e| SourceError::other(e.to_string()))?;
        let zip = self.small(&url).await?;
        fetched_zip(&zip)
    }

    async fn answer(&mut self, need: &Need) -> Answer {
        match need {
            Need::Versions { provider } => Answer::Versions(self.versions(provider).await),
            // No working directory and no plugin cache in a JS host.
            Need::InstalledPackage { .. } | Need::CachedPackage { .. } => {
                Answer::LocalPackage(None)
            }
            Need::PackageMeta {
                provider,
                version,
                platform,
            } => Answer::PackageMeta(self.package_meta(provider, version, platform).await),
            Need::Package { location, .. } => Answer::Package(self.package(location).await),
        }
    }
}

/// `lock({ requirements, lock?, platforms, fetch, flavor?, mode?, hosts? })`: runs the planner
/// (`providers lock` by default) against the origin registries, performing every request with
/// `fetch(url)` (anything returning a `Response`-like `{ status, statusText, url,
/// arrayBuffer() }`), and resolves to the outcome: the new lock file text, the change, the
/// diagnostics and the product's messages. `hosts` maps a hostname to its service URLs,
/// like a CLI config `host` block (`{ "example.com": { "providers.v1": "http://…/" } }`).
#[wasm_bindgen(js_name = lock, unchecked_return_type = "PlanOutcome")]
pub async fn lock(
    #[wasm_bindgen(unchecked_param_type = "LockOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let (reqs, locks, opts) = plan_args(&options)?;
    let fetch: Function = get(&options, "fetch")
        .dyn_into()
        .map_err(|_| error("Invalid argument", "\"fetch\" must be a function"))?;
    let mut overrides = BTreeMap::new();
    let hosts = get(&options, "hosts");
    if !(hosts.is_undefined() || hosts.is_null()) {
        for (host, services) in entries(&hosts, "hosts")? {
            let mut map = BTreeMap::new();
            for (id, url) in entries(&services, "host services")? {
                map.insert(id, url.as_string().unwrap_or_default());
            }
            overrides.insert(host, map);
        }
    }
    let flavor = opts.flavor;
    let mut host = Host {
        flavor,
        fetch,
        overrides,
        discovered: HashMap::new(),
    };
    let mut planner = install::Planner::new(reqs, locks, opts);
    loop {
        let requests = planner.take_requests();
        if requests.is_empty() {
            break;
        }
        for req in requests {
            let answer = host.answer(&req.need).await;
            planner
                .answer(req.id, answer)
                .map_err(|e| error("Internal error", e))?;
        }
    }
    outcome_js(&planner.finish(), flavor)
}
