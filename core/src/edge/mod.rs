//! The edge mirror's rules: what a pull-through provider mirror (the Worker) fetches from an
//! origin registry, what it checks before it publishes anything, and how it answers HTTP,
//! all without IO. The Worker performs the requests and stores the bytes; every decision
//! is made here, with the same discovery, credentials, download-document validation and
//! `SHA256SUMS` signature rules `tflock providers lock` applies.
//!
//! - [`config`]: the Worker's settings (a CLI configuration text, `TF_TOKEN_*`, upload tokens).
//! - [`allow`]: which registries are pulled through and which URLs may be fetched.
//! - [`limits`]: sizes, deadlines, rates, caps and retries of origin reads.
//! - [`fill`]: filling `index.json` and `<version>.json` from the origin, as a resumable
//!   procedure that asks for every independent request at once.
//! - [`record`]: what a filled version remembers about the origin (archive URLs, signed
//!   `zh:`, claimed `h1:`), and the check an archive passes before it is kept.
//! - [`hot`]: documents an isolate keeps in memory for a moment, bounded.
//! - [`misses`]: origin "not found" answers an isolate remembers for a minute, bounded.
//! - [`serve`]: what to answer from the stored copy, its age, a remembered miss and a
//!   fill's or pull's result.
//! - [`http`]: `Range`, `If-None-Match`, caching and CORS headers.
//! - [`parts`]: cutting a stream into equal multipart-upload parts.
//! - [`publish`]: claiming an archive's key so a published archive never changes.
//! - [`plan`]: which documents change, and how, when an archive is pulled or uploaded.
//! - [`tee`]: streaming a cold archive miss to its client, the last chunk only once verified.
//! - [`wait`]: how a request gets an archive another isolate is pulling: passed through
//!   from the origin (bounded per archive and isolate) or waited for.
//! - [`uploads`]: leases and abandoned multipart uploads (when they expire, the sweep).
//! - [`held`]: what a pull holds (slot, lease, upload), given back on every path, and when
//!   a pull whose client left hands itself to the queue.
//! - [`keys`]: where each object lives in the bucket.
//! - [`route`]: which object a request names, every name parsed before it is used.

pub mod allow;
pub mod config;
pub mod fill;
pub mod held;
pub mod hot;
pub mod http;
pub mod keys;
pub mod limits;
pub mod misses;
pub mod parts;
pub mod plan;
pub mod publish;
pub mod record;
pub mod route;
pub mod serve;
pub mod tee;
pub mod uploads;
pub mod wait;

use std::fmt;

/// Why the mirror cannot serve something; `status` is the HTTP status to answer with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeError {
    /// What kind of failure, which decides caching and stale answers.
    pub kind: EdgeErrorKind,
    /// The text for the client, naming the provider, version and platform involved.
    pub message: String,
}

/// Failure categories the Worker treats differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeErrorKind {
    /// The origin says there is no such provider, version or platform (404, cached briefly).
    NotFound,
    /// The origin could not be reached or answered badly (502; a stale copy may be served).
    OriginFailed,
    /// The origin answered, but what it sent failed verification (502; nothing is kept).
    Refused,
    /// The origin was too slow: a deadline or the minimum rate was missed (504; a stale
    /// copy may be served).
    TimedOut,
    /// The mirror does not serve this host (403; nothing is fetched or stored).
    NotAllowed,
    /// The isolate is at its cap of concurrent origin work (429; retry shortly).
    Busy,
}

impl EdgeError {
    /// A failure of `kind` with `message`.
    pub fn new(kind: EdgeErrorKind, message: impl Into<String>) -> EdgeError {
        EdgeError {
            kind,
            message: message.into(),
        }
    }

    /// The HTTP status that reports it.
    pub fn status(&self) -> u16 {
        match self.kind {
            EdgeErrorKind::NotFound => 404,
            EdgeErrorKind::OriginFailed | EdgeErrorKind::Refused => 502,
            EdgeErrorKind::TimedOut => 504,
            EdgeErrorKind::NotAllowed => 403,
            EdgeErrorKind::Busy => 429,
        }
    }
}

impl fmt::Display for EdgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EdgeError {}
