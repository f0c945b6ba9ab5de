//! The one contract between core and a host: the IO requests an operation asks for and
//! the responses the host hands back. A host performs each request however it likes (in
//! parallel, from a cache, over `fetch`) and decides nothing else.

use crate::addrs::{Platform, Provider};
use crate::hash::PackageHash;
use crate::install::{FetchedPackage, PackageDownload};
use crate::source::{DirEntry, HttpResponse, SourceRequest, SourceResponse};
use crate::version::Version;
use url::Url;

/// Identifies one IO request so responses can arrive in any order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IoId(pub u32);

/// Which local copy of a package to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalPlace {
    /// The working directory's provider directory (`.terraform/providers/...`).
    Installed,
    /// The global plugin cache (`plugin_cache_dir`).
    PluginCache,
}

/// A package the planner asked for: which provider, version and platform it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageId {
    /// The provider.
    pub provider: Provider,
    /// The version.
    pub version: Version,
    /// The target platform.
    pub platform: Platform,
}

/// One piece of IO an operation needs done.
#[derive(Debug, Clone, PartialEq)]
pub enum IoRequest {
    /// `GET` a small document (discovery, registry or mirror JSON, `SHA256SUMS`, its
    /// signature), read whole; answer with [`IoResponse::Http`]. `auth_host` names the host
    /// whose credentials go with it; `None` means send none.
    Get {
        /// The absolute URL.
        url: Url,
        /// Whose credentials apply, if any.
        auth_host: Option<String>,
    },
    /// List a directory of a filesystem mirror; answer with [`IoResponse::Listing`].
    ListDir {
        /// The directory.
        path: String,
    },
    /// The `h1:` of a package already unpacked at `place`; answer with
    /// [`IoResponse::LocalCopy`].
    ReadLocalCopy {
        /// Where to look.
        place: LocalPlace,
        /// The package.
        package: PackageId,
    },
    /// Stream a package archive and hash it as it arrives; answer with
    /// [`IoResponse::Package`]. The download says which answers count as the package
    /// ([`PackageDownload::check_status`]) and words its failures; it never carries
    /// credentials.
    Download {
        /// The GET to make.
        download: PackageDownload,
        /// The package.
        package: PackageId,
        /// The archive's `zh:` as the source announced it: a host with a cache of verified
        /// packages keyed by `zh:` may answer from it (core still authenticates).
        known_zh: Option<PackageHash>,
    },
    /// Hash a package on the host's filesystem (a filesystem mirror's zip, or its unpacked
    /// directory); answer with [`IoResponse::Package`].
    HashLocal {
        /// The zip's or directory's path.
        path: String,
        /// Whether it is an unpacked directory rather than a zip.
        is_dir: bool,
        /// The package.
        package: PackageId,
    },
}

/// A host's reply to one [`IoRequest`].
#[derive(Debug, Clone, PartialEq)]
pub enum IoResponse {
    /// Reply to [`IoRequest::Get`]: the response, or why there was none, as the host's text.
    Http(Result<HttpResponse, String>),
    /// Reply to [`IoRequest::ListDir`]: the entries in any order, or why the directory could
    /// not be read.
    Listing(Result<Vec<DirEntry>, String>),
    /// Reply to [`IoRequest::ReadLocalCopy`]: the copy's `h1:`, `None` when there is none.
    LocalCopy(Option<PackageHash>),
    /// Reply to [`IoRequest::Download`] and [`IoRequest::HashLocal`]: the hashes, or why
    /// the package could not be fetched (a [`PackageDownload`] failure's message, or the
    /// host's own text).
    Package(Result<FetchedPackage, String>),
}

impl IoRequest {
    /// A source conversation's request as the host sees it.
    pub(crate) fn from_source(request: &SourceRequest) -> IoRequest {
        match request {
            SourceRequest::Get { url, auth_host } => IoRequest::Get {
                url: url.clone(),
                auth_host: auth_host.clone(),
            },
            SourceRequest::ListDir { path } => IoRequest::ListDir { path: path.clone() },
        }
    }
}

impl IoResponse {
    /// The response as a source conversation takes it; `None` for the package kinds.
    pub(crate) fn into_source(self) -> Option<SourceResponse> {
        match self {
            IoResponse::Http(r) => Some(SourceResponse::Http(r)),
            IoResponse::Listing(r) => Some(SourceResponse::Listing(r)),
            IoResponse::LocalCopy(_) | IoResponse::Package(_) => None,
        }
    }
}
