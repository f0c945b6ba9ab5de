//! Provider installation sources (registry, network mirror, filesystem mirror) answering the
//! planner's `Versions` and `PackageMeta` requests over real HTTP and disk.

use super::http::Http;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use tflock_core::addrs::Provider;
use tflock_core::install::{AvailableVersions, SourceError, SourceErrorKind, SourcePackage};
use tflock_core::protocol::cliconfig::{CliConfig, MethodKind, Source as ConfigSource};
use tflock_core::protocol::discovery::{discovery_url, Discovery};
use tflock_core::protocol::fs_mirror::{parse_entry, Layout};
use tflock_core::protocol::mirror::{
    check_content_type, index_status, index_url, mirror_query_failed, version_index_missing,
    version_url, MirrorIndex, MirrorPackageError, MirrorStatus, MirrorVersion,
};
use tflock_core::protocol::registry::{
    download_path, platform_not_supported, provider_not_known, query_failed, status_error,
    versions_path, DownloadResponse, VersionsResponse,
};
use tflock_core::protocol::urls::resolve;
use tflock_core::version::Version;
use tflock_core::Flavor;
use url::Url;

/// How long one registry or mirror JSON request may take (Terraform's default is 10s).
const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// One configured installation method.
#[derive(Debug, Clone)]
pub enum Method {
    /// The provider's origin registry.
    Registry,
    /// A network mirror at this base URL.
    NetworkMirror {
        /// Base URL, as configured.
        base: Url,
        /// OpenTofu `trust_all_hashes`.
        trust_all_hashes: bool,
    },
    /// A local directory in the filesystem-mirror layout.
    FilesystemMirror(PathBuf),
}

/// A method with the providers it may serve.
#[derive(Debug, Clone)]
struct Entry {
    method: Method,
    filter: Option<ConfigSource>,
}

/// The ordered set of sources, like Terraform's `MultiSource`.
#[derive(Debug)]
pub struct Sources {
    entries: Vec<Entry>,
    http: Http,
    flavor: Flavor,
    cli_config: CliConfig,
    discovered: Mutex<BTreeMap<String, Result<Url, String>>>,
    /// Version lists already fetched, per (source index, provider): `package_meta` needs
    /// to know which source offers a version without asking again.
    listed: Mutex<BTreeMap<(usize, Provider), Option<AvailableVersions>>>,
}

impl Sources {
    /// The sources a CLI config describes (direct registry access when it has no
    /// `provider_installation` block).
    pub fn from_cli_config(cfg: &CliConfig, flavor: Flavor, http: Http) -> Result<Sources, String> {
        let entries = match cfg.sources(flavor) {
            Err(diags) => {
                let text: Vec<String> = diags
                    .iter()
                    .map(|d| format!("{}: {}", d.summary, d.detail))
                    .collect();
                return Err(text.join("\n"));
            }
            Ok(None) => vec![Entry {
                method: Method::Registry,
                filter: None,
            }],
            Ok(Some(list)) => list
                .into_iter()
                .filter_map(|s| {
                    let method = match &s.kind {
                        MethodKind::Direct => Method::Registry,
                        MethodKind::FilesystemMirror { path } => {
                            Method::FilesystemMirror(PathBuf::from(path))
                        }
                        MethodKind::NetworkMirror { url } => Method::NetworkMirror {
                            base: Url::parse(url).ok()?,
                            trust_all_hashes: s.trust_all_hashes,
                        },
                        MethodKind::OciMirror { .. } => return None,
                    };
                    Some(Entry {
                        method,
                        filter: Some(s),
                    })
                })
                .collect(),
        };
        Ok(Sources::with_entries(entries, cfg.clone(), flavor, http))
    }

    /// Exactly one method for every provider (`providers lock -fs-mirror/-net-mirror`).
    pub fn single(method: Method, cfg: &CliConfig, flavor: Flavor, http: Http) -> Sources {
        Sources::with_entries(
            vec![Entry {
                method,
                filter: None,
            }],
            cfg.clone(),
            flavor,
            http,
        )
    }

