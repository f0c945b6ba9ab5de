//! A rough, independent reading of configuration text: which module calls a directory makes
//! (to skip the ones that need the network) and which constructs it uses (to classify a
//! difference by its likely cause). Deliberately not tflock's loader: the harness judges it.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// Whether a file is read as configuration by Terraform (`.tf`, `.tf.json`) or as a test file.
pub fn is_config_file(name: &str) -> bool {
    name.ends_with(".tf") || name.ends_with(".tf.json")
}

pub fn is_test_file(name: &str) -> bool {
    name.ends_with(".tftest.hcl") || name.ends_with(".tftest.json")
}

/// The files a module directory's comparison reads: its configuration files, its test files
/// and those of its `tests/` directory (Terraform's default test directory).
pub fn module_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in [dir.to_path_buf(), dir.join("tests")] {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let root_config = d == dir && is_config_file(&name);
            if (root_config || is_test_file(&name)) && e.path().is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// The `source` of every `module` block in one file (test files' `run` blocks included):
/// the string, or `None` when it is not a plain string literal.
pub fn module_sources(text: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut stack = Nesting::default();
    let mut heredoc: Option<String> = None;
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if let Some(end) = &heredoc {
            if t == end {
                heredoc = None;
            }
            continue;
        }
        if in_comment {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if t.starts_with("/*") {
            in_comment = !t.contains("*/");
            continue;
        }
        let first_word = first_word(t, true);
        let (opens, closes) = braces(t);
        // `module "x" { source = "./a" }` may sit on one line.
        let one_line_module = first_word == "module" && opens > 0;
        let in_module = first_word == "source" && stack.inside("module");
        if one_line_module || in_module {
            if let Some(s) = attribute(t, "source") {
                out.push(s);
            }
        }
        stack.step(&first_word, (opens, closes));
        if let Some(at) = t.find("<<") {
            let tag: String = t[at + 2..]
                .trim_start_matches('-')
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !tag.is_empty() {
                heredoc = Some(tag);
            }
        }
    }
    out
}

/// `text` (a `.tf.json` file) with the `backend` and `cloud` properties of its `terraform`
/// blocks renamed to `"//"`, HCL JSON's comment property, which Terraform ignores (so the
/// JSON stays valid and its lines stay); `None` when it has none. See [`strip_backend`].
pub fn strip_backend_json(text: &str) -> Option<String> {
    rename_terraform_properties(text, &["backend", "cloud"])
}

/// `text` (a `.tf.json` file) with the `required_version` properties of its `terraform`
/// blocks renamed to `"//"`; `None` when it has none. See [`strip_required_version`].
pub fn strip_required_version_json(text: &str) -> Option<String> {
    rename_terraform_properties(text, &["required_version"])
}

/// `text` with the properties called one of `names` directly in a `terraform` object (or
/// an object of a `terraform` list) renamed to `"//"`; `None` when there is none.
fn rename_terraform_properties(text: &str, names: &[&str]) -> Option<String> {
    struct Frame {
        object: bool,
        key: String,
        expect_key: bool,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    let mut last_key = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let (mut raw, mut value) = (String::from('"'), String::new());
                while let Some(c) = chars.next() {
                    raw.push(c);
                    if c == '\\' {
                        if let Some(e) = chars.next() {
                            raw.push(e);
                            value.push(e);
                        }
                        continue;
                    }
                    if c == '"' {
                        break;
                    }
                    value.push(c);
                }
                let frame = stack.last_mut().filter(|f| f.object && f.expect_key);
                let Some(frame) = frame else {
                    out.push_str(&raw);
                    continue;
                };
                frame.expect_key = false;
                let in_terraform = match stack.as_slice() {
                    [_, t] => t.key == "terraform",
                    [_, list, o] => list.key == "terraform" && !list.object && o.object,
                    _ => false,
                };
                if in_terraform && names.contains(&value.as_str()) {
                    out.push_str("\"//\"");
                    found = true;
                } else {
                    out.push_str(&raw);
                }
                last_key = value;
                continue;
            }
            '{' | '[' => {
                let key = match stack.last() {
                    Some(f) if f.object => last_key.clone(),
                    Some(f) => f.key.clone(),
                    None => String::new(),
                };
                stack.push(Frame {
                    object: c == '{',
                    key,
                    expect_key: c == '{',
                });
            }
            '}' | ']' => drop(stack.pop()),
            ',' => {
                if let Some(f) = stack.last_mut().filter(|f| f.object) {
                    f.expect_key = true;
                }
            }
            _ => {}
        }
        out.push(c);
    }
    found.then_some(out)
}

