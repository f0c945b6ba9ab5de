//! The edge mirror Worker (`worker/`) served by `worker/dev.mjs` over HTTPS, driven as people
//! drive it: uploads with curl-like PUTs; locks with the `tflock` binary and the real Terraform
//! as network-mirror clients, through a Worker that pulls through from a loopback origin
//! registry. Ignored by `cargo test` (they need the built Worker and Miniflare); `cargo xtask
//! worker-test` builds both and runs them with `--ignored`.

use crate::e2e_common::{
    host_block, id, lock_text, platforms, provider, registry, registry_files, text, Env, LockEntry,
};
use std::time::{Duration, Instant};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::edge_dev::{group_processes, EdgeDev, EdgeDevOptions};
use tflock_tests::fake_registry::{
    independent_h1, make_zip, package_files, FakeRegistry, PackageId,
};
use tflock_tests::http_server::StaticServer;
use tflock_tests::terraform::terraform;

const TOKEN: &str = "edge-test-upload-token";

/// A blocking HTTPS client that trusts the dev server's CA.
fn client(dev: &EdgeDev) -> reqwest::blocking::Client {
    let ca = std::fs::read(dev.ca_pem_path().expect("an HTTPS dev server")).expect("read CA");
    reqwest::blocking::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).expect("CA PEM"))
        .build()
        .expect("HTTP client")
}

#[test]
#[ignore = "needs the built Worker; cargo xtask worker-test runs it"]
fn uploaded_packages_lock_through_the_worker_as_a_network_mirror() {
    let dev = EdgeDev::start(EdgeDevOptions {
        https: true,
        upload_token: Some(TOKEN.to_string()),
        // example.com has no origin: its packages arrive by upload only.
        vars: vec![("TFLOCK_PRIVATE_HOSTS".into(), "example.com".into())],
        ..EdgeDevOptions::default()
    });
    let base = dev.base_url();
    assert!(
        base.starts_with("https://127.0.0.1:") && base.ends_with('/'),
        "{base}"
    );
    let provider = Provider::parse("example.com/acme/demo", Flavor::Terraform).expect("address");
    let http = client(&dev);
    let mut h1s = Vec::new();
    for platform in ["linux_amd64", "darwin_arm64"] {
        let files = package_files(&PackageId {
            provider: provider.clone(),
            version: "1.0.0".to_string(),
            platform: platform.to_string(),
        });
        let url =
            format!("{base}example.com/acme/demo/terraform-provider-demo_1.0.0_{platform}.zip");
        let r = http
            .put(&url)
            .bearer_auth(TOKEN)
            .body(make_zip(&files))
            .send()
            .unwrap_or_else(|e| panic!("PUT {url}: {e}\n{}", dev.stderr_log()));
        let status = r.status();
        let body = r.text().unwrap_or_default();
        assert!(
            status.is_success(),
            "PUT {url}: {status} {body}\n{}",
            dev.stderr_log()
        );
        h1s.push(independent_h1(&files));
    }

    let mut env = Env::new();
    env.cli_config("");
    let ca = dev.ca_pem_path().expect("CA");
    env.set("SSL_CERT_FILE", &ca.display().to_string());
    std::fs::write(
        env.work.join("main.tf"),
        "terraform {\n  required_providers {\n    demo = { source = \"example.com/acme/demo\" }\n  }\n}\n",
    )
    .expect("write main.tf");
    let out = env.run(&[
        "providers",
        "lock",
        &format!("-net-mirror={base}"),
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
    ]);
    assert!(out.status.success(), "{}\n{}", text(&out), dev.stderr_log());
    let expected = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &provider,
            version: "1.0.0",
            constraints: None,
            hashes: h1s,
        }],
    );
    assert_eq!(env.lock(), expected, "{}", text(&out));

    // workerd runs in dev.mjs's process group; once the server is dropped none of it is left.
    let group = dev.process_group();
    let running = group_processes(group);
    assert!(
        running.iter().any(|(_, name)| name == "workerd"),
        "no workerd in the dev server's process group: {running:?}"
    );
    drop(dev);
    assert_eq!(
        group_processes(group),
        Vec::new(),
        "left running after drop"
    );
}

