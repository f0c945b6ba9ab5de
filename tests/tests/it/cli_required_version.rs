//! `required_version` from the command line: `tflock init` refuses a configuration whose
//! constraints exclude the core release, as `terraform init` does, before it asks any
//! registry; `providers` (like `terraform providers`) does not check; and
//! `TFLOCK_TERRAFORM_VERSION` names the release a team runs.

use crate::e2e_common::*;

fn pinned_to_old_terraform() -> Env {
    let env = Env::new();
    env.cli_config("");
    std::fs::write(
        env.work.join("main.tf"),
        "terraform {\n  required_version = \"~> 1.5.0\"\n}\n",
    )
    .expect("write main.tf");
    env
}

#[test]
fn init_refuses_a_configuration_pinned_to_another_terraform() {
    let env = pinned_to_old_terraform();
    let out = env.run(&["init"]);
    let all = all_output(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("Unsupported Terraform Core version"), "{all}");
    assert!(
        all.contains("does not support Terraform version 1.15.5"),
        "{all}"
    );
    assert!(!env.work.join(".terraform.lock.hcl").exists());
}

#[test]
fn the_release_a_team_runs_is_a_setting() {
    let mut env = pinned_to_old_terraform();
    env.set("TFLOCK_TERRAFORM_VERSION", "1.5.7");
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", all_output(&out));

    let mut env = pinned_to_old_terraform();
    env.set("TFLOCK_TERRAFORM_VERSION", "1.6.0");
    let out = env.run(&["init"]);
    assert!(
        all_output(&out).contains("does not support Terraform version 1.6.0"),
        "{}",
        all_output(&out)
    );

    let mut env = pinned_to_old_terraform();
    env.set("TFLOCK_TERRAFORM_VERSION", "1.5");
    let out = env.run(&["init"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        all_output(&out).contains("TFLOCK_TERRAFORM_VERSION=\"1.5\" is not a release version"),
        "{}",
        all_output(&out)
    );
}

#[test]
fn providers_does_not_check_required_version() {
    let env = pinned_to_old_terraform();
    let out = env.run(&["providers"]);
    assert!(out.status.success(), "{}", all_output(&out));
}
