//! `cargo xtask real-world --mutate N`: real files broken at random. One configuration or
//! test file of a random module directory (local module calls only) is broken at one random
//! place — a token deleted, or a token or fragment inserted — and the real Terraform and
//! tflock run `init -backend=false -no-color` on the result, with no provider source
//! reachable. Every diagnostic with a source range is compared: severity, summary, the
//! range's `file:line`, and the detail's words (the rendering of snippets and line breaks is
//! left out). Generated modules only break what their generator writes; real files break
//! in places nobody wrote a generator for.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{init, overrides, run_captured, scan, terraform, tflock, Repo};

/// Tokens deleted (one occurrence, at random).
const DELETED: &[&str] = &[
    "{", "}", "[", "]", "\"", "=", "\n", ",", "(", ")", ":", "?", "${", ".", "*",
];
/// Tokens and fragments inserted (at a random place).
const INSERTED: &[&str] = &[
    "${", "%{", "<<EOT\n", "\"\n", "{", "}", "[", "]", "(", ")", "=", ",", "\n", "\"", "#", "/*",
    "?", ":", "...", "=>", "!", "-", "&&", " x ", "1", "null", "[*]", ".0", "\\",
];
/// Files larger than this are left alone (a break in them is one among thousands of lines).
const MAX_FILE: u64 = 150_000;

/// A module directory and the files in it that may be broken.
struct Candidate {
    repo: usize,
    rel: String,
    /// Directories outside `rel` its local module calls reach, relative to the repository.
    reached: Vec<String>,
    files: Vec<String>,
}

/// One broken file and what both tools said.
pub struct Mutation {
    repo: usize,
    rel: String,
    file: String,
    what: String,
    /// The broken file, or the override file added (as `file`).
    broken: String,
    /// Lines of the report: what only one tool said.
    differences: Vec<String>,
    /// Both exited alike and reported the same ranged diagnostics (or, for override files,
    /// the module and merge comparisons agree).
    agree: bool,
    /// Terraform reported at least one ranged diagnostic.
    diagnosed: bool,
}

impl Mutation {
    /// A case not compared yet.
    fn of(c: &Candidate, d: &Drawn) -> Mutation {
        Mutation {
            repo: c.repo,
            rel: c.rel.clone(),
            file: d.file.clone(),
            what: d.what.clone(),
            broken: d.text.clone(),
            differences: Vec::new(),
            agree: false,
            diagnosed: false,
        }
    }
}

/// A small deterministic generator (SplitMix64): the xtask has no dependency for this, and a
/// seed must replay the same cases on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Breaks `text` at one random place; what was done.
pub fn break_text(rng: &mut Rng, text: &str) -> (String, String) {
    if rng.below(2) == 0 {
        let token = *rng.pick(DELETED);
        let places: Vec<usize> = text.match_indices(token).map(|(i, _)| i).collect();
        if !places.is_empty() {
            let at = *rng.pick(&places);
            let mut out = text.to_string();
            out.replace_range(at..at + token.len(), "");
            return (out, format!("{token:?} deleted at byte {at}"));
        }
    }
    let token = *rng.pick(INSERTED);
    let boundaries: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let at = *rng.pick(&boundaries);
    let mut out = text.to_string();
    out.insert_str(at, token);
    (out, format!("{token:?} inserted at byte {at}"))
}

