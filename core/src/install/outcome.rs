//! What a finished plan produces.

use super::needs::PackageLocation;
use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::lockfile::{LockDiff, Locks};
use crate::version::Version;
use crate::Diagnostics;

/// The result of a plan: the lock file to keep, what changed, and what to install.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The lock set after this run (equal to the previous one when nothing changed or the
    /// run failed).
    pub new_lock: Locks,
    /// Whether the host should write `new_lock` to `.terraform.lock.hcl` (atomically).
    pub write_lock: bool,
    /// A reviewer's view of the change from the previous lock set to `new_lock`.
    pub changes: LockDiff,
    /// Errors and warnings, with the product's texts.
    pub diagnostics: Diagnostics,
    /// Progress and summary lines in order, with the products' `[bold]`/`[reset]` markup.
    pub messages: Vec<String>,
    /// Packages the host should unpack into the working directory (init only, and only
    /// when the run succeeded).
    pub installs: Vec<Install>,
    /// Per provider: the selection and where each recorded hash's trust came from.
    pub providers: Vec<ProviderResult>,
}

impl Outcome {
    /// True when the run failed.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }
}

/// A package the host should put in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Install {
    /// The provider.
    pub provider: Provider,
    /// The version.
    pub version: Version,
    /// The platform (the directory name under the version).
    pub platform: Platform,
    /// Where the verified package is.
    pub location: PackageLocation,
    /// True when it comes from the global plugin cache (link or copy it).
    pub from_cache: bool,
}

/// Per-provider summary of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderResult {
    /// The provider.
    pub provider: Provider,
    /// The selected version, when selection succeeded.
    pub version: Option<Version>,
    /// The authentication result per platform (`signed by HashiCorp`, ...).
    pub auth: Vec<(Platform, String)>,
    /// Every hash recorded for this provider and why it is trusted.
    pub provenance: Vec<HashProvenance>,
}

/// Where trust in one recorded hash came from (serialized as is in [`super::OutcomeView`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HashProvenance {
    /// The hash.
    pub hash: PackageHash,
    /// Platforms the hash is known to belong to (empty when the source did not say, as for
    /// `SHA256SUMS` lines of other platforms).
    pub platforms: Vec<String>,
    /// Key ID of the verified signature covering it.
    pub signed_by: Option<String>,
    /// Computed here from a downloaded or installed package.
    pub computed_locally: bool,
    /// Reported by the origin registry (`SHA256SUMS` or OpenTofu `packages`).
    pub reported_by_registry: bool,
    /// Reported by a network mirror (OpenTofu `trust_all_hashes`).
    pub reported_by_mirror: bool,
    /// Already in the previous lock file.
    pub from_previous_lock: bool,
    /// Taken from the source's metadata for a platform whose package was not downloaded
    /// (`-metadata-hashes`); `platforms` names them.
    pub from_metadata: bool,
}

impl HashProvenance {
    /// A provenance record for `hash` with nothing known yet.
    pub fn new(hash: PackageHash) -> HashProvenance {
        HashProvenance {
            hash,
            platforms: Vec::new(),
            signed_by: None,
            computed_locally: false,
            reported_by_registry: false,
            reported_by_mirror: false,
            from_previous_lock: false,
            from_metadata: false,
        }
    }
}
