//! Suite 2, override merging: generated modules with primary and override files (native and
//! JSON). Terraform plans them with their overrides; it also plans `tflock merge`'s output
//! with no overrides at all. The two `terraform show -json` plans must be the same.
//!
//! Modules are planned in batches, each generated module a child module `c<N>` of one root
//! whose outputs expose every child's outputs, so one `terraform plan` covers many modules.

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tflock_tests::terraform::run_terraform;
use tflock_tests::tflock_bin;

use crate::terraform_oracle::gen_config::{self, Module};
use crate::terraform_oracle::harness::{failures_of, rng};

const MODULES: usize = 200;
const BATCH: usize = 50;

struct Dirs {
    home: tempfile::TempDir,
}

impl Dirs {
    fn new() -> Dirs {
        let home = tempfile::tempdir().expect("tempdir");
        std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
        Dirs { home }
    }

    fn terraform(&self, dir: &Path, args: &[&str]) -> Output {
        run_terraform(
            dir,
            self.home.path(),
            &self.home.path().join("cli.tfrc"),
            args,
        )
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn root_tf(indexes: &[usize]) -> String {
    let mut out = String::new();
    for i in indexes {
        out.push_str(&format!(
            "module \"c{i}\" {{\n  source = \"./c{i}\"\n}}\n\noutput \"c{i}\" {{\n  value     = module.c{i}\n  sensitive = true\n}}\n\n"
        ));
    }
    out
}

/// Writes a generated module (with its leaf module) into `dir`.
fn write_module(dir: &Path, m: &Module) {
    for (name, text) in &m.files {
        write(&dir.join(name), text);
    }
    write(&dir.join("leaf/main.tf"), gen_config::LEAF);
}

/// `tflock merge DIR`: the merged text, or the failure output.
fn merged(dir: &Path) -> Result<String, String> {
    let out = std::process::Command::new(tflock_bin())
        .arg("merge")
        .arg(dir)
        .output()
        .expect("run tflock merge");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(crate::e2e_common::text(&out))
    }
}

/// `init`, `plan -out` and `show -json` in `dir`: the plan without its timestamp, or the
/// failing command's output.
fn plan(dirs: &Dirs, dir: &Path) -> Result<Value, String> {
    for args in [
        &["init", "-input=false", "-no-color"][..],
        &["plan", "-input=false", "-no-color", "-out=plan.bin"][..],
    ] {
        let out = dirs.terraform(dir, args);
        if !out.status.success() {
            return Err(format!(
                "terraform {args:?} failed\n{}",
                crate::e2e_common::text(&out)
            ));
        }
    }
    let out = dirs.terraform(dir, &["show", "-json", "plan.bin"]);
    assert!(
        out.status.success(),
        "show: {}",
        crate::e2e_common::text(&out)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    v.as_object_mut().expect("object").remove("timestamp");
    Ok(v)
}

/// Everything of a plan that concerns child module `c<i>`. The `configuration` section
/// describes source syntax, and Terraform reports JSON-syntax templates there as constant
/// strings without references, so it is compared only for modules written natively.
fn module_part(plan: &Value, i: usize, m: &Module) -> Value {
    let native = m.files.iter().all(|(name, _)| !name.ends_with(".json"));
    let name = format!("c{i}");
    let addr = format!("module.c{i}");
    let changes: Vec<&Value> = plan["resource_changes"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|c| {
                    c["module_address"]
                        .as_str()
                        .is_some_and(|m| m == addr || m.starts_with(&format!("{addr}.")))
                })
                .collect()
        })
        .unwrap_or_default();
    serde_json::json!({
        "output": plan["planned_values"]["outputs"][&name],
        "changes": changes,
        "config": if native {
            plan["configuration"]["root_module"]["module_calls"][&name].clone()
        } else {
            Value::Null
        },
        "variables": plan["variables"],
    })
}

fn describe(i: usize, m: &Module, merged: &str) -> String {
    let mut out = format!("--- module c{i}\n");
    for (name, text) in &m.files {
        out.push_str(&format!("----- {name}\n{text}"));
    }
    out.push_str(&format!("----- tflock merge\n{merged}"));
    out
}

