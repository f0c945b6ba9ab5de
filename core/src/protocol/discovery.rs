//! Remote service discovery: `https://<host>/.well-known/terraform.json` maps service IDs
//! (`providers.v1`, `modules.v1`, ...) to base URLs, relative ones resolving against the
//! discovery document's final URL. CLI config `host` blocks replace discovery for a host.

use crate::collections::SortedMap;

use url::Url;

use super::urls::resolve;
use crate::Flavor;

/// Why a host's `providers.v1` base could not be found; displays as Terraform's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiscoveryError {
    /// The hostname makes no URL.
    BadHostname(String),
    /// The discovery request failed (`could not connect to <host>: <err>`).
    Connect {
        /// The host.
        hostname: String,
        /// The transport's error text.
        error: String,
    },
    /// The discovery document answered with an unexpected status.
    Status(String),
    /// The discovery document is not a JSON object of services.
    Decode(String),
    /// A service is declared with a non-string value.
    NonStringService(String),
    /// A service URL does not parse.
    BadServiceUrl {
        /// The URL as declared.
        url: String,
        /// The parser's error.
        error: String,
    },
    /// The host declares no `providers.v1` (`ErrHostNoProviders`).
    NoProviders {
        /// The host.
        hostname: String,
        /// Which product's registry was asked for (`Terraform`, `OpenTofu`).
        product: &'static str,
        /// The host declares another `providers.*` version.
        other_version: bool,
    },
}

impl std::fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiscoveryError::BadHostname(e) => f.write_str(e),
            DiscoveryError::Connect { hostname, error } => {
                write!(f, "could not connect to {hostname}: {error}")
            }
            DiscoveryError::Status(status) => {
                write!(f, "failed to request discovery document: {status}")
            }
            DiscoveryError::Decode(e) => write!(f, "failed to decode discovery document: {e}"),
            DiscoveryError::NonStringService(id) => {
                write!(f, "service {id} must be declared with a string value")
            }
            DiscoveryError::BadServiceUrl { url, error } => {
                write!(f, "failed to parse service URL {url:?}: {error}")
            }
            DiscoveryError::NoProviders {
                hostname,
                product,
                other_version: true,
            } => write!(
                f,
                "host {hostname} does not support the provider registry protocol required by this {product} version, but may be compatible with a different {product} version"
            ),
            DiscoveryError::NoProviders {
                hostname, product, ..
            } => write!(f, "host {hostname} does not offer a {product} provider registry"),
        }
    }
}

impl std::error::Error for DiscoveryError {}

/// Path of the discovery document on every host.
pub const DISCOVERY_PATH: &str = "/.well-known/terraform.json";

/// The service ID of the provider registry protocol this crate speaks.
pub const PROVIDERS_V1: &str = "providers.v1";

/// The discovery URL for `hostname` (ASCII form, with a non-default port if any).
///
/// The hostname's credentials go with this request, so a hostname that would make the URL
/// name another host (`a.example@b.example`, `a.example/b`) is refused.
pub fn discovery_url(hostname: &str) -> Result<Url, DiscoveryError> {
    let url = Url::parse(&format!("https://{hostname}{DISCOVERY_PATH}"))
        .map_err(|e| DiscoveryError::BadHostname(e.to_string()))?;
    if super::urls::credentials_host(&url) != hostname || url.path() != DISCOVERY_PATH {
        return Err(DiscoveryError::BadHostname(format!(
            "{hostname:?} is not a hostname in comparison form"
        )));
    }
    Ok(url)
}

/// A parsed discovery document (or a `host` block override).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovery {
    /// The raw service map; non-string values are kept so they can be reported.
    pub services: SortedMap<String, serde_json::Value>,
    /// The URL relative service URLs resolve against.
    pub base: Url,
}

impl Discovery {
    /// Parses a discovery document fetched from `final_url` (after redirects).
    pub fn parse(body: &[u8], final_url: &Url) -> Result<Discovery, DiscoveryError> {
        let services: SortedMap<String, serde_json::Value> =
            serde_json::from_slice(body).map_err(|e| DiscoveryError::Decode(e.to_string()))?;
        Ok(Discovery {
            services,
            base: final_url.clone(),
        })
    }

    /// A discovery result forced by a CLI config `host` block (`services = {...}`); relative
    /// URLs resolve against the host's discovery URL.
    pub fn from_host_override(
        hostname: &str,
        services: SortedMap<String, String>,
    ) -> Result<Discovery, DiscoveryError> {
        Ok(Discovery {
            services: services
                .into_iter()
                .map(|(k, v)| (k, serde_json::Value::String(v)))
                .collect(),
            base: discovery_url(hostname)?,
        })
    }

    /// The resolved base URL of service `id`, `Ok(None)` if the host does not declare it.
    pub fn service_url(&self, id: &str) -> Result<Option<Url>, DiscoveryError> {
        let Some(value) = self.services.get(id) else {
            return Ok(None);
        };
        let Some(s) = value.as_str() else {
            return Err(DiscoveryError::NonStringService(id.to_string()));
        };
        let url = resolve(&self.base, s).map_err(|e| DiscoveryError::BadServiceUrl {
            url: s.to_string(),
            error: e.to_string(),
        })?;
        Ok(Some(url))
    }

    /// The `providers.v1` base URL, or Terraform's `ErrHostNoProviders` text (with the
    /// "different version" hint when another `providers.*` version is declared).
    pub fn providers_v1(&self, hostname: &str, flavor: Flavor) -> Result<Url, DiscoveryError> {
        if let Some(url) = self.service_url(PROVIDERS_V1)? {
            return Ok(url);
        }
        Err(DiscoveryError::NoProviders {
            hostname: hostname.to_string(),
            product: flavor.product(),
            other_version: self.services.keys().any(|k| k.starts_with("providers.")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_and_absolute_bases() {
        let url = discovery_url("registry.example.com").unwrap();
        let d = Discovery::parse(
            br#"{"providers.v1": "/v1/providers/", "modules.v1": "https://m.example/v1/"}"#,
            &url,
        )
        .unwrap();
        assert_eq!(
            d.providers_v1("registry.example.com", Flavor::Terraform)
                .unwrap()
                .as_str(),
            "https://registry.example.com/v1/providers/"
        );
        assert_eq!(
            d.service_url("modules.v1").unwrap().unwrap().as_str(),
            "https://m.example/v1/"
        );
    }

    #[test]
    fn missing_providers_service_texts() {
        let url = discovery_url("h.example").unwrap();
        let d = Discovery::parse(br#"{"modules.v1": "/m/"}"#, &url).unwrap();
        assert_eq!(
            d.providers_v1("h.example", Flavor::Terraform)
                .unwrap_err()
                .to_string(),
            "host h.example does not offer a Terraform provider registry"
        );
        assert_eq!(
            d.providers_v1("h.example", Flavor::OpenTofu)
                .unwrap_err()
                .to_string(),
            "host h.example does not offer a OpenTofu provider registry"
        );
        let d = Discovery::parse(br#"{"providers.v2": "/p/"}"#, &url).unwrap();
        assert!(d
            .providers_v1("h.example", Flavor::Terraform)
            .unwrap_err()
            .to_string()
            .contains("may be compatible with a different Terraform version"));
    }
}
