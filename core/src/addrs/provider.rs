//! Provider source addresses (`tfaddr.Provider` / OpenTofu's registry-address v2).

use super::error::AddrError;
use super::hostname;
use super::part::parse_provider_part;
use crate::gotext::quote;
use crate::Flavor;
use std::fmt;

/// Namespace of built-in providers (`terraform.io/builtin/terraform`).
pub const BUILTIN_NAMESPACE: &str = "builtin";
/// Host of built-in providers in Terraform (and in OpenTofu's own addresses).
pub const BUILTIN_HOST: &str = "terraform.io";
/// OpenTofu also treats `opentofu.org/builtin/*` as built-in.
pub const OPENTOFU_BUILTIN_HOST: &str = "opentofu.org";
/// The legacy (pre-0.13) namespace, only valid with the default registry host.
pub const LEGACY_NAMESPACE: &str = "-";
/// The namespace of a bare `type` before the config layer fills in `hashicorp`.
pub const UNKNOWN_NAMESPACE: &str = "?";

/// A provider address `hostname/namespace/type`, normalized.
///
/// `hostname` is kept in svchost's comparison form (ASCII, punycode for IDNs, `:port`
/// unless 443), as Go stores it; equality and [`Ord`] (Terraform's `LessThan`: hostname,
/// then namespace, then type, bytewise) use that form. `Display` is `String()`: always
/// three parts, hostname in display (Unicode) form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Provider {
    /// Registry host, comparison form.
    pub hostname: String,
    /// Namespace (organisation), lower-case Unicode; `-` for legacy, `?` when unknown.
    pub namespace: String,
    /// Type name, lower-case Unicode.
    pub r#type: String,
}

impl Provider {
    /// A provider from already-normalized parts.
    pub fn new(hostname: &str, namespace: &str, type_name: &str) -> Provider {
        Provider {
            hostname: hostname.to_string(),
            namespace: namespace.to_string(),
            r#type: type_name.to_string(),
        }
    }

    /// `hashicorp/<type>` on the flavour's default registry (`NewDefaultProvider`).
    pub fn default_for(type_name: &str, flavor: Flavor) -> Provider {
        Provider::new(flavor.default_registry_host(), "hashicorp", type_name)
    }

    /// `terraform.io/builtin/<type>` (`NewBuiltInProvider`).
    pub fn builtin(type_name: &str) -> Provider {
        Provider::new(BUILTIN_HOST, BUILTIN_NAMESPACE, type_name)
    }

    /// Parses a `source` string as the configuration layer does
    /// (`addrs.ParseProviderSourceString`): a bare `type` gets namespace `hashicorp`.
    pub fn parse(s: &str, flavor: Flavor) -> Result<Provider, AddrError> {
        let mut p = Provider::parse_source(s, flavor)?;
        if p.namespace == UNKNOWN_NAMESPACE {
            p.namespace = "hashicorp".into();
        }
        Ok(p)
    }

