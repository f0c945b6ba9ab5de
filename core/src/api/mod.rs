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
//! - [`parse`]: a network mirror URL, a flavour name, a provider package file name.

pub mod check;
pub mod coverage;
pub mod input_values;
pub mod io;
pub mod lock;
pub mod metadata;
pub mod mirror;
pub mod parse;

pub use io::{IoId, IoRequest, IoResponse, LocalPlace, PackageId};
pub use lock::{LockRun, LockSources, RunError};
pub use metadata::{package_metadata, MetadataQuery, MetadataStep};

// The vocabulary the operations take and return.
pub use crate::install::{
    init_config_error, init_header, FetchedPackage, HashSource, Mode, Outcome, PackageDownload,
    PlanOptions, Planner, Requirements, SourceError, SourceErrorKind, SourcePackage,
};
pub use crate::source::{DirEntry, HttpResponse, Method, SourceEntry, SourceSet};
