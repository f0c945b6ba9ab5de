//! Provider installation sources (registry, network mirror, filesystem mirror) answering the
//! planner's `Versions` and `PackageMeta` requests over real HTTP and disk.
//!
//! Every decision and message lives in `tflock_core::source`; this file only performs the
//! requests a conversation asks for: `GET`s with the shared [`Http`] client and directory
//! listings with `std::fs`.

use super::http::Http;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tflock_core::addrs::{Platform, Provider};
use tflock_core::install::{Answer, AvailableVersions, Need, SourceError, SourcePackage};
use tflock_core::protocol::cliconfig::CliConfig;
use tflock_core::source::{self, DirEntry, HttpResponse, SourceRequest, SourceResponse, SourceSet};
use tflock_core::version::Version;
use tflock_core::{Diagnostics, Flavor};

/// How long one registry or mirror JSON request may take (Terraform's default is 10s).
const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);

pub use tflock_core::source::Method;

/// The ordered set of sources, like Terraform's `MultiSource`, shared by worker threads.
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
            .map(|m| source::SourceEntry {
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

    /// Whose rules and texts the sources follow.
    pub fn flavor(&self) -> Flavor {
        self.set().flavor()
    }

    /// The HTTP client the sources use (package downloads share it).
    pub fn http(&self) -> &Http {
        &self.http
    }

    fn set(&self) -> MutexGuard<'_, SourceSet> {
        self.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs the conversation for `need`; the set is locked only between requests, so
    /// worker threads talk to the network in parallel.
    fn converse(&self, need: &Need) -> Option<Answer> {
        let mut conv = self.set().conversation(need)?;
        loop {
            let step = conv.poll(&mut self.set());
            match step {
                source::Step::Answer(a) => return Some(a),
                source::Step::Request(req) => {
                    let resp = self.perform(&req);
                    if conv.receive(resp).is_err() {
                        return None;
                    }
                }
            }
        }
    }

    fn perform(&self, req: &SourceRequest) -> SourceResponse {
        match req {
            SourceRequest::Get { url, auth_host } => SourceResponse::Http(
                self.http
                    .get_for(url, auth_host.as_deref(), DOCUMENT_TIMEOUT)
                    .map(|doc| HttpResponse {
                        status: doc.status,
                        status_text: doc.status_text,
                        content_type: doc.content_type,
                        final_url: doc.final_url,
                        body: doc.body,
                        had_credentials: auth_host
                            .as_deref()
                            .is_some_and(|h| self.http.has_token(h)),
                    }),
            ),
            SourceRequest::ListDir { path } => SourceResponse::Listing(list_dir(Path::new(path))),
        }
    }

    /// All versions any handling source offers (union, like `MultiSource`).
    pub fn versions(&self, p: &Provider) -> Result<AvailableVersions, SourceError> {
        let need = Need::Versions {
            provider: p.clone(),
        };
        match self.converse(&need) {
            Some(Answer::Versions(r)) => r,
            _ => Err(SourceError::other("internal error: no versions answer")),
        }
    }

    /// Where to get `p` `v` for `platform`: the first handling source that has the version.
    pub fn package_meta(
        &self,
        p: &Provider,
        v: &Version,
        platform: &str,
    ) -> Result<SourcePackage, SourceError> {
        let platform = Platform::parse(platform).map_err(|e| SourceError::other(e.to_string()))?;
        let need = Need::PackageMeta {
            provider: p.clone(),
            version: v.clone(),
            platform,
        };
        match self.converse(&need) {
            Some(Answer::PackageMeta(r)) => r,
            _ => Err(SourceError::other("internal error: no package answer")),
        }
    }
}

/// A directory's entries; `is_dir` follows symbolic links, as `os.Stat` does.
fn list_dir(dir: &Path) -> Result<Vec<DirEntry>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(entries
        .flatten()
        .map(|e| DirEntry {
            name: e.file_name().to_string_lossy().to_string(),
            is_dir: e.path().is_dir(),
        })
        .collect())
}
