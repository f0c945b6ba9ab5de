//! What a conversation asks of its host and what the host hands back.

use url::Url;

/// One piece of IO a [`Conversation`](super::Conversation) needs done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceRequest {
    /// `GET` a small document (discovery, registry or mirror JSON, `SHA256SUMS`, its
    /// signature) and answer with [`SourceResponse::Http`]. The host follows redirects and
    /// applies its timeouts and retries. `auth_host` names the host whose credentials
    /// (`TF_TOKEN_<host>`, `credentials` blocks) go with the request; `None` means send none
    /// (documents on third-party hosts).
    Get {
        /// The absolute URL.
        url: Url,
        /// Whose credentials apply, if any.
        auth_host: Option<String>,
    },
    /// List a directory of a filesystem mirror and answer with [`SourceResponse::Listing`].
    ListDir {
        /// The directory, as configured joined with `/` and the names listed before.
        path: String,
    },
}

/// A host's reply to one [`SourceRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceResponse {
    /// Reply to [`SourceRequest::Get`]: the response, or why there was none (connection
    /// refused, timeout, TLS failure), as the host's error text.
    Http(Result<HttpResponse, String>),
    /// Reply to [`SourceRequest::ListDir`]: the entries in any order, or why the directory
    /// could not be read (missing, not a directory, no permission).
    Listing(Result<Vec<DirEntry>, String>),
}

/// An HTTP response to a [`SourceRequest::Get`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The status as Go prints it (`404 Not Found`); quoted in some messages.
    pub status_text: String,
    /// The `Content-Type` header, if any (mirrors must answer `application/json`).
    pub content_type: Option<String>,
    /// The URL after redirects: relative URLs in the body resolve against it.
    pub final_url: Url,
    /// The body.
    pub body: Vec<u8>,
    /// Whether the host had credentials for the request's `auth_host` (decides between
    /// "requires" and "rejected the given" authentication credentials).
    pub had_credentials: bool,
}

impl HttpResponse {
    /// A response with no redirects, no credentials and `status_text` built from the code
    /// and `reason` (`"Not Found"`).
    pub fn new(
        url: &Url,
        status: u16,
        reason: &str,
        content_type: Option<&str>,
        body: impl Into<Vec<u8>>,
    ) -> HttpResponse {
        HttpResponse {
            status,
            status_text: format!("{status} {reason}").trim_end().to_string(),
            content_type: content_type.map(str::to_string),
            final_url: url.clone(),
            body: body.into(),
            had_credentials: false,
        }
    }
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name (not a path).
    pub name: String,
    /// Whether it is a directory, following symbolic links (as Go's `os.Stat` does).
    pub is_dir: bool,
}

impl DirEntry {
    /// A directory entry.
    pub fn dir(name: &str) -> DirEntry {
        DirEntry {
            name: name.to_string(),
            is_dir: true,
        }
    }

    /// A file entry.
    pub fn file(name: &str) -> DirEntry {
        DirEntry {
            name: name.to_string(),
            is_dir: false,
        }
    }
}
