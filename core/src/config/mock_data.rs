//! Mock data directories: a test file's `mock_provider "aws" { source = "./mocks" }` names a
//! directory of `*.tfmock.hcl` / `*.tfmock.json` files, which `terraform init`, `get` and
//! `providers` read once they have built the configuration (`installMockDataFiles`, through
//! `Parser.LoadMockDataDir`). A directory that cannot be read is an error; so are the syntax
//! and decoding errors of its files and blocks that two of its files both declare. The host
//! reads the directory (it is one of [`crate::config::requirements::unread_dirs`]); this
//! decides what Terraform reports.

use crate::config::files::is_ignored;
use crate::config::load::test_file_rules::{mock_data_file, MockDataBlocks};
use crate::config::load::{parse_syntax, Syntax};
use crate::config::requirements::tree_join as join;
use crate::config::test_files::MockSource;
use crate::diag::{Diagnostic, Diagnostics};

/// Whether Terraform reads `name` from a mock data directory: a `.tfmock.hcl` or
/// `.tfmock.json` file whose name it does not ignore (`.hidden`, `backup~`, `#emacs#`).
pub fn is_mock_data_file(name: &str) -> bool {
    (name.ends_with(".tfmock.hcl") || name.ends_with(".tfmock.json")) && !is_ignored(name)
}

/// The directory `source` names, as a key of the host's directories: relative sources are
/// relative to the working directory (`base`), whatever directory the test file is in, and
/// cleaned as Go's `filepath.Join` cleans them; an absolute one stays absolute.
pub fn mock_dir_key(base: &str, source: &str) -> String {
    match source.strip_prefix('/') {
        Some(rest) => format!("/{}", join("", rest)),
        None => join(base, source),
    }
}

/// What reading the mock data directory of `source` reports: `files` is the directory's
/// files (any names; those Terraform reads are picked here), `None` when it could not be
/// read. `parsed` names the files read before, for another `mock_provider`: Terraform's
/// parser keeps each file it parsed and hands it out again without its syntax errors, so
/// only the decoding errors are reported twice.
pub fn mock_data_diagnostics<N: AsRef<str>, B: AsRef<[u8]>>(
    source: &MockSource,
    key: &str,
    files: Option<&[(N, B)]>,
    parsed: &mut Vec<String>,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(files) = files else {
        diags.push(
            Diagnostic::error(
                "Failed to read mock data directory",
                format!(
                    "Mock data directory {} does not exist or cannot be read.",
                    source.dir
                ),
            )
            .with_range(source.decl.clone()),
        );
        return diags;
    };
    // Go's `ReadDir` lists a directory by name.
    let mut names: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_ref(), b.as_ref()))
        .filter(|(n, _)| is_mock_data_file(n))
        .collect();
    names.sort_by(|a, b| a.0.cmp(b.0));
    let mut data: Option<MockDataBlocks> = None;
    for (name, bytes) in names {
        // Named as `filepath.Join(dir, name)` names them.
        let shown = if key.is_empty() {
            name.to_string()
        } else {
            format!("{key}/{name}")
        };
        let mut syntax = Diagnostics::new();
        let body = parse_syntax(&shown, bytes, &mut syntax);
        if !parsed.contains(&shown) {
            diags.extend(syntax);
            parsed.push(shown);
        }
        let current = match body {
            Some((_, Syntax::Native(body))) => mock_data_file(&body, &mut diags),
            // The blocks of a JSON mock file are not decoded (its syntax is checked).
            _ => MockDataBlocks::default(),
        };
        match &mut data {
            None => data = Some(current),
            Some(data) => merge(data, current, &mut diags),
        }
    }
    diags
}

/// `MockData.Merge` without skipping collisions: a later file's block that an earlier file
/// already declared is an error, and the earlier one stays.
fn merge(data: &mut MockDataBlocks, other: MockDataBlocks, diags: &mut Diagnostics) {
    for ((kind, ty), (decl, type_range)) in other.resources {
        match data.resources.get(&(kind.clone(), ty.clone())) {
            Some((current, _)) => diags.push(
                Diagnostic::error(
                    "Duplicate mock resource block",
                    format!("A {kind} {ty:?} block already exists at {current}."),
                )
                .with_range(type_range),
            ),
            None => {
                data.resources.insert((kind, ty), (decl, type_range));
            }
        }
    }
    for (target, range) in other.overrides {
        match data.overrides.get(&target) {
            Some(current) => diags.push(
                Diagnostic::error(
                    "Duplicate override block",
                    format!("An override block for {target} already exists at {current}."),
                )
                .with_range(range),
            ),
            None => {
                data.overrides.insert(target, range);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Range;

    #[test]
    fn mock_directories_are_named_from_the_working_directory() {
        assert_eq!(mock_dir_key("", "./testing/aws"), "testing/aws");
        assert_eq!(mock_dir_key("", "./mocks/"), "mocks");
        assert_eq!(mock_dir_key("", "mocks/../other"), "other");
        assert_eq!(mock_dir_key("", "."), "");
        assert_eq!(mock_dir_key("", "../shared/mocks"), "../shared/mocks");
        assert_eq!(mock_dir_key("", "/abs//mocks/"), "/abs/mocks");
    }

    #[test]
    fn only_mock_files_terraform_does_not_ignore_are_read() {
        assert!(is_mock_data_file("a.tfmock.hcl"));
        assert!(is_mock_data_file("a.tfmock.json"));
        assert!(!is_mock_data_file(".a.tfmock.hcl"));
        assert!(!is_mock_data_file("a.tfmock.hcl~"));
        assert!(!is_mock_data_file("a.tf"));
        assert!(!is_mock_data_file("a.json"));
    }

    #[test]
    fn a_directory_that_could_not_be_read_is_an_error_at_the_mock_provider() {
        let source = MockSource {
            dir: "./mocks".into(),
            decl: Range::from_span("main.tftest.hcl", "mock_provider \"aws\" {}", 0..19),
        };
        let d = mock_data_diagnostics::<&str, &[u8]>(&source, "mocks", None, &mut Vec::new());
        assert_eq!(d.0.len(), 1);
        assert_eq!(d.0[0].summary, "Failed to read mock data directory");
        assert_eq!(
            d.0[0].detail,
            "Mock data directory ./mocks does not exist or cannot be read."
        );
    }

    #[test]
    fn a_file_read_again_reports_its_syntax_errors_once() {
        let source = MockSource {
            dir: "m".into(),
            decl: Range::from_span("main.tftest.hcl", "mock_provider \"aws\" {}", 0..19),
        };
        let files = [("a.tfmock.hcl", "mock_data \"x\" {\n".as_bytes())];
        let mut parsed = Vec::new();
        let first = mock_data_diagnostics(&source, "m", Some(&files[..]), &mut parsed);
        assert!(first.has_errors());
        let again = mock_data_diagnostics(&source, "m", Some(&files[..]), &mut parsed);
        assert!(again.is_empty(), "{again:?}");
    }
}
