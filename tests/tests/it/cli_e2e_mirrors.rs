//! End to end: `tflock init` and `tflock providers lock` installing from mirrors: a network
//! mirror over HTTPS (a loopback TLS server whose CA the CLI trusts through
//! `SSL_CERT_FILE`, as Terraform does), filesystem mirrors in both layouts, and
//! `include`/`exclude` with a `direct {}` fallback. Expected hashes come from the fake
//! registry's independent dirhash; the lock texts are what Terraform writes in each case.

use crate::e2e_common::*;
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::fake_registry::{package_files, FakeRegistry};
use tflock_tests::http_server::StaticServer;

fn mirror_config(server: &StaticServer, extra: &str) -> String {
    format!(
        "provider_installation {{\n  network_mirror {{\n    url = \"{}/providers/\"\n{extra}  }}\n}}\n",
        server.base_url()
    )
}

fn here() -> String {
    Platform::current().to_string()
}

#[test]
fn init_through_an_https_network_mirror_locks_only_the_local_h1_like_terraform() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0"), (&demo, "1.3.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    assert!(mirror.base_url().starts_with("https://"));
    let mut env = Env::new();
    env.trust(&mirror);
    env.cli_config(&mirror_config(&mirror, ""));
    env.requires(&[("demo", "~> 1.2.0")]);

    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "- Installed {HOST}/acme/demo v1.2.0 (verified checksum)"
        )),
        "{stdout}"
    );
    // No signed checksums from a mirror: only this platform's h1, and Terraform's warning.
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some("~> 1.2.0"),
            hashes: vec![reg.expected_h1(&id(&demo, "1.2.0", &here()))],
        }],
    );
    assert_eq!(env.lock(), want);
    let all = all_output(&out);
    assert!(
        all.contains("Incomplete lock file information for providers"),
        "{all}"
    );
    assert!(
        all.contains(&format!("only includes checksums for {}", here())),
        "{all}"
    );
    let files = std::fs::read_dir(env.installed_dir(&demo, "1.2.0"))
        .map(|rd| rd.count())
        .unwrap_or(0);
    assert_eq!(files, package_files(&id(&demo, "1.2.0", &here())).len());
    let requests = mirror.requests();
    for path in [
        format!("/providers/{HOST}/acme/demo/index.json"),
        format!("/providers/{HOST}/acme/demo/1.2.0.json"),
        format!(
            "/providers/{HOST}/acme/demo/{}",
            FakeRegistry::filename(&id(&demo, "1.2.0", &here()))
        ),
    ] {
        assert!(
            requests.contains(&path),
            "{path} not requested: {requests:?}"
        );
    }
}

#[test]
fn a_ca_in_ssl_cert_dir_is_trusted_too() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new();
    let certs = env.home.path().join("certs");
    std::fs::create_dir_all(&certs).expect("mkdir");
    std::fs::write(certs.join("test-ca.pem"), mirror.ca_pem().expect("tls")).expect("write");
    let dirs = format!(
        "{}:{}",
        env.home.path().join("nowhere").display(),
        certs.display()
    );
    env.set("SSL_CERT_DIR", &dirs);
    env.cli_config(&mirror_config(&mirror, ""));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        env.lock()
            .contains(&reg.expected_h1(&id(&demo, "1.2.0", &here()))),
        "{}",
        env.lock()
    );
}

#[test]
fn an_https_mirror_whose_ca_is_not_trusted_is_refused() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let env = Env::new();
    env.cli_config(&mirror_config(&mirror, ""));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{}/providers/", mirror.base_url())),
        "{stderr}"
    );
    assert!(
        stderr.to_ascii_lowercase().contains("certificate"),
        "{stderr}"
    );
    assert!(env.lock().is_empty());
}