/// The marker left where [`strip_backend`] removed a block.
pub const BACKEND_REMOVED: &str = "# backend removed by cargo xtask real-world";

/// `text` without the `backend` and `cloud` blocks of its `terraform` blocks (each line
/// replaced by a comment, so line numbers stay), or `None` when it has none. `terraform
/// providers` refuses to run before `init` has set up a backend, which needs the network;
/// requirements never depend on it.
pub fn strip_backend(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut stack = Nesting::default();
    let mut skipping: Option<usize> = None;
    let mut found = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let first_word = first_word(t, false);
        let (opens, closes) = code_braces(t);
        let starts = skipping.is_none()
            && matches!(first_word.as_str(), "backend" | "cloud")
            && opens > 0
            && stack.inside("terraform");
        if starts {
            skipping = Some(stack.depth());
            found = true;
        }
        stack.step(&first_word, (opens, closes));
        match skipping {
            Some(depth) => {
                out.push_str(if starts { BACKEND_REMOVED } else { "#" });
                out.push_str(if line.ends_with('\n') { "\n" } else { "" });
                if stack.depth() <= depth {
                    skipping = None;
                }
            }
            None => out.push_str(line),
        }
    }
    found.then_some(out)
}

/// The marker left where [`strip_required_version`] removed an argument.
pub const REQUIRED_VERSION_REMOVED: &str = "# required_version removed by cargo xtask real-world";

/// `text` without the one-line `required_version` arguments of its `terraform` blocks (each
/// replaced by a comment, so line numbers stay), or `None` when it has none. Terraform's
/// `get` refuses a constraint its version does not meet before it installs anything, so a
/// directory pinned to an old Terraform has no requirement tree to compare unless the
/// constraint goes; `init` compares the refusal itself on the files as written.
pub fn strip_required_version(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut stack = Nesting::default();
    let mut found = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let first_word = first_word(t, false);
        let (opens, closes) = code_braces(t);
        let strip = first_word == "required_version"
            && (opens, closes) == (0, 0)
            && stack.inside("terraform")
            && attribute(t, "required_version").is_some_and(|v| v.is_some());
        stack.step(&first_word, (opens, closes));
        if strip {
            found = true;
            out.push_str(REQUIRED_VERSION_REMOVED);
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    found.then_some(out)
}

/// The value of `name = ...` in a line: the string literal, or `None` for an expression.
fn attribute(line: &str, name: &str) -> Option<Option<String>> {
    let at = line.find(name)?;
    let rest = line[at + name.len()..].trim_start().strip_prefix('=')?;
    let rest = rest.trim_start();
    let Some(body) = rest.strip_prefix('"') else {
        return Some(None);
    };
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.extend(chars.next()),
            '"' => return Some(Some(value)),
            '$' | '%' if chars.clone().next() == Some('{') => return Some(None),
            c => value.push(c),
        }
    }
    Some(None)
}

/// The names of the blocks open at a line of these line-based scans: a block's first word
/// for the first `{` of its line, an unnamed entry for any other.
#[derive(Default)]
struct Nesting(Vec<String>);

impl Nesting {
    /// Whether the innermost open block is `name`.
    fn inside(&self, name: &str) -> bool {
        self.0.last().is_some_and(|b| b == name)
    }

    /// How many blocks are open.
    fn depth(&self) -> usize {
        self.0.len()
    }

    /// Opens and closes the braces of a line that starts with `first_word`.
    fn step(&mut self, first_word: &str, (opens, closes): (usize, usize)) {
        for i in 0..opens {
            self.0.push(if i == 0 {
                first_word.to_string()
            } else {
                String::new()
            });
        }
        for _ in 0..closes {
            self.0.pop();
        }
    }
}

