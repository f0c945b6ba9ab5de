//! The flags Terraform 1.15.5 accepts for `init`, `providers lock` and `providers mirror`
//! (`internal/command/arguments/{init,providers_lock,providers_mirror}.go`, plus `-no-color`,
//! which `Meta.process` takes out of every command's arguments), and the Go `flag` grammar
//! they are parsed with, so a CI script written for `terraform init` runs unchanged.
//!
//! Flags tflock's own parser knows keep their meaning; the rest have no meaning for tflock
//! (backend, state, input, variables) and are accepted and reported as ignored.
//!
//! Pure `std`: the test suite includes this file to generate its cases from the same tables.

use std::ffi::{OsStr, OsString};

/// How Terraform parses a flag's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `-name`, or `-name=VALUE` with Go's `strconv.ParseBool` spellings (`true`, `0`, `F`...).
    Bool,
    /// `-name=VALUE` or `-name VALUE`.
    Value,
    /// Like [`Kind::Value`], and may be given several times.
    Repeated,
    /// A Go duration (`-lock-timeout=30s`).
    Duration,
}

/// One Terraform flag.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// The name, without the dash.
    pub name: &'static str,
    /// How its value is parsed.
    pub kind: Kind,
}

const fn flag(name: &'static str, kind: Kind) -> Flag {
    Flag { name, kind }
}

use Kind::{Bool, Duration, Repeated, Value};

/// `terraform init`.
pub const INIT: &[Flag] = &[
    flag("backend", Bool),
    flag("backend-config", Repeated),
    flag("cloud", Bool),
    flag("compact-warnings", Bool),
    flag("create-default-workspace", Bool),
    flag("enable-pluggable-state-storage-experiment", Bool),
    flag("force-copy", Bool),
    flag("from-module", Value),
    flag("get", Bool),
    flag("ignore-remote-version", Bool),
    flag("input", Bool),
    flag("json", Bool),
    flag("lock", Bool),
    flag("lock-timeout", Duration),
    flag("lockfile", Value),
    flag("migrate-state", Bool),
    flag("no-color", Bool),
    flag("plugin-dir", Repeated),
    flag("reconfigure", Bool),
    flag("target", Repeated),
    flag("test-directory", Value),
    flag("upgrade", Bool),
    flag("var", Repeated),
    flag("var-file", Repeated),
];

/// `terraform providers lock`.
pub const PROVIDERS_LOCK: &[Flag] = &[
    flag("enable-plugin-cache", Bool),
    flag("fs-mirror", Value),
    flag("net-mirror", Value),
    flag("no-color", Bool),
    flag("platform", Repeated),
    flag("test-directory", Value),
    flag("var", Repeated),
    flag("var-file", Repeated),
];

/// `terraform providers mirror`.
pub const PROVIDERS_MIRROR: &[Flag] = &[
    flag("lock-file", Bool),
    flag("no-color", Bool),
    flag("platform", Repeated),
    flag("var", Repeated),
    flag("var-file", Repeated),
];

/// The table of a subcommand path (`["init"]`, `["providers", "lock"]`, ...).
pub fn table(command: &[&str]) -> Option<&'static [Flag]> {
    match command {
        ["init"] => Some(INIT),
        ["providers", "lock"] => Some(PROVIDERS_LOCK),
        ["providers", "mirror"] => Some(PROVIDERS_MIRROR),
        _ => None,
    }
}

/// Obeyed without being passed on: tflock never colours its output.
pub const SILENT: &[&str] = &["no-color"];

/// Refused rather than ignored, with the reason.
pub const UNSUPPORTED: &[(&str, &str)] = &[(
    "from-module",
    "tflock does not download modules, so it cannot copy a module into the working \
     directory. Copy the module first (for example with terraform init -from-module=SOURCE \
     -backend=false), then run tflock init.",
)];

/// How tflock's own parser takes a flag of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Native {
    /// A switch: present or absent.
    Switch,
    /// Takes a value (`--name=VALUE`).
    Value,
}

/// The arguments for tflock's parser, and the flags it ignored.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rewritten {
    /// Arguments in tflock's two-dash spelling, without the ignored flags.
    pub args: Vec<OsString>,
    /// Ignored flags as written (values of value flags left out: they may be secrets).
    pub ignored: Vec<String>,
}

