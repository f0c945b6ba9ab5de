//! Suite 5, configuration errors: generated modules (as in the merging suite) with one
//! injected fault — an override without a base block, an override setting `depends_on`, a
//! `moved`/`import` block in an override, a `check` block or a condition block (`validation`,
//! `precondition`, `postcondition`) in an override, a `state_store` block, duplicate blocks,
//! a syntax error in a native or JSON file, a name Terraform refuses (a label, a local value,
//! a reserved variable name). `terraform get` loads the module; `tflock merge --requirements`
//! merges it and decodes its provider requirements. Both must refuse it, tflock must report at least one of Terraform's errors and no error Terraform does not
//! report, and where both report a summary, the same detail.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tflock_tests::terraform::run_terraform;
use tflock_tests::tflock_bin;

use crate::terraform_oracle::gen_config::{self, Module};
use crate::terraform_oracle::harness::{failures_of, rng};
use crate::terraform_oracle::lockfile_diags::diagnostics;

const CASES: usize = 60;
/// Cases of [`inject_later`]'s faults.
const LATER_CASES: usize = 20;

/// Injects one fault into `m`; returns what was done.
fn inject(rng: &mut StdRng, m: &mut Module) -> String {
    let overrides: Vec<usize> = (0..m.files.len())
        .filter(|&i| m.files[i].0.contains("override") && !m.files[i].0.ends_with(".json"))
        .collect();
    let natives: Vec<usize> = (0..m.files.len())
        .filter(|&i| !m.files[i].0.ends_with(".json"))
        .collect();
    let fault = rng.gen_range(0..10);
    let append = |m: &mut Module, i: usize, text: &str| m.files[i].1.push_str(text);
    match fault {
        0 | 1 if !overrides.is_empty() => {
            let text = [
                "variable \"missing\" {\n  default = 1\n}\n",
                "output \"missing\" {\n  value = 1\n}\n",
                "resource \"terraform_data\" \"missing\" {\n  input = 1\n}\n",
                "module \"missing\" {\n  source = \"./leaf\"\n}\n",
                "data \"terraform_remote_state\" \"missing\" {\n  backend = \"local\"\n}\n",
                "locals {\n  missing = 1\n}\n",
            ]
            .choose(rng)
            .expect("texts");
            append(m, *overrides.choose(rng).expect("one"), text);
            "override without base".into()
        }
        2 if !overrides.is_empty() => {
            let text = [
                "output \"o0\" {\n  depends_on = [terraform_data.base]\n}\n",
                "resource \"terraform_data\" \"base\" {\n  depends_on = []\n}\n",
            ]
            .choose(rng)
            .expect("texts");
            append(m, *overrides.choose(rng).expect("one"), text);
            "depends_on in an override".into()
        }
        3 if !overrides.is_empty() => {
            let text = [
                "moved {\n  from = terraform_data.old\n  to   = terraform_data.base\n}\n",
                "import {\n  to = terraform_data.base\n  id = \"x\"\n}\n",
                "removed {\n  from = terraform_data.gone\n}\n",
            ]
            .choose(rng)
            .expect("texts");
            append(m, *overrides.choose(rng).expect("one"), text);
            "block not allowed in an override".into()
        }
        4 if !natives.is_empty() => {
            let i = *natives.choose(rng).expect("a native file");
            let text = [
                "variable \"v0\" {\n}\n",
                "output \"o0\" {\n  value = 2\n}\n",
                "resource \"terraform_data\" \"base\" {\n}\n",
            ]
            .choose(rng)
            .expect("texts");
            if m.files[i].0.contains("override") {
                m.files.push(("dup.tf".into(), text.to_string()));
            } else {
                append(m, i, text);
            }
            "duplicate block".into()
        }
        5 => {
            let i = rng.gen_range(0..m.files.len());
            let text = &mut m.files[i].1;
            let at = text.rfind('}').unwrap_or(0);
            text.replace_range(at..at + 1, "");
            format!("closing brace dropped in {}", m.files[i].0)
        }
        6 => {
            let i = rng.gen_range(0..m.files.len());
            let text = &mut m.files[i].1;
            let mut at = rng.gen_range(0..=text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let junk = ["@", "\"", "${", "=", "\n=\n", "[", "\u{7}", "é="]
                .choose(rng)
                .expect("junk");
            text.insert_str(at, junk);
            format!("{junk:?} inserted in {}", m.files[i].0)
        }
        7 => {
            m.files.push((
                "extra_override.tf.json".into(),
                [
                    "{\"variable\": {\"v0\": {\"default\": 1,}}}",
                    "{\"bogus\": {}}",
                    "[1]",
                ]
                .choose(rng)
                .expect("json")
                .to_string(),
            ));
            "broken JSON override".into()
        }
        8 => {
            let (file, text) = *[
                ("names.tf", "variable \"count\" {\n}\n"),
                ("names.tf", "variable \"1v\" {\n}\n"),
                ("names.tf", "output \"o o\" {\n  value = 1\n}\n"),
                ("names.tf", "resource \"terraform_data\" \"9x\" {\n}\n"),
                (
                    "names.tf",
                    "data \"terraform_remote_state\" \"a.b\" {\n  backend = \"local\"\n}\n",
                ),
                (
                    "names.tf.json",
                    "{\"locals\": {\"ok-name\": 1, \"a b\": 2}}",
                ),
                ("names_override.tf.json", "{\"variable\": {\"v 0\": {}}}"),
            ]
            .choose(rng)
            .expect("texts");
            m.files.push((file.into(), text.into()));
            format!("a name Terraform refuses in {file}")
        }
        _ => {
            m.files.push((
                "terraform_override.tf".into(),
                "terraform {\n  required_providers {\n    x = {\n      source = \"not a source\"\n    }\n  }\n}\n"
                    .into(),
            ));
            "bad provider source in an override".into()
        }
    }
}

/// Injects one of the faults added later (a `check` or condition block in an override, a
/// `state_store` block) into `m`; a suite of its own random stream, so the cases of
/// [`inject`] stay what they were for a given seed.
fn inject_later(rng: &mut StdRng, m: &mut Module) -> String {
    let overrides: Vec<usize> = (0..m.files.len())
        .filter(|&i| m.files[i].0.contains("override") && !m.files[i].0.ends_with(".json"))
        .collect();
    let append = |m: &mut Module, i: usize, text: &str| m.files[i].1.push_str(text);
    match rng.gen_range(0..3) {
        0 | 1 if !overrides.is_empty() => {
            let text = [
                "check \"c\" {\n  assert {\n    condition     = terraform_data.base.input != \"\"\n    error_message = \"x\"\n  }\n}\n",
                "resource \"terraform_data\" \"base\" {\n  lifecycle {\n    precondition {\n      condition     = var.v0 != null\n      error_message = \"x\"\n    }\n  }\n}\n",
                "resource \"terraform_data\" \"base\" {\n  lifecycle {\n    postcondition {\n      condition     = self.input != null\n      error_message = \"x\"\n    }\n  }\n}\n",
                "output \"o0\" {\n  precondition {\n    condition     = var.v0 != null\n    error_message = \"x\"\n  }\n}\n",
                "variable \"v0\" {\n  validation {\n    condition     = var.v0 != null\n    error_message = \"x\"\n  }\n}\n",
            ]
            .choose(rng)
            .expect("texts");
            append(m, *overrides.choose(rng).expect("one"), text);
            "check or condition block in an override".into()
        }
        _ => {
            let i = rng.gen_range(0..m.files.len());
            let name = if m.files[i].0.ends_with(".json") {
                "state_override.tf".to_string()
            } else {
                m.files[i].0.clone()
            };
            let text =
                "terraform {\n  state_store \"fs\" {\n    provider \"terraform\" {}\n  }\n}\n";
            match m.files.iter_mut().find(|(n, _)| *n == name) {
                Some(f) => f.1.push_str(text),
                None => m.files.push((name.clone(), text.into())),
            }
            format!("state_store in {name}")
        }
    }
}

fn check(home: &Path, m: &Module, what: &str, seed: u64, n: usize) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in &m.files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    std::fs::create_dir_all(dir.path().join("leaf")).expect("mkdir");
    std::fs::write(dir.path().join("leaf/main.tf"), gen_config::LEAF).expect("leaf");
    let tf = run_terraform(
        dir.path(),
        home,
        &home.join("cli.tfrc"),
        &["get", "-no-color"],
    );
    let ours = std::process::Command::new(tflock_bin())
        .args(["merge", "--requirements", "."])
        .current_dir(dir.path())
        .output()
        .expect("tflock merge");
    let errors = |o: &std::process::Output| -> Vec<(String, String, String)> {
        let text =
            String::from_utf8_lossy(&[o.stdout.clone(), o.stderr.clone()].concat()).into_owned();
        diagnostics(&text)
            .into_iter()
            .filter(|d| d.0 == "error")
            .collect()
    };
    let (tf_errors, our_errors) = (errors(&tf), errors(&ours));
    let verdict = tf.status.success() == ours.status.success();
    let overlap = tf_errors.is_empty()
        || our_errors
            .iter()
            .any(|o| tf_errors.iter().any(|t| t.1 == o.1));
    let nothing_extra = our_errors
        .iter()
        .all(|o| tf_errors.iter().any(|t| t.1 == o.1));
    let same_details = our_errors.iter().all(|o| {
        tf_errors.iter().any(|t| t.1 == o.1 && t.2 == o.2) || !tf_errors.iter().any(|t| t.1 == o.1)
    });
    if verdict && overlap && nothing_extra && same_details {
        return Ok(());
    }
    let files: String = m
        .files
        .iter()
        .map(|(name, text)| format!("----- {name}\n{text}\n"))
        .collect();
    Err(format!(
        "seed {seed}, case {n} ({what})\n{files}--- terraform\n{}\n--- tflock\n{}\n--- terraform errors {tf_errors:#?}\n--- tflock errors {our_errors:#?}",
        crate::e2e_common::text(&tf),
        crate::e2e_common::text(&ours),
    ))
}

#[test]
fn configuration_errors_match_terraform() {
    let (mut rng, seed) = rng("configuration errors", 16_005);
    let mut cases: Vec<(Module, String)> = (0..CASES)
        .map(|_| {
            let mut m = gen_config::module(&mut rng);
            let what = inject(&mut rng, &mut m);
            (m, what)
        })
        .collect();
    let mut later = StdRng::seed_from_u64(seed.wrapping_add(1));
    cases.extend((0..LATER_CASES).map(|_| {
        let mut m = gen_config::module(&mut later);
        let what = inject_later(&mut later, &mut m);
        (m, what)
    }));
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let failures = failures_of(&cases, |n, (m, what)| {
        check(home.path(), m, what, seed, n)
            .err()
            .into_iter()
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} broken configurations are judged differently from Terraform:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
