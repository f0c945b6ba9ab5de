//! The HTTP client every network source uses: timeouts, retries, credentials, redirects and
//! the TLS roots to trust.
//!
//! Knobs (environment):
//! - `TF_TOKEN_<host>`: a bearer token for a service host (dots as `_`, dashes as `__`);
//!   wins over a CLI config `credentials "<host>" { token = "..." }` block, as in Terraform.
//! - `SSL_CERT_FILE` / `SSL_CERT_DIR`: extra PEM root certificates (a bundle file; a
//!   colon-separated list of directories), trusted in addition to the built-in roots, the
//!   way Go programs such as Terraform read them on Linux.
//! - `TFLOCK_HTTP_TIMEOUT`: seconds (fractions allowed) one request may take, and how long a
//!   download may go without receiving a byte; Terraform's `TF_REGISTRY_CLIENT_TIMEOUT`
//!   (seconds) is honoured for registry and mirror documents when ours is unset.

use std::io::Read;
use std::time::Duration;
use tflock_core::api::cli_config::CliConfig;
use tflock_core::api::cli_config::Credentials;
use tflock_core::api::PackageDownload;
use url::Url;

/// The Terraform version tflock announces in `X-Terraform-Version` (registries use it to
/// pick compatible answers).
pub const ANNOUNCED_TERRAFORM_VERSION: &str = "1.14.0";

/// Largest JSON or checksum document accepted (registry answers are a few KiB).
const MAX_DOCUMENT: u64 = 32 << 20;

/// How long a download may receive nothing before it is abandoned (without
/// `TFLOCK_HTTP_TIMEOUT`).
const DEFAULT_IDLE: Duration = Duration::from_secs(60);

/// A small document fetched over HTTP.
#[derive(Debug, Clone)]
pub struct Document {
    /// The URL after redirects (relative URLs in the body resolve against it).
    pub final_url: Url,
    /// HTTP status code.
    pub status: u16,
    /// The status text (`404 Not Found`).
    pub status_text: String,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// A blocking HTTP client with Terraform's habits.
#[derive(Debug, Clone)]
pub struct Http {
    client: reqwest::blocking::Client,
    /// Bearer tokens by service host.
    credentials: Credentials,
    retries: u32,
    /// `TFLOCK_HTTP_TIMEOUT` / `TF_REGISTRY_CLIENT_TIMEOUT`, replacing per-call timeouts.
    document_timeout: Option<Duration>,
}

impl Http {
    /// A client with `timeout` per request and `retries` extra attempts for failures that
    /// look transient (connection errors, timeouts, 5xx, 429). Tokens come from
    /// `TF_TOKEN_<host>`; add the CLI config's with [`Http::with_cli_config`].
    pub fn new(timeout: Duration, retries: u32) -> anyhow::Result<Http> {
        let ours = env_seconds("TFLOCK_HTTP_TIMEOUT");
        let document_timeout = ours.or_else(|| env_seconds("TF_REGISTRY_CLIENT_TIMEOUT"));
        let idle = ours.unwrap_or(DEFAULT_IDLE);
        let mut builder = reqwest::blocking::Client::builder()
            .connect_timeout(ours.unwrap_or(timeout))
            // The blocking client's own timeout bounds waiting for the response head and
            // each read of the body: an idle timeout for downloads, not a total one.
            .timeout(idle)
            .redirect(reqwest::redirect::Policy::limited(10))
            .user_agent(concat!("tflock/", env!("CARGO_PKG_VERSION")));
        for cert in extra_roots() {
            builder = builder.add_root_certificate(cert);
        }
        Ok(Http {
            client: builder.build()?,
            credentials: Credentials::from_env_vars(std::env::vars()),
            retries,
            document_timeout,
        })
    }

    /// Adds the CLI config's `credentials` blocks (a `TF_TOKEN_<host>` variable for the
    /// same host wins, as in Terraform).
    pub fn with_cli_config(mut self, cfg: &CliConfig) -> Http {
        self.credentials = self.credentials.with_cli_config(cfg);
        self
    }

    /// Whether a token is configured for `host`.
    pub fn has_token(&self, host: &str) -> bool {
        self.credentials.token_for(host).is_some()
    }

    /// GETs a small document with the credentials of `auth_host` (the registry's hostname,
    /// or a mirror's `host[:port]`), if any are configured; none when `auth_host` is `None`.
    pub fn get_for(
        &self,
        url: &Url,
        auth_host: Option<&str>,
        timeout: Duration,
    ) -> Result<Document, String> {
        let token = auth_host
            .and_then(|h| self.credentials.token_for(h))
            .map(str::to_string);
        let timeout = self.document_timeout.unwrap_or(timeout);
        let mut attempt = 0;
        loop {
            match self.get_once(url, token.as_deref(), timeout) {
                Ok(doc) if transient_status(doc.status) && attempt < self.retries => {}
                Ok(doc) => return Ok(doc),
                Err(e) if attempt >= self.retries => return Err(after_attempts(attempt + 1, e)),
                Err(_) => {}
            }
            attempt += 1;
            std::thread::sleep(backoff(attempt));
        }
    }

