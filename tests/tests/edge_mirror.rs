//! The edge mirror Worker (`worker/`) served by `worker/dev.mjs` over HTTPS, driven as people
//! drive it: uploads with curl-like PUTs, locks with the `tflock` binary as a network mirror.
//! Ignored by `cargo test` (they need the built Worker and Miniflare); `cargo xtask
//! worker-test` builds both and runs them with `--ignored`.

mod e2e_common;

use e2e_common::{lock_text, text, Env, LockEntry};
use tflock_core::addrs::Provider;
use tflock_core::Flavor;
use tflock_tests::edge_dev::{group_processes, EdgeDev, EdgeDevOptions};
use tflock_tests::fake_registry::{independent_h1, make_zip, package_files, PackageId};

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
        // example.com is no registry: its packages arrive only by upload. Were it pulled
        // through (every host is, by default), each upload would be checked against it.
        vars: vec![(
            "TFLOCK_PRIVATE_HOSTS".to_string(),
            "example.com".to_string(),
        )],
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
