//! `tflock`: the native command-line host around `tflock-core`. All filesystem and network
//! IO lives here; decisions are made by the core.

mod args;
mod commands;
mod host;
mod output;
mod terraform_flags;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;
use terraform_flags::FlagError;
use tflock_core::Diagnostic;

/// Provider locking, hashing and override merging for Terraform and OpenTofu.
#[derive(Debug, Parser)]
#[command(
    name = "tflock",
    version,
    about,
    after_help = "Global option (before the command), as Terraform's:\n  \
                  -chdir=DIR  Switch to DIR before running the command."
)]
struct Cli {
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
    let (chdir, args) = match args::extract_chdir(std::env::args_os().collect()) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("Invalid -chdir option: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(dir) = chdir {
        if let Err(e) = std::env::set_current_dir(&dir) {
            eprintln!(
                "Error handling -chdir option: chdir {}: {}",
                dir.to_string_lossy(),
                go_error_text(&e)
            );
            return ExitCode::FAILURE;
        }
    }
    let args = match args::normalize(args, &Cli::command()) {
        Ok(args) => args,
        Err(e) => {
            let (summary, detail) = match e {
                FlagError::Parse(message) => ("Failed to parse command-line flags", message),
                FlagError::Unsupported(name, why) => {
                    ("Unsupported option", format!("-{name}: {why}"))
                }
            };
            output::print_diagnostic(&Diagnostic::error(summary, detail));
            return ExitCode::FAILURE;
        }
    };
    let cli = Cli::parse_from(args.args);
    if !args.ignored.is_empty() {
        eprintln!(
            "tflock: ignoring {} (no meaning for tflock)",
            args.ignored.join(", ")
        );
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

/// An OS error the way Go prints it (`no such file or directory`), without Rust's
/// capital letter and `(os error 2)`.
fn go_error_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or_default();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
