//! Terraform's command line: the global `-chdir=DIR`, and long flags spelled with one dash
//! (`-upgrade`), which clap wants with two.

use crate::terraform_flags::{self, FlagError, Native, Rewritten};
use std::ffi::OsString;
use tflock_core::Flavor;

/// Parses a `-flavor` value (core's names and wording, with the flag in front).
pub fn parse_flavor(s: &str) -> anyhow::Result<Flavor> {
    Flavor::parse(s).map_err(|e| anyhow::anyhow!("invalid -flavor: {e}"))
}

/// Parses a `-flavor` value if one was given; `None` lets the working directory decide
/// ([`crate::host::flavor`]).
pub fn given_flavor(s: Option<&str>) -> anyhow::Result<Option<Flavor>> {
    s.map(parse_flavor).transpose()
}

/// Takes Terraform's global `-chdir=DIR` (or `--chdir=DIR`) out of the options before the
/// subcommand; the error is Terraform's text for `-chdir` without `=DIR`.
pub fn extract_chdir(
    mut args: Vec<OsString>,
) -> Result<(Option<OsString>, Vec<OsString>), &'static str> {
    let mut found = None;
    for (i, arg) in args.iter().enumerate().skip(1) {
        let Some(s) = arg.to_str().filter(|s| s.starts_with('-')) else {
            break;
        };
        let s = s.strip_prefix("--").unwrap_or(&s[1..]);
        if s == "chdir" || s == "chdir=" {
            return Err(
                "must include an equals sign followed by a directory path, like -chdir=example",
            );
        }
        if let Some(dir) = s.strip_prefix("chdir=") {
            found = Some((i, OsString::from(dir)));
        }
    }
    Ok(match found {
        Some((i, dir)) => {
            args.remove(i);
            (Some(dir), args)
        }
        None => (None, args),
    })
}

/// Terraform's shortcut: `-v`, `-version` or `--version` as the first argument is the
/// `version` command (`tflock -v -json` too).
pub fn version_shortcut(args: &mut [OsString]) {
    if let Some(first) = args.get_mut(1) {
        if matches!(first.to_str(), Some("-v" | "-version" | "--version")) {
            *first = OsString::from("version");
        }
    }
}

/// The command line for clap. The arguments of `init`, `providers lock` and `providers
/// mirror` follow Terraform's grammar ([`terraform_flags::rewrite`], which learns tflock's
/// own flags from `cli`); elsewhere one-dash long flags just gain a dash.
pub fn normalize(args: Vec<OsString>, cli: &clap::Command) -> Result<Rewritten, FlagError> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map_while(|a| a.to_str())
        .take(2)
        .collect();
    let path = match words.as_slice() {
        ["providers", sub, ..] => vec!["providers", *sub],
        [first, ..] => vec![*first],
        [] => vec![],
    };
    let Some(table) = terraform_flags::table(&path) else {
        return Ok(Rewritten {
            args: one_dash_to_two(args),
            ignored: Vec::new(),
        });
    };
    let command = path
        .iter()
        .try_fold(cli, |cmd, name| cmd.find_subcommand(name))
        .expect("every table names a subcommand");
    let native = |name: &str| {
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(name))?;
        Some(if arg.get_action().takes_values() {
            Native::Value
        } else {
            Native::Switch
        })
    };
    let split = path.len() + 1;
    let mut rest = args;
    let tail = rest.split_off(split);
    let mut out = terraform_flags::rewrite(table, tail, native)?;
    rest.append(&mut out.args);
    out.args = rest;
    Ok(out)
}

/// Rewrites `-name[=value]` (one dash, two or more characters) into `--name[=value]`, so users
/// can type flags the way Terraform spells them. Everything after `--` is left alone.
fn one_dash_to_two(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut passthrough = false;
    for (i, arg) in args.into_iter().enumerate() {
        if i == 0 || passthrough {
            out.push(arg);
            continue;
        }
        match arg.to_str() {
            Some("--") => {
                passthrough = true;
                out.push(arg);
            }
            Some(s) if is_single_dash_long(s) => out.push(OsString::from(format!("-{s}"))),
            _ => out.push(arg),
        }
    }
    out
}

fn is_single_dash_long(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('-') else {
        return false;
    };
    if rest.starts_with('-') {
        return false;
    }
    let name = rest.split('=').next().unwrap_or("");
    name.len() >= 2
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: &[&str]) -> Vec<String> {
        one_dash_to_two(v.iter().map(OsString::from))
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect()
    }

    #[test]
    fn single_dash_long_flags_become_double_dash() {
        assert_eq!(
            n(&[
                "tflock",
                "init",
                "-upgrade",
                "-lockfile=readonly",
                "-w",
                "--json",
                "-",
                "x"
            ]),
            [
                "tflock",
                "init",
                "--upgrade",
                "--lockfile=readonly",
                "-w",
                "--json",
                "-",
                "x"
            ]
        );
        assert_eq!(n(&["tflock", "--", "-foo"]), ["tflock", "--", "-foo"]);
    }

    #[test]
    fn version_spellings_before_the_command_are_the_version_command() {
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        for spelling in ["-v", "-version", "--version"] {
            let mut args = os(&["tflock", spelling, "-json"]);
            version_shortcut(&mut args);
            assert_eq!(args, os(&["tflock", "version", "-json"]));
        }
        // A subcommand's own flag is left alone.
        let mut args = os(&["tflock", "hash", "-v"]);
        version_shortcut(&mut args);
        assert_eq!(args, os(&["tflock", "hash", "-v"]));
    }

    #[test]
    fn chdir_is_taken_from_the_options_before_the_subcommand() {
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let (dir, rest) = extract_chdir(os(&["tflock", "-chdir=envs/prod", "init"])).unwrap();
        assert_eq!(dir, Some(OsString::from("envs/prod")));
        assert_eq!(rest, os(&["tflock", "init"]));
        let (dir, rest) = extract_chdir(os(&["tflock", "init", "-chdir=x"])).unwrap();
        assert_eq!(dir, None);
        assert_eq!(rest, os(&["tflock", "init", "-chdir=x"]));
        assert!(extract_chdir(os(&["tflock", "-chdir", "x", "init"])).is_err());
        assert!(extract_chdir(os(&["tflock", "--chdir=", "init"])).is_err());
    }
}