#[test]
fn opentofu_trust_all_hashes_locks_every_platform_the_mirror_lists() {
    let demo = Provider::parse("hashicorp/demo", Flavor::OpenTofu).expect("address");
    assert_eq!(demo.hostname, "registry.opentofu.org");
    let reg = registry(&[(&demo, "2.0.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new();
    env.trust(&mirror);
    env.cli_config(&mirror_config(&mirror, "    trust_all_hashes = true\n"));
    std::fs::write(
        env.work.join("main.tf"),
        "terraform {\n  required_providers {\n    demo = {\n      source = \"hashicorp/demo\"\n    }\n  }\n}\n",
    )
    .expect("write");
    let out = env.run(&["init", "-flavor=opentofu"]);
    assert!(out.status.success(), "{}", text(&out));
    let want = lock_text(
        Flavor::OpenTofu,
        &[LockEntry {
            provider: &demo,
            version: "2.0.0",
            constraints: None,
            hashes: platforms()
                .iter()
                .map(|p| reg.expected_h1(&id(&demo, "2.0.0", p)))
                .collect(),
        }],
    );
    assert_eq!(env.lock(), want);
    assert!(
        !all_output(&out).contains("Incomplete lock file information"),
        "{}",
        text(&out)
    );

    // Without the setting only this platform's h1 is recorded.
    env.cli_config(&mirror_config(&mirror, ""));
    std::fs::remove_file(env.work.join(".terraform.lock.hcl")).expect("rm lock");
    std::fs::remove_dir_all(env.work.join(".terraform")).expect("rm .terraform");
    let out = env.run(&["init", "-flavor=opentofu"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        env.lock()
            .contains(&reg.expected_h1(&id(&demo, "2.0.0", &here()))),
        "{}",
        env.lock()
    );
    let others: Vec<String> = platforms().into_iter().filter(|p| *p != here()).collect();
    for p in others {
        assert!(
            !env.lock()
                .contains(&reg.expected_h1(&id(&demo, "2.0.0", &p))),
            "{p} recorded without trust_all_hashes:\n{}",
            env.lock()
        );
    }
}

#[test]
fn providers_lock_net_mirror_flag_records_each_platforms_h1_from_the_https_mirror() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new();
    env.trust(&mirror);
    env.cli_config("");
    env.requires(&[("demo", "1.2.0")]);
    let net = format!("-net-mirror={}/providers/", mirror.base_url());
    let mut args = vec!["providers", "lock", net.as_str()];
    let flags: Vec<String> = platforms()
        .iter()
        .map(|p| format!("-platform={p}"))
        .collect();
    args.extend(flags.iter().map(String::as_str));
    let out = env.run(&args);
    assert!(out.status.success(), "{}", text(&out));
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some("1.2.0"),
            hashes: platforms()
                .iter()
                .map(|p| reg.expected_h1(&id(&demo, "1.2.0", p)))
                .collect(),
        }],
    );
    assert_eq!(env.lock(), want);
    let zips = mirror
        .requests()
        .iter()
        .filter(|r| r.ends_with(".zip"))
        .count();
    assert_eq!(zips, platforms().len(), "{:?}", mirror.requests());

    // A plain http: URL is refused, as Terraform refuses it.
    let bad = format!("-net-mirror=http://{}/providers/", mirror.authority());
    let out = env.run(&["providers", "lock", bad.as_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("https:"),
        "{}",
        text(&out)
    );
}

#[test]
fn providers_lock_ignores_the_cli_config_mirror_and_asks_the_origin_registry() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let registry_server = StaticServer::start(registry_files(&reg, HOST));
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new();
    env.trust(&mirror);
    env.cli_config(&format!(
        "{}{}",
        host_block(&registry_server),
        mirror_config(&mirror, "")
    ));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["providers", "lock", "-platform=linux_amd64"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(mirror.requests().is_empty(), "{:?}", mirror.requests());
    let mut hashes = vec![reg.expected_h1(&id(&demo, "1.2.0", "linux_amd64"))];
    hashes.extend(
        platforms()
            .iter()
            .map(|p| reg.expected_zh(&id(&demo, "1.2.0", p))),
    );
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some("1.2.0"),
            hashes,
        }],
    );
    assert_eq!(env.lock(), want);
}

#[test]
fn init_from_a_packed_filesystem_mirror_installs_and_locks_the_local_h1() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let env = Env::new();
    let mirror_dir = env.home.path().join("fs-mirror");
    fs_mirror(&reg, &mirror_dir, &demo, "1.2.0", true);
    env.cli_config(&format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        mirror_dir.display()
    ));
    env.requires(&[("demo", ">= 1.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some(">= 1.0.0"),
            hashes: vec![reg.expected_h1(&id(&demo, "1.2.0", &here()))],
        }],
    );
    assert_eq!(env.lock(), want);
    assert!(
        all_output(&out).contains("Incomplete lock file information for providers"),
        "{}",
        text(&out)
    );
    let installed = env.installed_dir(&demo, "1.2.0");
    for (name, content) in package_files(&id(&demo, "1.2.0", &here())) {
        assert_eq!(
            std::fs::read(installed.join(&name)).ok().as_deref(),
            Some(content.as_slice()),
            "{name}"
        );
    }
}

