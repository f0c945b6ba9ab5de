//! Diagnostics as text, byte for byte: `terraform init -backend=false -no-color` and
//! `tflock init -no-color` (same empty CLI configuration) on the same files must print the
//! same diagnostics — severity and summary, the location line with its context (`in
//! resource "a" "b"`, a JSON path), the source snippet and the word-wrapped detail. Run over
//! the `init-config` fixtures, the `init-rendered` ones (JSON files, warnings, diagnostics
//! without a range, multi-line and empty ranges, tabs and non-ASCII text, long words; an
//! `args` file beside `files/` holds extra arguments for both) and the broken modules of
//! the `broken_syntax` generator.
//!
//! What is compared: Terraform prints warnings on stdout (after its own progress lines) and
//! errors on stderr; tflock prints both on stderr. Terraform's side is therefore its stdout
//! from the first warning up to its next progress message, then its stderr. One diagnostic
//! is left out on both sides: "Failed to query available provider packages", whose detail
//! quotes the HTTP client's own error (Go's `net/http` and reqwest word a failed lookup
//! differently).

use std::path::Path;

use crate::e2e_common::{copy_tree, Env};
use crate::terraform_oracle::broken_syntax;
use crate::terraform_oracle::harness::{cases, failures_of, rng};
use tflock_tests::{fixtures, terraform::run_terraform};

/// Lines Terraform's `init` prints on stdout after the warnings of a step.
const PROGRESS: &[&str] = &[
    "\nInitializing ",
    "\nTerraform has been successfully initialized!",
    "\n- ",
];

/// A diagnostic whose detail quotes the HTTP client's error text.
const CLIENT_WORDED: &str = "Error: Failed to query available provider packages";

/// Terraform's diagnostics as `init -no-color` prints them in `dir`.
fn terraform_text(dir: &Path, home: &Path, extra: &[&str]) -> String {
    let mut args = vec!["init", "-backend=false", "-no-color"];
    args.extend_from_slice(extra);
    let out = run_terraform(dir, home, &home.join("cli.tfrc"), &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let warnings = match stdout.find("\nWarning: ") {
        Some(at) if at == 0 || stdout[..at].ends_with('\n') => {
            let rest = &stdout[at..];
            let end = PROGRESS
                .iter()
                .filter_map(|p| rest[1..].find(p).map(|i| i + 1))
                .min()
                .unwrap_or(rest.len());
            rest[..end].to_string()
        }
        _ => String::new(),
    };
    format!("{warnings}{}", String::from_utf8_lossy(&out.stderr))
}

/// tflock's diagnostics as `init -no-color` prints them in `env`'s working directory.
fn tflock_text(env: &Env, extra: &[&str]) -> String {
    let mut args = vec!["init", "-no-color"];
    args.extend_from_slice(extra);
    String::from_utf8_lossy(&env.run(&args).stderr).into_owned()
}

/// `text` without the diagnostics worded by an HTTP client: each diagnostic runs from the
/// blank line before its `Error:`/`Warning:` line to the next one's.
fn comparable(text: &str) -> String {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = (0..text.len())
        .filter(|&i| {
            let rest = &bytes[i..];
            (rest.starts_with(b"\nError: ") || rest.starts_with(b"\nWarning: "))
                && (i == 0 || bytes[i - 1] == b'\n')
        })
        .collect();
    let mut out = text[..starts.first().copied().unwrap_or(text.len())].to_string();
    for (k, &from) in starts.iter().enumerate() {
        let to = starts.get(k + 1).copied().unwrap_or(text.len());
        let block = &text[from..to];
        if !block[1..].starts_with(CLIENT_WORDED) {
            out.push_str(block);
        }
    }
    out
}

/// Both tools on a copy of `files` (a directory) with `extra` arguments: the difference,
/// if any, and whether there were diagnostics at all.
fn compare_dir(files: &Path, extra: &[&str]) -> (Option<String>, bool) {
    let env = Env::new();
    env.cli_config("");
    copy_tree(files, &env.work);
    let theirs_dir = tempfile::tempdir().expect("tempdir");
    copy_tree(files, theirs_dir.path());
    let theirs = comparable(&terraform_text(theirs_dir.path(), env.home.path(), extra));
    let ours = comparable(&tflock_text(&env, extra));
    let any = theirs.contains("Error: ") || theirs.contains("Warning: ");
    if theirs == ours {
        return (None, any);
    }
    (Some(first_difference(&theirs, &ours)), any)
}

/// Where two texts part, with a few lines of each from there.
fn first_difference(theirs: &str, ours: &str) -> String {
    let t: Vec<&str> = theirs.lines().collect();
    let o: Vec<&str> = ours.lines().collect();
    let at = t.iter().zip(&o).take_while(|(a, b)| a == b).count();
    let from = at.saturating_sub(4);
    let show = |lines: &[&str]| -> String {
        lines
            .iter()
            .skip(from)
            .take(14)
            .map(|l| format!("    |{l}\n"))
            .collect()
    };
    format!(
        "differs at line {}\n--- terraform\n{}--- tflock\n{}",
        at + 1,
        show(&t),
        show(&o)
    )
}

/// The cases of a fixture area (`<case>/files`, optional `<case>/args`), without those
/// marked `pending`.
fn fixture_cases(area: &str) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(fixtures(area))
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("files").is_dir() && !p.join("pending").exists())
        .collect();
    out.sort();
    out
}

