//! Bearer tokens per service host, resolved like Terraform: `TF_TOKEN_<host>` variables win
//! over CLI config `credentials "<host>" { token = "..." }` blocks; hostnames compare in
//! their normalised form (case, Unicode/punycode, a non-default port kept).

use crate::addrs::hostname::{for_comparison, for_display};
use crate::collections::SortedMap;
use crate::protocol::cliconfig::CliConfig;

/// Tokens keyed by comparison-form hostname.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    tokens: SortedMap<String, String>,
}

impl Credentials {
    /// No tokens at all.
    pub fn new() -> Credentials {
        Credentials::default()
    }

    /// The `TF_TOKEN_<host>` variables among `vars` (the caller passes its environment): `__`
    /// is a dash, then `_` a dot; invalid hostnames are ignored, as Terraform ignores them.
    pub fn from_env_vars(vars: impl IntoIterator<Item = (String, String)>) -> Credentials {
        let tokens = vars
            .into_iter()
            .filter_map(|(k, v)| {
                let raw = k.strip_prefix("TF_TOKEN_")?;
                let host = raw.replace("__", "-").replace('_', ".");
                let host = for_comparison(&for_display(&host)).ok()?;
                Some((host, v))
            })
            .collect();
        Credentials { tokens }
    }

    /// Adds a token for `host` unless one is already known (earlier sources win); false when
    /// the hostname is invalid.
    pub fn add_fallback(&mut self, host: &str, token: &str) -> bool {
        match for_comparison(host) {
            Ok(h) => {
                self.tokens.entry(h).or_insert_with(|| token.to_string());
                true
            }
            Err(_) => false,
        }
    }

    /// Adds the CLI config's `credentials` blocks beneath the tokens already known.
    pub fn with_cli_config(mut self, cfg: &CliConfig) -> Credentials {
        for (host, token) in &cfg.credentials {
            self.add_fallback(host, token);
        }
        self
    }

    /// The token for `host` (a registry hostname or a mirror's `host[:port]`), if any.
    pub fn token_for(&self, host: &str) -> Option<&str> {
        // Punycode spellings (`xn--…`) normalise through their display form.
        let h = for_comparison(host)
            .or_else(|_| for_comparison(&for_display(host)))
            .ok()?;
        self.tokens
            .get(&h)
            .or_else(|| self.tokens.get(&for_comparison(&for_display(host)).ok()?))
            .map(String::as_str)
    }

    /// How many hosts have a token.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether no host has a token.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Credentials {
        Credentials::from_env_vars(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    }

    #[test]
    fn token_variables_decode_dots_and_dashes_like_terraform() {
        let t = env(&[
            ("TF_TOKEN_app_terraform_io", "a"),
            ("TF_TOKEN_my__registry_example_com", "b"),
            ("TF_TOKEN_Upper_Example_COM", "c"),
            ("TF_TOKEN_xn____caf__dma_fr", "d"),
            ("TF_TOKEN_", "ignored"),
            ("PATH", "/bin"),
        ]);
        assert_eq!(t.token_for("app.terraform.io"), Some("a"));
        assert_eq!(t.token_for("my-registry.example.com"), Some("b"));
        assert_eq!(t.token_for("upper.example.com"), Some("c"));
        assert_eq!(t.token_for("xn--caf-dma.fr"), Some("d"));
        assert_eq!(t.len(), 4, "{t:?}");
    }

    #[test]
    fn hostnames_compare_in_normal_form() {
        let t = env(&[("TF_TOKEN_registry_example_com", "t")]);
        assert_eq!(t.token_for("Registry.Example.com"), Some("t"));
        assert_eq!(t.token_for("127.0.0.1:8443"), None);
    }

    #[test]
    fn environment_tokens_win_over_credentials_blocks() {
        let mut cfg = CliConfig::default();
        cfg.credentials
            .insert("registry.example.com".into(), "from-config".into());
        cfg.credentials
            .insert("Mirror.Example:8443".into(), "mirror".into());
        cfg.credentials.insert("https://bad".into(), "x".into());
        let t = env(&[("TF_TOKEN_registry_example_com", "from-env")]).with_cli_config(&cfg);
        assert_eq!(t.token_for("Registry.Example.com"), Some("from-env"));
        assert_eq!(t.token_for("mirror.example:8443"), Some("mirror"));
        assert_eq!(t.token_for("mirror.example"), None);
        assert_eq!(t.len(), 2);
    }
}
