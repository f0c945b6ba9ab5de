//! Test files (`*.tftest.hcl`, `*.tftest.json`; OpenTofu also `*.tofutest.*`): `terraform
//! init` installs the modules their `run` blocks call (`module { source = "./setup" }`) and
//! the providers those modules need, and `terraform providers` lists them under
//! `test.<file>` / `run.<name>`. Nothing else in a test file adds a requirement: a test
//! file's own `provider` blocks do not, but their types are checked against the module's
//! (`requirements::test_providers`).

use crate::config::load::test_file_rules::check_test_file;
use crate::config::load::{json, parse_syntax, Syntax};
use crate::config::model::Attribute;
use crate::diag::{Diagnostics, Range};
use crate::flavor::Flavor;

/// The directory Terraform reads test files from besides the module's own (`-test-directory`
/// changes it; tflock reads the default).
pub const DEFAULT_TEST_DIR: &str = "tests";

/// One test file: its name relative to the module directory (`main.tftest.hcl`,
/// `tests/main.tftest.hcl`) and its `run` blocks in order.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The file name relative to the module directory.
    pub name: String,
    /// The `run` blocks, in file order.
    pub runs: Vec<TestRun>,
    /// The file's `provider` blocks, in file order (native syntax only).
    pub providers: Vec<TestProvider>,
    /// The mock data directories its `mock_provider` blocks name (native syntax only).
    pub mock_sources: Vec<MockSource>,
}

/// A `mock_provider` block's `source`: a directory of `*.tfmock.hcl` / `*.tfmock.json` files
/// Terraform reads once it has built the configuration (`installMockDataFiles`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockSource {
    /// The directory as written, relative to the working directory (not the test file's).
    pub dir: String,
    /// The `mock_provider` block's header, where Terraform reports the directory's problems.
    pub decl: Range,
}

/// A `run` block and the module it calls, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRun {
    /// The run's name (its label).
    pub name: String,
    /// The module under test when the run names one; `None` tests the module itself.
    pub module: Option<TestModule>,
    /// The run's `providers = { ... }` argument, undecoded (native syntax only).
    pub providers: Option<Attribute>,
}

/// A test file's `provider` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestProvider {
    /// The local name (the block's label).
    pub name: String,
    /// The `alias` argument when it is a literal string.
    pub alias: Option<String>,
    /// The block header (Terraform's `DeclRange`).
    pub decl: Range,
}

impl TestProvider {
    /// `name` or `name.alias`, the key Terraform files test providers under.
    pub fn key(&self) -> String {
        match &self.alias {
            Some(a) => format!("{}.{a}", self.name),
            None => self.name.clone(),
        }
    }
}

/// A run's `module { source = ... }` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestModule {
    /// The module source as written (local sources are relative to the module directory).
    pub source: String,
    /// Where the `module` block is declared.
    pub range: Range,
}

/// Whether `name` is a test file for `flavor`.
pub fn is_test_file(name: &str, flavor: Flavor) -> bool {
    let tf = name.ends_with(".tftest.hcl") || name.ends_with(".tftest.json");
    let tofu = name.ends_with(".tofutest.hcl") || name.ends_with(".tofutest.json");
    !crate::config::files::is_ignored(name) && (tf || (flavor == Flavor::OpenTofu && tofu))
}

impl TestFile {
    /// The name `terraform providers` prints (`test.tests.main`): the file name without
    /// `.tftest.hcl` (only that suffix: a JSON file keeps its `.tftest.json`), slashes as dots.
    pub fn tree_name(&self) -> String {
        let stem = self.name.strip_suffix(".tftest.hcl").unwrap_or(&self.name);
        format!("test.{}", stem.replace('/', "."))
    }

    /// The module path Terraform gives `run`'s module: `test`, the file's directory parts,
    /// its base name without `.tftest.hcl`, and the run's name.
    fn run_path(&self, run: &str) -> Vec<String> {
        let (dir, base) = match self.name.rsplit_once('/') {
            Some((d, b)) => (Some(d), b),
            None => (None, self.name.as_str()),
        };
        let mut parts = vec!["test".to_string()];
        parts.extend(
            dir.into_iter()
                .flat_map(|d| d.split('/'))
                .map(str::to_string),
        );
        parts.push(base.strip_suffix(".tftest.hcl").unwrap_or(base).to_string());
        parts.push(run.to_string());
        parts
    }

    /// The module manifest key of `run`'s module (`test.tests.main.setup`).
    pub fn manifest_key(&self, run: &str) -> String {
        self.run_path(run).join(".")
    }

