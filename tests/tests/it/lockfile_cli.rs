//! End-to-end: `tflock lockfile fmt|check|diff|merge-driver` on real files.

use std::path::Path;
use std::process::{Command, Output};

fn tflock(args: &[&str], dir: &Path) -> Output {
    Command::new(tflock_tests::tflock_bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run tflock")
}

fn fixture(case: &str, file: &str) -> String {
    std::fs::read_to_string(tflock_tests::fixtures("lockfile").join(case).join(file))
        .expect("fixture")
}

#[test]
fn fmt_prints_or_rewrites_in_place_keeping_the_header_flavour() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lock = dir.path().join(".terraform.lock.hcl");
    std::fs::write(
        &lock,
        fixture("legacy-hashes-alignment", ".terraform.lock.hcl"),
    )
    .unwrap();
    let want = fixture("legacy-hashes-alignment", "formatted.terraform.lock.hcl");

    let out = tflock(&["lockfile", "fmt"], dir.path());
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);

    let out = tflock(&["lockfile", "fmt", "-w"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), want);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");

    let tofu = dir.path().join("tofu.hcl");
    let mut unsorted = fixture("valid-opentofu", ".terraform.lock.hcl");
    unsorted = unsorted.replace(
        "    \"h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=\",\n    \"zh:299dd806df78cb0537e5c111019eaca6e6b7797e1b63cb37cc6a76f91c6c0782\",\n",
        "    \"zh:299dd806df78cb0537e5c111019eaca6e6b7797e1b63cb37cc6a76f91c6c0782\",\n    \"h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=\",\n    \"h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=\",\n",
    );
    std::fs::write(&tofu, unsorted).unwrap();
    let out = tflock(&["lockfile", "fmt", "tofu.hcl"], dir.path());
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        fixture("valid-opentofu", ".terraform.lock.hcl"),
        "hashes sorted and de-duplicated, tofu header kept"
    );
}

