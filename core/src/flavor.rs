//! Which product's behaviour to reproduce where Terraform and OpenTofu differ.

use serde::{Deserialize, Serialize};

/// The product whose texts, defaults and rules tflock follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavor {
    /// HashiCorp Terraform (the default).
    #[default]
    Terraform,
    /// OpenTofu.
    #[serde(alias = "tofu")]
    OpenTofu,
}

impl Flavor {
    /// Every flavour, the default first: what a host offers to choose from.
    pub const ALL: [Flavor; 2] = [Flavor::Terraform, Flavor::OpenTofu];

    /// The product name used in messages: `Terraform` or `OpenTofu`.
    pub fn product(self) -> &'static str {
        match self {
            Flavor::Terraform => "Terraform",
            Flavor::OpenTofu => "OpenTofu",
        }
    }

    /// The command users type: `terraform` or `tofu`.
    pub fn command(self) -> &'static str {
        match self {
            Flavor::Terraform => "terraform",
            Flavor::OpenTofu => "tofu",
        }
    }

    /// The registry host that unqualified provider sources resolve to.
    pub fn default_registry_host(self) -> &'static str {
        match self {
            Flavor::Terraform => "registry.terraform.io",
            Flavor::OpenTofu => "registry.opentofu.org",
        }
    }

    /// Parses `terraform`/`opentofu` (also `tf`, `tofu`), case-insensitively. Every host
    /// parses a flavour name here, so all accept the same names and refuse in one wording.
    pub fn parse(s: &str) -> Result<Flavor, UnknownFlavor> {
        match s.to_ascii_lowercase().as_str() {
            "terraform" | "tf" => Ok(Flavor::Terraform),
            "opentofu" | "tofu" => Ok(Flavor::OpenTofu),
            _ => Err(UnknownFlavor(s.to_string())),
        }
    }

    /// The flavour's name as [`Flavor::parse`] reads it back: `terraform` or `opentofu`.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::Terraform => "terraform",
            Flavor::OpenTofu => "opentofu",
        }
    }
}

/// A name [`Flavor::parse`] does not know (the name as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is neither \"terraform\" nor \"opentofu\"")]
pub struct UnknownFlavor(pub String);

impl std::str::FromStr for Flavor {
    type Err = UnknownFlavor;

    fn from_str(s: &str) -> Result<Flavor, UnknownFlavor> {
        Flavor::parse(s)
    }
}

impl std::fmt::Display for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_unknown_names_are_refused_in_one_wording() {
        for f in [Flavor::Terraform, Flavor::OpenTofu] {
            assert_eq!(Flavor::parse(&f.to_string()), Ok(f));
        }
        assert_eq!(Flavor::parse("TF"), Ok(Flavor::Terraform));
        assert_eq!(Flavor::parse("Tofu"), Ok(Flavor::OpenTofu));
        let e = Flavor::parse("pulumi").unwrap_err();
        assert_eq!(
            e.to_string(),
            r#""pulumi" is neither "terraform" nor "opentofu""#
        );
    }
}