    /// The module address of `run`'s module as Terraform prints it in messages
    /// (`module.test.module.tests.module.main.module.setup`): it is loaded as a child of
    /// the root, so child-only rules (no `import` blocks) apply to it.
    pub fn module_address(&self, run: &str) -> String {
        self.run_path(run)
            .iter()
            .map(|p| format!("module.{p}"))
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// Reads the `run` blocks of test file `name` (relative to the module directory). Syntax
/// errors are hclsyntax's (or HCL's JSON parser's), as `terraform init` reports them.
pub fn parse_test_file(
    name: &str,
    bytes: &[u8],
    flavor: Flavor,
    diags: &mut Diagnostics,
) -> Option<TestFile> {
    let mut providers = Vec::new();
    let mut mock_sources = Vec::new();
    let runs = match parse_syntax(name, bytes, diags)? {
        (src, Syntax::Json(root)) => json_runs(name, &src, &root),
        (_, Syntax::Native(body)) => {
            let checked = check_test_file(&body, flavor, diags);
            mock_sources = checked
                .mock_sources
                .into_iter()
                .map(|(dir, decl)| MockSource { dir, decl })
                .collect();
            let kept = checked.runs;
            providers = body
                .blocks_of("provider")
                .filter_map(|b| {
                    Some(TestProvider {
                        name: b.labels.first()?.clone(),
                        alias: b.body.attribute("alias").and_then(|a| a.literal_str()),
                        decl: b.origin.decl.clone(),
                    })
                })
                .collect();
            body.blocks_of("run")
                .zip(kept)
                .filter(|(_, kept)| *kept)
                .map(|(run, _)| run)
                .filter_map(|run| {
                    let name = run.labels.first()?.clone();
                    let module = run.body.blocks_of("module").next().and_then(|m| {
                        Some(TestModule {
                            source: m.body.attribute("source")?.literal_str()?,
                            range: m.origin.decl.clone(),
                        })
                    });
                    let providers = run.body.attribute("providers").cloned();
                    Some(TestRun {
                        name,
                        module,
                        providers,
                    })
                })
                .collect()
        }
    };
    Some(TestFile {
        name: name.to_string(),
        runs,
        providers,
        mock_sources,
    })
}

/// `{"run": {"<name>": {"module": {"source": "..."}}}}` (a run or module may also be given
/// as an array of objects, as HCL's JSON syntax allows for blocks).
fn json_runs(file: &str, src: &str, root: &json::Node) -> Vec<TestRun> {
    let objects = |n: &json::Node| -> Vec<json::Node> {
        match n.as_array() {
            Some(items) => items.to_vec(),
            None => vec![n.clone()],
        }
    };
    let mut runs = Vec::new();
    for top in root.as_object().unwrap_or_default() {
        if top.key != "run" {
            continue;
        }
        for labels in objects(&top.value) {
            for run in labels.as_object().unwrap_or_default() {
                for body in objects(&run.value) {
                    let module = body
                        .as_object()
                        .unwrap_or_default()
                        .iter()
                        .filter(|p| p.key == "module")
                        .flat_map(|p| objects(&p.value))
                        .find_map(|m| {
                            let source = m
                                .as_object()?
                                .iter()
                                .find(|p| p.key == "source")?
                                .value
                                .as_str()?
                                .to_string();
                            Some(TestModule {
                                source,
                                range: Range::from_span(file, src, m.start_span()),
                            })
                        });
                    runs.push(TestRun {
                        name: run.key.clone(),
                        module,
                        providers: None,
                    });
                }
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_their_modules_are_read_from_both_syntaxes() {
        let mut d = Diagnostics::new();
        let hcl = "provider \"google\" {}\nrun \"setup\" {\n  module {\n    source = \"./tests/setup\"\n  }\n}\nrun \"plain\" {}\n";
        let f = parse_test_file(
            "tests/main.tftest.hcl",
            hcl.as_bytes(),
            Flavor::Terraform,
            &mut d,
        )
        .unwrap();
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(f.runs.len(), 2);
        assert_eq!(f.runs[0].module.as_ref().unwrap().source, "./tests/setup");
        assert_eq!(f.runs[0].module.as_ref().unwrap().range.start.line, 3);
        assert_eq!(f.runs[1].module, None);
        assert_eq!(f.tree_name(), "test.tests.main");
        assert_eq!(f.manifest_key("setup"), "test.tests.main.setup");
        assert_eq!(
            f.module_address("setup"),
            "module.test.module.tests.module.main.module.setup"
        );

        let json = r#"{"run": {"j": {"module": {"source": "./helper"}}, "k": {}}}"#;
        let f =
            parse_test_file("c.tftest.json", json.as_bytes(), Flavor::Terraform, &mut d).unwrap();
        assert_eq!(f.runs.len(), 2);
        assert_eq!(f.runs[0].module.as_ref().unwrap().source, "./helper");
        assert_eq!(f.tree_name(), "test.c.tftest.json");
        assert_eq!(f.manifest_key("j"), "test.c.tftest.json.j");
    }

    #[test]
    fn syntax_errors_are_reported() {
        // hclsyntax closes a block the file ends in, and Terraform decodes the run.
        let mut d = Diagnostics::new();
        let f = parse_test_file("a.tftest.hcl", b"run \"x\" {\n", Flavor::Terraform, &mut d);
        assert_eq!(f.map(|f| f.runs.len()), Some(1));
        assert!(d.has_errors());
        // A file whose recovery hcl-edit cannot be shown ends at its error.
        let mut d = Diagnostics::new();
        let bytes = b"run \"x\" {\n  a = \"\\q\"\n}\n";
        assert!(parse_test_file("b.tftest.hcl", bytes, Flavor::Terraform, &mut d).is_none());
        assert!(d.has_errors());
    }

    #[test]
    fn test_files_by_flavour() {
        assert!(is_test_file("a.tftest.hcl", Flavor::Terraform));
        assert!(is_test_file("a.tftest.json", Flavor::Terraform));
        assert!(!is_test_file("a.tofutest.hcl", Flavor::Terraform));
        assert!(is_test_file("a.tofutest.hcl", Flavor::OpenTofu));
        assert!(!is_test_file(".a.tftest.hcl", Flavor::Terraform));
        assert!(!is_test_file("a.tf", Flavor::Terraform));
    }
}
