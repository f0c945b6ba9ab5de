//! End to end: a working directory whose remote modules a previous `terraform init`
//! installed (`.terraform/modules/modules.json`); their provider requirements reach the
//! lock file, and without the manifest the CLI stops with Terraform's `Module not installed`.

use crate::e2e_common::*;
use tflock_core::addrs::Platform;
use tflock_core::Flavor;
use tflock_tests::fixtures;
use tflock_tests::http_server::StaticServer;

#[test]
fn requirements_of_installed_remote_modules_are_locked_and_missing_ones_are_reported() {
    let demo = provider("demo");
    let other = provider("other");
    let reg = registry(&[
        (&demo, "1.2.0"),
        (&demo, "1.2.5"),
        (&demo, "2.0.0"),
        (&other, "0.4.0"),
        (&other, "0.5.0"),
        (&other, "0.6.0"),
    ]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    copy_tree(&fixtures("config").join("remote-modules"), &env.work);
    env.cli_config(&host_block(&server));

    let tree = env.run(&["providers"]);
    assert!(tree.status.success(), "{}", text(&tree));
    let stdout = String::from_utf8_lossy(&tree.stdout);
    for m in ["module.vpc", "module.sub", "module.inner"] {
        assert!(stdout.contains(m), "{m} missing:\n{stdout}");
    }

    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let here = Platform::current().to_string();
    let entry = |p, v, c| {
        let mut hashes = vec![reg.expected_h1(&id(p, v, &here))];
        hashes.extend(platforms().iter().map(|pl| reg.expected_zh(&id(p, v, pl))));
        LockEntry {
            provider: p,
            version: v,
            constraints: Some(c),
            hashes,
        }
    };
    // demo: "~> 1.2" (root) and ">= 1.2.1" (vpc/sub); other: ">= 0.4" (vpc) and "< 0.6"
    // (local.inner).
    let want = lock_text(
        Flavor::Terraform,
        &[
            entry(&demo, "1.2.5", "~> 1.2, >= 1.2.1"),
            entry(&other, "0.5.0", ">= 0.4.0, < 0.6.0"),
        ],
    );
    assert_eq!(env.lock(), want);

    std::fs::remove_file(env.work.join(".terraform/modules/modules.json")).expect("rm manifest");
    let out = env.run(&["providers", "lock"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    assert!(stderr.contains("Module not installed"), "{stderr}");
    assert!(
        stderr.contains("This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration."),
        "{stderr}"
    );
    assert!(stderr.contains("main.tf"), "{stderr}");
    assert_eq!(env.lock(), want, "a failed run changed the lock");
}