/// Runs `cases` mutations drawn with `seed` from the module directories of `modules`
/// (`(repository, relative directory)`), on `threads` threads; writes `mutations.md` and
/// each differing case's files under `out`. Returns the report.
pub fn run(
    repos: &[Repo],
    modules: &[(usize, String)],
    work: &Path,
    out: &Path,
    (seed, cases, threads, kind): (u64, usize, usize, Kind),
) -> Result<String> {
    let candidates = candidates(repos, modules, work);
    anyhow::ensure!(
        !candidates.is_empty(),
        "no module directory with only local module calls to break"
    );
    // No provider can be installed: a module without errors fails alike in both tools, and
    // nothing waits on the network.
    std::fs::write(
        work.join("mutate.tfrc"),
        "provider_installation {\n  filesystem_mirror {\n    path = \"/nonexistent-tflock-mirror\"\n  }\n}\n",
    )?;
    let mut rng = Rng::new(seed);
    let drawn: Vec<Drawn> = (0..cases)
        .filter_map(|_| draw(&mut rng, repos, &candidates, work, kind))
        .collect();
    eprintln!(
        "real-world: {} mutations (seed {seed}) of {} module directories",
        drawn.len(),
        candidates.len()
    );
    let mut results = super::pool(drawn.len(), threads, |n| {
        let d = &drawn[n];
        let scratch = work.join("mutation-jobs").join(n.to_string());
        let c = &candidates[d.candidate];
        let m = match kind {
            Kind::Syntax => compare(repos, c, d, &scratch, work),
            Kind::Override => compare_override(repos, c, d, &scratch, work),
        };
        let _ = std::fs::remove_dir_all(&scratch);
        (n, m)
    });
    results.sort_by_key(|(n, _)| *n);
    let report = report(repos, &results, seed, out)?;
    std::fs::write(out.join("mutations.md"), &report)?;
    Ok(report)
}

/// What `--mutate` does to a module directory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Break one file at one place ([`break_text`]).
    Syntax,
    /// Add an override file made from one of its blocks ([`overrides::override_file`]).
    Override,
}

impl std::str::FromStr for Kind {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Kind> {
        match s {
            "syntax" => Ok(Kind::Syntax),
            "override" => Ok(Kind::Override),
            _ => anyhow::bail!("--mutation is `syntax` or `override`, not {s:?}"),
        }
    }
}

/// One drawn case: the directory, the file (broken, or added) and its text.
struct Drawn {
    candidate: usize,
    file: String,
    text: String,
    what: String,
}

/// Draws one case (`None` when twenty draws found no file to make an override from).
fn draw(
    rng: &mut Rng,
    repos: &[Repo],
    candidates: &[Candidate],
    work: &Path,
    kind: Kind,
) -> Option<Drawn> {
    for _ in 0..20 {
        let candidate = rng.below(candidates.len());
        let c = &candidates[candidate];
        let file = rng.pick(&c.files).clone();
        let path = work
            .join("copies")
            .join(repos[c.repo].key())
            .join(&c.rel)
            .join(&file);
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if kind == Kind::Syntax {
            let (text, what) = break_text(rng, &text);
            return Some(Drawn {
                candidate,
                file,
                text,
                what,
            });
        }
        let native = file.ends_with(".tf") && !file.contains('/');
        let stem = file.trim_end_matches(".tf");
        if !native || stem == "override" || stem.ends_with("_override") {
            continue;
        }
        let Some((text, what)) = overrides::override_file(rng, &text) else {
            continue;
        };
        let name = match rng.below(3) {
            0 => "override.tf".to_string(),
            1 => format!("{stem}_override.tf"),
            _ => "zz_override.tf".to_string(),
        };
        return Some(Drawn {
            candidate,
            file: name,
            text,
            what: format!("{what} (from {file})"),
        });
    }
    None
}

/// The module and merge comparisons on a copy of the directory with the override file added.
fn compare_override(
    repos: &[Repo],
    c: &Candidate,
    d: &Drawn,
    scratch: &Path,
    work: &Path,
) -> Mutation {
    let copy = work.join("copies").join(repos[c.repo].key());
    let mut m = Mutation::of(c, d);
    let root = scratch.join("root");
    let copied = init::copy_reached(&copy, &c.rel, &c.reached, &root)
        .and_then(|()| Ok(std::fs::write(root.join(&c.rel).join(&d.file), &d.text)?));
    if let Err(e) = copied {
        m.differences.push(format!("copying failed: {e}"));
        return m;
    }
    let module = super::compare_module(c.repo, &root, &c.rel, &scratch.join("module"), work);
    let merge = super::compare_merge(c.repo, &root, &c.rel, &scratch.join("merge"), work);
    m.agree = true;
    for (name, o) in [("providers", &module), ("merge", &merge)] {
        if o.kind != super::Kind::Agree {
            m.agree = false;
            m.differences.push(format!("{name}: {}", o.kind.label()));
            m.differences
                .extend(o.detail.iter().map(|l| format!("  {name}: {l}")));
        }
    }
    m
}