/// A loopback origin registry publishing `demo` 1.2.0 for [`platforms`], and the Worker over
/// HTTPS pulling `registry.example.com` through from it (a `host` block in its CLI config).
struct PullThrough {
    reg: FakeRegistry,
    demo: Provider,
    origin: StaticServer,
    dev: EdgeDev,
}

impl PullThrough {
    fn start() -> PullThrough {
        let demo = provider("demo");
        let reg = registry(&[(&demo, "1.2.0")]);
        let origin = StaticServer::start(registry_files(&reg, crate::e2e_common::HOST));
        let dev = EdgeDev::start(EdgeDevOptions {
            https: true,
            cli_config: Some(host_block(&origin)),
            // The loopback origin is fetched only because it is listed.
            vars: vec![(
                "TFLOCK_ALLOWED_HOSTS".into(),
                origin
                    .base_url()
                    .trim_start_matches("http://")
                    .trim_start_matches("https://")
                    .to_string(),
            )],
            ..EdgeDevOptions::default()
        });
        PullThrough {
            reg,
            demo,
            origin,
            dev,
        }
    }

    /// An environment whose runs trust the Worker's CA.
    fn env(&self) -> Env {
        let mut env = Env::new();
        let ca = self.dev.ca_pem_path().expect("an HTTPS dev server");
        env.set("SSL_CERT_FILE", &ca.display().to_string());
        env.requires(&[("demo", "1.2.0")]);
        env
    }

    fn h1(&self, platform: &str) -> String {
        self.reg.expected_h1(&id(&self.demo, "1.2.0", platform))
    }

    fn zh(&self, platform: &str) -> String {
        self.reg.expected_zh(&id(&self.demo, "1.2.0", platform))
    }

    /// The lock of `demo` 1.2.0 with `hashes`.
    fn lock(&self, flavor: Flavor, hashes: Vec<String>) -> String {
        lock_text(
            flavor,
            &[LockEntry {
                provider: &self.demo,
                version: "1.2.0",
                constraints: Some("1.2.0"),
                hashes,
            }],
        )
    }

