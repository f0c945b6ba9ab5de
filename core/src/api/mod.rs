//! The one boundary hosts use: typed operations with plain-data results, and one IO
//! contract ([`IoRequest`] / [`IoResponse`]) a host performs. Hosts render; every rule,
//! text and protocol loop is behind this module.
//!
//! One file per operation:
//! - [`lock`]: lock / init, the planner with its installation sources ([`LockRun`]);
//! - [`io`]: the requests an operation asks a host to perform and the responses;
//! - [`metadata`]: what the sources say about one package, outside a lock run;
//! - [`check`]: a lock file against a configuration's requirements, offline;
//! - [`coverage`]: which platforms a lock's hashes cover, learned from source metadata;
//! - [`input_values`]: the root module's variable values read before loading (`*.tfvars`);
//! - [`mirror`]: which mirror documents newly stored packages change;
//! - [`parse`]: a network mirror URL, a flavour name, a provider package file name;
//! - [`lock_file`]: read, write, diff, merge a lock file;
//! - [`module`]: load a module or a tree, merge overrides, read its requirements;
//! - [`requirements`]: the planner's requirements from a configuration's;
//! - [`hash`]: hash a package (`h1:`, `zh:`), a host's SHA-256;
//! - [`version`]: versions and constraints: parse, check, select;
//! - [`cli_config`]: read the CLI configuration;
//! - [`checksums`]: a signed `SHA256SUMS`;
//! - [`hash_cache`]: the verified hash cache's keys and entries;
//! - [`platforms`]: which platforms to lock;
//! - [`plan`]: the planner's own needs, for hosts that answer them;
//! - [`update`]: a bot's move of one provider to one version.

pub mod check;
pub mod checksums;
pub mod cli_config;
pub mod coverage;
pub mod hash;
pub mod hash_cache;
pub mod input_values;
pub mod io;
pub mod lock;
pub mod lock_file;
pub mod metadata;
pub mod mirror;
pub mod module;
pub mod parse;
pub mod plan;
pub mod platforms;
pub mod requirements;
pub mod update;
pub mod version;

pub use io::{IoId, IoRequest, IoResponse, LocalPlace, PackageId};
pub use lock::{LockRun, LockSources, RunError};
pub use metadata::{package_metadata, MetadataQuery, MetadataStep};

// The vocabulary the operations take and return.
pub use crate::install::{
    init_config_error, init_config_report, init_header, providers_config_report, AuthView,
    FetchedPackage, HashProvenance, HashSource, Mode, Outcome, OutcomeView, PackageDownload,
    PlanOptions, Planner, ProviderView, Requirements, SourceError, SourceErrorKind, SourcePackage,
};
pub use crate::source::{DirEntry, HttpResponse, Method, SourceEntry, SourceSet};

// Plain data every operation passes around: a provider address, a platform, a small map.
pub use crate::addrs::{Platform, Provider};
pub use crate::collections::SortedMap;
/// Diagnostics as Terraform's CLI prints them, with their files' text.
pub use crate::diag_text::{colorize, render, render_all, Sources, Style, DEFAULT_WIDTH};
