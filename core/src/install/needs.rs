//! The requests a planner makes of its host and the answers the host gives back.

use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::version::Version;
use serde::Serialize;

// What a source finds out is the source's vocabulary; the planner takes it as it is.
pub use crate::source::{
    AvailableVersions, Found, PackageLocation, SourceError, SourceErrorKind, SourcePackage,
};

/// Identifies one request so answers can arrive in any order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct NeedId(pub u32);

/// One request, with its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Quote this id in [`crate::install::Planner::answer`].
    pub id: NeedId,
    /// What is needed.
    pub need: Need,
}

/// What the planner needs the host to find out.
#[derive(Debug, Clone, PartialEq)]
pub enum Need {
    /// The versions the installation source offers (registry `versions`, mirror
    /// `index.json`, filesystem mirror listing). Answer with [`Answer::Versions`].
    Versions {
        /// The provider.
        provider: Provider,
    },
    /// The `h1:` of the package already unpacked in the working directory's provider
    /// cache (`.terraform/providers/...`), if any. Answer with [`Answer::LocalPackage`].
    InstalledPackage {
        /// The provider.
        provider: Provider,
        /// The locked version.
        version: Version,
        /// The target platform.
        platform: Platform,
    },
    /// The `h1:` of the package in the global plugin cache, if any. Answer with
    /// [`Answer::LocalPackage`].
    CachedPackage {
        /// The provider.
        provider: Provider,
        /// The selected version.
        version: Version,
        /// The target platform.
        platform: Platform,
    },
    /// Where to get the package for one platform, and what the source says about it
    /// (registry `download` answer with its `SHA256SUMS` and signature, or a mirror's
    /// entry). Answer with [`Answer::PackageMeta`].
    PackageMeta {
        /// The provider.
        provider: Provider,
        /// The selected version.
        version: Version,
        /// The target platform.
        platform: Platform,
    },
    /// Fetch the package and hash it while it streams (no need to keep it for
    /// `providers lock`). Answer with [`Answer::Package`].
    Package {
        /// The provider.
        provider: Provider,
        /// The selected version.
        version: Version,
        /// The target platform.
        platform: Platform,
        /// Where it is.
        location: PackageLocation,
        /// Hashes the package will be checked against (informational: hosts may stop
        /// early on a mismatch).
        expect: Vec<PackageHash>,
        /// The archive's `zh:` as the source announced it (registry `shasum`, a mirror's
        /// `zh:`), before download. A host with a cache of verified packages keyed by `zh:`
        /// may answer from it without downloading; the planner still authenticates.
        known_zh: Option<PackageHash>,
    },
}

/// What the host learned by fetching and hashing a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchedPackage {
    /// A zip: every hash of it, its SHA-256 digest and size.
    Archive {
        /// `h1:` (both forms) and `zh:`.
        hashes: crate::hash::ZipHashes,
        /// SHA-256 of the archive bytes.
        sha256: [u8; 32],
        /// Size in bytes.
        size: u64,
    },
    /// An unpacked directory and its `h1:`.
    Dir {
        /// `h1:` of the directory.
        h1: PackageHash,
    },
}

impl Need {
    /// The question a source conversation answers for this need; `None` for the needs
    /// sources do not answer (local copies, package bytes).
    pub fn question(&self) -> Option<crate::source::Question> {
        use crate::source::Question;
        match self {
            Need::Versions { provider } => Some(Question::Versions(provider.clone())),
            Need::PackageMeta {
                provider,
                version,
                platform,
            } => Some(Question::PackageMeta(
                provider.clone(),
                version.clone(),
                platform.clone(),
            )),
            Need::InstalledPackage { .. } | Need::CachedPackage { .. } | Need::Package { .. } => {
                None
            }
        }
    }
}

impl From<Found> for Answer {
    fn from(found: Found) -> Answer {
        match found {
            Found::Versions(r) => Answer::Versions(r),
            Found::PackageMeta(r) => Answer::PackageMeta(r),
        }
    }
}

/// The host's reply to one [`Need`], matching its kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Reply to [`Need::Versions`].
    Versions(Result<AvailableVersions, SourceError>),
    /// Reply to [`Need::InstalledPackage`] and [`Need::CachedPackage`]: the `h1:` of the
    /// unpacked package found there, or `None` when there is none.
    LocalPackage(Option<PackageHash>),
    /// Reply to [`Need::PackageMeta`].
    PackageMeta(Result<SourcePackage, SourceError>),
    /// Reply to [`Need::Package`].
    Package(Result<FetchedPackage, SourceError>),
}
