//! Filling the mirror's documents from an origin registry.
//!
//! A [`Fill`] is a resumable procedure like the source conversations (it runs the same
//! discovery, `versions` and `download` code, with the same credentials rules), except that
//! it asks for every request it can already name at once: a version's download answers for
//! all platforms go out together, then the `SHA256SUMS` and signature they share. The host
//! performs them ([`OriginGet`]s: the origin is a registry, so every request is a `GET`) in
//! any order, hands each response back with [`Fill::receive`], and polls again until the
//! fill is [`FillStep::Done`]. The conversations' own request vocabulary stays inside core.
//!
//! A `<version>.json` fill lists every platform the origin lists, each with the `zh:` its
//! signature-verified `SHA256SUMS` gives; it fails as a whole if any platform's download
//! answer is missing, malformed, or not covered by a valid signature, so a version is served
//! for all of the origin's platforms or not at all.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::config::EdgeConfig;
use super::limits::Limits;
use super::record::{OriginArchive, OriginRecord};
use super::{EdgeError, EdgeErrorKind};
use crate::addrs::{Platform, Provider};
use crate::install::{SourceError, SourceErrorKind, SourcePackage};
use crate::protocol::auth::{verify_sums_signature, AuthKind, SumsSignatureInput};
use crate::protocol::names::preferred_hashes;
use crate::protocol::package_name::file_name;
use crate::protocol::sha256sums::check_listed_checksum;
use crate::protocol::signature::TrustRoots;
use crate::source::conversation::{Ctx, Io, Suspend};
use crate::source::registry::{self, CatalogEntry};
use crate::source::{HttpResponse, SourceRequest, SourceResponse, SourceSet};
use crate::version::Version;
use crate::Flavor;
use url::Url;

/// One document a fill asks the host to `GET` from the origin (discovery, the registry's
/// JSON, `SHA256SUMS` and its signature), following redirects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginGet {
    /// The absolute URL.
    pub url: Url,
    /// The host whose credentials go with the request (a registry API request); `None`
    /// means send none.
    pub auth_host: Option<String>,
}

/// The host's answer to an [`OriginGet`]: the response, or why there was none
/// (connection refused, a timeout, a limit) in the host's words.
pub type OriginAnswer = Result<HttpResponse, String>;

/// The answer to a directory listing, which only a filesystem mirror asks for: a fill's
/// origin is always a registry.
const NO_DIRECTORIES: &str = "a mirror has no local directories";

/// What is being filled.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Goal {
    Index(Provider),
    Version(Provider, Version),
}

/// The result of a fill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filled {
    /// `index.json`: the versions the origin offers with at least one platform.
    Index {
        /// The document.
        doc: Vec<u8>,
        /// The versions it lists, in the origin's order.
        versions: Vec<String>,
    },
    /// `<version>.json` (every platform with its signed `zh:`) and the origin record.
    Version {
        /// The document.
        doc: Vec<u8>,
        /// What the archive pulls and the `h1:` fills need.
        record: OriginRecord,
    },
}

/// What the host does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FillStep {
    /// Perform these requests (all independent) and hand each response back.
    Requests(Vec<OriginGet>),
    /// The fill is over.
    Done(Result<Filled, EdgeError>),
}

/// One fill in progress.
#[derive(Debug, Clone)]
pub struct Fill {
    goal: Goal,
    set: SourceSet,
    roots: TrustRoots,
    log: Vec<(SourceRequest, SourceResponse)>,
    limits: Limits,
    /// Body bytes received so far, against [`Limits::fill_bytes`].
    received: u64,
}

impl Fill {
    /// Fills `index.json` of `provider`.
    pub fn index(config: &EdgeConfig, provider: Provider) -> Fill {
        Fill::new(config, Goal::Index(provider))
    }

    /// Fills `<version>.json` of `provider` `version`.
    pub fn version(config: &EdgeConfig, provider: Provider, version: Version) -> Fill {
        Fill::new(config, Goal::Version(provider, version))
    }

