//! `tflock providers` on module trees as repositories lay them out, from
//! `tests/fixtures/tree/<case>/`: `files/` is copied to a fresh directory, the command runs in
//! the directory `workdir` names, and its exit status and output must equal `expected.txt`.
//! Each expectation was taken from Terraform 1.15.5 (`terraform get` then `terraform
//! providers` for trees; `terraform init` for the errors, which tflock reports as `init`
//! does, since it reads module directories itself): modules beside or above the working
//! directory (`../../modules/x`), missing or unreadable local module directories, registry
//! modules behind such calls, the modules test files' runs call, and what Terraform's
//! test-file decoder refuses (schemas, names, duplicates, backends in runs, override targets;
//! the `test-file-*` cases, each checked against `terraform providers` and `terraform init
//! -json` for summaries, lines and details).

use crate::e2e_common::*;
use tflock_tests::fixtures;

#[test]
fn module_trees_match_terraforms_for_every_layout_fixture() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for case in std::fs::read_dir(fixtures("tree"))
        .expect("fixtures")
        .flatten()
    {
        let dir = case.path();
        let env = Env::new();
        copy_tree(&dir.join("files"), &env.work);
        let workdir = std::fs::read_to_string(dir.join("workdir")).expect("workdir");
        let out = env.run_in(&env.work.join(workdir.trim()), &["providers"]);
        let got = text(&out);
        let expected_path = dir.join("expected.txt");
        if std::env::var_os("TFLOCK_BLESS").is_some() {
            std::fs::write(&expected_path, &got).expect("bless");
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}:\n--- want\n{want}\n--- got\n{got}",
                dir.display()
            ));
        }
        cases += 1;
    }
    assert!(cases >= 5, "only {cases} fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
