//! Suite 4, `tflock providers` vs `terraform providers` on generated module trees (required
//! providers, provider blocks, implied providers of resources and data sources, aliases,
//! nested local modules, overrides, `configuration_aliases` a parent fills through
//! `providers`, root `import` blocks, check-scoped data sources, and the syntax that once
//! hid requirements: provider functions, line breaks before operators in `for`
//! expressions, repeated object keys). Terraform prints each node's children in Go map order,
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

use crate::terraform_oracle::gen_config::switches;
use crate::terraform_oracle::harness::rng;

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

/// What a parent passes a child through `providers`, which the child then declares in
/// `configuration_aliases`: the local name, its source, and whether the default
/// configuration is listed (and passed) too.
type Passed = (&'static str, &'static str, bool);

/// One module's `main.tf` (and maybe an override), given which children it calls and what
/// its parent passes it; the children's `providers` are chosen here and returned.
fn module_files(
    rng: &mut StdRng,
    children: &[String],
    passed: Option<Passed>,
    root: bool,
) -> (Vec<(String, String)>, Vec<Option<Passed>>) {
    let mut main = String::new();
    let mut names: Vec<(&str, &str)> = Vec::new();
    if passed.is_some() || rng.gen_bool(0.8) {
        main.push_str("terraform {\n  required_providers {\n");
        let mut picks: Vec<&(&str, &str)> = SOURCES.iter().collect();
        picks.shuffle(rng);
        let mut chosen: Vec<(&str, &str)> = picks
            .into_iter()
            .take(rng.gen_range(0..4))
            .map(|(n, s)| (*n, *s))
            .collect();
        if let Some((name, source, _)) = passed {
            chosen.retain(|(n, _)| *n != name);
            chosen.push((name, source));
        }
        for (name, source) in chosen {
            let c = CONSTRAINTS.choose(rng).expect("constraints");
            let _ = write!(main, "    {name} = {{\n      source = \"{source}\"\n");
            if !c.is_empty() {
                let _ = writeln!(main, "      version = \"{c}\"");
            }
            match passed {
                Some((n, _, true)) if n == name => {
                    let _ = writeln!(main, "      configuration_aliases = [{n}, {n}.west]");
                }
                Some((n, _, false)) if n == name => {
                    let _ = writeln!(main, "      configuration_aliases = [{n}.west]");
                }
                _ => {}
            }
            main.push_str("    }\n");
            names.push((name, source));
        }
        main.push_str("  }\n}\n\n");
    }
    let mut aliased = Vec::new();
    for (name, source) in &names {
        if rng.gen_bool(0.3) {
            let _ = writeln!(main, "provider \"{name}\" {{\n  alias = \"second\"\n}}\n");
            aliased.push((*name, *source));
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
    if switches::IMPORT_BLOCKS && root && rng.gen_bool(0.4) {
        // The resource type's provider is implied (declared or not); an aliased
        // configuration names it explicitly.
        let name = ["aws", "thing", "google", "null"]
            .choose(rng)
            .expect("names");
        let _ = write!(main, "import {{\n  to = {name}_thing.imp\n  id = \"i\"\n");
        if let Some((n, _)) = aliased.iter().find(|(n, _)| n == name) {
            let _ = writeln!(main, "  provider = {n}.second");
        }
        main.push_str("}\n\n");
    }
    if switches::CHECK_DATA_SOURCES && rng.gen_bool(0.25) {
        main.push_str("check \"c\" {\n  data \"http\" \"h\" {\n    url = \"https://example.com\"\n  }\n\n  assert {\n    condition     = data.http.h.status_code == 200\n    error_message = \"down\"\n  }\n}\n\n");
    }
    if rng.gen_bool(0.3) {
        // Syntax that once hid a module's requirements: provider functions, line breaks
        // before operators in `for` expressions, repeated object keys.
        main.push_str("locals {\n  arn = provider::aws::arn_parse(\"arn:aws:s3:::b\")\n  m = { for k, v in { a = \"x\" } : k => v\n    if v != \"\" }\n  l = [for x in [\"a\"] : x\n    == \"a\" ? 1\n    : 2]\n  o = { a = 1, a = 2 }\n}\n\n");
    }
    let mut passes = Vec::new();
    for c in children {
        let _ = write!(main, "module \"{c}\" {{\n  source = \"./{c}\"\n");
        let pass = match aliased.choose(rng) {
            Some((name, source)) if switches::CONFIGURATION_ALIASES && rng.gen_bool(0.5) => {
                Some((*name, *source, rng.gen_bool(0.5)))
            }
            _ => None,
        };
        if let Some((name, _, default)) = pass {
            main.push_str("  providers = {\n");
            if default {
                let _ = writeln!(main, "    {name} = {name}");
            }
            let _ = writeln!(main, "    {name}.west = {name}.second\n  }}");
        }
        main.push_str("}\n\n");
        passes.push(pass);
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
    (files, passes)
}

/// Writes a random tree of local modules under `dir`.
fn write_tree(rng: &mut StdRng, dir: &Path, depth: u32, passed: Option<Passed>) {
    let children: Vec<String> = if depth < 2 {
        (0..rng.gen_range(0..3))
            .map(|i| format!("m{depth}{i}"))
            .collect()
    } else {
        Vec::new()
    };
    let (files, passes) = module_files(rng, &children, passed, depth == 0);
    for (name, text) in files {
        std::fs::create_dir_all(dir).expect("mkdir");
        std::fs::write(dir.join(name), text).expect("write");
    }
    for (c, pass) in children.iter().zip(passes) {
        write_tree(rng, &dir.join(c), depth + 1, pass);
    }
}

/// The tree text as node path → set of its provider lines.
fn tree(text: &str) -> BTreeMap<String, BTreeSet<String>> {
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
        if content.starts_with("module.") {
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
    for n in 0..CASES {
        let dir = tempfile::tempdir().expect("tempdir");
        write_tree(&mut rng, dir.path(), 0, None);
        let cfg = home.path().join("cli.tfrc");
        // Installs the local modules; a broken configuration fails here and in `providers`.
        run_terraform(dir.path(), home.path(), &cfg, &["get", "-no-color"]);
        let tf = run_terraform(dir.path(), home.path(), &cfg, &["providers", "-no-color"]);
        let ours = std::process::Command::new(tflock_bin())
            .arg("providers")
            .current_dir(dir.path())
            .output()
            .expect("tflock providers");
        let (a, b) = (
            String::from_utf8_lossy(&tf.stdout).into_owned(),
            String::from_utf8_lossy(&ours.stdout).into_owned(),
        );
        if tf.status.success() != ours.status.success() || tree(&a) != tree(&b) {
            let files: Vec<String> = crate::terraform_oracle::harness::tree(dir.path())
                .into_iter()
                .filter(|(k, _)| k.ends_with(".tf"))
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
        "{} of {CASES} provider trees differ from Terraform:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