/// The module directories whose module calls are all local, with their breakable files.
fn candidates(repos: &[Repo], modules: &[(usize, String)], work: &Path) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (repo, rel) in modules {
        let copy = work.join("copies").join(repos[*repo].key());
        let dir = copy.join(rel);
        let reach = scan::reach(&copy, &dir);
        if !reach.remote.is_empty() {
            continue;
        }
        let files: Vec<String> = scan::module_files(&dir)
            .into_iter()
            .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE))
            .filter_map(|f| f.strip_prefix(&dir).ok().map(|p| p.display().to_string()))
            .collect();
        if files.is_empty() {
            continue;
        }
        let reached = reach
            .dirs
            .iter()
            .filter(|d| !d.starts_with(&dir))
            .filter_map(|d| d.strip_prefix(&copy).ok())
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        out.push(Candidate {
            repo: *repo,
            rel: rel.clone(),
            reached,
            files,
        });
    }
    out
}

/// Both tools on one broken copy.
fn compare(repos: &[Repo], c: &Candidate, d: &Drawn, scratch: &Path, work: &Path) -> Mutation {
    let copy = work.join("copies").join(repos[c.repo].key());
    let mut m = Mutation::of(c, d);
    let (tf_root, our_root) = (scratch.join("tf"), scratch.join("ours"));
    for root in [&tf_root, &our_root] {
        let copied = init::copy_reached(&copy, &c.rel, &c.reached, root)
            .and_then(|()| Ok(std::fs::write(root.join(&c.rel).join(&d.file), &d.text)?));
        if let Err(e) = copied {
            m.differences.push(format!("copying failed: {e}"));
            return m;
        }
    }
    let args = ["init", "-backend=false", "-input=false", "-no-color"];
    let config = work.join("mutate.tfrc");
    let mut tf_cmd = terraform(&tf_root.join(&c.rel), work, &scratch.join("tf-data"), &args);
    tf_cmd.env("TF_CLI_CONFIG_FILE", &config);
    let tf = run_captured(tf_cmd, scratch, "tf");
    let mut our_cmd = tflock(
        &our_root.join(&c.rel),
        work,
        &scratch.join("our-data"),
        &args,
    );
    our_cmd.env("TF_CLI_CONFIG_FILE", &config);
    let ours = run_captured(our_cmd, scratch, "tflock");
    let (theirs, mine) = (ranged_diagnostics(&tf.text), ranged_diagnostics(&ours.text));
    m.diagnosed = !theirs.is_empty();
    m.differences.extend(
        theirs
            .difference(&mine)
            .map(|l| format!("only Terraform: {l}")),
    );
    m.differences.extend(
        mine.difference(&theirs)
            .map(|l| format!("only tflock: {l}")),
    );
    m.agree = tf.ok == ours.ok && theirs == mine;
    if tf.ok != ours.ok {
        m.differences.push(format!(
            "exit: Terraform ok {}, tflock ok {}",
            tf.ok, ours.ok
        ));
    }
    m
}