    fn get_once(
        &self,
        url: &Url,
        token: Option<&str>,
        timeout: Duration,
    ) -> Result<Document, String> {
        let resp = self
            .request(url, token)
            .timeout(timeout)
            .send()
            .map_err(|e| describe(url, e))?;
        let final_url = resp.url().clone();
        let status = resp.status();
        let content_type = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let mut body = Vec::new();
        resp.take(MAX_DOCUMENT)
            .read_to_end(&mut body)
            .map_err(|e| format!("Get {:?}: {}", url.as_str(), io_text(&e)))?;
        Ok(Document {
            final_url,
            status: status.as_u16(),
            status_text: status.to_string(),
            content_type,
            body,
        })
    }

    /// Streams a (possibly large) package body to `sink` chunk by chunk. Retries only while
    /// no byte has reached the sink, so a sink never sees data twice. Returns the byte
    /// count. A download that receives nothing for the idle timeout fails, naming the URL.
    /// Which answers are the package and how failures read are core's
    /// ([`PackageDownload`]).
    pub fn stream(
        &self,
        download: &PackageDownload,
        mut sink: impl FnMut(&[u8]) -> Result<(), String>,
        mut on_length: impl FnMut(Option<u64>),
    ) -> Result<u64, String> {
        let url = &download.url;
        let token = download
            .auth_host
            .as_deref()
            .and_then(|h| self.credentials.token_for(h));
        let mut attempt = 0;
        loop {
            let mut delivered = 0u64;
            let result = (|| -> Result<u64, String> {
                let mut resp = self
                    .request(url, token)
                    .send()
                    .map_err(|e| describe(url, e))?;
                let status = resp.status();
                download.check_status(status.as_u16(), status.canonical_reason().unwrap_or(""))?;
                let expected = resp.content_length();
                on_length(expected);
                let mut buf = vec![0u8; 256 * 1024];
                loop {
                    let n = resp
                        .read(&mut buf)
                        .map_err(|e| format!("Get {:?}: {}", url.as_str(), io_text(&e)))?;
                    if n == 0 {
                        break;
                    }
                    delivered += n as u64;
                    sink(&buf[..n])?;
                }
                download.check_length(expected, delivered)?;
                Ok(delivered)
            })();
            match result {
                Ok(n) => return Ok(n),
                Err(e) if delivered > 0 || attempt >= self.retries => {
                    return Err(after_attempts(attempt + 1, e))
                }
                Err(_) => {}
            }
            attempt += 1;
            std::thread::sleep(backoff(attempt));
        }
    }

    fn request(&self, url: &Url, token: Option<&str>) -> reqwest::blocking::RequestBuilder {
        let req = self
            .client
            .get(url.clone())
            .header("X-Terraform-Version", ANNOUNCED_TERRAFORM_VERSION);
        match token {
            Some(tok) => req.bearer_auth(tok),
            None => req,
        }
    }
}

fn transient_status(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(200u64.saturating_mul(1 << attempt.min(5)))
}

/// Terraform's wording once retries are exhausted.
fn after_attempts(attempts: u32, e: String) -> String {
    if attempts > 1 {
        format!("the request failed after {attempts} attempts, please try again later: {e}")
    } else {
        e
    }
}

/// `Get "<url>": <cause>` (Go's `url.Error` shape), with every nested cause.
fn describe(url: &Url, e: reqwest::Error) -> String {
    let timeout = e.is_timeout();
    let e = e.without_url();
    let mut s = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(inner) = source {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        source = inner.source();
    }
    if timeout && !s.contains("timed out") {
        s.push_str(" (timed out)");
    }
    format!("Get {:?}: {s}", url.as_str())
}

fn io_text(e: &std::io::Error) -> String {
    let mut s = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        let t = inner.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        source = inner.source();
    }
    if e.kind() == std::io::ErrorKind::TimedOut && !s.contains("timed out") {
        s.push_str(" (timed out)");
    }
    s
}

/// A duration in (possibly fractional) seconds from an environment variable.
fn env_seconds(name: &str) -> Option<Duration> {
    let v = std::env::var(name).ok()?;
    let secs: f64 = v.trim().parse().ok()?;
    (secs.is_finite() && secs > 0.0).then(|| Duration::from_secs_f64(secs))
}

/// Extra trusted roots from `SSL_CERT_FILE` (one PEM bundle) and `SSL_CERT_DIR`
/// (colon-separated directories of PEM files). Unreadable or non-PEM files are skipped,
/// as Go skips them.
fn extra_roots() -> Vec<reqwest::Certificate> {
    let mut files = Vec::new();
    if let Some(f) = std::env::var_os("SSL_CERT_FILE").filter(|f| !f.is_empty()) {
        files.push(std::path::PathBuf::from(f));
    }
    if let Some(dirs) = std::env::var_os("SSL_CERT_DIR") {
        for dir in std::env::split_paths(&dirs) {
            if let Ok(rd) = std::fs::read_dir(&dir) {
                let mut names: Vec<_> = rd.flatten().map(|e| e.path()).collect();
                names.sort();
                files.extend(names.into_iter().filter(|p| p.is_file()));
            }
        }
    }
    files
        .iter()
        .filter_map(|f| std::fs::read(f).ok())
        .filter_map(|pem| reqwest::Certificate::from_pem_bundle(&pem).ok())
        .flatten()
        .collect()
}