/// The name a trimmed line starts with (`terraform`, `required_version`); `-` counts as a
/// name character where `dashes` says so.
fn first_word(t: &str, dashes: bool) -> String {
    t.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || (dashes && *c == '-'))
        .collect()
}

/// [`braces`] of a trimmed line, none for a comment line.
fn code_braces(t: &str) -> (usize, usize) {
    if t.starts_with('#') || t.starts_with("//") {
        (0, 0)
    } else {
        braces(t)
    }
}

/// The `{` and `}` of a line outside string literals and template interpolations.
fn braces(line: &str) -> (usize, usize) {
    enum Mode {
        Code,
        Str,
        Interp(usize),
    }
    let (mut opens, mut closes) = (0, 0);
    let mut modes = vec![Mode::Code];
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let mode = modes.last_mut().expect("a mode");
        match (mode, c) {
            (Mode::Code, '#') => break,
            (Mode::Code, '/') if chars.peek() == Some(&'/') => break,
            (Mode::Code | Mode::Interp(_), '"') => modes.push(Mode::Str),
            (Mode::Code, '{') => opens += 1,
            (Mode::Code, '}') => closes += 1,
            (Mode::Interp(n), '{') => *n += 1,
            (Mode::Interp(0), '}') => {
                modes.pop();
            }
            (Mode::Interp(n), '}') => *n -= 1,
            (Mode::Str, '\\') => {
                chars.next();
            }
            (Mode::Str, '"') => {
                modes.pop();
            }
            (Mode::Str, '$' | '%') if chars.peek() == Some(&'{') => {
                chars.next();
                modes.push(Mode::Interp(0));
            }
            _ => {}
        }
    }
    (opens, closes)
}

/// What a module directory needs: the local module directories it reaches and the reasons
/// it cannot be compared offline (module calls whose source needs the network).
#[derive(Default)]
pub struct Reach {
    /// Module calls met (local or not).
    pub calls: usize,
    pub remote: Vec<String>,
    pub constructs: BTreeSet<&'static str>,
    /// The existing module directories reached, the starting one included.
    pub dirs: Vec<PathBuf>,
}

