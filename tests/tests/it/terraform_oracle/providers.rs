//! Suite 4, `tflock providers` vs `terraform providers` on generated module trees (required
//! providers, provider blocks, implied providers of resources and data sources, aliases and
//! `configuration_aliases`, import blocks, data sources in check blocks, mixed-case type
//! prefixes, quoted references, nested local modules, modules beside the root
//! (`../../modules/x`), test files whose runs call modules, overrides, and the syntax that
//! once hid requirements: provider functions, line breaks before operators in `for`
//! expressions, repeated object keys). Terraform prints
//! each node's children in Go map order,
//! so the trees are compared as sets of lines per node; the drawing characters (treeprint
//! continues a branch with `│` and two no-break spaces) are compared exactly.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tflock_tests::terraform::run_terraform;
use tflock_tests::tflock_bin;

use crate::terraform_oracle::harness::{cases, rng};

const CASES: usize = 24;
const SOURCES: &[(&str, &str)] = &[
    ("null", "hashicorp/null"),
    ("aws", "hashicorp/aws"),
    ("thing", "acme/thing"),
    ("other", "example.com/acme/other"),
    ("random", "registry.terraform.io/hashicorp/random"),
];
const CONSTRAINTS: &[&str] = &["", ">= 1.0", "~> 3.1", "1.2.3", ">= 2.0, < 4.0.0", "!= 1.5"];
const TYPES: &[&str] = &[
    "random_id",
    "null_resource",
    "aws_instance",
    "thing_widget",
    "local_file",
    "http",
];

/// A check block whose scoped data source implies the `http` provider.
pub(super) const CHECK_SCOPED_DATA: &str = "check \"probe\" {\n  data \"http\" \"probe\" {\n    url = \"https://example.com\"\n  }\n\n  assert {\n    condition     = data.http.probe.status_code == 200\n    error_message = \"down\"\n  }\n}\n\n";

/// Syntax that once hid a module's requirements: a provider function, line breaks before
/// operators in `for` expressions, repeated object keys.
pub(super) const SYNTAX_THAT_HID_REQUIREMENTS: &str = "locals {\n  arn = provider::aws::arn_parse(\"arn:aws:s3:::b\")\n  m = { for k, v in { a = \"x\" } : k => v\n    if v != \"\" }\n  l = [for x in [\"a\"] : x\n    == \"a\" ? 1\n    : 2]\n  o = { a = 1, a = 2 }\n}\n\n";

/// One module's `main.tf` (and maybe an override), given which children it calls
/// (`(name, source)`) and whether it is the root module.
fn module_files(
    rng: &mut StdRng,
    children: &[(String, String)],
    root: bool,
) -> Vec<(String, String)> {
    let mut main = String::new();
    let mut names = Vec::new();
    if rng.gen_bool(0.8) {
        main.push_str("terraform {\n  required_providers {\n");
        let mut picks: Vec<&(&str, &str)> = SOURCES.iter().collect();
        picks.shuffle(rng);
        for (name, source) in picks.into_iter().take(rng.gen_range(0..4)) {
            let c = CONSTRAINTS.choose(rng).expect("constraints");
            let _ = write!(main, "    {name} = {{\n      source = \"{source}\"\n");
            if !c.is_empty() {
                let _ = writeln!(main, "      version = \"{c}\"");
            }
            // The default configuration may be listed beside aliases (in the root: a child
            // would need them passed in, which Terraform checks and tflock does not).
            if root && rng.gen_bool(0.3) {
                let _ = writeln!(
                    main,
                    "      configuration_aliases = [{name}, {name}.second]"
                );
            }
            main.push_str("    }\n");
            names.push(*name);
        }
        main.push_str("  }\n}\n\n");
    }
    for name in &names {
        if rng.gen_bool(0.3) {
            let _ = writeln!(main, "provider \"{name}\" {{\n  alias = \"second\"\n}}\n");
        }
    }
    if rng.gen_bool(0.2) {
        main.push_str("provider \"legacyish\" {\n  version = \"~> 1.0\"\n}\n\n");
    }
    for (i, t) in TYPES.iter().enumerate() {
        if rng.gen_bool(0.3) {
            let mode = if rng.gen_bool(0.7) {
                "resource"
            } else {
                "data"
            };
            let _ = writeln!(main, "{mode} \"{t}\" \"r{i}\" {{}}\n");
        }
    }
    // Imports that generate configuration imply providers; those whose resource is declared
    // or that target a child module do not.
    for (i, (to, provider)) in [
        ("google_compute_instance.imported", ""),
        ("azurerm_thing.imported[\"k\"]", "thing"),
        ("aws_instance.r2", ""),
        ("module.m10.dns_record.x", ""),
    ]
    .iter()
    .enumerate()
    {
        if rng.gen_bool(0.15) {
            let _ = write!(main, "import {{\n  to = {to}\n  id = \"i-{i}\"\n");
            if !provider.is_empty() {
                let _ = writeln!(main, "  provider = {provider}");
            }
            main.push_str("}\n\n");
        }
    }
    // A data source inside a check block implies its provider.
    if rng.gen_bool(0.2) {
        main.push_str(CHECK_SCOPED_DATA);
    }
    // Type prefixes are lower-cased; quoted references still work (with a warning).
    if rng.gen_bool(0.15) {
        main.push_str("resource \"Mixed_thing\" \"m\" {}\n\n");
    }
    if rng.gen_bool(0.15) {
        main.push_str("resource \"quoted_thing\" \"q\" {\n  provider = \"legacyref\"\n}\n\n");
    }
    if rng.gen_bool(0.3) {
        // Syntax that once hid a module's requirements: provider functions, line breaks
        // before operators in `for` expressions, repeated object keys.
        main.push_str(SYNTAX_THAT_HID_REQUIREMENTS);
    }
    for (name, source) in children {
        let _ = writeln!(main, "module \"{name}\" {{\n  source = \"{source}\"\n}}\n");
    }
    let mut files = vec![("main.tf".to_string(), main)];
    if rng.gen_bool(0.25) {
        let (name, source) = SOURCES.choose(rng).expect("sources");
        let c = CONSTRAINTS.choose(rng).expect("constraints");
        files.push((
            "override.tf".to_string(),
            format!(
                "terraform {{\n  required_providers {{\n    {name} = {{\n      source  = \"{source}\"\n      version = \"{c}\"\n    }}\n  }}\n}}\n"
            ),
        ));
    }
    files
}

