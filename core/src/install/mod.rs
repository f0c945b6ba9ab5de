//! The sans-IO install planner behind `init` and `providers lock`.
//!
//! The host (CLI, Worker, browser) drives a [`Planner`]: it asks for the requests the planner
//! can issue now ([`Planner::next`]), performs them however it likes (in parallel, from a
//! cache, over `fetch`), and feeds each result back ([`Planner::answer`]). When nothing is
//! left to ask, [`Planner::finish`] returns the [`Outcome`]: the new lock file, what changed,
//! diagnostics and messages with Terraform's or OpenTofu's texts, and the packages to install.

mod coverage;
mod download;
mod hash_cache;
mod init_config;
mod lock_check;
mod mirror_reuse;
mod needs;
mod options;
mod outcome;
mod planner;
mod platform_choice;
pub mod requirements;
mod targets;
mod update;
mod view;
mod workdir_flavor;

pub use coverage::{
    coverage_query_failure, learn_hashes, lock_coverage, Coverage, KnownHashes, ProviderCoverage,
};
pub use download::{DownloadFailure, PackageDownload};
pub use hash_cache::{cache_key, verified, CachedHashes};
pub use init_config::{init_config_report, providers_config_report, InitConfigReport};
pub use lock_check::{check_lock, LockCheck, LockStatus, ProviderCheck};
pub use mirror_reuse::{mirror_reuse_summary, mirrored_archive_matches};
pub use needs::{
    Answer, AvailableVersions, FetchedPackage, Need, NeedId, PackageLocation, Request, SourceError,
    SourceErrorKind, SourcePackage,
};
pub use options::{HashSource, Mode, PlanOptions, Requirements};
pub use outcome::{HashProvenance, Install, Outcome, ProviderResult};
pub use planner::{init_config_error, init_header, AnswerError, Planner};
pub use platform_choice::{
    locked_platforms, probe_platforms, LockedPlatforms, PlatformChoice, PlatformOrigin,
    PlatformRequest, PlatformSpec, LOCKED, PLATFORMS_ENV,
};
pub use targets::restrict_to_arguments;
pub use update::ProviderUpdate;
pub use view::{AuthView, OutcomeView, ProviderView};
pub use workdir_flavor::{choose_flavor, FlavorChoice, FlavorReason};
