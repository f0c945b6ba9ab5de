//! Which registries the mirror pulls through and which URLs it may fetch.
//!
//! A provider address names its registry, so without a list anyone could make the mirror
//! pull from a registry of theirs (signing its own sums) and serve the result from the
//! operator's domain, or aim it at addresses inside the operator's network. Two rules:
//!
//! - **Registries**: a host is pulled through only when it is listed: by default the two
//!   public registries and the hosts of the CLI configuration's `host` blocks
//!   (`TFLOCK_ALLOWED_HOSTS` replaces the public two).
//! - **Fetches** (discovery, registry API, `SHA256SUMS`, archives, every redirect hop): any
//!   `http`/`https` URL on a DNS name at its scheme's port, because release archives live on
//!   hosts no list can foresee (GitHub, a vendor's CDN); an IP literal in any notation
//!   (`127.0.0.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`, `[::1]`), `localhost`, a
//!   single-label name or an explicit port only when the list names that host (with that
//!   port). URLs with userinfo are always refused.

use url::{Host, Url};

use super::{EdgeError, EdgeErrorKind};
use crate::protocol::cliconfig::CliConfig;

/// The registries pulled through when `TFLOCK_ALLOWED_HOSTS` is not set.
pub const DEFAULT_REGISTRIES: [&str; 2] = ["registry.terraform.io", "registry.opentofu.org"];

/// The listed hosts, each as `host` or `host:port` in the form a parsed URL gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedHosts {
    listed: Vec<String>,
}

impl AllowedHosts {
    /// The list from `setting` (comma-separated `host` or `host:port`; `None` or empty: the
    /// public registries) plus the hosts of `cli_config`'s `host` blocks. An entry that is
    /// no host is refused, naming it.
    pub fn new(setting: Option<&str>, cli_config: &CliConfig) -> Result<AllowedHosts, String> {
        let given: Vec<&str> = setting
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        let defaults = if given.is_empty() {
            DEFAULT_REGISTRIES.to_vec()
        } else {
            given
        };
        let mut listed = Vec::new();
        for entry in defaults
            .into_iter()
            .chain(cli_config.hosts.keys().map(String::as_str))
        {
            let key = key_of(entry).ok_or_else(|| {
                format!("TFLOCK_ALLOWED_HOSTS: {entry:?} is not a host or host:port")
            })?;
            if !listed.contains(&key) {
                listed.push(key);
            }
        }
        Ok(AllowedHosts { listed })
    }

    /// Whether the registry `hostname` (a provider address's, normalised) is pulled
    /// through; the refusal names the setting that would allow it.
    pub fn registry(&self, hostname: &str) -> Result<(), EdgeError> {
        match key_of(hostname) {
            Some(key) if self.listed.contains(&key) => Ok(()),
            _ => Err(EdgeError::new(
                EdgeErrorKind::NotAllowed,
                format!(
                    "{hostname} is not a registry this mirror pulls through (its operator lists those in TFLOCK_ALLOWED_HOSTS)"
                ),
            )),
        }
    }

