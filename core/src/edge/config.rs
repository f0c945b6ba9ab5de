//! The Worker's settings, read from its variables and secrets: a Terraform CLI
//! configuration text (`TFLOCK_CLI_CONFIG`: `host` blocks replace service discovery,
//! `credentials` blocks give registry tokens), `TF_TOKEN_<host>` secrets (which win, as in
//! Terraform), `TFLOCK_FLAVOR`, `TFLOCK_PRIVATE_HOSTS` and upload tokens.

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
        Ok(EdgeConfig {
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

    /// Whether packages of `hostname` are pulled from its registry (not a private host).
    pub fn pulls_through(&self, hostname: &str) -> bool {
        match for_comparison(hostname) {
            Ok(h) => !self.private_hosts.contains(&h),
            Err(_) => false,
        }
    }

    /// The token for registry requests to `auth_host` (what a conversation names).
    pub fn token_for(&self, auth_host: &str) -> Option<&str> {
        self.credentials.token_for(auth_host)
    }

    /// Whether uploads are possible at all (some upload token is set).
    pub fn uploads_enabled(&self) -> bool {
        self.upload_token.is_some() || !self.host_upload_tokens.is_empty()
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
    }
}