/// Plans one batch both ways; the descriptions of the modules that differ.
fn run_batch(dirs: &Dirs, modules: &[(usize, Module)], seed: u64) -> Vec<String> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tf_root, our_root) = (tmp.path().join("terraform"), tmp.path().join("tflock"));
    let indexes: Vec<usize> = modules.iter().map(|(i, _)| *i).collect();
    write(&tf_root.join("main.tf"), &root_tf(&indexes));
    write(&our_root.join("main.tf"), &root_tf(&indexes));
    let mut failures = Vec::new();
    let mut texts = Vec::new();
    for (i, m) in modules {
        let dir = tf_root.join(format!("c{i}"));
        write_module(&dir, m);
        match merged(&dir) {
            Ok(text) => {
                write(&our_root.join(format!("c{i}/main.tf")), &text);
                write(
                    &our_root.join(format!("c{i}/leaf/main.tf")),
                    gen_config::LEAF,
                );
                texts.push(text);
            }
            Err(e) => {
                failures.push(format!(
                    "seed {seed}: tflock merge failed\n{e}{}",
                    describe(*i, m, "")
                ));
                texts.push(String::new());
            }
        }
    }
    if !failures.is_empty() {
        return failures;
    }
    let (tf_plan, our_plan) = (plan(dirs, &tf_root), plan(dirs, &our_root));
    match (&tf_plan, &our_plan) {
        (Ok(a), Ok(b)) => modules
            .iter()
            .zip(&texts)
            .filter(|((i, m), _)| module_part(a, *i, m) != module_part(b, *i, m))
            .map(|((i, m), text)| {
                format!(
                    "seed {seed}: plans differ\n{}--- terraform plan part\n{:#}\n--- plan of the merge\n{:#}",
                    describe(*i, m, text),
                    module_part(a, *i, m),
                    module_part(b, *i, m)
                )
            })
            .collect(),
        _ if modules.len() > 1 => {
            // Find the modules that fail alone.
            let mut out = Vec::new();
            for one in modules.chunks(1) {
                out.extend(run_batch(dirs, one, seed));
            }
            if out.is_empty() {
                out.push(format!(
                    "seed {seed}: batch failed as a whole but no module alone\n{:?}\n{:?}",
                    tf_plan.err(),
                    our_plan.err()
                ));
            }
            out
        }
        (Err(a), Err(_)) => {
            // Both refuse: a generator mistake, not a divergence; show it so it gets fixed.
            vec![format!("seed {seed}: both plans fail\n{a}{}", describe(modules[0].0, &modules[0].1, &texts[0]))]
        }
        (a, b) => vec![format!(
            "seed {seed}: one plan fails\n--- terraform: {:?}\n--- merge: {:?}\n{}",
            a.as_ref().err(),
            b.as_ref().err(),
            describe(modules[0].0, &modules[0].1, &texts[0])
        )],
    }
}

#[test]
fn merged_modules_plan_like_terraform_with_overrides() {
    let (mut rng, seed) = rng("override merging", 16_002);
    let modules: Vec<(usize, Module)> = (0..MODULES)
        .map(|i| (i, gen_config::module(&mut rng)))
        .collect();
    let dirs = Dirs::new();
    let batches: Vec<&[(usize, Module)]> = modules.chunks(BATCH).collect();
    let failures = failures_of(&batches, |_, batch| run_batch(&dirs, batch, seed));
    assert!(
        failures.is_empty(),
        "{} of {MODULES} generated modules disagree with Terraform:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn count_and_for_each_from_different_files_plan_like_terraform_and_warn() {
    let cases = [
        ("for_each = toset([\"a\", \"b\"])", "count = 3"),
        ("count = 1", "for_each = { k = \"v\" }"),
    ];
    let dirs = Dirs::new();
    for (n, (base, over)) in cases.iter().enumerate() {
        let m = Module {
            files: vec![
                (
                    "main.tf".into(),
                    format!("resource \"terraform_data\" \"r\" {{\n  {base}\n  input = \"x\"\n}}\n\noutput \"o\" {{\n  value = length(terraform_data.r)\n}}\n"),
                ),
                (
                    "override.tf".into(),
                    format!("resource \"terraform_data\" \"r\" {{\n  {over}\n}}\n"),
                ),
            ],
        };
        let failures = run_batch(&dirs, &[(n, m)], 0);
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    write(
        &tmp.path().join("main.tf"),
        "resource \"terraform_data\" \"r\" {\n  for_each = toset([])\n}\n",
    );
    write(
        &tmp.path().join("override.tf"),
        "resource \"terraform_data\" \"r\" {\n  count = 1\n}\n",
    );
    let out = std::process::Command::new(tflock_bin())
        .arg("merge")
        .arg(tmp.path())
        .output()
        .expect("tflock merge");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Override combines count and for_each"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("for_each"));
}
