//! Provider installation sources (registry, network mirror, filesystem mirror) over real
//! HTTP and disk.
//!
//! Every decision, message and conversation lives in core (`tflock_core::api`); this file
//! only performs the requests core asks for: `GET`s with the shared [`Http`] client and
//! directory listings with `std::fs`.

use super::http::Http;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tflock_core::api::cli_config::CliConfig;
use tflock_core::api::version::Version;
use tflock_core::api::{
    package_metadata, DirEntry, HttpResponse, IoRequest, IoResponse, PackageId, SourceEntry,
    SourceError, SourcePackage, SourceSet,
};
use tflock_core::api::{Platform, Provider};
use tflock_core::{Diagnostics, Flavor};
use url::Url;

/// How long one registry or mirror JSON request may take (Terraform's default is 10s).
const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);

pub use tflock_core::api::Method;

/// The ordered set of sources, like Terraform's `MultiSource`, and the HTTP client.
#[derive(Debug)]
pub struct Sources {
    set: Mutex<SourceSet>,
    http: Http,
}

impl Sources {
    /// The sources a CLI config describes (direct registry access when it has no
    /// `provider_installation` block).
    pub fn from_cli_config(
        cfg: &CliConfig,
        flavor: Flavor,
        http: Http,
    ) -> Result<Sources, Diagnostics> {
        Ok(Sources::with_set(
            SourceSet::from_cli_config(cfg, flavor)?,
            http,
        ))
    }

    /// These methods, in priority order, for every provider (`providers lock -fs-mirror` or
    /// `-net-mirror`, `init -plugin-dir`); `cfg` still supplies `host` blocks.
    pub fn only(methods: Vec<Method>, cfg: &CliConfig, flavor: Flavor, http: Http) -> Sources {
        let entries = methods
            .into_iter()
            .map(|m| SourceEntry {
                method: m,
                filter: None,
            })
            .collect();
        Sources::with_set(SourceSet::new(entries, cfg, flavor), http)
    }

    fn with_set(set: SourceSet, http: Http) -> Sources {
        Sources {
            set: Mutex::new(set),
            http,
        }
    }

    /// The HTTP client the sources use (package downloads share it).
    pub fn http(&self) -> &Http {
        &self.http
    }

    /// The source set and what it has learned; held by one run at a time.
    pub fn set(&self) -> MutexGuard<'_, SourceSet> {
        self.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `GET url` read whole, with `auth_host`'s credentials when configured.
    pub fn get(&self, url: &Url, auth_host: Option<&str>) -> IoResponse {
        IoResponse::Http(
            self.http
                .get_for(url, auth_host, DOCUMENT_TIMEOUT)
                .map(|doc| HttpResponse {
                    status: doc.status,
                    status_text: doc.status_text,
                    content_type: doc.content_type,
                    final_url: doc.final_url,
                    body: doc.body,
                    had_credentials: auth_host.is_some_and(|h| self.http.has_token(h)),
                }),
        )
    }

    /// Performs a source request (a `GET` or a directory listing); `None` for the package
    /// kinds, which the driver performs.
    pub fn perform(&self, request: &IoRequest) -> Option<IoResponse> {
        match request {
            IoRequest::Get { url, auth_host } => Some(self.get(url, auth_host.as_deref())),
            IoRequest::ListDir { path } => Some(IoResponse::Listing(list_dir(Path::new(path)))),
            _ => None,
        }
    }

    /// Where to get `p` `v` for `platform` and the hashes the source vouches for: the
    /// first handling source that has the version.
    pub fn package_meta(
        &self,
        p: &Provider,
        v: &Version,
        platform: &Platform,
    ) -> Result<SourcePackage, SourceError> {
        let package = PackageId {
            provider: p.clone(),
            version: v.clone(),
            platform: platform.clone(),
        };
        package_metadata(&mut self.set(), &package, |req| {
            self.perform(&req).unwrap_or_else(|| {
                IoResponse::Http(Err("internal error: not a source request".into()))
            })
        })
    }
}

/// A directory's entries; `is_dir` follows symbolic links, as `os.Stat` does.
pub fn list_dir(dir: &Path) -> Result<Vec<DirEntry>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(entries
        .flatten()
        .map(|e| DirEntry {
            name: e.file_name().to_string_lossy().to_string(),
            is_dir: e.path().is_dir(),
        })
        .collect())
}
