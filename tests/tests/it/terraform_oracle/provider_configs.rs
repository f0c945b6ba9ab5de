//! Provider configurations across a module tree against `terraform init`: generated trees
//! of modules with `required_providers` (some `configuration_aliases`), empty and configured
//! provider blocks (some aliased), resources that imply providers, and module calls passing
//! configurations through `providers` maps, some with `count`, `for_each` or `depends_on`,
//! and arguments for the variables the modules declare (some missing, misspelt or unknown).
//! Every diagnostic Terraform gives about the configuration (those with a source range:
//! installing providers needs the network and is left out) must be tflock's, text for text.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt::Write as _;
use std::path::Path;
use tflock_tests::terraform::run_terraform;

use super::harness::{failures_of, rng, tflock_tree_diagnostics};

const CASES: usize = 40;
const LOCALS: &[(&str, &str)] = &[
    ("aws", "hashicorp/aws"),
    ("null", "hashicorp/null"),
    ("thing", "acme/thing"),
    ("myaws", "hashicorp/aws"),
    ("google", "hashicorp/google"),
];
const TYPES: &[&str] = &[
    "aws_instance",
    "null_resource",
    "thing_widget",
    "google_bucket",
];
const ALIASES: &[&str] = &["a1", "a2"];
const VARIABLES: &[&str] = &["region", "name", "settings"];

/// A configuration reference: a local name, sometimes with an alias.
fn reference(rng: &mut StdRng) -> String {
    let name = LOCALS[rng.gen_range(0..LOCALS.len())].0;
    if rng.gen_bool(0.3) {
        format!("{name}.{}", ALIASES[rng.gen_range(0..ALIASES.len())])
    } else {
        name.to_string()
    }
}

/// Writes module `dir` (and, below depth 2, the modules it calls) into `files`.
/// Writes module `dir` and the modules it calls; returns its variables (name, required).
fn module(
    rng: &mut StdRng,
    dir: &str,
    depth: usize,
    files: &mut Vec<(String, String)>,
) -> Vec<(&'static str, bool)> {
    let mut text = String::new();
    let mut variables: Vec<(&'static str, bool)> = Vec::new();
    for v in VARIABLES {
        if depth > 0 && rng.gen_bool(0.4) {
            variables.push((v, rng.gen_bool(0.5)));
        }
    }
    for (name, required) in &variables {
        if *required {
            let _ = writeln!(text, "variable {name:?} {{}}");
        } else {
            let _ = writeln!(
                text,
                "variable {name:?} {{
  default = null
}}"
            );
        }
    }
    let mut required: Vec<&(&str, &str)> = LOCALS.iter().filter(|_| rng.gen_bool(0.35)).collect();
    // Two names for one provider make Terraform warn about whichever its map order meets
    // second: not reproducible, so not generated.
    if required.iter().any(|(n, _)| *n == "aws") {
        required.retain(|(n, _)| *n != "myaws");
    }
    required.shuffle(rng);
    if !required.is_empty() {
        text.push_str("terraform {\n  required_providers {\n");
        for (name, source) in &required {
            let _ = write!(text, "    {name} = {{\n      source = {source:?}\n");
            if depth > 0 && rng.gen_bool(0.3) {
                let alias = ALIASES[rng.gen_range(0..ALIASES.len())];
                let _ = writeln!(text, "      configuration_aliases = [{name}.{alias}]");
            }
            text.push_str("    }\n");
        }
        text.push_str("  }\n}\n");
    }
    let mut configs: Vec<String> = Vec::new();
    for _ in 0..rng.gen_range(0..=2) {
        let r = reference(rng);
        let local = r.split('.').next().unwrap_or_default();
        // A provider block types an undeclared name as `hashicorp/<name>`; for `thing` and
        // `myaws` that would give one name two types across sibling modules, which
        // Terraform resolves in Go map order (not reproducible), so those get blocks only
        // where they are declared.
        let declared = required.iter().any(|(n, _)| *n == local);
        if configs.contains(&r) || (matches!(local, "thing" | "myaws") && !declared) {
            continue;
        }
        configs.push(r.clone());
        let (name, alias) = match r.split_once('.') {
            Some((n, a)) => (n, Some(a)),
            None => (r.as_str(), None),
        };
        let _ = writeln!(text, "provider {name:?} {{");
        if let Some(a) = alias {
            let _ = writeln!(text, "  alias = {a:?}");
        }
        if rng.gen_bool(0.5) {
            text.push_str("  region = \"r\"\n");
        }
        text.push_str("}\n");
    }
    for i in 0..rng.gen_range(0..=2) {
        let ty = TYPES[rng.gen_range(0..TYPES.len())];
        let _ = writeln!(text, "resource {ty:?} \"r{i}\" {{}}");
    }
    if depth > 0 && rng.gen_bool(0.08) {
        text.push_str("variable \"bad\" {\n  type = nope\n}\n");
    }
    if depth < 2 {
        for c in 0..rng.gen_range(0..=2) {
            let child = format!("m{c}");
            let child_dir = if dir.is_empty() {
                child.clone()
            } else {
                format!("{dir}/{child}")
            };
            let child_variables = module(rng, &child_dir, depth + 1, files);
            let _ = write!(text, "module {child:?} {{\n  source = \"./{child}\"\n");
            // Usually what the module declares; sometimes one missing, a misspelt or
            // unknown argument, or a block.
            for (name, required) in &child_variables {
                if rng.gen_bool(if *required { 0.9 } else { 0.5 }) {
                    let _ = writeln!(text, "  {name} = \"v\"");
                }
            }
            match rng.gen_range(0..12) {
                0 => text.push_str("  regoin = \"v\"\n"),
                1 => text.push_str("  extra = 1\n"),
                2 => text.push_str("  settings {\n  }\n"),
                _ => {}
            }
            match rng.gen_range(0..6) {
                0 => text.push_str("  count = 1\n"),
                1 => text.push_str("  for_each = toset([\"a\"])\n"),
                2 => text.push_str("  depends_on = [null_resource.r0]\n"),
                _ => {}
            }
            if rng.gen_bool(0.6) {
                text.push_str("  providers = {\n");
                let mut keys = Vec::new();
                for _ in 0..rng.gen_range(1..=2) {
                    let key = reference(rng);
                    if keys.contains(&key) {
                        continue;
                    }
                    keys.push(key.clone());
                    let _ = writeln!(text, "    {key} = {}", reference(rng));
                }
                text.push_str("  }\n");
            }
            text.push_str("}\n");
        }
    }
    let name = if dir.is_empty() {
        "main.tf".to_string()
    } else {
        format!("{dir}/main.tf")
    };
    files.push((name, text));
    variables
}