    /// Whether the mirror may fetch `url` (a request it builds or a redirect it was sent).
    pub fn fetch(&self, url: &Url) -> Result<(), EdgeError> {
        let refuse = |why: &str| {
            Err(EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the mirror does not fetch {url}: {why} (unless TFLOCK_ALLOWED_HOSTS lists it)"
                ),
            ))
        };
        if !matches!(url.scheme(), "http" | "https") {
            return refuse("only http and https URLs are fetched");
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the mirror does not fetch {url}: URLs with user information are never fetched"
                ),
            ));
        }
        let Some(host) = url.host() else {
            return refuse("it names no host");
        };
        if self.listed.contains(&url_key(url)) {
            return Ok(());
        }
        match host {
            Host::Ipv4(_) | Host::Ipv6(_) => refuse("it names an IP address"),
            Host::Domain(d) => {
                let d = d.trim_end_matches('.');
                if d == "localhost" || d.ends_with(".localhost") {
                    refuse("it names localhost")
                } else if !d.contains('.') {
                    refuse("it names a single-label host")
                } else if url.port().is_some() {
                    refuse("it names an explicit port")
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// `host` or `host:port` as a URL parser reads it (IPv4 in any notation becomes dotted
/// decimal, names lower case and punycode, a trailing dot dropped), so the list and the
/// URLs it is checked against compare the same way; `None` unless `given` is just a host
/// with an optional port.
fn key_of(given: &str) -> Option<String> {
    if given.contains(['/', '?', '#', '@', '\\']) || given.chars().any(char::is_whitespace) {
        return None;
    }
    let url = Url::parse(&format!("https://{given}/")).ok()?;
    url.host()?;
    Some(url_key(&url))
}

fn url_key(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default().trim_end_matches('.');
    match url.port() {
        // The registry protocol is HTTPS: `host:443` is `host`.
        Some(443) | None => host.to_string(),
        Some(port) => format!("{host}:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    fn hosts(setting: Option<&str>, cli: &str) -> AllowedHosts {
        let (cfg, diags) = CliConfig::parse(cli, "test", Flavor::Terraform);
        assert!(!diags.has_errors());
        AllowedHosts::new(setting, &cfg).unwrap()
    }

    fn fetches(h: &AllowedHosts, url: &str) -> bool {
        h.fetch(&Url::parse(url).unwrap()).is_ok()
    }

    #[test]
    fn by_default_the_public_registries_and_host_blocks_are_pulled_through() {
        let h = hosts(
            None,
            "host \"registry.example.com\" {\n  services = { \"providers.v1\" = \"https://x.example/v1/\" }\n}\n",
        );
        for ok in [
            "registry.terraform.io",
            "registry.opentofu.org",
            "registry.example.com",
        ] {
            assert!(h.registry(ok).is_ok(), "{ok}");
        }
        for refused in [
            "evil.example",
            "127.0.0.1",
            "localhost",
            "registry.terraform.io:8443",
            "0x7f000001",
            "[::1]",
        ] {
            let err = h.registry(refused).unwrap_err();
            assert_eq!(err.kind, EdgeErrorKind::NotAllowed, "{refused}");
            assert_eq!(err.status(), 403);
            assert!(err.message.contains("TFLOCK_ALLOWED_HOSTS"), "{err}");
        }
    }

    #[test]
    fn the_setting_replaces_the_public_registries_and_keeps_host_blocks() {
        let h = hosts(
            Some(" registry.test , 127.0.0.1:8443,,"),
            "host \"other.test\" {\n  services = { \"providers.v1\" = \"https://x.example/v1/\" }\n}\n",
        );
        assert!(h.registry("registry.test").is_ok());
        assert!(h.registry("other.test").is_ok());
        assert!(h.registry("127.0.0.1:8443").is_ok());
        assert!(
            h.registry("127.0.0.1").is_err(),
            "the port is part of the entry"
        );
        assert!(h.registry("registry.terraform.io").is_err());
        assert!(fetches(&h, "http://127.0.0.1:8443/v1/providers/"));
        assert!(
            fetches(&h, "http://0x7f000001:8443/v1/"),
            "the same address"
        );
        assert!(!fetches(&h, "http://127.0.0.1:8444/v1/"));
        assert!(!fetches(&h, "http://127.0.0.1/v1/"));
        assert!(fetches(&h, "https://registry.test:443/x"));
        assert!(!fetches(&h, "https://registry.test:8443/x"));
    }

    #[test]
    fn ip_literals_in_every_notation_localhost_ports_and_userinfo_are_not_fetched() {
        let h = hosts(None, "");
        for url in [
            "http://127.0.0.1/x",
            "https://127.0.0.1/x",
            "http://0x7f000001/x",
            "http://0x7F.0.0.1/x",
            "http://2130706433/x",
            "http://0177.0.0.1/x",
            "http://017700000001/x",
            "http://127.1/x",
            "http://10.0.0.1/x",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/x",
            "http://[::ffff:127.0.0.1]/x",
            "http://[fd00::1]:8080/x",
            "http://localhost/x",
            "http://LOCALHOST./x",
            "http://api.localhost/x",
            "http://metadata/x",
            "https://example.com:8443/x",
            "https://u:p@example.com/x",
            "https://u@example.com/x",
            "ftp://example.com/x",
            "file:///etc/passwd",
        ] {
            let err = h.fetch(&Url::parse(url).unwrap());
            assert!(err.is_err(), "{url} was allowed");
            let err = err.unwrap_err();
            assert_eq!(err.kind, EdgeErrorKind::Refused, "{url}");
            assert_eq!(err.status(), 502, "{url}");
        }
        let why = |url: &str| h.fetch(&Url::parse(url).unwrap()).unwrap_err().message;
        assert!(why("http://localhost:8080/x").contains("localhost"));
        assert!(why("http://0x7f000001:8080/x").contains("IP address"));
        assert!(why("https://example.com:8443/x").contains("explicit port"));
        assert!(why("https://u@example.com/x").contains("user information"));
        for url in [
            "https://releases.hashicorp.com/x.zip",
            "https://github.com/a/b/releases/download/v1/x.zip",
            "http://example.com:80/x",
            "https://Registry.Terraform.IO./v1/",
        ] {
            assert!(fetches(&h, url), "{url} was refused");
        }
    }

    #[test]
    fn listed_ip_literals_localhost_and_ports_are_fetched() {
        let h = hosts(Some("localhost:9000, [::1]:8080, 10.0.0.1"), "");
        assert!(fetches(&h, "http://localhost:9000/x"));
        assert!(fetches(&h, "http://[::1]:8080/x"));
        assert!(fetches(&h, "http://10.0.0.1/x"));
        assert!(
            fetches(&h, "http://012.0.0.1/x"),
            "octal of the listed address"
        );
        assert!(!fetches(&h, "http://localhost/x"));
        assert!(!fetches(&h, "http://[::1]/x"));
        assert!(
            !fetches(&h, "http://u@10.0.0.1/x"),
            "userinfo, even on a listed host"
        );
    }

    #[test]
    fn entries_that_are_no_hosts_are_refused() {
        let (cfg, _) = CliConfig::parse("", "test", Flavor::Terraform);
        for bad in ["https://x.example", "a/b", "u@h", "a b", "h:port", "[::1"] {
            let err = AllowedHosts::new(Some(bad), &cfg).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }
}
