//! `tflock merge` end to end: merged HCL only on stdout, diagnostics on stderr in Terraform's
//! style, exit status 1 on errors with nothing on stdout, JSON with provenance.

use std::process::Command;
use tflock_tests::{fixtures, tflock_bin};

fn merge(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(tflock_bin())
        .arg("merge")
        .args(args)
        .env_remove("TFLOCK_FLAVOR")
        .output()
        .expect("run tflock");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn merge_prints_the_merged_module_and_nothing_else() {
    let case = fixtures("config").join("seed-example");
    let (code, stdout, stderr) = merge(&[case.join("input").to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let want = std::fs::read_to_string(case.join("merged.hcl")).unwrap();
    assert_eq!(stdout, want);
    assert_eq!(stderr, "");
}

#[test]
fn merge_errors_go_to_stderr_with_exit_status_one() {
    let case = fixtures("config")
        .join("resource-missing-base")
        .join("input");
    let (code, stdout, stderr) = merge(&[case.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    // As `terraform init -no-color` prints it for these files.
    assert!(
        stderr.starts_with("\nError: Missing resource to override\n\n  on override.tf line 1:\n   1: resource \"aws_instance\" \"api\" {\n"),
        "{stderr}"
    );
}

#[test]
fn merge_follows_the_chosen_flavor_and_by_default_the_directorys() {
    let case = fixtures("config")
        .join("tofu-file-shadows-tf-file")
        .join("input");
    let (_, tf, _) = merge(&["-flavor=terraform", case.to_str().unwrap()]);
    let (code, tofu, _) = merge(&["-flavor=opentofu", case.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(tf.contains("from-tf"), "{tf}");
    assert!(tofu.contains("from-tofu"), "{tofu}");
    // No flag: main.tofu makes the directory OpenTofu's (issue 31, item 1).
    let (code, chosen, stderr) = merge(&[case.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(chosen, tofu);
    assert_eq!(
        stderr,
        "tflock: following OpenTofu (main.tofu is OpenTofu configuration); -flavor=terraform overrides\n"
    );
}

#[test]
fn merge_json_carries_provenance() {
    let case = fixtures("config").join("seed-example").join("input");
    let (code, stdout, _) = merge(&["--json", case.to_str().unwrap()]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    let ami = v["provenance"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["path"] == "ami")
        .unwrap();
    assert_eq!(ami["file"], "override.tf");
    assert_eq!(v["files"]["overrides"][0], "override.tf");
}

#[test]
fn merge_of_a_missing_directory_fails_cleanly() {
    let (code, stdout, stderr) = merge(&["/definitely/not/here"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("Failed to read module directory"),
        "{stderr}"
    );
}

#[test]
fn merge_needs_no_child_module_installed() {
    // A registry module `init` never installed: merging this directory's own files does not
    // read it, so the merge succeeds; only the requirement tree needs the child.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n\nresource \"terraform_data\" \"x\" {\n  input = 1\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("override.tf"),
        "resource \"terraform_data\" \"x\" {\n  input = 2\n}\n",
    )
    .unwrap();
    let path = dir.path().to_str().unwrap();
    let (code, stdout, stderr) = merge(&[path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("input = 2"), "{stdout}");
    assert_eq!(stderr, "");
    let (code, stdout, stderr) = merge(&["--requirements", path]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(stderr.contains("Error: Module not installed"), "{stderr}");
}