    fn with_entries(
        entries: Vec<Entry>,
        cli_config: CliConfig,
        flavor: Flavor,
        http: Http,
    ) -> Sources {
        Sources {
            entries,
            http,
            flavor,
            cli_config,
            discovered: Mutex::new(BTreeMap::new()),
            listed: Mutex::new(BTreeMap::new()),
        }
    }

    /// The HTTP client the sources use (package downloads share it).
    pub fn http(&self) -> &Http {
        &self.http
    }

    fn handling<'a>(&'a self, p: &'a Provider) -> impl Iterator<Item = (usize, &'a Method)> + 'a {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(_, e)| {
                e.filter
                    .as_ref()
                    .is_none_or(|f| f.can_handle(&p.hostname, &p.namespace, &p.r#type))
            })
            .map(|(i, e)| (i, &e.method))
    }

    /// The versions source `i` offers for `p`, fetched once per run.
    fn listed_versions(
        &self,
        i: usize,
        m: &Method,
        p: &Provider,
    ) -> Result<Option<AvailableVersions>, SourceError> {
        let key = (i, p.clone());
        if let Some(hit) = self.listed.lock().ok().and_then(|l| l.get(&key).cloned()) {
            return Ok(hit);
        }
        let fresh = self.method_versions(m, p)?;
        if let Ok(mut l) = self.listed.lock() {
            l.insert(key, fresh.clone());
        }
        Ok(fresh)
    }

    /// All versions any handling source offers (union, like `MultiSource`).
    pub fn versions(&self, p: &Provider) -> Result<AvailableVersions, SourceError> {
        let mut found = false;
        let mut out = AvailableVersions::default();
        for (i, method) in self.handling(p) {
            match self.listed_versions(i, method, p) {
                Ok(Some(v)) => {
                    found = true;
                    for version in v.versions {
                        if !out.versions.contains(&version) {
                            out.versions.push(version);
                        }
                    }
                    out.warnings.extend(v.warnings);
                }
                Ok(None) => {}
                Err(e) => return Err(e),
            }
        }
        if !found {
            return Err(SourceError::other(format!(
                "provider {p} was not found in any of the search locations\n\n{}",
                self.describe_locations(p)
            )));
        }
        Ok(out)
    }

    fn describe_locations(&self, p: &Provider) -> String {
        self.handling(p)
            .map(|(_, m)| match m {
                Method::Registry => format!("- provider registry {}", p.hostname),
                Method::NetworkMirror { base, .. } => format!("- provider mirror at {base}"),
                Method::FilesystemMirror(dir) => format!("- {}", dir.display()),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Where to get `p` `v` for `platform`: the first handling source that has the version.
    pub fn package_meta(
        &self,
        p: &Provider,
        v: &Version,
        platform: &str,
    ) -> Result<SourcePackage, SourceError> {
        let mut last_err = None;
        for (i, method) in self.handling(p) {
            match self.listed_versions(i, method, p) {
                Ok(Some(list)) if list.versions.contains(v) => {
                    return self.method_package(method, p, v, platform);
                }
                Ok(_) => {}
                Err(e) => last_err = Some(e),
            }
        }
        Err(last_err.unwrap_or_else(|| {
            SourceError::other(format!(
                "provider {p} {v} is not available from any of the configured sources"
            ))
        }))
    }

    fn method_versions(
        &self,
        m: &Method,
        p: &Provider,
    ) -> Result<Option<AvailableVersions>, SourceError> {
        match m {
            Method::Registry => self.registry_versions(p).map(Some),
            Method::NetworkMirror { base, .. } => self.mirror_versions(base, p),
            Method::FilesystemMirror(dir) => Ok(fs_versions(dir, p, self.flavor)),
        }
    }

    fn method_package(
        &self,
        m: &Method,
        p: &Provider,
        v: &Version,
        platform: &str,
    ) -> Result<SourcePackage, SourceError> {
        match m {
            Method::Registry => self.registry_package(p, v, platform),
            Method::NetworkMirror {
                base,
                trust_all_hashes,
            } => self.mirror_package(base, *trust_all_hashes, p, v, platform),
            Method::FilesystemMirror(dir) => fs_package(dir, p, v, platform, self.flavor),
        }
    }

    // --- registry -----------------------------------------------------------------------

    fn providers_base(&self, hostname: &str) -> Result<Url, SourceError> {
        if let Some(done) = self
            .discovered
            .lock()
            .ok()
            .and_then(|m| m.get(hostname).cloned())
        {
            return done.map_err(|m| host_error(hostname, m));
        }
        let result = self.discover(hostname);
        if let Ok(mut m) = self.discovered.lock() {
            m.insert(hostname.to_string(), result.clone());
        }
        result.map_err(|m| host_error(hostname, m))
    }

    fn discover(&self, hostname: &str) -> Result<Url, String> {
        let discovery = match self.cli_config.host_override(hostname) {
            Some(over) => over?,
            None => {
                let url = discovery_url(hostname)?;
                let doc = self
                    .http
                    .get(&url, true, DOCUMENT_TIMEOUT)
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

    fn registry_versions(&self, p: &Provider) -> Result<AvailableVersions, SourceError> {
        let base = self.providers_base(&p.hostname)?;
        let url =
            resolve(&base, &versions_path(&p.namespace, &p.r#type)).map_err(SourceError::other)?;
        let addr = p.to_string();
        let doc = self
            .http
            .get(&url, true, DOCUMENT_TIMEOUT)
            .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
        if doc.status == 404 {
            return Err(SourceError {
                kind: SourceErrorKind::ProviderNotKnown,
                message: provider_not_known(&p.hostname, &addr),
            });
        }
        if let Some(err) = status_error(
            doc.status,
            &doc.status_text,
            &addr,
            &p.hostname,
            self.http.has_token(&p.hostname),
            || provider_not_known(&p.hostname, &addr),
        ) {
            return Err(SourceError::other(err.0));
        }
        let parsed =
            VersionsResponse::parse(&doc.body, &addr).map_err(|e| SourceError::other(e.0))?;
        let versions = parsed
            .valid_versions()
            .filter(|e| protocols_compatible(&e.protocols))
            .filter_map(|e| Version::parse(&e.version).ok())
            .collect();
        Ok(AvailableVersions {
            versions,
            warnings: parsed.warnings.clone(),
        })
    }

    fn registry_package(
        &self,
        p: &Provider,
        v: &Version,
        platform: &str,
    ) -> Result<SourcePackage, SourceError> {
        let (os, arch) = platform.split_once('_').unwrap_or((platform, ""));
        let base = self.providers_base(&p.hostname)?;
        let url = resolve(
            &base,
            &download_path(&p.namespace, &p.r#type, &v.to_string(), os, arch),
        )
        .map_err(SourceError::other)?;
        let addr = p.to_string();
        let doc = self
            .http
            .get(&url, true, DOCUMENT_TIMEOUT)
            .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
        if doc.status == 404 {
            return Err(SourceError {
                kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
                message: platform_not_supported(&addr, &v.to_string(), platform),
            });
        }
        if let Some(err) = status_error(
            doc.status,
            &doc.status_text,
            &addr,
            &p.hostname,
            self.http.has_token(&p.hostname),
            String::new,
        ) {
            return Err(SourceError::other(err.0));
        }
        let meta = DownloadResponse::parse(&doc.body, &addr)
            .and_then(|d| d.validate(self.flavor, &addr, &v.to_string(), os, arch, &doc.final_url))
            .map_err(|e| SourceError::other(e.0))?;
        let sha256sums = self.fetch_small(&meta.shasums_url)?;
        let signature = self.fetch_small(&meta.shasums_signature_url)?;
        Ok(SourcePackage::Registry {
            meta: Box::new(meta),
            sha256sums,
            signature,
        })
    }

    fn fetch_small(&self, url: &Url) -> Result<Vec<u8>, SourceError> {
        let doc = self
            .http
            .get(url, false, DOCUMENT_TIMEOUT)
            .map_err(SourceError::other)?;
        if doc.status != 200 {
            return Err(SourceError::other(format!(
                "{} returned from {}",
                doc.status_text,
                url.host_str().unwrap_or("")
            )));
        }
        Ok(doc.body)
    }

    // --- network mirror -------------------------------------------------------------------

    fn mirror_versions(
        &self,
        base: &Url,
        p: &Provider,
    ) -> Result<Option<AvailableVersions>, SourceError> {
        let addr = p.to_string();
        let url =
            index_url(base, &p.hostname, &p.namespace, &p.r#type).map_err(SourceError::other)?;
        let doc = self
            .http
            .get(&url, true, DOCUMENT_TIMEOUT)
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        match index_status(doc.status) {
            MirrorStatus::Ok => {}
            MirrorStatus::NotFound => return Ok(None),
            MirrorStatus::Unauthorized => {
                return Err(SourceError::other(format!(
                    "host {} rejected the given authentication credentials",
                    url.host_str().unwrap_or("")
                )))
            }
            MirrorStatus::Failed(e) => {
                return Err(SourceError::other(mirror_query_failed(base, &addr, e)))
            }
        }
        check_content_type(doc.content_type.as_deref())
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        let index = MirrorIndex::parse(&doc.body)
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        Ok(Some(AvailableVersions {
            versions: index
                .versions
                .iter()
                .filter_map(|v| Version::parse(v).ok())
                .collect(),
            warnings: Vec::new(),
        }))
    }

    fn mirror_package(
        &self,
        base: &Url,
        trust_all: bool,
        p: &Provider,
        v: &Version,
        platform: &str,
    ) -> Result<SourcePackage, SourceError> {
        let addr = p.to_string();
        let url = version_url(base, &p.hostname, &p.namespace, &p.r#type, &v.to_string())
            .map_err(SourceError::other)?;
        let doc = self
            .http
            .get(&url, true, DOCUMENT_TIMEOUT)
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        match index_status(doc.status) {
            MirrorStatus::Ok => {}
            MirrorStatus::NotFound => {
                return Err(SourceError::other(version_index_missing(
                    &addr,
                    &v.to_string(),
                )))
            }
            MirrorStatus::Unauthorized => {
                return Err(SourceError::other(format!(
                    "host {} rejected the given authentication credentials",
                    url.host_str().unwrap_or("")
                )))
            }
            MirrorStatus::Failed(e) => {
                return Err(SourceError::other(mirror_query_failed(base, &addr, e)))
            }
        }
        check_content_type(doc.content_type.as_deref())
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        let parsed = MirrorVersion::parse(&doc.body)
            .map_err(|e| SourceError::other(mirror_query_failed(base, &addr, e)))?;
        let not_found = || {
            tflock_core::protocol::mirror::platform_missing(base, &addr, &v.to_string(), platform)
        };
        match parsed.package(self.flavor, platform, &doc.final_url, trust_all, not_found) {
            Ok(pkg) => Ok(SourcePackage::NetworkMirror {
                mirror_url: base.to_string(),
                url: pkg.url.to_string(),
                hashes: pkg.hashes,
                trust_all_hashes: trust_all,
            }),
            Err(MirrorPackageError::PlatformMissing(msg)) => Err(SourceError {
                kind: SourceErrorKind::PlatformNotSupported {
                    mirror_url: Some(base.to_string()),
                },
                message: msg,
            }),
            Err(MirrorPackageError::Query(e)) => {
                Err(SourceError::other(mirror_query_failed(base, &addr, e)))
            }
        }
    }
}

fn host_error(hostname: &str, message: String) -> SourceError {
    let kind = if message.contains("does not offer") {
        SourceErrorKind::HostNoProviders {
            hostname: hostname.to_string(),
        }
    } else {
        SourceErrorKind::Other
    };
    SourceError { kind, message }
}

/// Terraform and OpenTofu speak plugin protocols 5 and 6; versions listing only others
/// are not installable and are skipped.
fn protocols_compatible(protocols: &[String]) -> bool {
    protocols.is_empty()
        || protocols.iter().any(|p| {
            let major = p.split('.').next().unwrap_or("");
            major == "5" || major == "6"
        })
}

// --- filesystem mirror ------------------------------------------------------------------

/// Every package of `p` in a filesystem mirror, as (version, platform, layout, path).
fn fs_entries(dir: &Path, p: &Provider, flavor: Flavor) -> Vec<(Version, String, Layout, PathBuf)> {
    let mut out = Vec::new();
    let Ok(hosts) = std::fs::read_dir(dir) else {
        return out;
    };
    for host in hosts.flatten() {
        let host_name = host.file_name().to_string_lossy().to_string();
        let type_dir = host.path().join(&p.namespace).join(&p.r#type);
        let Ok(items) = std::fs::read_dir(&type_dir) else {
            continue;
        };
        for item in items.flatten() {
            let name = item.file_name().to_string_lossy().to_string();
            let path = item.path();
            let rel_base = format!("{host_name}/{}/{}/{name}", p.namespace, p.r#type);
            if path.is_dir() {
                let Ok(plats) = std::fs::read_dir(&path) else {
                    continue;
                };
                for plat in plats.flatten() {
                    let pname = plat.file_name().to_string_lossy().to_string();
                    let rel = format!("{rel_base}/{pname}");
                    consider(&mut out, &rel, plat.path(), true, p, flavor);
                }
            } else {
                consider(&mut out, &rel_base, path, false, p, flavor);
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    out
}

fn consider(
    out: &mut Vec<(Version, String, Layout, PathBuf)>,
    rel: &str,
    path: PathBuf,
    is_dir: bool,
    p: &Provider,
    flavor: Flavor,
) {
    let is_dir = is_dir && path.is_dir();
    let Some(e) = parse_entry(rel, is_dir, flavor.default_registry_host()) else {
        return;
    };
    if e.hostname != p.hostname {
        return;
    }
    if let Ok(v) = Version::parse(&e.version) {
        out.push((v, e.platform, e.layout, path));
    }
}

fn fs_versions(dir: &Path, p: &Provider, flavor: Flavor) -> Option<AvailableVersions> {
    let entries = fs_entries(dir, p, flavor);
    if entries.is_empty() {
        return None;
    }
    let mut versions: Vec<Version> = Vec::new();
    for (v, ..) in entries {
        if !versions.contains(&v) {
            versions.push(v);
        }
    }
    Some(AvailableVersions {
        versions,
        warnings: Vec::new(),
    })
}

fn fs_package(
    dir: &Path,
    p: &Provider,
    v: &Version,
    platform: &str,
    flavor: Flavor,
) -> Result<SourcePackage, SourceError> {
    let entries = fs_entries(dir, p, flavor);
    // Unpacked directories win over archives of the same package, as in Terraform.
    let mut candidates: Vec<_> = entries
        .into_iter()
        .filter(|(ev, ep, ..)| ev == v && ep == platform)
        .collect();
    candidates.sort_by_key(|(_, _, layout, _)| *layout != Layout::Unpacked);
    match candidates.into_iter().next() {
        Some((_, _, Layout::Unpacked, path)) => Ok(SourcePackage::LocalDir {
            path: path.display().to_string(),
        }),
        Some((_, _, Layout::Packed, path)) => Ok(SourcePackage::LocalArchive {
            path: path.display().to_string(),
        }),
        None => Err(SourceError {
            kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
            message: platform_not_supported(&p.to_string(), &v.to_string(), platform),
        }),
    }
}
