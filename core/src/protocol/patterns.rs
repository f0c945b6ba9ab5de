//! `include`/`exclude` provider matching patterns of CLI config installation methods
//! (`ParseMultiSourceMatchingPatterns` / `MultiSourceSelector.CanHandleProvider`).

use super::names::{hostname_for_comparison, normalize_provider_part};
use crate::addrs::hostname::HostnameError;
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

/// Why a provider matching pattern is refused (Terraform's texts, including its quirk of
/// naming the type segment in the namespace error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// Not two or three segments.
    #[error("invalid provider matching pattern {}: must have either two or three slash-separated segments", quote(.pattern))]
    Segments {
        /// The pattern.
        pattern: String,
    },
    /// The hostname segment is not a hostname.
    #[error("invalid hostname in provider matching pattern {}: {error}", quote(.pattern))]
    Hostname {
        /// The pattern.
        pattern: String,
        /// Why the hostname is invalid.
        error: HostnameError,
    },
    /// The type segment is neither `*` nor a type name.
    #[error("invalid provider type {} in provider matching pattern {}: must either be the wildcard * or a provider type name", quote(.segment), quote(.pattern))]
    Type {
        /// The pattern.
        pattern: String,
        /// The type segment.
        segment: String,
    },
    /// The namespace segment is neither `*` nor a namespace (`segment` is the type's).
    #[error("invalid registry namespace {} in provider matching pattern {}: must either be the wildcard * or a literal namespace", quote(.segment), quote(.pattern))]
    Namespace {
        /// The pattern.
        pattern: String,
        /// The segment Terraform names: the type's.
        segment: String,
    },
    /// A wildcard hostname with a literal namespace or type.
    #[error("invalid provider matching pattern {}: hostname can be a wildcard only if both namespace and provider type are also wildcards", quote(.pattern))]
    HostWildcard {
        /// The pattern.
        pattern: String,
    },
    /// A wildcard namespace with a literal type.
    #[error("invalid provider matching pattern {}: namespace can be a wildcard only if the provider type is also a wildcard", quote(.pattern))]
    NamespaceWildcard {
        /// The pattern.
        pattern: String,
    },
}

impl ProviderPattern {
    /// Parses `[HOST/]NAMESPACE/TYPE`; a two-part pattern means the flavour's default
    /// registry host. Error texts are Terraform's (including its quirk of naming the type
    /// segment in the namespace error).
    pub fn parse(s: &str, default_host: &str) -> Result<ProviderPattern, PatternError> {
        let pattern = || s.to_string();
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(PatternError::Segments { pattern: pattern() });
        }
        let (hostname, rest) = if parts.len() == 3 {
            let h = if parts[0] == WILDCARD {
                WILDCARD.to_string()
            } else {
                hostname_for_comparison(parts[0]).map_err(|error| PatternError::Hostname {
                    pattern: pattern(),
                    error,
                })?
            };
            (h, &parts[1..])
        } else {
            (default_host.to_string(), &parts[..])
        };
        let type_ = part_or_wildcard(rest[1]).ok_or_else(|| PatternError::Type {
            pattern: pattern(),
            segment: rest[1].to_string(),
        })?;
        let namespace = part_or_wildcard(rest[0]).ok_or_else(|| PatternError::Namespace {
            pattern: pattern(),
            segment: rest[1].to_string(),
        })?;
        if hostname == WILDCARD && (namespace != WILDCARD || type_ != WILDCARD) {
            return Err(PatternError::HostWildcard { pattern: pattern() });
        }
        if namespace == WILDCARD && type_ != WILDCARD {
            return Err(PatternError::NamespaceWildcard { pattern: pattern() });
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
    pub fn parse(list: &[String], default_host: &str) -> Result<ProviderPatterns, PatternError> {
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
            ProviderPattern::parse("*/hashicorp/*", TF).unwrap_err().to_string(),
            "invalid provider matching pattern \"*/hashicorp/*\": hostname can be a wildcard only if both namespace and provider type are also wildcards"
        );
        assert_eq!(
            ProviderPattern::parse("*/aws", TF).unwrap_err().to_string(),
            "invalid provider matching pattern \"*/aws\": namespace can be a wildcard only if the provider type is also a wildcard"
        );
        assert_eq!(
            ProviderPattern::parse("aws", TF).unwrap_err().to_string(),
            "invalid provider matching pattern \"aws\": must have either two or three slash-separated segments"
        );
        assert_eq!(
            ProviderPattern::parse("a/b/c/d", TF).unwrap_err().to_string(),
            "invalid provider matching pattern \"a/b/c/d\": must have either two or three slash-separated segments"
        );
    }

    #[test]
    fn patterns_are_quoted_like_go_in_errors() {
        // Go's %q writes a zero-width space as \u200b (Rust's {:?} would write \u{200b}).
        assert_eq!(
            ProviderPattern::parse("a\u{200b}b", TF).unwrap_err().to_string(),
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