#[test]
fn providers_lock_fs_mirror_flag_hashes_unpacked_and_packed_layouts_alike() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let flags: Vec<String> = platforms()
        .iter()
        .map(|p| format!("-platform={p}"))
        .collect();
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some("1.2.0"),
            hashes: platforms()
                .iter()
                .map(|p| reg.expected_h1(&id(&demo, "1.2.0", p)))
                .collect(),
        }],
    );
    for packed in [false, true] {
        let env = Env::new();
        env.cli_config("");
        env.requires(&[("demo", "1.2.0")]);
        let mirror_dir = env.home.path().join("fs-mirror");
        fs_mirror(&reg, &mirror_dir, &demo, "1.2.0", packed);
        let fs = format!("-fs-mirror={}", mirror_dir.display());
        let mut args = vec!["providers", "lock", fs.as_str()];
        args.extend(flags.iter().map(String::as_str));
        let out = env.run(&args);
        assert!(out.status.success(), "packed={packed}: {}", text(&out));
        assert_eq!(env.lock(), want, "packed={packed}");
    }
}

#[test]
fn include_and_exclude_route_providers_between_a_filesystem_mirror_and_direct() {
    let demo = provider("demo");
    let other = provider("other");
    // The registry has a newer demo, but demo is excluded from direct installation.
    let reg = registry(&[(&demo, "1.2.0"), (&demo, "1.3.0"), (&other, "0.5.0")]);
    let registry_server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    let mirror_dir = env.home.path().join("fs-mirror");
    fs_mirror(&reg, &mirror_dir, &demo, "1.2.0", false);
    env.cli_config(&format!(
        "{}provider_installation {{\n  filesystem_mirror {{\n    path    = \"{}\"\n    include = [\"{HOST}/acme/*\"]\n  }}\n  direct {{\n    exclude = [\"{HOST}/acme/demo\"]\n  }}\n}}\n",
        host_block(&registry_server),
        mirror_dir.display()
    ));
    env.requires(&[("demo", ">= 1.0"), ("other", "~> 0.5")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let mut other_hashes = vec![reg.expected_h1(&id(&other, "0.5.0", &here()))];
    other_hashes.extend(
        platforms()
            .iter()
            .map(|p| reg.expected_zh(&id(&other, "0.5.0", p))),
    );
    let want = lock_text(
        Flavor::Terraform,
        &[
            LockEntry {
                provider: &demo,
                version: "1.2.0",
                constraints: Some(">= 1.0.0"),
                hashes: vec![reg.expected_h1(&id(&demo, "1.2.0", &here()))],
            },
            LockEntry {
                provider: &other,
                version: "0.5.0",
                constraints: Some("~> 0.5"),
                hashes: other_hashes,
            },
        ],
    );
    assert_eq!(env.lock(), want);
    let demo_requests: Vec<String> = registry_server
        .requests()
        .into_iter()
        .filter(|r| r.contains("/acme/demo/"))
        .collect();
    assert!(
        demo_requests.is_empty(),
        "excluded provider asked of the registry: {demo_requests:?}"
    );
    assert!(
        registry_server
            .requests()
            .contains(&"/v1/providers/acme/other/versions".to_string()),
        "{:?}",
        registry_server.requests()
    );
}

#[test]
fn a_missing_cli_config_file_is_only_a_warning_as_in_terraform() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new(); // TF_CLI_CONFIG_FILE names a file that is never written
    env.trust(&mirror);
    env.requires(&[("demo", "1.2.0")]);
    let net_mirror = format!("-net-mirror={}/providers/", mirror.base_url());
    let out = env.run(&["providers", "lock", "-platform=linux_amd64", &net_mirror]);
    assert!(out.status.success(), "{}", text(&out));
    let all = all_output(&out);
    let path = env.home.path().join("cli.tfrc");
    assert!(
        all.contains("Warning: Unable to open CLI configuration file")
            && all.contains(&format!(
                "The CLI configuration file at \"{}\" does not exist.",
                path.display()
            )),
        "{all}"
    );
    assert!(
        env.lock()
            .contains(&reg.expected_h1(&id(&demo, "1.2.0", "linux_amd64"))),
        "{}",
        env.lock()
    );
}
