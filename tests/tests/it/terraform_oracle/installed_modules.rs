//! Installed remote modules against Terraform itself: every case of
//! `tests/fixtures/installed-modules/` (`files/` is a working directory with the
//! `.terraform/modules/modules.json` and module directories a previous `init` left) goes to
//! `terraform providers` and `tflock providers`; exit statuses, the errors (summary, file and
//! line) and, when both succeed, the printed tree must agree. Terraform's loader compares a
//! call's `source` with the one its module was installed from ("Module source has changed").

use std::path::Path;

use tflock_tests::fixtures;
use tflock_tests::terraform::run_terraform;

/// `(success, errors as "summary | file:line", stdout)` of one run's output.
fn outcome(success: bool, stdout: &[u8], stderr: &[u8]) -> (bool, Vec<String>, String) {
    let out = String::from_utf8_lossy(stdout).into_owned();
    let text = format!("{out}{}", String::from_utf8_lossy(stderr));
    let lines: Vec<&str> = text.lines().collect();
    let mut errors = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(summary) = l.strip_prefix("Error: ") else {
            continue;
        };
        let place = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("Error: ") && !l.starts_with("Warning: "))
            .find_map(|l| {
                let rest = l.trim_start().strip_prefix("on ")?;
                let (file, after) = rest.split_once(" line ")?;
                let line: String = after.chars().take_while(char::is_ascii_digit).collect();
                Some(format!("{file}:{line}"))
            })
            .unwrap_or_default();
        errors.push(format!("{summary} | {place}"));
    }
    errors.sort();
    (success, errors, out.trim().to_string())
}

fn check(case: &Path) -> Vec<String> {
    let (env, theirs_dir) = super::harness::case_dirs(case);
    let cfg = env.home.path().join("cli.tfrc");
    let t = run_terraform(
        theirs_dir.path(),
        env.home.path(),
        &cfg,
        &["providers", "-no-color"],
    );
    let theirs = outcome(t.status.success(), &t.stdout, &t.stderr);
    let o = env.run(&["providers"]);
    let mut ours = outcome(o.status.success(), &o.stdout, &o.stderr);
    if !(theirs.0 && ours.0) {
        // Only a tree both printed is compared.
        ours.2.clone_from(&theirs.2);
    }
    if theirs == ours {
        Vec::new()
    } else {
        vec![format!(
            "{}:\n--- terraform {theirs:#?}\n--- tflock {ours:#?}",
            case.display()
        )]
    }
}

#[test]
fn installed_modules_are_loaded_as_terraform_providers_loads_them() {
    let mut cases: Vec<_> = std::fs::read_dir(fixtures("installed-modules"))
        .expect("fixtures/installed-modules")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    let failures = crate::terraform_oracle::harness::failures_of(&cases, |_, case| check(case));
    assert!(cases.len() >= 3, "only {} cases", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
