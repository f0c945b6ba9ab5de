//! Broken syntax against Terraform itself: valid generated modules (as in the merging
//! suite: their primary native files, without module calls) broken at one random place — a
//! brace, bracket, quote (a label's too), `=`, newline or comma deleted or inserted, a `${`,
//! `%{`, heredoc marker or line-broken string inserted; or at one block header (see
//! [`break_header`]). `terraform init -backend=false
//! -json` and tflock must report the same diagnostics (severity, summary, range, detail):
//! hclsyntax's syntax errors, and what Terraform decodes of the body hclsyntax recovered.
//! One Terraform call per case; the requirement trees are not compared (these modules
//! require only the built-in provider, and a `providers` call per case would double the
//! suite's time).

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::terraform_oracle::gen_config;
use crate::terraform_oracle::harness::{
    compare_init_diagnostics, failures_of, rng, terraform_init_diagnostics, tflock_init_diagnostics,
};

const CASES: usize = 40;

/// What a break deletes (an occurrence of it) or inserts (at a random place).
const TOKENS: &[&str] = &["{", "}", "[", "]", "\"", "=", "\n", ","];
/// What only makes sense inserted.
const INSERTED: &[&str] = &["${", "%{", "<<EOT\n", "\"\n"];

/// Breaks `text` at one random place; what was done.
fn break_text(rng: &mut StdRng, text: &mut String) -> String {
    let delete = rng.gen_bool(0.5);
    if delete {
        let token = *TOKENS.choose(rng).expect("tokens");
        let places: Vec<usize> = text.match_indices(token).map(|(i, _)| i).collect();
        if let Some(&at) = places.choose(rng) {
            text.replace_range(at..at + token.len(), "");
            return format!("{token:?} deleted at byte {at}");
        }
    }
    let token = if rng.gen_bool(0.7) {
        *TOKENS.choose(rng).expect("tokens")
    } else {
        *INSERTED.choose(rng).expect("inserted")
    };
    // After a value, `%{` reads as the `%` operator and an object
    // ([`arithmetic_on_an_object_in_a_default_is_refused`]).
    let mut at = rng.gen_range(0..=text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.insert_str(at, token);
    format!("{token:?} inserted at byte {at}")
}

/// What a header break inserts: a template sequence, quote, line break or backslash in a
/// label, a brace in the type, a word after the opening brace.
const HEADER_INSERTED: &[&str] = &["${", "%{", "\"", "\"\n", "\n", "\\", "{", " x "];

/// Breaks one block header of `text` (a line that opens a block: its type, labels and
/// brace), if it has one: a quote deleted, or something of [`HEADER_INSERTED`] inserted
/// anywhere from the type through just after the brace; what was done.
fn break_header(rng: &mut StdRng, text: &mut String) -> Option<String> {
    let mut headers = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        let opens = body.ends_with('{') && !body.contains('=');
        let typed = body
            .trim_start()
            .starts_with(|c: char| c.is_ascii_alphabetic());
        if opens && typed {
            headers.push(start + line.len() - line.trim_start().len()..start + body.len());
        }
        start += line.len();
    }
    let header = headers.choose(rng)?.clone();
    let quotes: Vec<usize> = text[header.clone()]
        .match_indices('"')
        .map(|(i, _)| header.start + i)
        .collect();
    if rng.gen_bool(0.3) {
        if let Some(&at) = quotes.choose(rng) {
            text.remove(at);
            return Some(format!("header quote deleted at byte {at}"));
        }
    }
    let token = *HEADER_INSERTED.choose(rng).expect("inserted");
    let at = rng.gen_range(header.start..=header.end);
    text.insert_str(at, token);
    Some(format!("{token:?} inserted in a header at byte {at}"))
}

/// One generated module without override or JSON files (their merging is another suite's)
/// and without module calls (whose directories and requirement trees are other suites'),
/// one of its files broken; the files and what was done. With a module call, `init`'s module
/// installer reads the root's files again from hclparse's cache, without their syntax errors
/// ([`init_installing_modules_does_not_repeat_the_roots_syntax_errors`]).
pub(super) fn case(rng: &mut StdRng) -> (Vec<(String, String)>, String) {
    let mut files = module_files(rng);
    let i = rng.gen_range(0..files.len());
    let what = format!("{} in {}", break_text(rng, &mut files[i].1), files[i].0);
    (files, what)
}

/// The files of a module [`case`] breaks.
fn module_files(rng: &mut StdRng) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    while files.is_empty() {
        files = gen_config::module(rng)
            .files
            .into_iter()
            .filter(|(name, _)| !name.contains("override") && !name.ends_with(".json"))
            .collect();
        if files.iter().any(|(_, text)| text.contains("module \"")) {
            files.clear();
        }
    }
    files
}

