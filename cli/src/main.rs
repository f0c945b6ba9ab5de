//! `tflock`: the native command-line host around `tflock-core`. All filesystem and network
//! IO lives here; decisions are made by the core.

// Every print of the CLI goes through `output::write_stdout`/`write_stderr`: these shadow
// std's macros crate-wide (macros defined here are in scope in every module below), so a
// closed stdout (`tflock ... | head`) ends the output quietly instead of panicking with a
// backtrace, including in prints written with the usual macro names.
macro_rules! print {
    ($($arg:tt)*) => { $crate::output::write_stdout(format_args!($($arg)*)) };
}
macro_rules! println {
    () => { $crate::output::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
// Unused today; defined so a future `eprint!` cannot reach std's panicking one.
#[allow(unused_macros)]
macro_rules! eprint {
    ($($arg:tt)*) => { $crate::output::write_stderr(format_args!($($arg)*)) };
}
macro_rules! eprintln {
    () => { $crate::output::write_stderr(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::write_stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

mod args;
mod commands;
mod host;
mod output;
mod terraform_flags;
mod var_flags;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;
use terraform_flags::FlagError;
use tflock_core::Diagnostic;

/// Provider locking, hashing and override merging for Terraform and OpenTofu.
#[derive(Debug, Parser)]
#[command(
    name = "tflock",
    about,
    after_help = "Global options (before the command), as Terraform's:\n  \
                  -chdir=DIR    Switch to DIR before running the command.\n  \
                  -v, -version  Show the version (as `tflock version`).\n\n\
                  Exit status: 0 success; 1 error; 2 differences found (`lockfile diff \
                  -exit-code`,\n`lockfile fmt -check`, `lockfile coverage`).\n\n\
                  -json prints one JSON object, \"format_version\" first; `providers lock` over \
                  several root\nmodules prints NDJSON (one message per line, Terraform's -json \
                  stream shape).\n\n\
                  Diagnostics print as Terraform's: coloured and ruled when stderr is a terminal, \
                  plain with\n-no-color or when stderr is not a terminal (Terraform colours \
                  piped output too; tflock\nkeeps pipes and logs plain), wrapped to the \
                  terminal's width (else 78 columns)."
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
    /// Show the tflock version, platform and the lock file's provider selections.
    Version(commands::version::VersionArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(commands::completions::CompletionsArgs),
}

fn main() -> ExitCode {
    let (chdir, mut args) = match args::extract_chdir(std::env::args_os().collect()) {
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
    args::version_shortcut(&mut args);
    if args
        .iter()
        .skip(1)
        .any(|a| a == "-no-color" || a == "--no-color")
    {
        output::set_no_color();
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
    // clap exits 2 on a usage error, which scripts would read as "differences found" (a
    // mistyped `lockfile fmt -chek` as "not formatted"): like Terraform, a usage error is 1.
    let cli = match Cli::try_parse_from(args.args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
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
        Command::Version(a) => commands::version::run(a),
        Command::Completions(a) => commands::completions::run(a, Cli::command()),
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
