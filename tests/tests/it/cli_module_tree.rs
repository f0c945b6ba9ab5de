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

/// Configuration files that are symbolic links (`tflock providers` beside `terraform
/// providers`): one to a shared file elsewhere is read as the file it names; one to nothing
/// is Terraform's `Failed to read file` (tool test data, hashicorp/terraform-ls
/// `invalid-links`), not a file that silently is not there.
#[cfg(unix)]
#[test]
fn symlinked_configuration_files_are_read_and_a_dangling_one_is_an_error_as_in_terraform() {
    use tflock_tests::terraform::run_terraform;
    let env = Env::new();
    env.cli_config("");
    let shared = env.home.path().join("shared");
    std::fs::create_dir_all(&shared).expect("mkdir");
    std::fs::write(
        shared.join("aws.tf"),
        "resource \"aws_instance\" \"a\" {}\n",
    )
    .expect("write");
    std::os::unix::fs::symlink(shared.join("aws.tf"), env.work.join("aws.tf")).expect("link");
    let tree = |dir: &std::path::Path| {
        let cfg = env.home.path().join("cli.tfrc");
        let theirs = run_terraform(dir, env.home.path(), &cfg, &["providers", "-no-color"]);
        let ours = env.run_in(dir, &["providers"]);
        (theirs, ours)
    };
    let (theirs, ours) = tree(&env.work);
    assert!(
        theirs.status.success() && ours.status.success(),
        "{}",
        text(&ours)
    );
    let lines = |o: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| l.contains("provider["))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&ours), lines(&theirs));
    assert!(lines(&ours)[0].contains("hashicorp/aws"), "{}", text(&ours));

    std::os::unix::fs::symlink(shared.join("gone.tf"), env.work.join("gone.tf")).expect("link");
    let (theirs, ours) = tree(&env.work);
    let want = "The file \"gone.tf\" could not be read.";
    assert_eq!(theirs.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&theirs.stderr).contains("Failed to read file"));
    assert!(String::from_utf8_lossy(&theirs.stderr).contains(want));
    assert_eq!(ours.status.code(), Some(1), "{}", text(&ours));
    let err = String::from_utf8_lossy(&ours.stderr);
    assert!(
        err.contains("Error: Failed to read file") && err.contains(want),
        "{err}"
    );
    assert!(lines(&ours).is_empty(), "{}", text(&ours));
}