/// The diagnostics of a human-readable (`-no-color`) output that point at a source range, as
/// `severity: summary @ file:line | detail words`; source snippet lines are left out, and
/// the detail is compared word by word (Terraform wraps it to the terminal's width).
pub fn ranged_diagnostics(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut current: Option<(String, String, Vec<String>)> = None;
    let mut finish = |d: Option<(String, String, Vec<String>)>| {
        if let Some((head, at, words)) = d {
            if !at.is_empty() {
                out.insert(format!("{head} @ {at} | {}", words.join(" ")));
            }
        }
    };
    for raw in text.lines() {
        // Terraform's boxed (coloured) form prefixes each line with `│ `.
        let line = match raw.strip_prefix('│') {
            Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
            None => raw.trim_start_matches(['╷', '╵']),
        }
        .trim_end();
        let head = line
            .strip_prefix("Error: ")
            .map(|s| format!("error: {s}"))
            .or_else(|| {
                line.strip_prefix("Warning: ")
                    .map(|s| format!("warning: {s}"))
            });
        if let Some(head) = head {
            finish(current.take());
            current = Some((head, String::new(), Vec::new()));
            continue;
        }
        let Some((_, at, words)) = current.as_mut() else {
            continue;
        };
        if at.is_empty() {
            if let Some(rest) = line.strip_prefix("  on ") {
                if let Some((file, rest)) = rest.split_once(" line ") {
                    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    *at = format!("{file}:{n}");
                    continue;
                }
            }
        }
        if is_snippet_line(line) {
            continue;
        }
        words.extend(line.split_whitespace().map(String::from));
    }
    finish(current.take());
    out
}

/// `  13:     code` (a source line) or an expression value line under it.
fn is_snippet_line(line: &str) -> bool {
    let t = line.trim_start();
    if line.len() == t.len() {
        return false;
    }
    if t.starts_with('├') || t.starts_with('│') {
        return true;
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (t[digits..].starts_with(": ") || &t[digits..] == ":")
}

fn report(repos: &[Repo], results: &[(usize, Mutation)], seed: u64, out: &Path) -> Result<String> {
    let differ: Vec<&(usize, Mutation)> = results.iter().filter(|(_, m)| !m.agree).collect();
    let diagnosed = results.iter().filter(|(_, m)| m.diagnosed).count();
    let mut r = String::new();
    writeln!(r, "# Mutations (seed {seed})\n")?;
    writeln!(
        r,
        "{} cases, {} with ranged diagnostics from Terraform (syntax breaks), {} agree, {} differ.\n",
        results.len(),
        diagnosed,
        results.len() - differ.len(),
        differ.len()
    )?;
    let cases = out.join("mutations");
    let _ = std::fs::remove_dir_all(&cases);
    for (n, m) in differ {
        let dir: PathBuf = cases.join(n.to_string());
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(m.file.replace('/', "+")), &m.broken)?;
        writeln!(
            r,
            "## {n}: {} `{}/{}`: {}\n",
            repos[m.repo].name, m.rel, m.file, m.what
        )?;
        for l in &m.differences {
            writeln!(r, "- {l}")?;
        }
        writeln!(r, "- the file: {}\n", dir.display())?;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_are_compared_without_snippets_or_line_breaks() {
        let terraform = "\nError: Invalid multi-line string\n\n  on main.tf line 13, in resource \"a\" \"b\":\n  13:     Name = \"x\n  14:   }\n\nQuoted strings may not be split over multiple lines. To produce a multi-line\nstring, either use the \\n escape.\n\nWarning: No range\n\nJust words.\n";
        let tflock = "Error: Invalid multi-line string\n\n  on main.tf line 13\n\nQuoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape.\n";
        assert_eq!(ranged_diagnostics(terraform), ranged_diagnostics(tflock));
        assert_eq!(ranged_diagnostics(terraform).len(), 1);
        let other_line = tflock.replace("line 13", "line 12");
        assert_ne!(
            ranged_diagnostics(terraform),
            ranged_diagnostics(&other_line)
        );
        let boxed = "╷\n│ Error: Invalid multi-line string\n│ \n│   on main.tf line 13:\n│   13:     Name = \"x\n│ \n│ Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape.\n╵\n";
        assert_eq!(ranged_diagnostics(boxed), ranged_diagnostics(tflock));
    }

    #[test]
    fn a_seed_replays_the_same_break() {
        let text = "resource \"a\" \"b\" {\n  x = [1, 2]\n}\n";
        let a = break_text(&mut Rng::new(7), text);
        let b = break_text(&mut Rng::new(7), text);
        assert_eq!(a, b);
        assert_ne!(a.0, text);
    }
}