/// As [`case`], the break in a block header (a file without one is broken anywhere).
fn header_case(rng: &mut StdRng) -> (Vec<(String, String)>, String) {
    let mut files = module_files(rng);
    let i = rng.gen_range(0..files.len());
    let what = match break_header(rng, &mut files[i].1) {
        Some(what) => what,
        None => break_text(rng, &mut files[i].1),
    };
    let what = format!("{what} in {}", files[i].0);
    (files, what)
}

/// Whether tflock follows hclsyntax's recovery in `text` (read as `name`): no syntax error,
/// or one whose recovered body hcl-edit is shown. Where it does not, the file ends at the
/// error, and tflock's diagnostics need only be among Terraform's, which decodes the rest
/// (a string broken by a newline before more of the file, a heredoc the file ends in, a
/// call or constructor whose recovery runs on past its closer: hclsyntax recoveries not
/// modelled, listed in tests/REAL_WORLD.md).
pub(super) fn recovery_followed(name: &str, text: &str) -> bool {
    let (diags, edit) = tflock_core::hcl_syntax::check(text.as_bytes(), name);
    edit.recovered()
        || !diags
            .iter()
            .any(|d| d.is_error() && d.summary != "Attribute redefined")
}

/// Terraform's JSON view widens an empty range by one column (the end of the file, say):
/// a line of [`tflock_init_diagnostics`] as that view shows it.
fn widen_empty(line: &str) -> String {
    let widened = || -> Option<String> {
        let mut parts = line.splitn(3, " | ");
        let (head, at, detail) = (parts.next()?, parts.next()?, parts.next()?);
        let (start, end) = at.rsplit_once('-')?;
        let (file_line, start_col) = start.rsplit_once(':')?;
        let start_line = file_line.rsplit_once(':')?.1;
        let (end_line, end_col) = end.split_once(':')?;
        (start_line == end_line && start_col == end_col).then_some(())?;
        let col: u64 = end_col.parse().ok()?;
        Some(format!(
            "{head} | {start}-{end_line}:{} | {detail}",
            col + 1
        ))
    };
    widened().unwrap_or_else(|| line.to_string())
}

/// Both tools on one case: the failure, if any, and whether there were diagnostics. The
/// diagnostics must be the same where tflock follows hclsyntax's recovery in every file.
pub(super) fn compare(home: &Path, files: &[(String, String)]) -> (Option<String>, bool) {
    let work = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let p = work.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    let all = |_: &str| true;
    let theirs = terraform_init_diagnostics(work.path(), home, &all);
    let mut ours: Vec<String> = tflock_init_diagnostics(files, &all)
        .iter()
        .map(|l| widen_empty(l))
        .collect();
    ours.sort();
    let agree = if files.iter().all(|(n, t)| recovery_followed(n, t)) {
        theirs == ours
    } else {
        ours.iter().all(|o| theirs.contains(o))
    };
    if agree {
        return (None, !theirs.is_empty());
    }
    let shown: String = files
        .iter()
        .map(|(p, t)| format!("--- {p}\n{t}\n"))
        .collect();
    let only_tf: Vec<_> = theirs.iter().filter(|w| !ours.contains(w)).collect();
    let only_ours: Vec<_> = ours.iter().filter(|g| !theirs.contains(g)).collect();
    (
        Some(format!(
            "{shown}--- only terraform {only_tf:#?}\n--- only tflock {only_ours:#?}"
        )),
        true,
    )
}

#[test]
fn broken_syntax_is_reported_and_recovered_as_terraform_does() {
    let (mut rng, seed) = rng("broken syntax", 28_004);
    let cases: Vec<_> = (0..CASES).map(|_| case(&mut rng)).collect();
    assert_judged_as_terraform_does(seed, &cases, |(files, what)| {
        (files.as_slice(), format!(" ({what})"))
    });
}

/// Block headers broken (labels with a sequence, quote, line break or escape, a brace in
/// the type, a word after the brace): how many labels hclsyntax keeps and which block it
/// recovers decide what Terraform decodes (`Missing name for resource`, `Extraneous label
/// for variable`, `Unsupported block type`, ...).
#[test]
fn broken_block_headers_are_recovered_as_terraform_does() {
    let (mut rng, seed) = rng("broken block headers", 28_005);
    let cases: Vec<_> = (0..CASES).map(|_| header_case(&mut rng)).collect();
    // tflock follows hclsyntax's recovery from every header break: a file it did not would
    // only need its diagnostics among Terraform's (see [`compare`]), which is how the
    // blocks Terraform decodes after one went unnoticed.
    let unfollowed: Vec<&String> = cases
        .iter()
        .filter(|(files, _)| !files.iter().all(|(n, t)| recovery_followed(n, t)))
        .map(|(_, what)| what)
        .collect();
    assert!(
        unfollowed.is_empty(),
        "seed {seed}: recovery not followed after {unfollowed:?}"
    );
    assert_judged_as_terraform_does(seed, &cases, |(files, what)| {
        (files.as_slice(), format!(" ({what})"))
    });
}