    /// Waits (up to 30 s) until the Worker's `1.2.0.json` lists two hashes (`h1:` from the
    /// queue, `zh:` from the signed sums) for every platform, and returns them per platform.
    fn complete_version_document(&self) -> Vec<(String, Vec<String>)> {
        let url = format!(
            "{}{}/acme/demo/1.2.0.json",
            self.dev.base_url(),
            crate::e2e_common::HOST
        );
        let http = client(&self.dev);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let body = http
                .get(&url)
                .send()
                .and_then(|r| r.error_for_status())
                .and_then(|r| r.text())
                .unwrap_or_else(|e| panic!("GET {url}: {e}\n{}", self.dev.stderr_log()));
            let doc: serde_json::Value = serde_json::from_str(&body).expect("a JSON document");
            let listed = listed_hashes(&doc);
            if listed.iter().all(|(_, hashes)| hashes.len() == 2) || Instant::now() > deadline {
                return listed;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// `(platform, hashes)` of a mirror `<version>.json`, sorted by platform.
fn listed_hashes(doc: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    let archives = doc["archives"].as_object().expect("archives");
    let mut out: Vec<(String, Vec<String>)> = archives
        .iter()
        .map(|(platform, archive)| {
            let mut hashes: Vec<String> = archive["hashes"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|h| h.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            hashes.sort();
            (platform.clone(), hashes)
        })
        .collect();
    out.sort();
    out
}

fn platform_flags() -> Vec<String> {
    platforms()
        .iter()
        .map(|p| format!("-platform={p}"))
        .collect()
}

#[test]
#[ignore = "needs the built Worker; cargo xtask worker-test runs it"]
fn pulled_through_locks_have_the_hashes_of_a_direct_lock() {
    let pt = PullThrough::start();
    let plats = platforms();
    assert!(plats.len() >= 3, "{plats:?}");
    let h1s: Vec<String> = plats.iter().map(|p| pt.h1(p)).collect();
    let zhs: Vec<String> = plats.iter().map(|p| pt.zh(p)).collect();

    // Directly from the origin: every platform's h1: and the signed zh:s.
    let direct = pt.env();
    direct.cli_config(&host_block(&pt.origin));
    let mut args = vec!["providers".to_string(), "lock".to_string()];
    args.extend(platform_flags());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = direct.run(&args);
    assert!(out.status.success(), "{}", text(&out));
    let all: Vec<String> = h1s.iter().chain(&zhs).cloned().collect();
    assert_eq!(direct.lock(), pt.lock(Flavor::Terraform, all.clone()));

    // Through the Worker, empty bucket: Terraform's rules record the h1: of each package it
    // fetched (a mirror's listed hashes are not signed).
    let mirrored = pt.env();
    mirrored.cli_config("");
    let net_mirror = format!("-net-mirror={}", pt.dev.base_url());
    let mut mirror_args = args.clone();
    mirror_args.push(&net_mirror);
    let out = mirrored.run(&mirror_args);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out),
        pt.dev.stderr_log()
    );
    assert_eq!(mirrored.lock(), pt.lock(Flavor::Terraform, h1s.clone()));

    // The Worker lists every platform with the same h1: and zh: as the direct lock.
    let want: Vec<(String, Vec<String>)> = plats
        .iter()
        .map(|p| {
            let mut hashes = vec![pt.h1(p), pt.zh(p)];
            hashes.sort();
            (p.clone(), hashes)
        })
        .collect();
    assert_eq!(pt.complete_version_document(), want);

    // OpenTofu's trust_all_hashes records all of them: the direct lock's hashes exactly.
    let tofu = pt.env();
    tofu.cli_config(&format!(
        "provider_installation {{\n  network_mirror {{\n    url = \"{}\"\n    trust_all_hashes = true\n  }}\n}}\n",
        pt.dev.base_url()
    ));
    let out = tofu.run(&["init", "-flavor=opentofu"]);
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out),
        pt.dev.stderr_log()
    );
    assert_eq!(tofu.lock(), pt.lock(Flavor::OpenTofu, all));
}

#[test]
#[ignore = "needs the built Worker and the Terraform oracle; cargo xtask test runs it"]
fn real_terraform_inits_and_locks_through_the_worker() {
    let pt = PullThrough::start();
    let ca = pt.dev.ca_pem_path().expect("CA");
    let env = pt.env();
    let home = env.home.path();
    let run = |cli_config: &str, args: &[&str]| {
        let config = home.join("terraform.tfrc");
        std::fs::write(&config, cli_config).expect("write CLI config");
        let out = terraform()
            .args(args)
            .current_dir(&env.work)
            .env("HOME", home)
            .env("TF_CLI_CONFIG_FILE", &config)
            .env("SSL_CERT_FILE", &ca)
            .output()
            .expect("run terraform");
        assert!(
            out.status.success(),
            "terraform {args:?}: {}\n{}",
            text(&out),
            pt.dev.stderr_log()
        );
    };

    let mut args = vec!["providers".to_string(), "lock".to_string()];
    args.extend(platform_flags());
    args.push(format!("-net-mirror={}", pt.dev.base_url()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run("", &args);
    let h1s: Vec<String> = platforms().iter().map(|p| pt.h1(p)).collect();
    assert_eq!(env.lock(), pt.lock(Flavor::Terraform, h1s));

    // `terraform init` installs this platform's package from the Worker and keeps the lock.
    let lock_before = env.lock();
    run(
        &format!(
            "provider_installation {{\n  network_mirror {{\n    url = \"{}\"\n  }}\n}}\n",
            pt.dev.base_url()
        ),
        &["init", "-input=false"],
    );
    assert_eq!(env.lock(), lock_before);
    let here = Platform::current().to_string();
    let installed = env.installed_dir(&pt.demo, "1.2.0");
    assert!(
        installed.is_dir(),
        "terraform init did not install {here} into {}",
        installed.display()
    );
}