#[test]
fn fmt_and_check_refuse_invalid_files_without_writing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lock = dir.path().join(".terraform.lock.hcl");
    let bad = fixture("invalid-versions", ".terraform.lock.hcl");
    std::fs::write(&lock, &bad).unwrap();
    let out = tflock(&["lockfile", "fmt", "-w"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        bad,
        "file untouched"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Error: Invalid provider version number"),
        "{stderr}"
    );

    let out = tflock(&["lockfile", "check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let out = tflock(&["lockfile", "check", "missing.hcl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Failed to read file"));

    std::fs::write(&lock, [0xff, 0xfe, b'{']).unwrap();
    let out = tflock(&["lockfile", "check"], dir.path());
    assert_eq!(
        out.status.code(),
        Some(1),
        "binary garbage is a diagnostic, not a panic"
    );

    std::fs::write(&lock, fixture("valid-terraform", ".terraform.lock.hcl")).unwrap();
    let out = tflock(&["lockfile", "check"], dir.path());
    assert!(out.status.success());
}

#[test]
fn diff_prints_review_text_and_json() {
    let dir = tflock_tests::fixtures("lockfile").join("change-new-checksums-terraform");
    let out = tflock(
        &[
            "lockfile",
            "diff",
            "old.terraform.lock.hcl",
            "new.terraform.lock.hcl",
        ],
        &dir,
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "registry.terraform.io/hashicorp/azurerm: 1 new checksum (h1:) for the same version\n"
    );
    let out = tflock(
        &[
            "lockfile",
            "diff",
            "--json",
            "old.terraform.lock.hcl",
            "new.terraform.lock.hcl",
        ],
        &dir,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["providers"][0]["changes"][0]["kind"], "new_checksums");
    assert_eq!(
        v["providers"][0]["changes"][0]["added"][0],
        "h1:1xvaS5D8B8t6J6XmXxX8spo97tAzjhacjedFX1B47Fk="
    );
}

fn git(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("run git");
    out
}

/// Drives the merge driver through git itself, configured as the README says.
#[test]
fn git_merges_hash_additions_from_two_branches_with_the_driver() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let bin = tflock_tests::tflock_bin();
    for args in [
        vec!["init", "-q", "-b", "main"],
        vec!["config", "merge.tflock-lock.name", "tflock lock file merge"],
    ] {
        assert!(git(d, &args).status.success());
    }
    let driver = format!("{} lockfile merge-driver %O %A %B", bin.display());
    assert!(git(d, &["config", "merge.tflock-lock.driver", &driver])
        .status
        .success());
    std::fs::write(
        d.join(".gitattributes"),
        ".terraform.lock.hcl merge=tflock-lock\n",
    )
    .unwrap();
    let base = fixture("change-new-checksums-terraform", "old.terraform.lock.hcl");
    std::fs::write(d.join(".terraform.lock.hcl"), &base).unwrap();
    assert!(git(d, &["add", "."]).status.success());
    assert!(git(d, &["commit", "-q", "-m", "base"]).status.success());

    // Branch "linux" learns one h1:, main learns another, for the same version.
    assert!(git(d, &["checkout", "-q", "-b", "linux"]).status.success());
    let linux = base.replace(
        "    \"h1:EOJImaEaVThWasdqnJjfYc6/P8N/MRAq1J7avx5ZbV4=\",\n",
        "    \"h1:EOJImaEaVThWasdqnJjfYc6/P8N/MRAq1J7avx5ZbV4=\",\n    \"h1:LinuxLinuxLinuxLinuxLinuxLinuxLinuxLinux000=\",\n",
    );
    std::fs::write(d.join(".terraform.lock.hcl"), &linux).unwrap();
    assert!(git(d, &["commit", "-q", "-am", "linux"]).status.success());
    assert!(git(d, &["checkout", "-q", "main"]).status.success());
    let want = fixture("change-new-checksums-terraform", "new.terraform.lock.hcl");
    std::fs::write(d.join(".terraform.lock.hcl"), &want).unwrap();
    assert!(git(d, &["commit", "-q", "-am", "mac"]).status.success());

    let out = git(d, &["merge", "-q", "--no-edit", "linux"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = std::fs::read_to_string(d.join(".terraform.lock.hcl")).unwrap();
    assert!(
        merged.contains("h1:LinuxLinux") && merged.contains("h1:1xvaS5D8"),
        "{merged}"
    );
    let out = tflock(&["lockfile", "check"], d);
    assert!(out.status.success(), "merged file is valid");
}

#[test]
fn merge_driver_reports_divergent_versions_as_a_conflict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(
        d.join("base"),
        fixture("change-new-version-terraform", "old.terraform.lock.hcl"),
    )
    .unwrap();
    std::fs::write(
        d.join("ours"),
        fixture("change-new-version-terraform", "new.terraform.lock.hcl"),
    )
    .unwrap();
    let theirs = fixture("change-new-version-terraform", "old.terraform.lock.hcl")
        .replace("version     = \"2.1.0\"", "version     = \"2.2.0\"");
    std::fs::write(d.join("theirs"), theirs).unwrap();
    let out = tflock(&["lockfile", "merge-driver", "base", "ours", "theirs"], d);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("registry.terraform.io/hashicorp/azurerm"),
        "{stderr}"
    );
    let merged = std::fs::read_to_string(d.join("ours")).unwrap();
    assert!(
        merged.contains("<<<<<<< ours\n") && merged.contains(">>>>>>> theirs\n"),
        "{merged}"
    );
}

#[test]
fn check_against_a_configuration_lists_missing_unsatisfied_and_extra_providers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let module = dir.path().join("module");
    std::fs::create_dir(&module).unwrap();
    std::fs::write(
        module.join("main.tf"),
        r#"terraform {
  required_providers {
    aws    = { source = "hashicorp/aws", version = "~> 5.0" }
    null   = { source = "hashicorp/null", version = ">= 3.0" }
    random = { source = "hashicorp/random" }
  }
}
"#,
    )
    .unwrap();
    let lock = |entries: &[(&str, &str, &str)]| {
        let mut text = String::from("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n");
        for (addr, version, constraints) in entries {
            text.push_str(&format!(
                "\nprovider \"registry.terraform.io/{addr}\" {{\n  version = \"{version}\"\n"
            ));
            if !constraints.is_empty() {
                text.push_str(&format!("  constraints = \"{constraints}\"\n"));
            }
            text.push_str("}\n");
        }
        std::fs::write(module.join(".terraform.lock.hcl"), text).unwrap();
    };

    lock(&[
        ("hashicorp/aws", "5.1.0", "~> 5.0"),
        ("hashicorp/null", "2.1.0", ">= 2.0.0"),
        ("hashicorp/tls", "4.0.0", ">= 4.0.0"),
    ]);
    let out = tflock(&["lockfile", "check", "--config", "module"], dir.path());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "satisfied   registry.terraform.io/hashicorp/aws 5.1.0 (~> 5.0)\n\
         unsatisfied registry.terraform.io/hashicorp/null 2.1.0 (>= 3.0.0)\n\
         missing     registry.terraform.io/hashicorp/random\n\
         extra       registry.terraform.io/hashicorp/tls 4.0.0\n"
    );
    // `terraform plan`'s words for the lock, and `init -lockfile=readonly`'s for the extra.
    for want in [
        "Error: Inconsistent dependency lock file",
        "  - provider registry.terraform.io/hashicorp/null: locked version selection 2.1.0 doesn't match the updated version constraints \">= 3.0.0\"\n  - provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected",
        "  terraform init -upgrade",
        "Warning: Provider dependency changes detected",
    ] {
        assert!(stderr.contains(want), "{want:?} not in:\n{stderr}");
    }

    // Every requirement met; a provider no longer required only warns.
    lock(&[
        ("hashicorp/aws", "5.1.0", "~> 5.0"),
        ("hashicorp/null", "3.2.0", ">= 3.0.0"),
        ("hashicorp/random", "3.6.0", ""),
        ("hashicorp/tls", "4.0.0", ">= 4.0.0"),
    ]);
    let out = tflock(&["lockfile", "check", "--config", "module"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("Error:"), "{stderr}");

    // No lock file at all: everything is missing, and Terraform suggests a first `init`.
    std::fs::remove_file(module.join(".terraform.lock.hcl")).unwrap();
    let out = tflock(&["lockfile", "check", "--config", "module"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("run:\n  terraform init\n"), "{stderr}");
}
