//! What the planner is asked to do.

use crate::addrs::{Platform, Provider};
use crate::collections::SortedMap;
use crate::protocol::TrustRoots;
use crate::version::Constraints;
use crate::Flavor;

/// Every provider the configuration needs, with all its constraints combined
/// (an empty [`Constraints`] means any version).
pub type Requirements = SortedMap<Provider, Constraints>;

/// Which command's decisions to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// `init`: keep locked selections, verify packages against the lock, install.
    Init,
    /// `init -upgrade`: ignore locked selections when choosing versions.
    InitUpgrade,
    /// `providers lock`: fetch every requested platform's package to record its checksums,
    /// keeping locked selections; nothing is installed.
    ProvidersLock,
}

impl Mode {
    /// The mode named as its serde name (`"init"`, `"init-upgrade"`, `"providers-lock"`),
    /// for callers that would otherwise link a JSON deserializer to read one string.
    pub fn parse(name: &str) -> Option<Mode> {
        match name {
            "init" => Some(Mode::Init),
            "init-upgrade" => Some(Mode::InitUpgrade),
            "providers-lock" => Some(Mode::ProvidersLock),
            _ => None,
        }
    }
}

/// Where `providers lock` and `init` take each platform's `h1:` from.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum HashSource {
    /// Each platform's own package, downloaded and hashed: what both products do.
    #[default]
    Packages,
    /// The source's metadata (OpenTofu's `packages`, a network mirror's `hashes`) once one
    /// downloaded package per provider matched it; every other platform's `zh:` is still
    /// checked against the signed `SHA256SUMS` (`-metadata-hashes`).
    Metadata,
}

impl HashSource {
    /// The mode a run uses: `-metadata-hashes` given, else the CLI configuration's
    /// `tflock_metadata_hashes`, else the products' own behaviour.
    pub fn choose(flag: bool, cli_config: Option<bool>) -> HashSource {
        if flag || cli_config == Some(true) {
            HashSource::Metadata
        } else {
            HashSource::Packages
        }
    }
}

/// The planner's settings.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// Whose rules and texts.
    pub flavor: Flavor,
    /// The command.
    pub mode: Mode,
    /// Target platforms: for `init` the one platform being installed for (the current
    /// one); for `providers lock` every `-platform` (the current one when none is given).
    pub platforms: Vec<Platform>,
    /// `-lockfile=readonly` (init only).
    pub readonly: bool,
    /// Type names valid under `terraform.io/builtin/` (`terraform` in both products).
    pub builtin_types: Vec<String>,
    /// The keys that make a registry signature "signed by HashiCorp" or "a partner".
    pub trust_roots: TrustRoots,
    /// OpenTofu's `OPENTOFU_ENFORCE_GPG_VALIDATION=true`.
    pub enforce_gpg_validation: bool,
    /// A global plugin cache directory is configured (init), or `-enable-plugin-cache`
    /// was given (providers lock).
    pub plugin_cache: bool,
    /// `plugin_cache_may_break_dependency_lock_file = true`.
    pub plugin_cache_may_break_lock: bool,
    /// Where each platform's `h1:` comes from.
    pub hash_source: HashSource,
}

impl PlanOptions {
    /// Defaults for `flavor` and `mode` targeting `platforms`.
    pub fn new(flavor: Flavor, mode: Mode, platforms: Vec<Platform>) -> PlanOptions {
        PlanOptions {
            flavor,
            mode,
            platforms,
            readonly: false,
            builtin_types: vec!["terraform".to_string()],
            trust_roots: TrustRoots::hashicorp(),
            enforce_gpg_validation: false,
            plugin_cache: false,
            plugin_cache_may_break_lock: false,
            hash_source: HashSource::Packages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_parse_accepts_exactly_the_serde_names() {
        for name in [
            "init",
            "init-upgrade",
            "providers-lock",
            "Init",
            "providers_lock",
            "",
        ] {
            let serde = serde_json::from_value::<Mode>(serde_json::Value::String(name.into())).ok();
            assert_eq!(Mode::parse(name), serde, "{name:?}");
        }
    }
}