/// `severity | summary | file:line:column | detail`, sorted.
type Seen = Vec<String>;

fn line(severity: &str, summary: &str, at: &str, detail: &str) -> String {
    format!("{severity} | {summary} | {at} | {detail}")
}

fn terraform_sees(dir: &Path, home: &Path) -> Seen {
    // `get` installs the local modules and `validate` builds the whole configuration;
    // `init` would stop at installing providers (no network) and not show the warnings.
    let cli_config = home.join("cli.tfrc");
    let get = run_terraform(dir, home, &cli_config, &["get", "-no-color"]);
    let out = if get.status.success() {
        run_terraform(dir, home, &cli_config, &["validate", "-json"])
    } else {
        run_terraform(dir, home, &cli_config, &["init", "-backend=false", "-json"])
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let documents: Vec<serde_json::Value> = if get.status.success() {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        v["diagnostics"].as_array().cloned().unwrap_or_default()
    } else {
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["type"] == "diagnostic")
            .map(|v| v["diagnostic"].clone())
            .collect()
    };
    let mut seen: Seen = documents
        .iter()
        .filter(|d| d["range"].is_object())
        .map(|d| {
            let r = &d["range"];
            let at = format!(
                "{}:{}:{}",
                r["filename"].as_str().unwrap_or_default(),
                r["start"]["line"],
                r["start"]["column"]
            );
            line(
                d["severity"].as_str().unwrap_or_default(),
                d["summary"].as_str().unwrap_or_default(),
                &at,
                d["detail"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    seen.sort();
    seen
}

fn tflock_sees(files: &[(String, String)]) -> Seen {
    let diags = tflock_tree_diagnostics(files);
    let mut seen: Seen = diags
        .iter()
        .filter_map(|d| {
            let r = d.range.as_ref()?;
            let at = format!("{}:{}:{}", r.filename, r.start.line, r.start.column);
            let severity = if d.is_error() { "error" } else { "warning" };
            Some(line(severity, &d.summary, &at, &d.detail))
        })
        .collect();
    seen.sort();
    seen
}

#[test]
fn provider_configurations_are_checked_as_terraform_init_checks_them() {
    let (mut rng, seed) = rng("provider configurations", 1_607);
    let cases: Vec<Vec<(String, String)>> = (0..CASES)
        .map(|_| {
            let mut files = Vec::new();
            module(&mut rng, "", 0, &mut files);
            files
        })
        .collect();
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let failures = failures_of(&cases, |n, files| {
        let work = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let p = work.path().join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        let want = terraform_sees(work.path(), home.path());
        let got = tflock_sees(files);
        if want == got {
            return Vec::new();
        }
        let shown: String = files.iter().map(|(p, t)| format!("--- {p}\n{t}")).collect();
        let only_tf: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
        let only_ours: Vec<_> = got.iter().filter(|g| !want.contains(g)).collect();
        vec![format!(
            "seed {seed}, case {n}\n{shown}--- only terraform {only_tf:#?}\n--- only tflock {only_ours:#?}"
        )]
    });
    assert!(
        failures.is_empty(),
        "{} of {CASES} module trees are checked differently from terraform init:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