/// Runs every case of `area` and asserts none differs and most had diagnostics.
fn assert_area_renders_as_terraform_does(area: &str, at_least: usize) {
    let cases = fixture_cases(area);
    assert!(cases.len() >= at_least, "only {} cases", cases.len());
    let outcomes = failures_of(&cases, |_, case| {
        let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
        let args: Vec<&str> = args.split_whitespace().collect();
        match compare_dir(&case.join("files"), &args) {
            (Some(d), _) => vec![format!("{}: {d}", case.display())],
            (None, true) => vec![String::new()],
            (None, false) => Vec::new(),
        }
    });
    let failures: Vec<&String> = outcomes.iter().filter(|f| !f.is_empty()).collect();
    assert!(
        outcomes.len() * 10 >= cases.len() * 9,
        "only {} of {} cases printed diagnostics",
        outcomes.len(),
        cases.len()
    );
    assert_none_differ(&failures, cases.len(), "cases");
}

/// Fails with every difference when any of `total` compared `what` printed differently.
fn assert_none_differ(failures: &[&String], total: usize, what: &str) {
    let shown: Vec<&str> = failures.iter().map(|f| f.as_str()).collect();
    assert!(
        failures.is_empty(),
        "{} of {total} {what} print differently from Terraform:\n\n{}",
        failures.len(),
        shown.join("\n\n")
    );
}

#[test]
fn init_config_cases_print_their_diagnostics_as_terraform_does() {
    assert_area_renders_as_terraform_does("init-config", 40);
}

#[test]
fn hand_written_cases_print_their_diagnostics_as_terraform_does() {
    assert_area_renders_as_terraform_does("init-rendered", 10);
}

#[test]
fn broken_modules_print_their_diagnostics_as_terraform_does() {
    let (mut rng, seed) = rng("rendered broken syntax", 24_024);
    let count = cases(30);
    let generated: Vec<_> = (0..count)
        .map(|_| broken_syntax::case(&mut rng))
        // Where tflock does not follow hclsyntax's recovery it reports fewer diagnostics
        // (tests/REAL_WORLD.md lists those recoveries); the text of those it does report
        // is compared by the other cases.
        .filter(|(files, _)| {
            files
                .iter()
                .all(|(n, t)| broken_syntax::recovery_followed(n, t))
        })
        .collect();
    let outcomes = failures_of(&generated, |n, (files, what)| {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).expect("write");
        }
        match compare_dir(dir.path(), &[]) {
            (Some(d), _) => {
                let shown: String = files
                    .iter()
                    .map(|(p, t)| format!("--- {p}\n{t}\n"))
                    .collect();
                vec![format!("seed {seed}, case {n} ({what})\n{shown}{d}")]
            }
            (None, true) => vec![String::new()],
            (None, false) => Vec::new(),
        }
    });
    let failures: Vec<&String> = outcomes.iter().filter(|f| !f.is_empty()).collect();
    eprintln!(
        "{} of {count} broken modules compared, {} with diagnostics",
        generated.len(),
        outcomes.len()
    );
    assert!(
        outcomes.len() * 2 > generated.len(),
        "only {} of {} broken modules printed diagnostics",
        outcomes.len(),
        generated.len()
    );
    assert_none_differ(&failures, generated.len(), "broken modules");
}

#[test]
fn client_worded_diagnostics_are_left_out_with_their_blank_line() {
    let text = "\nError: A\n\nd\n\nError: Failed to query available provider packages\n\nx\n\ny\n\nWarning: B\n\ne\n";
    assert_eq!(comparable(text), "\nError: A\n\nd\n\nWarning: B\n\ne\n");
}

/// Cases of `init-rendered` whose diagnostics are all errors (Terraform prints its coloured
/// warnings among its progress lines on stdout).
const ERRORS_ONLY: &[&str] = &[
    "empty-range-at-the-end-of-the-file",
    "json-syntax-error",
    "long-words-in-the-detail",
    "multi-line-range",
    "tabs-and-non-ascii",
    "variables-file-missing",
];

/// On a terminal tflock prints Terraform's coloured format (its rule, its ANSI codes):
/// tflock runs under `script(1)` in a 78-column pseudo-terminal, Terraform with its stderr
/// piped, which it colours too (at its default 78 columns). Only tflock's stderr goes to
/// the terminal. Without `script` on the machine the test says so and checks nothing.
#[test]
fn on_a_terminal_diagnostics_are_coloured_as_terraform_colours_them() {
    let script = std::path::Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("no /usr/bin/script: the coloured format is not compared");
        return;
    }
    let cases: Vec<_> = ERRORS_ONLY
        .iter()
        .map(|c| fixtures("init-rendered").join(c))
        .collect();
    let failures = failures_of(&cases, |_, case| {
        let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
        let env = Env::new();
        env.cli_config("");
        copy_tree(&case.join("files"), &env.work);
        let theirs_dir = tempfile::tempdir().expect("tempdir");
        copy_tree(&case.join("files"), theirs_dir.path());
        let home = env.home.path();
        let mut tf_args = vec!["init", "-backend=false"];
        tf_args.extend(args.split_whitespace());
        let tf = run_terraform(theirs_dir.path(), home, &home.join("cli.tfrc"), &tf_args);
        let theirs = String::from_utf8_lossy(&tf.stderr).into_owned();
        let inner = env.command_in(&env.work, &[]);
        let line = format!(
            "stty cols 78; {} init {args} 2>&1 1>/dev/null",
            inner.get_program().to_string_lossy()
        );
        let mut cmd = std::process::Command::new(script);
        cmd.args(["-qec", &line, "/dev/null"])
            .current_dir(&env.work);
        for (k, v) in inner.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        let out = cmd.output().expect("run script");
        let ours = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
        if !theirs.contains("\x1b[31m") {
            return vec![format!(
                "{}: Terraform printed no colour:\n{theirs}",
                case.display()
            )];
        }
        if theirs == ours {
            Vec::new()
        } else {
            vec![format!(
                "{}: {}",
                case.display(),
                first_difference(&theirs.replace('\x1b', "^["), &ours.replace('\x1b', "^["))
            )]
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
