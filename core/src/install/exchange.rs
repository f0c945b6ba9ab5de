//! The requests a planner makes of its host and the answers the host gives back.

use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::protocol::registry::PackageMeta;
use crate::version::Version;
use serde::Serialize;

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

/// Where a package lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum PackageLocation {
    /// An `http(s)` URL of a zip.
    Url(String),
    /// A zip on the host's filesystem (packed filesystem mirror).
    LocalArchive(String),
    /// An unpacked directory on the host's filesystem.
    LocalDir(String),
}

/// Why the source could not answer, with the product's text in `message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceError {
    /// The category, which decides the diagnostic's wording.
    pub kind: SourceErrorKind,
    /// The error text (e.g. `provider registry example.com does not have a provider named ...`).
    pub message: String,
}

/// Categories of source failure that Terraform reports differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SourceErrorKind {
    /// Any other failure (network, status, bad JSON, ...).
    Other,
    /// The host does not offer a provider registry (`ErrHostNoProviders`).
    HostNoProviders {
        /// The hostname.
        hostname: String,
        /// The host declares another `providers.*` protocol version.
        other_version: bool,
    },
    /// The origin registry does not know the provider (`ErrRegistryProviderNotKnown`, a 404
    /// on `versions`): init suggests declaring `required_providers`.
    ProviderNotKnown,
    /// No package for the platform (`ErrPlatformNotSupported`); `mirror_url` when the
    /// source was a mirror.
    PlatformNotSupported {
        /// The mirror's base URL, if a mirror said so.
        mirror_url: Option<String>,
    },
}

impl SourceError {
    /// A failure of the [`SourceErrorKind::Other`] kind.
    pub fn other(message: impl std::fmt::Display) -> SourceError {
        SourceError {
            kind: SourceErrorKind::Other,
            message: message.to_string(),
        }
    }
}

/// The versions a source offers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AvailableVersions {
    /// Valid versions (invalid ones already skipped), any order.
    pub versions: Vec<Version>,
    /// Registry `warnings`, shown as a warning diagnostic.
    pub warnings: Vec<String>,
}

/// What a source says about one platform's package.
#[derive(Debug, Clone, PartialEq)]
pub enum SourcePackage {
    /// A provider registry's validated `download` answer plus the `SHA256SUMS` document and
    /// its detached signature (Terraform fetches both right away).
    Registry {
        /// The validated download answer.
        meta: Box<PackageMeta>,
        /// `SHA256SUMS` bytes.
        sha256sums: Vec<u8>,
        /// Detached signature bytes.
        signature: Vec<u8>,
    },
    /// A network mirror's `<version>.json` entry.
    NetworkMirror {
        /// The mirror's base URL (for messages).
        mirror_url: String,
        /// The archive URL, resolved.
        url: String,
        /// `(platform, hash)` pairs to check against: the target platform's, or every
        /// platform's when OpenTofu's `trust_all_hashes` is set.
        hashes: Vec<(String, String)>,
        /// OpenTofu `trust_all_hashes`.
        trust_all_hashes: bool,
    },
    /// A filesystem mirror's zip.
    LocalArchive {
        /// Path of the zip.
        path: String,
    },
    /// A filesystem mirror's unpacked directory.
    LocalDir {
        /// Path of the directory.
        path: String,
    },
}

impl SourcePackage {
    /// The archive's `zh:` as announced by the source, when it announces one.
    pub fn known_zh(&self) -> Option<PackageHash> {
        match self {
            SourcePackage::Registry { meta, .. } => {
                PackageHash::parse(&format!("zh:{}", hex::encode(meta.sha256))).ok()
            }
            // With `trust_all_hashes` the list spans platforms and a `zh:` could belong to
            // another platform's archive: only a single-platform list names this archive.
            SourcePackage::NetworkMirror { hashes, .. } => {
                let single = hashes.windows(2).all(|w| w[0].0 == w[1].0);
                let zhs: Vec<&String> = hashes
                    .iter()
                    .map(|(_, h)| h)
                    .filter(|h| h.starts_with("zh:"))
                    .collect();
                match (single, zhs.as_slice()) {
                    (true, [one]) => PackageHash::parse(one).ok(),
                    _ => None,
                }
            }
            SourcePackage::LocalArchive { .. } | SourcePackage::LocalDir { .. } => None,
        }
    }

    /// Where the package bytes are.
    pub fn location(&self) -> PackageLocation {
        match self {
            SourcePackage::Registry { meta, .. } => {
                PackageLocation::Url(meta.download_url.to_string())
            }
            SourcePackage::NetworkMirror { url, .. } => PackageLocation::Url(url.clone()),
            SourcePackage::LocalArchive { path } => PackageLocation::LocalArchive(path.clone()),
            SourcePackage::LocalDir { path } => PackageLocation::LocalDir(path.clone()),
        }
    }
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
