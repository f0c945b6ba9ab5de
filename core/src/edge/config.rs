//! The Worker's settings, read from its variables and secrets: a Terraform CLI
//! configuration text (`TFLOCK_CLI_CONFIG`: `host` blocks replace service discovery,
//! `credentials` blocks give registry tokens), `TF_TOKEN_<host>` secrets (which win, as in
//! Terraform), `TFLOCK_FLAVOR`, `TFLOCK_PRIVATE_HOSTS`, `TFLOCK_ALLOWED_HOSTS`,
//! `TFLOCK_LIMITS`, upload tokens and the read token.

use super::allow::AllowedHosts;
use super::limits::Limits;
use super::{EdgeError, EdgeErrorKind};
use crate::addrs::hostname::for_comparison;
use crate::flavor::UnknownFlavor;
use crate::protocol::cliconfig::CliConfig;
use crate::protocol::credentials::Credentials;
use crate::source::{Method, SourceSet};
use crate::Flavor;

/// Everything the edge mirror is configured with.
#[derive(Debug, Clone)]
pub struct EdgeConfig {
    /// Whose rules apply (`TFLOCK_FLAVOR=opentofu`; Terraform by default).
    pub flavor: Flavor,
    /// The CLI configuration (only `host` and `credentials` blocks matter to a mirror).
    pub cli_config: CliConfig,
    /// Registry API tokens.
    pub credentials: Credentials,
    /// Hosts never pulled through: their packages arrive only by upload.
    private_hosts: Vec<String>,
    /// `UPLOAD_TOKEN`: accepted for every host.
    upload_token: Option<String>,
    /// `UPLOAD_TOKEN_<host>` (encoded like `TF_TOKEN_<host>`): accepted for that host only.
    host_upload_tokens: Credentials,
    /// `TFLOCK_ALLOWED_HOSTS` and the `host` blocks: what is pulled through and fetched.
    pub allowed: AllowedHosts,
    /// `TFLOCK_LIMITS` over the defaults.
    pub limits: Limits,
    /// `TFLOCK_READ_TOKEN`: when set, every read needs it (or the operator's token).
    read_token: Option<String>,
    /// `TFLOCK_UPLOAD_TOKENS` (`{"host/namespace": "token"}`): (host, namespace, token),
    /// normalised as provider addresses are.
    namespace_upload_tokens: Vec<(String, String, String)>,
}

/// Why the Worker's settings are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `TFLOCK_FLAVOR` names no flavour.
    #[error("TFLOCK_FLAVOR: {0}")]
    Flavor(#[from] UnknownFlavor),
    /// `TFLOCK_CLI_CONFIG` has errors: their summaries and details, a line each.
    #[error("{}", .0.join("\n"))]
    CliConfig(Vec<String>),
    /// `TFLOCK_ALLOWED_HOSTS` or `TFLOCK_LIMITS` is malformed.
    #[error("{0}")]
    Setting(String),
}

