//! Downloading a package archive from a URL: the request every host makes, which answers
//! count as the package, and how a failure reads — Terraform's `installFromHTTPURL`
//! (go-getter's `HttpGetter.GetFile`), or OpenTofu's `PackageHTTPURL` under
//! [`Flavor::OpenTofu`].

use url::{Position, Url};

use crate::Flavor;

/// The GET a host makes for a package archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageDownload {
    /// The archive's URL.
    pub url: Url,
    /// Whose credentials go with the request: always `None`. Archives often live on
    /// third-party storage, and neither product sends a registry token there (invariant 5
    /// in ARCHITECTURE.md); the field exists so hosts perform what core decides.
    pub auth_host: Option<String>,
    /// Whose words a failure is reported in.
    pub flavor: Flavor,
}

/// Why a package download failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadFailure {
    /// The location is not a URL (the parser's reason).
    InvalidUrl(String),
    /// The server answered with another status than 200.
    Status {
        /// The archive's URL.
        url: Url,
        /// The status code.
        status: u16,
        /// The reason phrase (`Not Found`), possibly empty.
        reason: String,
    },
    /// The body ended before the `Content-Length` the server announced.
    Short {
        /// The archive's URL.
        url: Url,
        /// The announced length.
        expected: u64,
        /// The bytes received.
        received: u64,
    },
}

impl PackageDownload {
    /// The download of the archive at `location` (a planner's `PackageLocation::Url`); the
    /// error is the failure in `flavor`'s words.
    pub fn new(location: &str, flavor: Flavor) -> Result<PackageDownload, String> {
        let url = Url::parse(location)
            .map_err(|e| DownloadFailure::InvalidUrl(e.to_string()).message(flavor))?;
        Ok(PackageDownload {
            url,
            auth_host: None,
            flavor,
        })
    }

    /// Whether an answer with `status` is the package: only 200 (Terraform also takes a
    /// 206, the answer to a range request, which it never sends here). The error is the
    /// failure in the download's flavour's words.
    pub fn check_status(&self, status: u16, reason: &str) -> Result<(), String> {
        if status == 200 {
            return Ok(());
        }
        Err(DownloadFailure::Status {
            url: self.url.clone(),
            status,
            reason: reason.to_string(),
        }
        .message(self.flavor))
    }

    /// Whether a body of `received` bytes is whole, given the announced length. Only for
    /// hosts that see the bytes as sent: a JS `fetch` decodes a compressed body, while its
    /// `Content-Length` counts the encoded bytes.
    pub fn check_length(&self, expected: Option<u64>, received: u64) -> Result<(), String> {
        match expected {
            Some(expected) if received < expected => Err(DownloadFailure::Short {
                url: self.url.clone(),
                expected,
                received,
            }
            .message(self.flavor)),
            _ => Ok(()),
        }
    }
}

impl DownloadFailure {
    /// The failure in `flavor`'s words.
    pub fn message(&self, flavor: Flavor) -> String {
        match (self, flavor) {
            (DownloadFailure::InvalidUrl(reason), _) => {
                format!("invalid provider download request: {reason}")
            }
            (DownloadFailure::Status { url, status, .. }, Flavor::Terraform) => {
                format!("{}: bad response code: {status}", host(url))
            }
            (
                DownloadFailure::Status {
                    url,
                    status,
                    reason,
                },
                Flavor::OpenTofu,
            ) => {
                let status_line = format!("{status} {reason}");
                format!("unsuccessful request to {url}: {}", status_line.trim_end())
            }
            // go-getter's `io.ErrShortWrite`, after the host.
            (DownloadFailure::Short { url, .. }, Flavor::Terraform) => {
                format!("{}: short write", host(url))
            }
            (
                DownloadFailure::Short {
                    expected, received, ..
                },
                Flavor::OpenTofu,
            ) => format!(
                "incorrect response size: expected {expected} bytes, but got {received} bytes"
            ),
        }
    }
}

/// Go's `url.URL.Host`: the host with the port when the URL writes one.
fn host(url: &Url) -> &str {
    &url[Position::BeforeHost..Position::AfterPort]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_read_as_each_product_words_them() {
        let url = "https://releases.example:8443/p/x.zip";
        let tf = PackageDownload::new(url, Flavor::Terraform).unwrap();
        let tofu = PackageDownload::new(url, Flavor::OpenTofu).unwrap();
        assert_eq!(tf.auth_host, None);
        assert!(tf.check_status(200, "OK").is_ok());
        assert_eq!(
            tf.check_status(404, "Not Found").unwrap_err(),
            "releases.example:8443: bad response code: 404"
        );
        assert_eq!(
            tofu.check_status(404, "Not Found").unwrap_err(),
            "unsuccessful request to https://releases.example:8443/p/x.zip: 404 Not Found"
        );
        assert!(tf.check_length(Some(10), 10).is_ok());
        assert!(tf.check_length(None, 3).is_ok());
        assert_eq!(
            tf.check_length(Some(10), 3).unwrap_err(),
            "releases.example:8443: short write"
        );
        assert_eq!(
            tofu.check_length(Some(10), 3).unwrap_err(),
            "incorrect response size: expected 10 bytes, but got 3 bytes"
        );
        let bad = PackageDownload::new("not a url", Flavor::Terraform).unwrap_err();
        assert!(bad.starts_with("invalid provider download request: "));
    }
}
