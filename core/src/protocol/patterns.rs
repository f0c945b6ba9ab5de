//! `include`/`exclude` provider matching patterns of CLI config installation methods
//! (`ParseMultiSourceMatchingPatterns` / `MultiSourceSelector.CanHandleProvider`).

use super::names::{hostname_for_comparison, normalize_provider_part};
use crate::gotext::quote;

/// One pattern: each field is a literal (normalised) or `*`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProviderPattern {
    /// Hostname or `*`.
    pub hostname: String,
    /// Namespace or `*`.
    pub namespace: String,
    /// Type or `*`.
    pub type_: String,
}

/// A list of patterns; empty means "no patterns given".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderPatterns(pub Vec<ProviderPattern>);

const WILDCARD: &str = "*";

fn part_or_wildcard(s: &str) -> Option<String> {
    if s == WILDCARD {
        Some(WILDCARD.to_string())
    } else {
        normalize_provider_part(s)
    }
}

impl ProviderPattern {
    /// Parses `[HOST/]NAMESPACE/TYPE`; a two-part pattern means the flavour's default
    /// registry host. Error texts are Terraform's (including its quirk of naming the type
    /// segment in the namespace error).
    pub fn parse(s: &str, default_host: &str) -> Result<ProviderPattern, String> {
        let qs = quote(s);
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(format!(
                "invalid provider matching pattern {qs}: must have either two or three slash-separated segments"
            ));
        }
        let (hostname, rest) = if parts.len() == 3 {
            let h = if parts[0] == WILDCARD {
                WILDCARD.to_string()
            } else {
                hostname_for_comparison(parts[0]).map_err(|e| {
                    format!("invalid hostname in provider matching pattern {qs}: {e}")
                })?
            };
            (h, &parts[1..])
        } else {
            (default_host.to_string(), &parts[..])
        };
        let type_ = part_or_wildcard(rest[1]).ok_or_else(|| {
            format!(
                "invalid provider type {} in provider matching pattern {qs}: must either be the wildcard * or a provider type name",
                quote(rest[1])
            )
        })?;
        let namespace = part_or_wildcard(rest[0]).ok_or_else(|| {
            format!(
                "invalid registry namespace {} in provider matching pattern {qs}: must either be the wildcard * or a literal namespace",
                quote(rest[1])
            )
        })?;
        if hostname == WILDCARD && (namespace != WILDCARD || type_ != WILDCARD) {
            return Err(format!(
                "invalid provider matching pattern {qs}: hostname can be a wildcard only if both namespace and provider type are also wildcards"
            ));
        }
        if namespace == WILDCARD && type_ != WILDCARD {
            return Err(format!(
                "invalid provider matching pattern {qs}: namespace can be a wildcard only if the provider type is also a wildcard"
            ));
        }
        Ok(ProviderPattern {
            hostname,
            namespace,
            type_,
        })
    }

    /// True if the (normalised) provider address matches.
    pub fn matches(&self, hostname: &str, namespace: &str, type_: &str) -> bool {
        (self.hostname == WILDCARD || self.hostname == hostname)
            && (self.namespace == WILDCARD || self.namespace == namespace)
            && (self.type_ == WILDCARD || self.type_ == type_)
    }
}

impl ProviderPatterns {
    /// Parses a list; the first bad pattern's error is returned.
    pub fn parse(list: &[String], default_host: &str) -> Result<ProviderPatterns, String> {
        list.iter()
            .map(|s| ProviderPattern::parse(s, default_host))
            .collect::<Result<Vec<_>, _>>()
            .map(ProviderPatterns)
    }

    /// True if any pattern matches.
    pub fn matches(&self, hostname: &str, namespace: &str, type_: &str) -> bool {
        self.0.iter().any(|p| p.matches(hostname, namespace, type_))
    }
}

/// `CanHandleProvider`: excluded ⇒ no; else if there are include patterns, they decide;
/// else yes.
pub fn can_handle(
    include: &ProviderPatterns,
    exclude: &ProviderPatterns,
    hostname: &str,
    namespace: &str,
    type_: &str,
) -> bool {
    if exclude.matches(hostname, namespace, type_) {
        false
    } else if !include.0.is_empty() {
        include.matches(hostname, namespace, type_)
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TF: &str = "registry.terraform.io";

    fn pats(list: &[&str]) -> ProviderPatterns {
        ProviderPatterns::parse(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>(), TF)
            .unwrap()
    }

    #[test]
    fn two_part_patterns_mean_the_default_host() {
        let p = ProviderPattern::parse("HashiCorp/*", TF).unwrap();
        assert_eq!(
            p,
            ProviderPattern {
                hostname: TF.into(),
                namespace: "hashicorp".into(),
                type_: "*".into()
            }
        );
        assert!(p.matches(TF, "hashicorp", "aws"));
        assert!(!p.matches("example.com", "hashicorp", "aws"));
        let p = ProviderPattern::parse("*/*", "registry.opentofu.org").unwrap();
        assert_eq!(p.hostname, "registry.opentofu.org");
    }

    #[test]
    fn wildcard_rules_and_texts() {
        assert!(ProviderPattern::parse("*/*/*", TF).is_ok());
        assert_eq!(
            ProviderPattern::parse("*/hashicorp/*", TF).unwrap_err(),
            "invalid provider matching pattern \"*/hashicorp/*\": hostname can be a wildcard only if both namespace and provider type are also wildcards"
        );
        assert_eq!(
            ProviderPattern::parse("*/aws", TF).unwrap_err(),
            "invalid provider matching pattern \"*/aws\": namespace can be a wildcard only if the provider type is also a wildcard"
        );
        assert_eq!(
            ProviderPattern::parse("aws", TF).unwrap_err(),
            "invalid provider matching pattern \"aws\": must have either two or three slash-separated segments"
        );
        assert_eq!(
            ProviderPattern::parse("a/b/c/d", TF).unwrap_err(),
            "invalid provider matching pattern \"a/b/c/d\": must have either two or three slash-separated segments"
        );
    }

    #[test]
    fn patterns_are_quoted_like_go_in_errors() {
        // Go's %q writes a zero-width space as \u200b (Rust's {:?} would write \u{200b}).
        assert_eq!(
            ProviderPattern::parse("a\u{200b}b", TF).unwrap_err(),
            "invalid provider matching pattern \"a\\u200bb\": must have either two or three slash-separated segments"
        );
    }

    #[test]
    fn exclude_wins_then_include_decides() {
        let inc = pats(&["example.com/*/*"]);
        let exc = pats(&["example.com/secret/*"]);
        assert!(can_handle(&inc, &exc, "example.com", "public", "x"));
        assert!(!can_handle(&inc, &exc, "example.com", "secret", "x"));
        assert!(!can_handle(&inc, &exc, TF, "hashicorp", "aws"));
        assert!(can_handle(
            &ProviderPatterns::default(),
            &exc,
            TF,
            "hashicorp",
            "aws"
        ));
    }
}
