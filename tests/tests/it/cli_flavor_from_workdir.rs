//! Without `-flavor`, every command follows the working directory: the lock file's header,
//! else `.tofu` files, else Terraform (issue 31, item 1). End to end through the loopback
//! registry, in both directions: an OpenTofu repository keeps its `registry.opentofu.org`
//! entries byte for byte, a Terraform one is unchanged and hears nothing new.

use crate::e2e_common::{
    all_output, id, lock_text, platforms, registry, registry_files, text, Env, LockEntry,
};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;

/// A fake registry serving `acme/demo` 1.0.0 under `flavor`'s default host, and an
/// environment whose CLI config maps that host to the loopback server.
fn repository(flavor: Flavor) -> (Env, FakeRegistry, StaticServer, Provider) {
    let demo = Provider::parse("acme/demo", flavor).expect("address");
    assert_eq!(demo.hostname, flavor.default_registry_host());
    let reg = registry(&[(&demo, "1.0.0")]);
    let server = StaticServer::start(registry_files(&reg, flavor.default_registry_host()));
    let env = Env::new();
    env.cli_config(&format!(
        "host \"{}\" {{\n  services = {{\n    \"providers.v1\" = \"{}/v1/providers/\"\n  }}\n}}\n",
        flavor.default_registry_host(),
        server.base_url()
    ));
    (env, reg, server, demo)
}

/// The configuration: `acme/demo` with no host, so the flavour decides where it resolves.
const REQUIREMENTS: &str = "terraform {\n  required_providers {\n    demo = {\n      source  = \"acme/demo\"\n      version = \"1.0.0\"\n    }\n  }\n}\n";

/// The lock `init` writes on this machine: its platform's `h1:` and every platform's
/// signed `zh:`, under `flavor`'s header.
fn init_lock(flavor: Flavor, reg: &FakeRegistry, demo: &Provider) -> String {
    let mut hashes = vec![reg.expected_h1(&id(demo, "1.0.0", &Platform::current().to_string()))];
    hashes.extend(
        platforms()
            .iter()
            .map(|p| reg.expected_zh(&id(demo, "1.0.0", p))),
    );
    lock_text(
        flavor,
        &[LockEntry {
            provider: demo,
            version: "1.0.0",
            constraints: Some("1.0.0"),
            hashes,
        }],
    )
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn an_opentofu_lock_keeps_its_registry_opentofu_org_entries_through_providers_lock_and_init() {
    let (env, reg, _server, demo) = repository(Flavor::OpenTofu);
    std::fs::write(env.work.join("main.tf"), REQUIREMENTS).expect("write");
    let lock = init_lock(Flavor::OpenTofu, &reg, &demo);
    std::fs::write(env.work.join(".terraform.lock.hcl"), &lock).expect("write lock");

    let out = env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(env.lock(), lock, "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "tflock: following OpenTofu (.terraform.lock.hcl was written by \"tofu init\"); -flavor=terraform overrides\n"
        ),
        "{}",
        text(&out)
    );

    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(env.lock(), lock, "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Initializing provider plugins..."),
        "{}",
        text(&out)
    );
    let installed = env
        .work
        .join(".terraform/providers/registry.opentofu.org/acme/demo/1.0.0")
        .join(Platform::current().to_string());
    assert!(installed.is_dir(), "{}", text(&out));
}

#[test]
fn a_flavour_the_user_names_needs_no_line() {
    let (mut env, reg, _server, demo) = repository(Flavor::OpenTofu);
    std::fs::write(env.work.join("main.tf"), REQUIREMENTS).expect("write");
    let lock = init_lock(Flavor::OpenTofu, &reg, &demo);
    std::fs::write(env.work.join(".terraform.lock.hcl"), &lock).expect("write lock");
    let out = env.run(&["providers", "lock", "-flavor=opentofu"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(env.lock(), lock);
    assert!(
        !stderr(&out).contains("tflock: following"),
        "{}",
        text(&out)
    );
    env.set("TFLOCK_FLAVOR", "tofu");
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(env.lock(), lock);
    assert!(
        !stderr(&out).contains("tflock: following"),
        "{}",
        text(&out)
    );
}

#[test]
fn tofu_files_without_a_lock_make_init_and_providers_lock_write_an_opentofu_lock() {
    for command in [&["init"][..], &["providers", "lock"][..]] {
        let (env, reg, _server, demo) = repository(Flavor::OpenTofu);
        std::fs::write(env.work.join("versions.tofu"), REQUIREMENTS).expect("write");
        let out = env.run(command);
        assert!(out.status.success(), "{command:?}: {}", text(&out));
        assert_eq!(
            env.lock(),
            init_lock(Flavor::OpenTofu, &reg, &demo),
            "{command:?}: {}",
            text(&out)
        );
        assert!(
            stderr(&out).contains(
                "tflock: following OpenTofu (versions.tofu is OpenTofu configuration); -flavor=terraform overrides\n"
            ),
            "{command:?}: {}",
            text(&out)
        );
    }
}

#[test]
fn a_terraform_repository_is_locked_as_before_and_hears_nothing_about_flavours() {
    let (env, reg, _server, demo) = repository(Flavor::Terraform);
    std::fs::write(env.work.join("main.tf"), REQUIREMENTS).expect("write");
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let lock = init_lock(Flavor::Terraform, &reg, &demo);
    assert_eq!(env.lock(), lock, "{}", text(&out));
    let again = env.run(&["providers", "lock"]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(env.lock(), lock, "{}", text(&again));
    for o in [&out, &again] {
        assert!(!all_output(o).contains("tflock: following"), "{}", text(o));
    }
}

#[test]
fn a_terraform_lock_header_outvotes_tofu_files_and_the_line_names_the_file_ignored() {
    let (env, reg, _server, demo) = repository(Flavor::Terraform);
    std::fs::write(env.work.join("main.tf"), REQUIREMENTS).expect("write");
    std::fs::write(env.work.join("override.tofu"), "# for OpenTofu users\n").expect("write");
    let lock = init_lock(Flavor::Terraform, &reg, &demo);
    std::fs::write(env.work.join(".terraform.lock.hcl"), &lock).expect("write lock");
    let out = env.run(&["lockfile", "check", "--config", "."]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "tflock: following Terraform (.terraform.lock.hcl was written by \"terraform init\"; override.tofu is ignored); -flavor=opentofu overrides\n"
        ),
        "{}",
        text(&out)
    );
}
