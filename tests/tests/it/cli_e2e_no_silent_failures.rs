//! End to end: a command that could not do part of what it was asked says so. A registry
//! `lockfile coverage` cannot reach is an error naming the provider and the cause (not "covers
//! no wanted platform" with nothing on stderr); `verify --plugin-cache` with no cache to check
//! is an error; `providers mirror` copies a filesystem mirror's archives and refuses its
//! unpacked directories instead of leaving them out of the mirror with exit status 0.

use crate::e2e_common::*;
use tflock_core::Flavor;
use tflock_tests::http_server::{Fault, StaticServer};

/// A lock of `demo` 1.2.0 with the registry's `zh:` for every platform.
fn covered_lock(env: &Env, reg: &tflock_tests::fake_registry::FakeRegistry) {
    let demo = provider("demo");
    let lock = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: None,
            hashes: platforms()
                .iter()
                .map(|p| reg.expected_zh(&id(&demo, "1.2.0", p)))
                .collect(),
        }],
    );
    std::fs::write(env.work.join(".terraform.lock.hcl"), lock).expect("write lock");
}

#[test]
fn coverage_of_a_lock_with_every_platforms_checksum_is_ok() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    covered_lock(&env, &reg);
    let out = env.run(&[
        "lockfile",
        "coverage",
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("covers darwin_arm64, linux_amd64 — ok")
            || stdout.contains("covers linux_amd64, darwin_arm64 — ok"),
        "{}",
        text(&out)
    );
    assert!(out.stderr.is_empty(), "{}", text(&out));
}

#[test]
fn coverage_with_an_unreachable_registry_is_an_error_naming_the_provider_and_the_cause() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    server.set_fault("/v1/providers/acme/demo/versions", Fault::Status(500));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    covered_lock(&env, &reg);
    let out = env.run(&["lockfile", "coverage", "-platform=linux_amd64"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    assert!(
        stderr.contains("Error: Failed to query provider package metadata"),
        "{}",
        text(&out)
    );
    assert!(
        stderr.contains("registry.example.com/acme/demo v1.2.0 for linux_amd64: ")
            && stderr.contains("500"),
        "{}",
        text(&out)
    );
    // Not checked is not the same as not covered.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("not checked linux_amd64"), "{}", text(&out));
    assert!(!stdout.contains("missing"), "{}", text(&out));

    let out = env.run(&["lockfile", "coverage", "-platform=linux_amd64", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(
        v["providers"][0]["unchecked"],
        serde_json::json!(["linux_amd64"])
    );
    assert_eq!(v["providers"][0]["missing"], serde_json::json!([]));
}

#[test]
fn verify_with_plugin_cache_but_no_cache_directory_is_an_error() {
    let env = Env::new();
    env.cli_config("");
    let out = env.run(&["verify", "--plugin-cache"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Error: No plugin cache directory"),
        "{}",
        text(&out)
    );
}

/// An environment whose CLI config installs `demo` from a filesystem mirror only.
fn fs_mirror_env(packed: bool) -> Env {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let env = Env::new();
    let mirror_dir = env.home.path().join("fs-mirror");
    fs_mirror(&reg, &mirror_dir, &demo, "1.2.0", packed);
    env.cli_config(&format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        mirror_dir.display()
    ));
    env.requires(&[("demo", "1.2.0")]);
    env
}

#[test]
fn providers_mirror_copies_the_archives_of_a_packed_filesystem_mirror() {
    let env = fs_mirror_env(true);
    let target = env.home.path().join("out");
    let out = env.run(&[
        "providers",
        "mirror",
        "-platform=linux_amd64",
        target.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let dir = target.join(HOST).join("acme/demo");
    assert!(
        dir.join("terraform-provider-demo_1.2.0_linux_amd64.zip")
            .is_file(),
        "{}",
        text(&out)
    );
    assert!(dir.join("1.2.0.json").is_file(), "{}", text(&out));
}

#[test]
fn providers_mirror_refuses_an_unpacked_package_rather_than_leave_it_out() {
    let env = fs_mirror_env(false);
    let target = env.home.path().join("out");
    let out = env.run(&[
        "providers",
        "mirror",
        "-platform=linux_amd64",
        target.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Error: Invalid provider package location")
            && unwrapped(&String::from_utf8_lossy(&out.stderr))
                .contains("registry.example.com/acme/demo v1.2.0 for linux_amd64"),
        "{}",
        text(&out)
    );
}
