//! Finding and reading the CLI configuration the way Terraform and OpenTofu do.

use std::path::PathBuf;
use tflock_core::api::cli_config::{missing_file, CliConfig};
use tflock_core::{Diagnostics, Flavor};

/// The CLI config file in effect: `TF_CLI_CONFIG_FILE`, else (OpenTofu) `~/.tofurc`, else
/// `~/.terraformrc`. `None` when there is none.
pub fn locate(flavor: Flavor) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TF_CLI_CONFIG_FILE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let home = dirs::home_dir()?;
    let mut candidates = Vec::new();
    if flavor == Flavor::OpenTofu {
        candidates.push(home.join(".tofurc"));
    }
    candidates.push(home.join(".terraformrc"));
    candidates.into_iter().find(|p| p.is_file())
}

/// Loads the CLI config (empty when there is no file), applying `TF_PLUGIN_CACHE_DIR` and
/// `TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE`.
pub fn load(flavor: Flavor) -> anyhow::Result<(CliConfig, Diagnostics)> {
    let (mut cfg, diags) = match locate(flavor) {
        None => (CliConfig::default(), Diagnostics::new()),
        Some(path) => match std::fs::read_to_string(&path) {
            Ok(text) => CliConfig::parse(&text, &path.display().to_string(), flavor),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut diags = Diagnostics::new();
                diags.push(missing_file(&path.display().to_string()));
                (CliConfig::default(), diags)
            }
            Err(e) => anyhow::bail!("reading CLI config {}: {e}", path.display()),
        },
    };
    if let Some(dir) = std::env::var("TF_PLUGIN_CACHE_DIR")
        .ok()
        .filter(|d| !d.is_empty())
    {
        cfg.plugin_cache_dir = Some(dir);
    }
    if std::env::var("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE").is_ok_and(|v| !v.is_empty())
    {
        cfg.plugin_cache_may_break_dependency_lock_file = true;
    }
    Ok((cfg, diags))
}

/// The plugin cache directory, with `$VAR`s expanded.
pub fn plugin_cache_dir(cfg: &CliConfig) -> Option<PathBuf> {
    cfg.plugin_cache_dir_expanded(|name| std::env::var(name).ok())
        .map(PathBuf::from)
}
