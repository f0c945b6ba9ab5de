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

    /// Parses `terraform`/`opentofu` (also `tofu`), case-insensitively.
    pub fn parse(s: &str) -> Option<Flavor> {
        match s.to_ascii_lowercase().as_str() {
            "terraform" | "tf" => Some(Flavor::Terraform),
            "opentofu" | "tofu" => Some(Flavor::OpenTofu),
            _ => None,
        }
    }
}

impl std::fmt::Display for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Flavor::Terraform => "terraform",
            Flavor::OpenTofu => "opentofu",
        })
    }
}
