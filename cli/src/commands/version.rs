//! `tflock version [-json]` (also `-version`, `-v`, `--version`): the version, platform and
//! the providers the working directory's lock file selects, in `terraform version`'s shape.

use crate::host::workdir;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use tflock_core::api::lock_file::{header_flavor, load_locks_bytes, LoadOptions, LOCK_FILE_NAME};
use tflock_core::api::Platform;

/// Arguments of `tflock version`.
#[derive(Debug, clap::Args)]
pub struct VersionArgs {
    /// Output the version information as a JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `terraform version -json`'s document with tflock's names (`print_json` adds
/// `format_version`).
#[derive(Debug, serde::Serialize)]
struct VersionOutput {
    tflock_version: &'static str,
    platform: String,
    /// Provider address to locked version, from `.terraform.lock.hcl` if it parses.
    provider_selections: BTreeMap<String, String>,
    /// tflock checks no release feed, so this is always false; kept so parsers of
    /// Terraform's shape find the field they expect.
    tflock_outdated: bool,
}

/// Runs `tflock version`.
pub fn run(args: VersionArgs) -> anyhow::Result<ExitCode> {
    let out = VersionOutput {
        tflock_version: env!("CARGO_PKG_VERSION"),
        platform: Platform::current().to_string(),
        provider_selections: selections(Path::new(".")),
        tflock_outdated: false,
    };
    if args.json {
        crate::output::print_json(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = format!("tflock v{}\non {}\n", out.tflock_version, out.platform);
    for (provider, version) in &out.provider_selections {
        if version == "0.0.0" {
            text.push_str(&format!("+ provider {provider} (unversioned)\n"));
        } else {
            text.push_str(&format!("+ provider {provider} v{version}\n"));
        }
    }
    // Terraform prints its text with Println, so a blank line ends it.
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The lock file's selections; like Terraform, nothing when the file is absent or invalid
/// (this is best effort, never an error).
fn selections(dir: &Path) -> BTreeMap<String, String> {
    let Ok(bytes) = std::fs::read(workdir::lock_path(dir)) else {
        return BTreeMap::new();
    };
    let flavor = header_flavor(&String::from_utf8_lossy(&bytes));
    let (locks, diags) = load_locks_bytes(&bytes, &LoadOptions::new(LOCK_FILE_NAME, flavor));
    if diags.has_errors() {
        return BTreeMap::new();
    }
    locks
        .providers()
        .map(|l| (l.addr().to_string(), l.version().to_string()))
        .collect()
}
