//! `tflock completions SHELL`: the shell completion script, generated from the clap
//! definitions so it never drifts from the real flags.

use std::process::ExitCode;

/// Arguments of `tflock completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    tflock completions bash > ~/.local/share/bash-completion/completions/tflock\n  \
    tflock completions zsh > \"${fpath[1]}/_tflock\"\n  \
    tflock completions fish > ~/.config/fish/completions/tflock.fish\n  \
    tflock completions powershell >> $PROFILE")]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Writes the completion script for `cmd` (the whole `tflock` command) to stdout.
pub fn run(args: CompletionsArgs, mut cmd: clap::Command) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "tflock", &mut script);
    print!("{}", String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}