    fn new(config: &EdgeConfig, goal: Goal) -> Fill {
        Fill {
            goal,
            set: config.source_set(),
            roots: TrustRoots::hashicorp(),
            log: Vec::new(),
            limits: config.limits,
            received: 0,
        }
    }

    /// Verifies signatures against these roots instead of HashiCorp's (tests).
    pub fn with_trust_roots(mut self, roots: TrustRoots) -> Fill {
        self.roots = roots;
        self
    }

    /// The requests still missing, or the result once none is.
    pub fn poll(&mut self) -> FillStep {
        if self.received > self.limits.fill_bytes {
            let what = match &self.goal {
                Goal::Index(p) => format!("the versions of {p}"),
                Goal::Version(p, v) => format!("{p} {v}"),
            };
            return FillStep::Done(Err(EdgeError::new(
                EdgeErrorKind::OriginFailed,
                format!(
                    "the origin sent more than {} bytes for {what}, the mirror's limit for one fill",
                    self.limits.fill_bytes
                ),
            )));
        }
        let mut missing = Vec::new();
        let result = match self.goal.clone() {
            Goal::Index(p) => index(&mut self.set, &self.log, &p, &mut missing),
            Goal::Version(p, v) => version(
                &mut self.set,
                &self.log,
                &self.roots,
                &self.limits,
                &p,
                &v,
                &mut missing,
            ),
        };
        match result {
            Some(done) if missing.is_empty() => FillStep::Done(done),
            _ => {
                missing.dedup();
                let mut gets = Vec::new();
                let mut answered_here = false;
                for request in missing {
                    match request {
                        SourceRequest::Get { url, auth_host } => {
                            gets.push(OriginGet { url, auth_host })
                        }
                        listing @ SourceRequest::ListDir { .. } => {
                            let refusal = SourceResponse::Listing(Err(NO_DIRECTORIES.into()));
                            self.record(listing, refusal);
                            answered_here = true;
                        }
                    }
                }
                if gets.is_empty() && answered_here {
                    // Every request was a listing, answered above: the fill can go on.
                    return self.poll();
                }
                FillStep::Requests(gets)
            }
        }
    }

    /// Hands in the response to `request`, one [`Fill::poll`] asked for.
    pub fn receive(&mut self, request: OriginGet, response: OriginAnswer) {
        let OriginGet { url, auth_host } = request;
        self.record(
            SourceRequest::Get { url, auth_host },
            SourceResponse::Http(response),
        );
    }

    /// Logs the first response to `request`, counting its body against the fill's bytes.
    fn record(&mut self, request: SourceRequest, response: SourceResponse) {
        if !self.log.iter().any(|(r, _)| *r == request) {
            if let SourceResponse::Http(Ok(r)) = &response {
                self.received = self.received.saturating_add(r.body.len() as u64);
            }
            self.log.push((request, response));
        }
    }

    /// Runs the fill to the end with a blocking `perform`.
    pub fn run(
        mut self,
        mut perform: impl FnMut(&OriginGet) -> OriginAnswer,
    ) -> Result<Filled, EdgeError> {
        loop {
            match self.poll() {
                FillStep::Done(result) => return result,
                FillStep::Requests(requests) => {
                    for request in requests {
                        let response = perform(&request);
                        self.receive(request, response);
                    }
                }
            }
        }
    }
}

