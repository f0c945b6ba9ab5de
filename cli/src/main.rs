//! `tflock`: the native command-line host around `tflock-core`. All filesystem and network
//! IO lives here; decisions are made by the core.

mod args;
mod commands;
mod host;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Provider locking, hashing and override merging for Terraform and OpenTofu.
#[derive(Debug, Parser)]
#[command(name = "tflock", version, about)]
struct Cli {
    /// Switch to this working directory before running the command.
    #[arg(long, global = true, value_name = "DIR")]
    chdir: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the h1:/zh: hashes of provider zips and directories.
    Hash(commands::hash::HashArgs),
    /// Format, check, review and merge .terraform.lock.hcl files.
    Lockfile(commands::lockfile::LockfileArgs),
    /// Install the configuration's providers and write the lock file, like `terraform init`.
    Init(commands::init::InitArgs),
    /// Lock or mirror the configuration's providers for several platforms.
    Providers(commands::providers::ProvidersArgs),
    /// Check installed provider packages against the lock file's checksums.
    Verify(commands::verify::VerifyArgs),
    /// Print the module with its override files merged (HCL, or JSON with provenance).
    Merge(commands::merge::MergeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(args::normalize(std::env::args_os()));
    if let Some(dir) = &cli.chdir {
        if let Err(e) = std::env::set_current_dir(dir) {
            eprintln!(
                "Error: Error handling -chdir option: chdir {}: {e}",
                dir.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        Command::Hash(a) => commands::hash::run(a),
        Command::Lockfile(a) => commands::lockfile::run(a),
        Command::Init(a) => commands::init::run(a),
        Command::Providers(a) => commands::providers::run(a),
        Command::Verify(a) => commands::verify::run(a),
        Command::Merge(a) => commands::merge::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
