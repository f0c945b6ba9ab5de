//! Terraform spells long flags with one dash (`-upgrade`, `-chdir=DIR`); clap wants two.

use std::ffi::OsString;

/// Rewrites `-name[=value]` (one dash, two or more characters) into `--name[=value]`, so users
/// can type flags the way Terraform spells them. Everything after `--` is left alone.
pub fn normalize(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
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
        normalize(v.iter().map(OsString::from))
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
}