/// Runs [`compare`] on every generated case (its files, and a note naming it in a failure)
/// and asserts that most cases had diagnostics and that none was judged differently.
pub(super) fn assert_judged_as_terraform_does<T: Sync>(
    seed: u64,
    cases: &[T],
    files_of: impl Fn(&T) -> (&[(String, String)], String) + Sync,
) {
    let count = cases.len();
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let outcomes = failures_of(cases, |n, case| {
        let (files, note) = files_of(case);
        match compare(home.path(), files) {
            (Some(f), _) => vec![format!("seed {seed}, case {n}{note}\n{f}")],
            (None, true) => vec![String::new()],
            (None, false) => Vec::new(),
        }
    });
    let with_diagnostics = outcomes.len();
    let failures: Vec<&String> = outcomes.iter().filter(|f| !f.is_empty()).collect();
    assert!(
        with_diagnostics > count / 2,
        "only {with_diagnostics} of {count} broken modules had diagnostics"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} broken modules are judged differently from Terraform:\n\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// One fixed module through both tools (see [`compare_init_diagnostics`]); panics with the
/// difference.
fn assert_same_init_diagnostics(files: &[(&str, &str)]) {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    match compare_init_diagnostics(home.path(), &files, &|_| true, 0, 0) {
        Ok(some) => assert!(some, "no diagnostics from either tool"),
        Err(e) => panic!("{e}"),
    }
}

/// `init` with a module call reports its module installer's diagnostics, and the installer
/// reads the root's files again from hclparse's cache, which returns a file without its
/// syntax errors: Terraform shows the decoding problems (`Invalid assert expression`) but
/// not `Unclosed configuration block`.
#[test]
fn init_installing_modules_does_not_repeat_the_roots_syntax_errors() {
    assert_same_init_diagnostics(&[
        ("main.tf", "module \"m\" {\n  source = \"./x\"\n}\n"),
        (
            "checks.tf",
            "check \"c\" {\n  assert {\n    condition = true\n    error_message = \"x\"\n  }\n",
        ),
        ("x/main.tf", "variable \"v\" {\n  default = 1\n}\n"),
    ]);
}

/// When the installer finds no error (the root's syntax error left a body that decodes),
/// `init` goes on to report the early load of the root: the syntax error after all.
#[test]
fn init_reports_the_roots_syntax_errors_when_the_installer_found_none() {
    assert_same_init_diagnostics(&[
        ("main.tf", "module \"m\" {\n  source = \"./x\"\n}\n"),
        ("vars.tf", "variable \"v\" {\n  default = 1\n"),
        ("x/main.tf", "variable \"v\" {\n  default = 1\n}\n"),
    ]);
}

/// A module two calls load is parsed once: its syntax errors are reported once, its
/// decoding problems for each call.
#[test]
fn a_module_loaded_twice_reports_its_syntax_errors_once() {
    assert_same_init_diagnostics(&[
        (
            "main.tf",
            "module \"a\" {\n  source = \"./x\"\n}\n\nmodule \"b\" {\n  source = \"./x\"\n}\n",
        ),
        (
            "x/main.tf",
            "check \"c\" {\n  assert {\n    condition = true\n    error_message = \"x\"\n  }\n",
        ),
    ]);
}

/// A label's closing quote deleted: hclsyntax ends the label at the line break, skips to
/// the next quote and goes on reading the header from there, and Terraform decodes the block
/// (`Extraneous label for output`).
#[test]
fn labels_after_a_missing_quote_are_decoded() {
    assert_same_init_diagnostics(&[(
        "main.tf",
        "output \"o {\n  value = 1\n}\n\nvariable \"v\" {\n  default = 1\n}\n",
    )]);
}

/// `%{` inserted after a value makes a valid `%` of two objects (`{ ... }%{ type = any }`):
/// Terraform evaluates a variable's default and refuses the operands (`Invalid operand`) and
/// the reference (`Variables not allowed`).
#[test]
fn arithmetic_on_an_object_in_a_default_is_refused() {
    assert_same_init_diagnostics(&[(
        "main.tf",
        "variable \"v0\" {\n  default = { \"a\" = \"a\" }%{\n  type = any\n}\n",
    )]);
}

/// An object constructor drops an item whose key fails (a stray comma) or whose value
/// fails with no placeholder of its own (a broken string): Terraform decodes the object
/// kept without it, and finds nothing wrong with the `required_providers` entry.
#[test]
fn an_object_keeps_no_failing_key() {
    assert_same_init_diagnostics(&[(
        "providers.tf",
        "terraform {\n  required_providers {\n    terraform = {\n    ,  source = \"terraform.io/builtin/terraform\"\n    }\n  }\n}\n",
    )]);
    assert_same_init_diagnostics(&[(
        "providers.tf",
        "terraform {\n  required_providers {\n    terraform = {\n      source = \"terraform.io/builtin/terraform\"\n\"\n    }\n  }\n}\n",
    )]);
}