/// Follows the local module calls from `dir` (inside `root`, the repository) and notes
/// remote sources and the constructs the reached modules use.
pub fn reach(root: &Path, dir: &Path) -> Reach {
    let mut reach = Reach::default();
    let mut seen = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        if !d.is_dir() {
            reach.constructs.insert("missing local module directory");
            continue;
        }
        reach.dirs.push(d.clone());
        for file in module_files(&d) {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let name = file.file_name().unwrap_or_default().to_string_lossy();
            note_constructs(&name, &text, &mut reach.constructs);
            for source in module_sources(&text) {
                reach.calls += 1;
                let Some(source) = source else {
                    reach.constructs.insert("module source not a literal");
                    continue;
                };
                if !(source.starts_with("./") || source.starts_with("../")) {
                    let rel = file.strip_prefix(root).unwrap_or(&file).display();
                    reach.remote.push(format!("{source} ({rel})"));
                    continue;
                }
                let target = normalize(&d.join(&source));
                if !target.starts_with(dir) {
                    reach.constructs.insert("module call outside the root");
                }
                if !target.starts_with(root) {
                    reach
                        .constructs
                        .insert("module call outside the repository");
                    continue;
                }
                todo.push(target);
            }
        }
    }
    reach
}

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Constructs worth naming next to a difference (the ones known to be handled differently
/// today, so a re-run after their fixes shows what remains).
fn note_constructs(name: &str, text: &str, out: &mut BTreeSet<&'static str>) {
    if is_test_file(name) {
        out.insert("test files");
    }
    if name == "override.tf" || name.ends_with("_override.tf") || name.contains("override.tf.") {
        out.insert("override files");
    }
    if text.contains(BACKEND_REMOVED) {
        out.insert("backend block (removed)");
    }
    if name.ends_with(".tf.json") {
        out.insert("JSON configuration");
    }
    let starts = |prefix: &str| text.lines().any(|l| l.starts_with(prefix));
    if starts("import {") {
        out.insert("import blocks");
    }
    if starts("check \"") {
        out.insert("check blocks");
    }
    if text.contains("configuration_aliases") {
        out.insert("configuration_aliases");
    }
    if text.contains("provider::") {
        out.insert("provider-defined functions");
    }
    if text.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with("provider ") && t.contains("= \"") || t.starts_with("provider=\"")
    }) {
        out.insert("quoted provider reference");
    }
    if text.contains("precondition") || text.contains("postcondition") {
        out.insert("conditions");
    }
    if starts("removed {") || starts("moved {") {
        out.insert("moved/removed blocks");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_backends() {
        let text = "terraform {\n  required_version = \">= 1\"\n  backend \"s3\" {\n    bucket = \"b\"\n  }\n}\nresource \"x\" \"y\" {\n  backend \"z\" {}\n}\n";
        let want = "terraform {\n  required_version = \">= 1\"\n# backend removed by cargo xtask real-world\n#\n#\n}\nresource \"x\" \"y\" {\n  backend \"z\" {}\n}\n";
        assert_eq!(strip_backend(text).as_deref(), Some(want));
        assert_eq!(
            strip_backend("terraform {\n  cloud {}\n}\n").as_deref(),
            Some("terraform {\n# backend removed by cargo xtask real-world\n}\n")
        );
        assert_eq!(strip_backend("resource \"a\" \"b\" {}\n"), None);
    }

    #[test]
    fn strips_json_backend_and_cloud_as_comment_properties() {
        let text = "{\"terraform\": {\"cloud\": {\"organization\": \"x\"}, \"required_version\": \">= 1\"},\n \"variable\": {\"cloud\": {}}}";
        let want = "{\"terraform\": {\"//\": {\"organization\": \"x\"}, \"required_version\": \">= 1\"},\n \"variable\": {\"cloud\": {}}}";
        assert_eq!(strip_backend_json(text).as_deref(), Some(want));
        let listed = "{\"terraform\": [{\"a\\\"\": 1, \"backend\": {\"local\": {}}}]}";
        assert_eq!(
            strip_backend_json(listed).as_deref(),
            Some("{\"terraform\": [{\"a\\\"\": 1, \"//\": {\"local\": {}}}]}")
        );
        assert_eq!(
            strip_backend_json("{\"resource\": {\"backend\": {}}}"),
            None
        );
    }

    #[test]
    fn strips_the_required_version_of_terraform_blocks_only() {
        let text = "terraform {\n  required_version = \"~> 0.12.31\"\n  required_providers {\n    required_version = \"x\"\n  }\n}\nlocals {\n  required_version = \"1\"\n}\n";
        let want = "terraform {\n# required_version removed by cargo xtask real-world\n  required_providers {\n    required_version = \"x\"\n  }\n}\nlocals {\n  required_version = \"1\"\n}\n";
        assert_eq!(strip_required_version(text).as_deref(), Some(want));
        assert_eq!(
            strip_required_version("terraform {\n  required_version = var.v\n}\n"),
            None,
            "only a string literal on one line is taken out"
        );
        assert_eq!(strip_required_version("locals {}\n"), None);
    }

    #[test]
    fn strips_the_json_required_version_as_a_comment_property() {
        let text = "{\"terraform\": [{\"required_version\": \"0.11.15\"}], \"locals\": {\"required_version\": 1}}";
        let want =
            "{\"terraform\": [{\"//\": \"0.11.15\"}], \"locals\": {\"required_version\": 1}}";
        assert_eq!(strip_required_version_json(text).as_deref(), Some(want));
        assert_eq!(
            strip_required_version_json("{\"terraform\": {\"backend\": {}}}"),
            None
        );
    }

    #[test]
    fn finds_module_sources() {
        let text = r#"
module "a" {
  source = "./a"
  x = { source = "nope" }
}
module "b" { source = "terraform-aws-modules/vpc/aws" }
resource "x" "y" {
  source = "not a module"
  tpl = "${jsonencode({ a = "}" })}"
}
run "r" {
  module {
    source = "../b"
  }
}
module "c" {
  source = var.x
}
"#;
        assert_eq!(
            module_sources(text),
            vec![
                Some("./a".into()),
                Some("terraform-aws-modules/vpc/aws".into()),
                Some("../b".into()),
                None
            ]
        );
    }
}
