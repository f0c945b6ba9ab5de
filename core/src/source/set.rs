//! The ordered set of installation methods a run uses (Terraform's `MultiSource`), and what
//! it has learned so far: discovered `providers.v1` bases and version lists.

use crate::collections::SortedMap;

use url::Url;

use super::answers::{AvailableVersions, Question};
use super::conversation::Conversation;
use super::filesystem::FsPackage;
use crate::addrs::Provider;
use crate::protocol::cliconfig::{CliConfig, MethodKind, Source as ConfigSource};
use crate::protocol::discovery::DiscoveryError;
use crate::{Diagnostics, Flavor};

/// One installation method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// The provider's origin registry (`direct`).
    Registry,
    /// A network mirror at this base URL.
    NetworkMirror {
        /// Base URL, as configured.
        base: Url,
        /// OpenTofu `trust_all_hashes`.
        trust_all_hashes: bool,
    },
    /// A local directory in the filesystem-mirror layouts.
    FilesystemMirror {
        /// The directory, as configured.
        path: String,
    },
}

/// A method with the providers it may serve (`None`: every provider).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceEntry {
    /// The method.
    pub method: Method,
    /// `include`/`exclude` patterns of the `provider_installation` block.
    pub filter: Option<ConfigSource>,
}

/// What one source offered for one provider: versions, and for filesystem mirrors the
/// packages found, so `PackageMeta` needs no second walk.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Listed {
    pub(crate) available: AvailableVersions,
    pub(crate) packages: Vec<FsPackage>,
}

/// The installation sources of a run, in priority order, with their memory.
#[derive(Debug, Clone)]
pub struct SourceSet {
    entries: Vec<SourceEntry>,
    pub(crate) flavor: Flavor,
    pub(crate) cli_config: CliConfig,
    /// `providers.v1` base URLs (or the failure text) by hostname.
    pub(crate) discovered: SortedMap<String, Result<Url, DiscoveryError>>,
    /// Version lists by (entry index, provider); `None` when the source has no such
    /// provider. Failures are not remembered (a later need asks again).
    pub(crate) listed: SortedMap<(usize, Provider), Option<Listed>>,
}

impl SourceSet {
    /// The sources a CLI config describes: its `provider_installation` methods (OCI
    /// mirrors are skipped), or direct registry access when it has none. `host` blocks
    /// replace service discovery. The error is the config's diagnostics.
    pub fn from_cli_config(cfg: &CliConfig, flavor: Flavor) -> Result<SourceSet, Diagnostics> {
        let entries = match cfg.sources(flavor)? {
            None => vec![SourceEntry {
                method: Method::Registry,
                filter: None,
            }],
            Some(list) => list
                .into_iter()
                .filter_map(|s| {
                    let method = match &s.kind {
                        MethodKind::Direct => Method::Registry,
                        MethodKind::FilesystemMirror { path } => {
                            Method::FilesystemMirror { path: path.clone() }
                        }
                        MethodKind::NetworkMirror { url } => Method::NetworkMirror {
                            base: Url::parse(url).ok()?,
                            trust_all_hashes: s.trust_all_hashes,
                        },
                        MethodKind::OciMirror { .. } => return None,
                    };
                    Some(SourceEntry {
                        method,
                        filter: Some(s),
                    })
                })
                .collect(),
        };
        Ok(SourceSet::new(entries, cfg, flavor))
    }

    /// Exactly one method for every provider (`providers lock -fs-mirror/-net-mirror`);
    /// `cfg` still supplies `host` blocks.
    pub fn single(method: Method, cfg: &CliConfig, flavor: Flavor) -> SourceSet {
        SourceSet::new(
            vec![SourceEntry {
                method,
                filter: None,
            }],
            cfg,
            flavor,
        )
    }

    /// An explicit list of methods, in priority order.
    pub fn new(entries: Vec<SourceEntry>, cfg: &CliConfig, flavor: Flavor) -> SourceSet {
        SourceSet {
            entries,
            flavor,
            cli_config: cfg.clone(),
            discovered: SortedMap::new(),
            listed: SortedMap::new(),
        }
    }

    /// The product whose rules apply.
    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// The methods, in priority order.
    pub fn entries(&self) -> &[SourceEntry] {
        &self.entries
    }

    /// A conversation answering `question`.
    pub fn conversation(&self, question: Question) -> Conversation {
        Conversation::new(question)
    }

    /// The entries that may offer `p`, with their index.
    pub(crate) fn handling(&self, p: &Provider) -> Vec<(usize, Method)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.filter
                    .as_ref()
                    .is_none_or(|f| f.can_handle(&p.hostname, &p.namespace, &p.r#type))
            })
            .map(|(i, e)| (i, e.method.clone()))
            .collect()
    }

    /// The search locations for `p`, one `- ...` line each (the "not found" message).
    pub(crate) fn describe_locations(&self, p: &Provider) -> String {
        self.handling(p)
            .iter()
            .map(|(_, m)| match m {
                Method::Registry => format!("- provider registry {}", p.hostname),
                Method::NetworkMirror { base, .. } => format!("- provider mirror at {base}"),
                Method::FilesystemMirror { path } => format!("- {path}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