/// Writes a random tree of local modules under `dir`, each calling its children in
/// subdirectories (`./m10`).
fn write_tree(rng: &mut StdRng, dir: &Path, depth: u32) {
    let children: Vec<String> = if depth < 2 {
        (0..rng.gen_range(0..3))
            .map(|i| format!("m{depth}{i}"))
            .collect()
    } else {
        Vec::new()
    };
    let calls: Vec<(String, String)> = children
        .iter()
        .map(|c| (c.clone(), format!("./{c}")))
        .collect();
    write_module(rng, dir, &calls, depth == 0);
    for c in &children {
        write_tree(rng, &dir.join(c), depth + 1);
    }
}

fn write_module(rng: &mut StdRng, dir: &Path, calls: &[(String, String)], root: bool) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for (name, text) in module_files(rng, calls, root) {
        std::fs::write(dir.join(name), text).expect("write");
    }
}

/// Writes one case under `base` and returns its working directory. Layouts: a root with
/// modules below it; or the `examples/` layout of module repositories, a root two levels
/// down calling `../../modules/<m>` whose modules call their siblings (`../<m>`). Either may
/// have test files (beside the root and in `tests/`) whose runs call modules.
fn write_case(rng: &mut StdRng, base: &Path) -> std::path::PathBuf {
    let (root, module_sources) = if rng.gen_bool(0.5) {
        write_tree(rng, base, 0);
        (
            base.to_path_buf(),
            vec!["./m00".to_string(), "./m01".to_string()],
        )
    } else {
        let names: Vec<String> = (0..rng.gen_range(1..4))
            .map(|i| format!("lib{i}"))
            .collect();
        for (i, name) in names.iter().enumerate() {
            // Each module may call a later sibling, so the calls stay acyclic.
            let calls: Vec<(String, String)> = names[i + 1..]
                .iter()
                .filter(|_| rng.gen_bool(0.4))
                .map(|n| (n.clone(), format!("../{n}")))
                .collect();
            write_module(rng, &base.join("modules").join(name), &calls, false);
        }
        let root = base.join("examples").join("complete");
        let calls: Vec<(String, String)> = names
            .iter()
            .filter(|_| rng.gen_bool(0.7))
            .map(|n| (n.clone(), format!("../../modules/{n}")))
            .collect();
        write_module(rng, &root, &calls, true);
        let sources = names.iter().map(|n| format!("../../modules/{n}")).collect();
        (root, sources)
    };
    if rng.gen_bool(0.5) {
        write_module(rng, &root.join("tests").join("setup"), &[], false);
        for (i, file) in [
            "main.tftest.hcl",
            "tests/more.tftest.hcl",
            "tests/j.tftest.json",
        ]
        .iter()
        .enumerate()
        {
            if !rng.gen_bool(0.5) {
                continue;
            }
            let mut sources = module_sources.clone();
            sources.push("./tests/setup".into());
            sources.retain(|s| root.join(s).is_dir());
            let runs: Vec<(String, Option<String>)> = (0..rng.gen_range(0..3))
                .map(|r| {
                    let source = sources.choose(rng).filter(|_| rng.gen_bool(0.7)).cloned();
                    (format!("r{i}{r}"), source)
                })
                .collect();
            let text = if file.ends_with(".json") {
                let runs: Vec<String> = runs
                    .iter()
                    .map(|(name, source)| match source {
                        Some(s) => format!("\"{name}\": {{\"module\": {{\"source\": \"{s}\"}}}}"),
                        None => format!("\"{name}\": {{}}"),
                    })
                    .collect();
                // `{"run": {}}` is an error in Terraform (a block needs its label); tflock
                // does not check a test file's schema.
                if runs.is_empty() {
                    "{}\n".to_string()
                } else {
                    format!("{{\"run\": {{{}}}}}\n", runs.join(", "))
                }
            } else {
                let mut t = String::from("provider \"google\" {}\n\n");
                for (name, source) in &runs {
                    match source {
                        Some(s) => {
                            let _ = writeln!(
                                t,
                                "run \"{name}\" {{\n  module {{\n    source = \"{s}\"\n  }}\n}}\n"
                            );
                        }
                        None => {
                            let _ = writeln!(t, "run \"{name}\" {{}}\n");
                        }
                    }
                }
                t
            };
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
    }
    root
}

/// The tree text as node path → set of its provider lines.
pub(super) fn tree(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack: Vec<String> = Vec::new();
    let mut started = false;
    let mut prefixes = BTreeSet::new();
    for line in text.lines() {
        if line == "." {
            started = true;
            stack = vec![".".into()];
            out.entry(".".into()).or_default();
            continue;
        }
        if !started {
            continue;
        }
        if line.trim().is_empty() {
            break; // the tree ends; warnings may follow
        }
        let content_at = line
            .char_indices()
            .find(|(_, c)| !matches!(c, ' ' | '\u{a0}' | '│' | '├' | '└' | '─'))
            .map_or(line.len(), |(i, _)| i);
        let prefix = &line[..content_at];
        let depth = prefix.chars().count() / 4;
        // Which child is last depends on Go's map order, so only the kinds of segment
        // count: a branch (`├`/`└`) or a continuation under an ancestor, which is `│` plus
        // two no-break spaces below a non-last sibling and four spaces below the last one.
        let chars: Vec<char> = prefix.chars().collect();
        for segment in chars.chunks(4) {
            let segment = segment.iter().collect::<String>().replace('└', "├");
            let segment = if segment == "    " {
                "│\u{a0}\u{a0} ".to_string()
            } else {
                segment
            };
            prefixes.insert(segment);
        }
        let content = line[content_at..].trim_end().to_string();
        stack.truncate(depth);
        let parent = stack.join("/");
        if ["module.", "test.", "run."]
            .iter()
            .any(|p| content.starts_with(p))
        {
            stack.push(content.clone());
            out.entry(stack.join("/")).or_default();
        } else {
            out.entry(parent).or_default().insert(content);
        }
    }
    out.insert("(drawing)".into(), prefixes);
    out
}

#[test]
fn provider_trees_match_terraform() {
    let (mut rng, seed) = rng("providers tree", 16_004);
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let mut failures = Vec::new();
    let count = cases(CASES);
    for n in 0..count {
        let base = tempfile::tempdir().expect("tempdir");
        let dir = write_case(&mut rng, base.path());
        let cfg = home.path().join("cli.tfrc");
        // Installs the local modules; a broken configuration fails here and in `providers`.
        run_terraform(&dir, home.path(), &cfg, &["get", "-no-color"]);
        let tf = run_terraform(&dir, home.path(), &cfg, &["providers", "-no-color"]);
        let ours = std::process::Command::new(tflock_bin())
            .arg("providers")
            .current_dir(&dir)
            .output()
            .expect("tflock providers");
        let (a, b) = (
            String::from_utf8_lossy(&tf.stdout).into_owned(),
            String::from_utf8_lossy(&ours.stdout).into_owned(),
        );
        if tf.status.success() != ours.status.success() || tree(&a) != tree(&b) {
            let files: Vec<String> = crate::terraform_oracle::harness::tree(base.path())
                .into_iter()
                .filter(|(k, _)| k.ends_with(".tf") || k.contains(".tftest."))
                .map(|(k, v)| format!("----- {k}\n{}", String::from_utf8_lossy(&v)))
                .collect();
            failures.push(format!(
                "seed {seed}, case {n}\n{}\n--- terraform\n{}\n--- tflock\n{}\n--- trees\n{:#?}\n{:#?}",
                files.join(""),
                crate::e2e_common::text(&tf),
                crate::e2e_common::text(&ours),
                tree(&a),
                tree(&b)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} provider trees differ from Terraform:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