    /// `ParseProviderSource` exactly: a bare `type` keeps the unknown namespace `?`.
    pub fn parse_source(s: &str, flavor: Flavor) -> Result<Provider, AddrError> {
        let format_error = || {
            AddrError::new(
                "Invalid provider source string",
                r#"The "source" attribute must be in the format "[hostname/][namespace/]name""#,
            )
        };
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(format_error());
        }
        let given_type = parts[parts.len() - 1];
        let type_name = parse_provider_part(given_type).map_err(|e| {
            AddrError::new(
                "Invalid provider type",
                format!(
                    "Invalid provider type {} in source {}: {e}\"",
                    quote(given_type),
                    quote(s)
                ),
            )
        })?;
        let default_host = flavor.default_registry_host();
        if parts.len() == 1 {
            return Ok(Provider::new(default_host, UNKNOWN_NAMESPACE, &type_name));
        }
        let given_ns = parts[parts.len() - 2];
        let namespace = if given_ns == LEGACY_NAMESPACE {
            LEGACY_NAMESPACE.to_string()
        } else {
            parse_provider_part(given_ns).map_err(|e| {
                // Go prints the failed result, which is always "".
                AddrError::new(
                    "Invalid provider namespace",
                    format!(
                        "Invalid provider namespace \"\" in source {}: {e}\"",
                        quote(s)
                    ),
                )
            })?
        };
        let host = if parts.len() == 3 {
            hostname::for_comparison(parts[0]).map_err(|e| {
                AddrError::new(
                    "Invalid provider source hostname",
                    format!(
                        "Invalid provider source hostname namespace \"\" in source {}: {e}\"",
                        quote(s)
                    ),
                )
            })?
        } else {
            default_host.to_string()
        };
        if namespace == LEGACY_NAMESPACE && host != default_host {
            return Err(AddrError::new(
                "Invalid provider namespace",
                format!(
                    "The legacy provider namespace \"-\" can be used only with hostname {}.",
                    hostname::for_display(default_host)
                ),
            ));
        }
        let ret = Provider {
            hostname: host,
            namespace,
            r#type: type_name,
        };
        ret.check_type_prefixes(flavor)?;
        Ok(ret)
    }

    /// The redundant-prefix rules: `terraform-` (both products), `opentofu-` (OpenTofu).
    fn check_type_prefixes(&self, flavor: Flavor) -> Result<(), AddrError> {
        let mut rules = vec![(
            "terraform-",
            "terraform-provider-",
            "Terraform providers",
            "a Terraform provider",
            "often",
        )];
        if flavor == Flavor::OpenTofu {
            rules.push((
                "opentofu-",
                "opentofu-provider-",
                "OpenTofu providers",
                "an OpenTofu provider",
                "sometimes",
            ));
        }
        for (redundant, user_error, repos, name_a, how_often) in rules {
            if !self.r#type.starts_with(redundant) {
                continue;
            }
            if let Some(suggested) = self.r#type.strip_prefix(user_error) {
                if parse_provider_part(suggested).is_ok() {
                    let mut fixed = self.clone();
                    fixed.r#type = suggested.to_string();
                    return Err(AddrError::new(
                        "Invalid provider type",
                        format!(
                            "Provider source {} has a type with the prefix {}, which isn't valid. Although that prefix is {how_often} used in the names of version control repositories for {repos}, provider source strings should not include it.\n\nDid you mean {}?",
                            quote(&self.for_display(flavor)),
                            quote(user_error),
                            quote(&fixed.for_display(flavor)),
                        ),
                    ));
                }
            }
            return Err(AddrError::new(
                "Invalid provider type",
                format!(
                    "Provider source {} has a type with the prefix {}, which isn't allowed because it would be redundant to name {name_a} with that prefix. If you are the author of this provider, rename it to not include the prefix.",
                    quote(&self.to_string()),
                    quote(redundant),
                ),
            ));
        }
        Ok(())
    }

    /// `ForDisplay`: `namespace/type` on the flavour's default registry, else `String()`.
    pub fn for_display(&self, flavor: Flavor) -> String {
        if self.hostname == flavor.default_registry_host() {
            format!("{}/{}", self.namespace, self.r#type)
        } else {
            self.to_string()
        }
    }

    /// `terraform.io/builtin/*` (Terraform's `IsBuiltIn`).
    pub fn is_builtin(&self) -> bool {
        self.hostname == BUILTIN_HOST && self.namespace == BUILTIN_NAMESPACE
    }

    /// Built-in for the given product: OpenTofu also accepts `opentofu.org/builtin/*`.
    pub fn is_builtin_for(&self, flavor: Flavor) -> bool {
        self.is_builtin()
            || (flavor == Flavor::OpenTofu
                && self.hostname == OPENTOFU_BUILTIN_HOST
                && self.namespace == BUILTIN_NAMESPACE)
    }

    /// The legacy `-` namespace.
    pub fn is_legacy(&self) -> bool {
        self.namespace == LEGACY_NAMESPACE
    }

    /// Whether the namespace is known (not `?`).
    pub fn has_known_namespace(&self) -> bool {
        self.namespace != UNKNOWN_NAMESPACE
    }

    /// The provider Terraform assumes for an unqualified local name or resource-type
    /// prefix (`ImpliedProviderForUnqualifiedType`): `terraform` is the built-in one,
    /// anything else is `hashicorp/<name>` on the default registry.
    pub fn implied(type_name: &str, flavor: Flavor) -> Provider {
        if type_name == "terraform" {
            Provider::builtin(type_name)
        } else {
            Provider::default_for(type_name, flavor)
        }
    }

    /// The local provider name a resource type implies: the text before the first `_`
    /// (`aws_instance` → `aws`).
    pub fn local_name_for_resource_type(resource_type: &str) -> &str {
        resource_type.split('_').next().unwrap_or(resource_type)
    }
}

/// `String()`: `hostname/namespace/type` with the hostname in display form.
impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}",
            hostname::for_display(&self.hostname),
            self.namespace,
            self.r#type
        )
    }
}

/// Serialized as `String()` text, like Go's `Provider.MarshalText`.
impl serde::Serialize for Provider {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