impl EdgeConfig {
    /// Reads the settings from the Worker's `vars` (name, value): variables and secrets
    /// alike. A CLI configuration with errors is refused with its diagnostics.
    pub fn from_vars(vars: &[(String, String)]) -> Result<EdgeConfig, ConfigError> {
        let var = |name: &str| {
            vars.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        // An empty `TFLOCK_FLAVOR` counts as unset (a blanked Worker variable), as before.
        let flavor = match var("TFLOCK_FLAVOR").filter(|v| !v.is_empty()) {
            None => Flavor::Terraform,
            Some(name) => Flavor::parse(name)?,
        };
        let cli_config = match var("TFLOCK_CLI_CONFIG") {
            None => CliConfig::default(),
            Some(text) => {
                let (cfg, diags) = CliConfig::parse(text, "TFLOCK_CLI_CONFIG", flavor);
                if diags.has_errors() {
                    let text: Vec<String> = diags
                        .iter()
                        .map(|d| format!("{}: {}", d.summary, d.detail))
                        .collect();
                    return Err(ConfigError::CliConfig(text));
                }
                cfg
            }
        };
        let credentials =
            Credentials::from_env_vars(vars.iter().cloned()).with_cli_config(&cli_config);
        let private_hosts = var("TFLOCK_PRIVATE_HOSTS")
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .filter_map(|h| for_comparison(h).ok())
            .collect();
        let host_upload_tokens = Credentials::from_env_vars(vars.iter().filter_map(|(k, v)| {
            let host = k.strip_prefix("UPLOAD_TOKEN_")?;
            Some((format!("TF_TOKEN_{host}"), v.clone()))
        }));
        let allowed = AllowedHosts::new(var("TFLOCK_ALLOWED_HOSTS"), &cli_config)
            .map_err(ConfigError::Setting)?;
        let limits = Limits::parse(var("TFLOCK_LIMITS")).map_err(ConfigError::Setting)?;
        let namespace_upload_tokens =
            namespace_tokens(var("TFLOCK_UPLOAD_TOKENS"), flavor).map_err(ConfigError::Setting)?;
        Ok(EdgeConfig {
            allowed,
            limits,
            namespace_upload_tokens,
            read_token: var("TFLOCK_READ_TOKEN")
                .filter(|t| !t.is_empty())
                .map(str::to_string),
            flavor,
            cli_config,
            credentials,
            private_hosts,
            upload_token: var("UPLOAD_TOKEN")
                .filter(|t| !t.is_empty())
                .map(str::to_string),
            host_upload_tokens,
        })
    }

    /// The sources a fill talks to: the origin registry only, with the `host` blocks.
    pub fn source_set(&self) -> SourceSet {
        SourceSet::single(Method::Registry, &self.cli_config, self.flavor)
    }

    /// Whether packages of `hostname` are pulled from its registry: it is listed
    /// ([`AllowedHosts::registry`]) and not private (which is a plain 404, as before).
    pub fn check_pull(&self, hostname: &str) -> Result<(), EdgeError> {
        if self.is_private(hostname) {
            return Err(EdgeError::new(EdgeErrorKind::NotFound, "Not Found"));
        }
        self.allowed.registry(hostname)
    }

    /// [`EdgeConfig::check_pull`] as a yes or no.
    pub fn pulls_through(&self, hostname: &str) -> bool {
        self.check_pull(hostname).is_ok()
    }

    /// Whether `hostname` is one of `TFLOCK_PRIVATE_HOSTS` (packages only by upload).
    pub fn is_private(&self, hostname: &str) -> bool {
        for_comparison(hostname).is_ok_and(|h| self.private_hosts.contains(&h))
    }

    /// Whether `authorization` (the request header) may read the mirror: always without a
    /// read token; with one, that token or the operator's `UPLOAD_TOKEN`.
    pub fn read_allowed(&self, authorization: &str) -> bool {
        let Some(read) = &self.read_token else {
            return true;
        };
        let Some(given) = authorization.strip_prefix("Bearer ") else {
            return false;
        };
        [Some(read.as_str()), self.upload_token.as_deref()]
            .into_iter()
            .flatten()
            .fold(false, |ok, want| {
                ok | same(given.as_bytes(), want.as_bytes())
            })
    }

    /// The token for registry requests to `auth_host` (what a conversation names).
    pub fn token_for(&self, auth_host: &str) -> Option<&str> {
        self.credentials.token_for(auth_host)
    }

    /// Whether uploads are possible at all (some upload token is set).
    pub fn uploads_enabled(&self) -> bool {
        self.upload_token.is_some()
            || !self.host_upload_tokens.is_empty()
            || !self.namespace_upload_tokens.is_empty()
    }

    /// Whether `authorization` allows an upload under `hostname`/`namespace` (normalised, as
    /// routes give them): the operator's token, the host's, or the namespace's.
    pub fn upload_allowed_in(&self, hostname: &str, namespace: &str, authorization: &str) -> bool {
        if self.upload_allowed(hostname, authorization) {
            return true;
        }
        let Some(given) = authorization.strip_prefix("Bearer ") else {
            return false;
        };
        self.namespace_upload_tokens
            .iter()
            .filter(|(h, n, _)| h == hostname && n == namespace)
            .fold(false, |ok, (_, _, want)| {
                ok | same(given.as_bytes(), want.as_bytes())
            })
    }

    /// Whether `authorization` (the request header) allows an upload for `hostname`. The
    /// comparison does not stop at the first differing byte.
    pub fn upload_allowed(&self, hostname: &str, authorization: &str) -> bool {
        let Some(given) = authorization.strip_prefix("Bearer ") else {
            return false;
        };
        let host_token = self.host_upload_tokens.token_for(hostname);
        [self.upload_token.as_deref(), host_token]
            .into_iter()
            .flatten()
            .fold(false, |ok, want| {
                ok | same(given.as_bytes(), want.as_bytes())
            })
    }
}

/// Reads `TFLOCK_UPLOAD_TOKENS`: a JSON object from `host/namespace` to a token.
fn namespace_tokens(
    setting: Option<&str>,
    flavor: Flavor,
) -> Result<Vec<(String, String, String)>, String> {
    let Some(text) = setting.filter(|t| !t.trim().is_empty()) else {
        return Ok(Vec::new());
    };
    let map: std::collections::BTreeMap<String, String> = serde_json::from_str(text)
        .map_err(|e| format!("TFLOCK_UPLOAD_TOKENS: not a JSON object of strings: {e}"))?;
    let mut tokens = Vec::new();
    for (key, token) in map {
        let bad = || format!("TFLOCK_UPLOAD_TOKENS: {key:?} is not host/namespace");
        if key.matches('/').count() != 1 || token.is_empty() {
            return Err(bad());
        }
        // Parsed as a provider address is, so the key compares with what routes give.
        let p =
            crate::addrs::Provider::parse_source(&format!("{key}/x"), flavor).map_err(|_| bad())?;
        tokens.push((p.hostname, p.namespace, token));
    }
    Ok(tokens)
}

/// Compares secrets without an early exit on the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn tokens_follow_terraform_and_upload_tokens_are_per_host() {
        let cfg = EdgeConfig::from_vars(&vars(&[
            (
                "TFLOCK_CLI_CONFIG",
                "credentials \"registry.example.com\" { token = \"cfg\" }\ncredentials \"other.example\" { token = \"o\" }\n",
            ),
            ("TF_TOKEN_registry_example_com", "env"),
            ("UPLOAD_TOKEN_private_example", "p"),
            ("TFLOCK_PRIVATE_HOSTS", "Private.Example, ,"),
            ("TFLOCK_ALLOWED_HOSTS", "registry.example.com,private.example"),
        ]))
        .unwrap();
        assert_eq!(cfg.token_for("registry.example.com"), Some("env"));
        assert_eq!(cfg.token_for("other.example"), Some("o"));
        assert_eq!(cfg.token_for("third.example"), None);
        assert!(!cfg.pulls_through("private.example"));
        assert!(cfg.pulls_through("registry.example.com"));
        assert!(cfg.uploads_enabled());
        assert!(cfg.upload_allowed("private.example", "Bearer p"));
        assert!(!cfg.upload_allowed("other.example", "Bearer p"));
        assert!(!cfg.upload_allowed("private.example", "p"));
    }

    #[test]
    fn a_broken_configuration_or_flavor_is_refused() {
        assert!(EdgeConfig::from_vars(&vars(&[("TFLOCK_CLI_CONFIG", "host {")])).is_err());
        let err = EdgeConfig::from_vars(&vars(&[("TFLOCK_FLAVOR", "pulumi")])).unwrap_err();
        assert!(err.to_string().contains("pulumi"), "{err}");
        let tofu = EdgeConfig::from_vars(&vars(&[("TFLOCK_FLAVOR", "OpenTofu")])).unwrap();
        assert_eq!(tofu.flavor, Flavor::OpenTofu);
        assert!(!tofu.uploads_enabled());
        for (name, value) in [
            ("TFLOCK_ALLOWED_HOSTS", "https://x.example/"),
            ("TFLOCK_LIMITS", "speed=3"),
        ] {
            let err = EdgeConfig::from_vars(&vars(&[(name, value)])).unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
    }

    #[test]
    fn the_default_pulls_through_the_public_registries_and_host_blocks_only() {
        let cfg = EdgeConfig::from_vars(&vars(&[(
            "TFLOCK_CLI_CONFIG",
            "host \"registry.test\" {\n  services = { \"providers.v1\" = \"http://127.0.0.1:9/v1/\" }\n}\n",
        )]))
        .unwrap();
        assert!(cfg.pulls_through("registry.terraform.io"));
        assert!(cfg.pulls_through("registry.opentofu.org"));
        assert!(cfg.pulls_through("registry.test"));
        for host in ["127.0.0.1", "127.0.0.1:9", "localhost", "evil.example"] {
            assert_eq!(cfg.check_pull(host).unwrap_err().status(), 403, "{host}");
        }
        // The host block's loopback service URL is fetched only when listed.
        let url = url::Url::parse("http://127.0.0.1:9/v1/providers/").unwrap();
        assert!(cfg.allowed.fetch(&url).is_err());
        let listed =
            EdgeConfig::from_vars(&vars(&[("TFLOCK_ALLOWED_HOSTS", "127.0.0.1:9")])).unwrap();
        assert!(listed.allowed.fetch(&url).is_ok());
        assert!(!listed.pulls_through("registry.terraform.io"));
    }

    #[test]
    fn a_private_host_is_a_plain_not_found_even_when_listed() {
        let cfg = EdgeConfig::from_vars(&vars(&[
            ("TFLOCK_PRIVATE_HOSTS", "corp.example"),
            ("TFLOCK_ALLOWED_HOSTS", "corp.example"),
        ]))
        .unwrap();
        assert!(cfg.is_private("CORP.example"));
        assert_eq!(cfg.check_pull("corp.example").unwrap_err().status(), 404);
    }

    #[test]
    fn namespace_upload_tokens_open_only_their_namespace() {
        let cfg = EdgeConfig::from_vars(&vars(&[(
            "TFLOCK_UPLOAD_TOKENS",
            r#"{"Corp.Example/Team-A": "ta", "corp.example/team-b": "tb"}"#,
        )]))
        .unwrap();
        assert!(cfg.uploads_enabled());
        assert!(cfg.upload_allowed_in("corp.example", "team-a", "Bearer ta"));
        assert!(!cfg.upload_allowed_in("corp.example", "team-b", "Bearer ta"));
        assert!(!cfg.upload_allowed_in("other.example", "team-a", "Bearer ta"));
        assert!(!cfg.upload_allowed_in("corp.example", "team-a", "Bearer tb"));
        assert!(
            !cfg.upload_allowed("corp.example", "Bearer ta"),
            "not the whole host"
        );
        for bad in [
            r#"["x"]"#,
            r#"{"corp.example": "t"}"#,
            r#"{"a/b/c": "t"}"#,
            r#"{"corp.example/_x": "t"}"#,
            r#"{"corp.example/a": ""}"#,
        ] {
            let err = EdgeConfig::from_vars(&vars(&[("TFLOCK_UPLOAD_TOKENS", bad)])).unwrap_err();
            assert!(
                err.to_string().contains("TFLOCK_UPLOAD_TOKENS"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn reads_need_the_read_token_or_the_operators_when_one_is_set() {
        let open = EdgeConfig::from_vars(&vars(&[])).unwrap();
        assert!(open.read_allowed(""));
        let private = EdgeConfig::from_vars(&vars(&[
            ("TFLOCK_READ_TOKEN", "r3ad"),
            ("UPLOAD_TOKEN", "op"),
            ("UPLOAD_TOKEN_example_com", "host-only"),
        ]))
        .unwrap();
        assert!(private.read_allowed("Bearer r3ad"));
        assert!(private.read_allowed("Bearer op"));
        for refused in [
            "",
            "r3ad",
            "Bearer ",
            "Bearer r3a",
            "Bearer r3adx",
            "bearer r3ad",
            "Bearer host-only",
        ] {
            assert!(!private.read_allowed(refused), "{refused:?}");
        }
    }
}