/// Runs one sub-procedure; a suspension adds its request to `missing`.
fn attempt<T>(
    set: &mut SourceSet,
    log: &[(SourceRequest, SourceResponse)],
    missing: &mut Vec<SourceRequest>,
    f: impl FnOnce(&mut Ctx<'_>) -> Io<T>,
) -> Option<T> {
    let mut ctx = Ctx::new(set, log);
    match f(&mut ctx) {
        Ok(t) => Some(t),
        Err(Suspend(request)) => {
            if !missing.contains(&request) {
                missing.push(request);
            }
            None
        }
    }
}

/// The origin's installable versions and their platforms (the mirror's names only).
fn catalog(
    set: &mut SourceSet,
    log: &[(SourceRequest, SourceResponse)],
    p: &Provider,
    missing: &mut Vec<SourceRequest>,
) -> Option<Result<Vec<CatalogEntry>, EdgeError>> {
    let listed = attempt(set, log, missing, |ctx| registry::catalog(ctx, p))?;
    Some(
        listed
            .map(|(entries, _warnings)| {
                entries
                    .into_iter()
                    .map(|mut e| {
                        e.platforms.retain(servable_platform);
                        e
                    })
                    .collect()
            })
            .map_err(|e| origin_error(p, e)),
    )
}

/// Platform names end up in object keys and file names: Go's lower-case `GOOS`/`GOARCH`.
fn servable_platform(platform: &Platform) -> bool {
    let ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    ok(&platform.os) && ok(&platform.arch)
}

fn index(
    set: &mut SourceSet,
    log: &[(SourceRequest, SourceResponse)],
    p: &Provider,
    missing: &mut Vec<SourceRequest>,
) -> Option<Result<Filled, EdgeError>> {
    let entries = match catalog(set, log, p, missing)? {
        Ok(e) => e,
        Err(e) => return Some(Err(e)),
    };
    let mut listed = Map::new();
    let mut versions = Vec::new();
    for e in entries.iter().filter(|e| !e.platforms.is_empty()) {
        let v = e.version.to_string();
        if listed.insert(v.clone(), json!({})).is_none() {
            versions.push(v);
        }
    }
    let doc = json!({ "versions": listed });
    Some(Ok(Filled::Index {
        doc: pretty(&doc),
        versions,
    }))
}

fn version(
    set: &mut SourceSet,
    log: &[(SourceRequest, SourceResponse)],
    roots: &TrustRoots,
    limits: &Limits,
    p: &Provider,
    v: &Version,
    missing: &mut Vec<SourceRequest>,
) -> Option<Result<Filled, EdgeError>> {
    let entries = match catalog(set, log, p, missing)? {
        Ok(e) => e,
        Err(e) => return Some(Err(e)),
    };
    let Some(entry) = entries.into_iter().find(|e| e.version == *v) else {
        return Some(Err(EdgeError::new(
            EdgeErrorKind::NotFound,
            format!("the origin registry does not offer {p} {v}"),
        )));
    };
    if entry.platforms.is_empty() {
        return Some(Err(EdgeError::new(
            EdgeErrorKind::NotFound,
            format!("the origin registry lists no platforms for {p} {v}"),
        )));
    }
    // Before asking for anything per platform: each costs requests and a queue job.
    if let Err(e) = limits.check_platforms(&format!("{p} {v}"), entry.platforms.len()) {
        return Some(Err(e));
    }
    // Every platform's download answer (and the documents it names) at once.
    let mut packages = Vec::new();
    for platform in &entry.platforms {
        if let Some(answer) = attempt(set, log, missing, |ctx| {
            registry::package(ctx, p, v, platform)
        }) {
            packages.push((platform.clone(), answer));
        }
    }
    if !missing.is_empty() {
        return None;
    }
    let flavor = set.flavor();
    Some(verify_version(flavor, roots, p, v, packages))
}

/// A `SHA256SUMS` whose signature was checked: (document, signature, keys) → (kind, key).
type Verified = (Vec<u8>, Vec<u8>, String, Option<AuthKind>, Option<String>);

/// Checks every platform's answer and builds the document and record.
fn verify_version(
    flavor: Flavor,
    roots: &TrustRoots,
    p: &Provider,
    v: &Version,
    packages: Vec<(Platform, Result<SourcePackage, SourceError>)>,
) -> Result<Filled, EdgeError> {
    let mut archives = Map::new();
    let mut platforms = BTreeMap::new();
    let mut verified: Vec<Verified> = Vec::new();
    let mut auth = None;
    let mut key_id = None;
    for (platform, answer) in packages {
        let what = format!("{p} {v} for {platform}");
        let SourcePackage::Registry {
            meta,
            sha256sums,
            signature,
        } = answer.map_err(|e| {
            let mut err = origin_error(p, e);
            err.message = format!("{what}: {}", err.message);
            err
        })?
        else {
            return Err(EdgeError::new(
                EdgeErrorKind::OriginFailed,
                format!("{what}: the origin is not a registry"),
            ));
        };
        check_listed_checksum(&sha256sums, &meta.filename, &meta.sha256).map_err(|e| {
            refused(
                &what,
                format!("SHA256SUMS does not vouch for the package: {e}"),
            )
        })?;
        let keys = serde_json::to_string(&meta.signing_keys).unwrap_or_default();
        let known = verified
            .iter()
            .find(|(d, s, k, _, _)| *d == sha256sums && *s == signature && *k == keys);
        let (kind, key) = match known {
            Some((_, _, _, kind, key)) => (*kind, key.clone()),
            None => {
                let signed = verify_sums_signature(&SumsSignatureInput {
                    flavor,
                    provider_hostname: &p.hostname,
                    enforce_gpg_validation: false,
                    signing_keys: &meta.signing_keys,
                    document: &sha256sums,
                    signature: &signature,
                    trust_roots: roots,
                })
                .map_err(|e| {
                    refused(
                        &what,
                        format!("the SHA256SUMS signature does not verify: {e}"),
                    )
                })?;
                verified.push((
                    sha256sums.clone(),
                    signature.clone(),
                    keys,
                    signed.kind,
                    signed.key_id.clone(),
                ));
                (signed.kind, signed.key_id)
            }
        };
        auth = auth.or(kind);
        key_id = key_id.or(key);
        let name = platform.to_string();
        let claimed = meta.packages.get(&name);
        let filename = file_name(&p.r#type, &v.to_string(), &name);
        let zh = format!("zh:{}", hex::encode(meta.sha256));
        archives.insert(name.clone(), json!({ "url": filename, "hashes": [zh] }));
        platforms.insert(
            name,
            OriginArchive {
                filename,
                url: meta.download_url.to_string(),
                zh,
                claimed_h1: claimed
                    .map(|c| {
                        preferred_hashes(&c.hashes)
                            .into_iter()
                            .filter(|h| h.starts_with("h1:"))
                            .collect()
                    })
                    .unwrap_or_default(),
                size: claimed.and_then(|c| u64::try_from(c.package_size).ok()),
            },
        );
    }
    let auth = match (auth, &key_id) {
        (Some(kind), _) => kind,
        (None, Some(_)) => AuthKind::Signed,
        (None, None) => AuthKind::SigningSkipped,
    };
    Ok(Filled::Version {
        doc: pretty(&json!({ "archives": archives })),
        record: OriginRecord {
            provider: p.to_string(),
            version: v.to_string(),
            auth: auth.text().to_string(),
            key_id,
            platforms,
        },
    })
}

fn refused(what: &str, why: String) -> EdgeError {
    EdgeError::new(EdgeErrorKind::Refused, format!("{what}: {why}"))
}

/// A source failure as the mirror reports it.
fn origin_error(p: &Provider, e: SourceError) -> EdgeError {
    let kind = match e.kind {
        SourceErrorKind::ProviderNotKnown | SourceErrorKind::PlatformNotSupported { .. } => {
            EdgeErrorKind::NotFound
        }
        SourceErrorKind::HostNoProviders { .. } => EdgeErrorKind::NotFound,
        SourceErrorKind::Other => EdgeErrorKind::OriginFailed,
    };
    let message = if e.message.contains(&p.to_string()) {
        e.message
    } else {
        format!("{p}: {}", e.message)
    };
    EdgeError::new(kind, message)
}

fn pretty(doc: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(doc).unwrap_or_default()
}
