//! `tflock hash PATH...`

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `tflock hash`.
#[derive(Debug, clap::Args)]
pub struct HashArgs {
    /// Provider zips or unpacked provider directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print structured JSON instead of one hash per line.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tflock hash`.
pub fn run(_args: HashArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("tflock hash: the hashing core has not landed yet")
}