/// Why the arguments were refused.
#[derive(Debug, PartialEq, Eq)]
pub enum FlagError {
    /// Go's `flag` package's message (`flag provided but not defined: -bogus`).
    Parse(String),
    /// A flag tflock cannot honour: (flag, reason).
    Unsupported(&'static str, &'static str),
}

/// Rewrites a subcommand's arguments (after its name) from Terraform's grammar to tflock's:
/// flags `native` knows (tflock's own, and Terraform's that tflock implements) are spelled
/// `--name[=VALUE]`, Terraform's others are dropped and listed, anything else is Terraform's
/// "flag provided but not defined" error. Unlike Go, flags may follow positional arguments.
pub fn rewrite(
    table: &[Flag],
    args: impl IntoIterator<Item = OsString>,
    native: impl Fn(&str) -> Option<Native>,
) -> Result<Rewritten, FlagError> {
    let mut out = Rewritten::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str().filter(|s| s.starts_with('-') && s.len() > 1) else {
            out.args.push(arg);
            continue;
        };
        if text == "--" {
            out.args.push(arg);
            out.args.extend(args);
            break;
        }
        let body = text.strip_prefix("--").unwrap_or(&text[1..]);
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        if name.is_empty() || name.starts_with('-') || name.starts_with('=') {
            return Err(FlagError::Parse(format!("bad flag syntax: {text}")));
        }
        let terraform = table.iter().find(|f| f.name == name);
        let Some(f) = terraform else {
            match native(name) {
                Some(kind) => {
                    out.args.push(format!("--{body}").into());
                    if kind == Native::Value && inline.is_none() {
                        out.args.extend(args.next());
                    }
                }
                None if name == "h" || name == "help" => out.args.push("--help".into()),
                None => {
                    return Err(FlagError::Parse(format!(
                        "flag provided but not defined: -{name}"
                    )))
                }
            }
            continue;
        };
        let value: OsString = match (f.kind, inline) {
            (Bool, None) => "true".into(),
            (Bool, Some(v)) => match go_bool(v) {
                Some(b) => b.to_string().into(),
                None => {
                    return Err(FlagError::Parse(format!(
                        "invalid boolean value {v:?} for -{name}: parse error"
                    )))
                }
            },
            (_, Some(v)) => v.into(),
            (_, None) => args
                .next()
                .ok_or_else(|| FlagError::Parse(format!("flag needs an argument: -{name}")))?,
        };
        if f.kind == Duration && !value.to_str().is_some_and(is_go_duration) {
            return Err(FlagError::Parse(format!(
                "invalid value {:?} for flag -{name}: parse error",
                value.to_string_lossy()
            )));
        }
        if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
            return Err(FlagError::Unsupported(f.name, why));
        }
        if SILENT.contains(&name) {
            continue;
        }
        match native(name) {
            Some(Native::Switch) if value == "true" => out.args.push(format!("--{name}").into()),
            Some(Native::Switch) => {}
            Some(Native::Value) => out.args.push(concat(&format!("--{name}="), &value)),
            None => {
                let shown = match (f.kind, inline) {
                    (Bool, None) => format!("-{name}"),
                    (Bool, Some(v)) => format!("-{name}={v}"),
                    _ => format!("-{name}"),
                };
                if !out.ignored.contains(&shown) {
                    out.ignored.push(shown);
                }
            }
        }
    }
    Ok(out)
}

fn concat(prefix: &str, value: &OsStr) -> OsString {
    let mut s = OsString::from(prefix);
    s.push(value);
    s
}

