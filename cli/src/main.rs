//! `tflock`: the native command-line host around `tflock-core`. All filesystem and network
//! IO lives here; decisions are made by the core.

mod args;
mod commands;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Provider locking, hashing and override merging for Terraform and OpenTofu.
#[derive(Debug, Parser)]
#[command(name = "tflock", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the h1:/zh: hashes of provider zips and directories.
    Hash(commands::hash::HashArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(args::normalize(std::env::args_os()));
    let result = match cli.command {
        Command::Hash(a) => commands::hash::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("Error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
