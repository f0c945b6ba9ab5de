//! The HTTP client every network source uses: timeouts, retries, credentials, redirects.

use std::collections::BTreeMap;
use std::io::Read;
use std::time::Duration;
use url::Url;

/// The Terraform version tflock announces in `X-Terraform-Version` (registries use it to
/// pick compatible answers).
pub const ANNOUNCED_TERRAFORM_VERSION: &str = "1.14.0";

/// Largest JSON or checksum document accepted (registry answers are a few KiB).
const MAX_DOCUMENT: u64 = 32 << 20;

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
    tokens: BTreeMap<String, String>,
    retries: u32,
}

impl Http {
    /// A client with `timeout` per request and `retries` extra attempts for failures that
    /// look transient (connection errors, 5xx, 429). Tokens come from `TF_TOKEN_<host>`.
    pub fn new(timeout: Duration, retries: u32) -> anyhow::Result<Http> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(timeout)
            .timeout(None)
            .redirect(reqwest::redirect::Policy::limited(10))
            .user_agent(concat!("tflock/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Http {
            client,
            tokens: tokens_from_env(),
            retries,
        })
    }

    /// Whether a token is configured for `host`.
    pub fn has_token(&self, host: &str) -> bool {
        self.tokens.contains_key(&host.to_ascii_lowercase())
    }

    /// GETs a small document. Credentials are sent only when `with_credentials` (registry
    /// and mirror JSON endpoints, never package downloads to third-party hosts).
    pub fn get(
        &self,
        url: &Url,
        with_credentials: bool,
        timeout: Duration,
    ) -> Result<Document, String> {
        let mut attempt = 0;
        loop {
            match self.get_once(url, with_credentials, timeout) {
                Ok(doc) if transient_status(doc.status) && attempt < self.retries => {}
                Ok(doc) => return Ok(doc),
                Err(e) if attempt >= self.retries => return Err(e),
                Err(_) => {}
            }
            attempt += 1;
            std::thread::sleep(backoff(attempt));
        }
    }

    fn get_once(
        &self,
        url: &Url,
        with_credentials: bool,
        timeout: Duration,
    ) -> Result<Document, String> {
        let resp = self
            .request(url, with_credentials)
            .timeout(timeout)
            .send()
            .map_err(|e| describe(&e))?;
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
            .map_err(|e| e.to_string())?;
        Ok(Document {
            final_url,
            status: status.as_u16(),
            status_text: status.to_string(),
            content_type,
            body,
        })
    }

    /// Streams a (possibly large) body to `sink` chunk by chunk. Retries only while no
    /// byte has reached the sink, so a sink never sees data twice. Returns the byte count.
    pub fn stream(
        &self,
        url: &Url,
        mut sink: impl FnMut(&[u8]) -> Result<(), String>,
        mut on_length: impl FnMut(Option<u64>),
    ) -> Result<u64, String> {
        let mut attempt = 0;
        loop {
            let mut delivered = 0u64;
            let result = (|| -> Result<u64, String> {
                let mut resp = self.request(url, false).send().map_err(|e| describe(&e))?;
                if !resp.status().is_success() {
                    return Err(format!("unsuccessful request to {url}: {}", resp.status()));
                }
                let expected = resp.content_length();
                on_length(expected);
                let mut buf = vec![0u8; 256 * 1024];
                loop {
                    let n = resp.read(&mut buf).map_err(|e| e.to_string())?;
                    if n == 0 {
                        break;
                    }
                    delivered += n as u64;
                    sink(&buf[..n])?;
                }
                if let Some(len) = expected {
                    if delivered < len {
                        return Err(format!(
                            "incorrect response size: expected {len} bytes, but got {delivered} bytes"
                        ));
                    }
                }
                Ok(delivered)
            })();
            match result {
                Ok(n) => return Ok(n),
                Err(e) if delivered > 0 || attempt >= self.retries => return Err(e),
                Err(_) => {}
            }
            attempt += 1;
            std::thread::sleep(backoff(attempt));
        }
    }

    fn request(&self, url: &Url, with_credentials: bool) -> reqwest::blocking::RequestBuilder {
        let mut req = self
            .client
            .get(url.clone())
            .header("X-Terraform-Version", ANNOUNCED_TERRAFORM_VERSION);
        if with_credentials {
            let host = url.host_str().unwrap_or("").to_ascii_lowercase();
            let key = match url.port() {
                Some(p) => format!("{host}:{p}"),
                None => host.clone(),
            };
            if let Some(tok) = self.tokens.get(&key).or_else(|| self.tokens.get(&host)) {
                req = req.bearer_auth(tok);
            }
        }
        req
    }
}

fn transient_status(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(200u64.saturating_mul(1 << attempt.min(5)))
}

fn describe(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        source = inner.source();
    }
    s
}

/// `TF_TOKEN_<host>` variables: dots are `_`, dashes `__` (Terraform's encoding).
fn tokens_from_env() -> BTreeMap<String, String> {
    std::env::vars()
        .filter_map(|(k, v)| {
            let enc = k.strip_prefix("TF_TOKEN_")?;
            let host = enc
                .replace("__", "\u{0}")
                .replace('_', ".")
                .replace('\u{0}', "-");
            Some((host.to_ascii_lowercase(), v))
        })
        .collect()
}