/// Go's `strconv.ParseBool`.
fn go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Whether Go's `time.ParseDuration` accepts `s`: `0`, or a sign and one or more
/// `<decimal><unit>` parts (`1h30m`, `1.5s`, `300ms`).
fn is_go_duration(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let is_number = |c: char| c.is_ascii_digit() || c == '.';
    let mut rest = s;
    while !rest.is_empty() {
        let (digits, after) = rest.split_at(rest.find(|c| !is_number(c)).unwrap_or(rest.len()));
        let (unit, next) = after.split_at(after.find(is_number).unwrap_or(after.len()));
        let units = ["ns", "us", "\u{b5}s", "\u{3bc}s", "ms", "s", "m", "h"];
        if digits.matches('.').count() > 1
            || !digits.contains(|c: char| c.is_ascii_digit())
            || !units.contains(&unit)
        {
            return false;
        }
        rest = next;
    }
    !s.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(table: &[Flag], args: &[&str]) -> Result<(Vec<String>, Vec<String>), FlagError> {
        let native = |name: &str| match name {
            "upgrade" | "enable-plugin-cache" => Some(Native::Switch),
            "lockfile" | "plugin-dir" | "lock-file" | "flavor" => Some(Native::Value),
            _ => None,
        };
        let r = rewrite(table, args.iter().map(OsString::from), native)?;
        let args = r
            .args
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        Ok((args, r.ignored))
    }

    #[test]
    fn terraform_spellings_become_tflock_ones_and_the_rest_is_ignored() {
        let (args, ignored) = run(
            INIT,
            &[
                "-input=false",
                "-upgrade",
                "-backend",
                "false",
                "--lockfile",
                "readonly",
                "-plugin-dir=a",
                "-var",
                "secret=1",
                "-backend-config=k=v",
                "-var=x=2",
                "-flavor",
                "opentofu",
                "-no-color",
                "-lock-timeout=1m30s",
                "-input=false",
            ],
        )
        .unwrap();
        assert_eq!(
            args,
            [
                "--upgrade",
                "false",
                "--lockfile=readonly",
                "--plugin-dir=a",
                "--flavor",
                "opentofu"
            ]
        );
        assert_eq!(
            ignored,
            [
                "-input=false",
                "-backend",
                "-var",
                "-backend-config",
                "-lock-timeout"
            ]
        );
    }

    #[test]
    fn booleans_take_go_spellings() {
        let (args, _) = run(INIT, &["-upgrade=0"]).unwrap();
        assert!(args.is_empty());
        let (args, _) = run(INIT, &["-upgrade=T"]).unwrap();
        assert_eq!(args, ["--upgrade"]);
        let (args, _) = run(PROVIDERS_MIRROR, &["-lock-file=false", "dir"]).unwrap();
        assert_eq!(args, ["--lock-file=false", "dir"]);
        assert_eq!(
            run(INIT, &["-upgrade=maybe"]),
            Err(FlagError::Parse(
                "invalid boolean value \"maybe\" for -upgrade: parse error".into()
            ))
        );
    }

    #[test]
    fn errors_read_like_go_flag() {
        let parse = |m: &str| Err(FlagError::Parse(m.into()));
        assert_eq!(
            run(INIT, &["-bogus=1"]),
            parse("flag provided but not defined: -bogus")
        );
        assert_eq!(
            run(PROVIDERS_LOCK, &["--upgrade-all"]),
            parse("flag provided but not defined: -upgrade-all")
        );
        assert_eq!(
            run(INIT, &["-lockfile"]),
            parse("flag needs an argument: -lockfile")
        );
        assert_eq!(
            run(INIT, &["-lock-timeout=xx"]),
            parse("invalid value \"xx\" for flag -lock-timeout: parse error")
        );
        assert_eq!(run(INIT, &["---x"]), parse("bad flag syntax: ---x"));
        assert!(matches!(
            run(INIT, &["-from-module=x"]),
            Err(FlagError::Unsupported("from-module", _))
        ));
    }

    #[test]
    fn positionals_help_and_double_dash_pass_through() {
        let (args, _) = run(PROVIDERS_LOCK, &["-", "-h", "a", "--", "-bogus"]).unwrap();
        assert_eq!(args, ["-", "--help", "a", "--", "-bogus"]);
    }

    #[test]
    fn go_durations() {
        for ok in [
            "0", "5s", "1h2m", "1.5h", "300ms", "-2us", "1µs", ".5s", "1m0s",
        ] {
            assert!(is_go_duration(ok), "{ok}");
        }
        for bad in ["", "5", "s", "1x", "1..5s", ".s", "+", "1 s"] {
            assert!(!is_go_duration(bad), "{bad}");
        }
    }
}
