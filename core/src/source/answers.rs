//! What a source conversation finds out: the versions a source offers, where a package is
//! and what the source says about it, or why it could not answer. The planner takes these
//! as they are (`install` re-exports them).

use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::protocol::registry::PackageMeta;
use crate::version::Version;
use serde::Serialize;

/// What a conversation is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// The versions the sources offer for a provider (union, like `MultiSource`).
    Versions(Provider),
    /// Where to get a provider version's package for a platform.
    PackageMeta(Provider, Version, Platform),
}

/// A conversation's answer, matching its [`Question`].
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// Answer to [`Question::Versions`].
    Versions(Result<AvailableVersions, SourceError>),
    /// Answer to [`Question::PackageMeta`].
    PackageMeta(Result<SourcePackage, SourceError>),
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
