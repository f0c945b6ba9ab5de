//! End to end: the real `tflock` binary against a fake registry served over loopback HTTP
//! (service discovery via a CLI config `host` block, signed `SHA256SUMS`, real zips).

use crate::e2e_common::unwrapped;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::fake_registry::{FakeRegistry, PackageId};
use tflock_tests::http_server::{Fault, StaticServer};
use tflock_tests::tflock_bin;

const HOST: &str = "registry.example.com";

struct World {
    server: StaticServer,
    registry: FakeRegistry,
    home: tempfile::TempDir,
    work: PathBuf,
    cache: PathBuf,
}

fn provider() -> Provider {
    Provider::parse(&format!("{HOST}/acme/demo"), Flavor::Terraform).expect("address")
}

fn serve(registry: &FakeRegistry) -> StaticServer {
    let files: BTreeMap<String, (Vec<u8>, String)> = registry
        .files_for_host(HOST)
        .into_iter()
        .map(|(path, body)| {
            let ctype = if path.ends_with(".json")
                || path.ends_with("/versions")
                || path.contains("/download/")
            {
                "application/json"
            } else {
                "application/octet-stream"
            };
            (path, (body, ctype.to_string()))
        })
        .collect();
    StaticServer::start(files)
}

fn world(versions: &[&str], configure: impl FnOnce(&mut FakeRegistry)) -> World {
    let mut registry = FakeRegistry::new();
    for v in versions {
        registry.publish(
            &provider(),
            v,
            &["linux_amd64", "darwin_arm64", "windows_amd64"],
        );
    }
    configure(&mut registry);
    let server = serve(&registry);
    let home = tempfile::tempdir().expect("tempdir");
    let work = home.path().join("work");
    let cache = home.path().join("cache");
    std::fs::create_dir_all(&work).expect("mkdir");
    std::fs::write(
        home.path().join("cli.tfrc"),
        format!(
            "host \"{HOST}\" {{\n  services = {{\n    \"providers.v1\" = \"{}/v1/providers/\"\n  }}\n}}\n",
            server.base_url()
        ),
    )
    .expect("write cli config");
    World {
        server,
        registry,
        home,
        work,
        cache,
    }
}

impl World {
    fn config(&self, constraint: &str) {
        std::fs::write(
            self.work.join("main.tf"),
            format!(
                "terraform {{\n  required_providers {{\n    demo = {{\n      source  = \"{HOST}/acme/demo\"\n      version = \"{constraint}\"\n    }}\n  }}\n}}\n"
            ),
        )
        .expect("write main.tf");
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(tflock_bin())
            .args(args)
            .current_dir(&self.work)
            .env("HOME", self.home.path())
            .env("TF_CLI_CONFIG_FILE", self.home.path().join("cli.tfrc"))
            .env("TFLOCK_CACHE_DIR", &self.cache)
            .env_remove("TF_PLUGIN_CACHE_DIR")
            .env_remove("TFLOCK_FLAVOR")
            .output()
            .expect("run tflock")
    }

    fn lock(&self) -> String {
        std::fs::read_to_string(self.work.join(".terraform.lock.hcl")).unwrap_or_default()
    }

    fn id(&self, version: &str, platform: &str) -> PackageId {
        PackageId {
            provider: provider(),
            version: version.to_string(),
            platform: platform.to_string(),
        }
    }

    fn installed_dir(&self, version: &str) -> PathBuf {
        self.work
            .join(".terraform/providers")
            .join(HOST)
            .join("acme/demo")
            .join(version)
            .join(Platform::current().to_string())
    }
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn file_list(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            out.push(e.file_name().to_string_lossy().to_string());
        }
    }
    out.sort();
    out
}

#[test]
fn first_init_installs_verifies_and_writes_the_lock_terraform_would() {
    let w = world(&["1.2.0", "1.3.0"], |_| {});
    w.config("~> 1.2.0");
    let out = w.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "- Finding {HOST}/acme/demo versions matching \"~> 1.2.0\"..."
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("- Installing {HOST}/acme/demo v1.2.0...")),
        "{stdout}"
    );
    assert!(stdout.contains("(self-signed, key ID "), "{stdout}");
    assert!(
        stdout.contains("Terraform has created a lock file .terraform.lock.hcl"),
        "{stdout}"
    );

    let here = Platform::current().to_string();
    let mut hashes = vec![w.registry.expected_h1(&w.id("1.2.0", &here))];
    for p in ["darwin_arm64", "linux_amd64", "windows_amd64"] {
        hashes.push(w.registry.expected_zh(&w.id("1.2.0", p)));
    }
    hashes.sort();
    let mut want = format!(
        "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\nprovider \"{HOST}/acme/demo\" {{\n  version     = \"1.2.0\"\n  constraints = \"~> 1.2.0\"\n  hashes = [\n"
    );
    for h in &hashes {
        want.push_str(&format!("    \"{h}\",\n"));
    }
    want.push_str("  ]\n}\n");
    assert_eq!(w.lock(), want);
    assert!(
        !file_list(&w.installed_dir("1.2.0")).is_empty(),
        "package not unpacked"
    );
}

#[test]
fn zips_a_stream_cannot_reconcile_are_hashed_and_installed_the_way_go_reads_them() {
    // A self-extractor stub before the first entry: the streaming hasher hands over to
    // random access, from the kept download (init) or a second download (providers lock).
    let w = world(&["1.2.0"], |r| {
        r.knobs.stubbed_zip = ["linux_amd64", "darwin_arm64", "windows_amd64"]
            .iter()
            .map(|p| format!("{HOST}/acme/demo 1.2.0 {p}"))
            .collect();
    });
    w.config("1.2.0");
    let out = w.run(&[
        "providers",
        "lock",
        "-platform=linux_amd64",
        "-platform=windows_amd64",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let lock = w.lock();
    for p in ["linux_amd64", "windows_amd64"] {
        let id = w.id("1.2.0", p);
        assert!(lock.contains(&w.registry.expected_h1(&id)), "{p}\n{lock}");
        assert!(lock.contains(&w.registry.expected_zh(&id)), "{p}\n{lock}");
    }
    std::fs::remove_file(w.work.join(".terraform.lock.hcl")).expect("remove lock");
    let out = w.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let here = Platform::current().to_string();
    assert!(w
        .lock()
        .contains(&w.registry.expected_h1(&w.id("1.2.0", &here))));
    assert!(
        file_list(&w.installed_dir("1.2.0")).contains(&"LICENSE.txt".to_string()),
        "{:?}",
        file_list(&w.installed_dir("1.2.0"))
    );
}

#[test]
fn second_init_reuses_the_installed_package_and_does_not_rewrite_the_lock() {
    let w = world(&["1.2.0"], |_| {});
    w.config(">= 1.0");
    assert!(w.run(&["init"]).status.success());
    let lock_path = w.work.join(".terraform.lock.hcl");
    let before = std::fs::metadata(&lock_path)
        .and_then(|m| m.modified())
        .expect("mtime");
    let zips_before = w
        .server
        .requests()
        .iter()
        .filter(|r| r.ends_with(".zip"))
        .count();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = w.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "- Reusing previous version of {HOST}/acme/demo from the dependency lock file"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "- Using previously-installed {HOST}/acme/demo v1.2.0"
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("has created a lock file"), "{stdout}");
    assert!(!stdout.contains("has made some changes"), "{stdout}");
    let after = std::fs::metadata(&lock_path)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(before, after, "unchanged lock file was rewritten");
    let zips_after = w
        .server
        .requests()
        .iter()
        .filter(|r| r.ends_with(".zip"))
        .count();
    assert_eq!(zips_before, zips_after, "re-init downloaded again");
}

#[test]
fn providers_lock_adds_every_platforms_h1_and_a_warm_cache_needs_no_downloads() {
    let w = world(&["1.2.0"], |_| {});
    w.config("1.2.0");
    let args = [
        "providers",
        "lock",
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
        "-platform=windows_amd64",
    ];
    let out = w.run(&args);
    assert!(out.status.success(), "{}", text(&out));
    let lock = w.lock();
    for p in ["linux_amd64", "darwin_arm64", "windows_amd64"] {
        assert!(
            lock.contains(&w.registry.expected_h1(&w.id("1.2.0", p))),
            "missing h1 for {p}:\n{lock}"
        );
        assert!(
            lock.contains(&w.registry.expected_zh(&w.id("1.2.0", p))),
            "missing zh for {p}:\n{lock}"
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("This was a new provider and the checksums for this platform are now tracked in the lock file"), "{stdout}");

    // Registry zips now fail: the verified hash cache answers instead.
    std::fs::remove_file(w.work.join(".terraform.lock.hcl")).expect("rm lock");
    for p in ["linux_amd64", "darwin_arm64", "windows_amd64"] {
        let path = w
            .server
            .requests()
            .into_iter()
            .find(|r| r.ends_with(&format!("{p}.zip")))
            .expect("zip was requested");
        w.server.set_fault(&path, Fault::Status(500));
    }
    let again = w.run(&args);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(w.lock(), lock);
}

#[test]
fn readonly_lockfile_refuses_new_providers_and_writes_nothing() {
    let w = world(&["1.2.0"], |_| {});
    std::fs::write(w.work.join("main.tf"), "").expect("write");
    assert!(w.run(&["init"]).status.success());
    w.config("1.2.0");
    let out = w.run(&["init", "-lockfile=readonly"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Provider dependency changes detected"),
        "{stderr}"
    );
    assert!(
        !w.lock().contains("acme/demo"),
        "readonly run wrote the lock"
    );
}

#[test]
fn upgrade_moves_to_the_newest_allowed_version() {
    let w = world(&["1.2.0", "1.3.0", "2.0.0"], |_| {});
    w.config("1.2.0");
    assert!(w.run(&["init"]).status.success());
    w.config("~> 1.2");
    let plain = w.run(&["init"]);
    assert!(plain.status.success(), "{}", text(&plain));
    assert!(w.lock().contains("version     = \"1.2.0\""), "{}", w.lock());
    let up = w.run(&["init", "-upgrade"]);
    assert!(up.status.success(), "{}", text(&up));
    let lock = w.lock();
    assert!(lock.contains("version     = \"1.3.0\""), "{lock}");
    assert!(lock.contains("constraints = \"~> 1.2\""), "{lock}");
    assert!(
        !lock.contains(&w.registry.expected_zh(&w.id("1.2.0", "linux_amd64"))),
        "old version's hashes kept:\n{lock}"
    );
}

#[test]
fn a_tampered_package_is_rejected_and_nothing_is_installed() {
    let here = Platform::current().to_string();
    let w = world(&["1.2.0"], |r| {
        r.knobs.tamper_zip = vec![format!("{HOST}/acme/demo 1.2.0 {here}")];
    });
    w.config("1.2.0");
    let out = w.run(&["init"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    assert!(stderr.contains("Failed to install provider"), "{stderr}");
    assert!(
        stderr.contains("archive has incorrect checksum"),
        "{stderr}"
    );
    assert!(w.lock().is_empty(), "lock written after a failed install");
    assert!(
        !w.installed_dir("1.2.0").exists(),
        "tampered package was unpacked"
    );
}

#[test]
fn transient_server_errors_are_retried() {
    let w = world(&["1.2.0"], |_| {});
    w.config("1.2.0");
    w.server
        .set_fault("/v1/providers/acme/demo/versions", Fault::FailTimes(1));
    let out = w.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let hits = w
        .server
        .requests()
        .iter()
        .filter(|r| r.as_str() == "/v1/providers/acme/demo/versions")
        .count();
    assert_eq!(hits, 2, "expected one retry: {:?}", w.server.requests());
}

#[test]
fn verify_names_the_package_that_no_longer_matches_the_lock() {
    let w = world(&["1.2.0"], |_| {});
    w.config("1.2.0");
    assert!(w.run(&["init"]).status.success());
    assert!(w.run(&["verify"]).status.success());
    let dir = w.installed_dir("1.2.0");
    let file = dir.join(file_list(&dir).first().expect("a file"));
    std::fs::write(&file, b"changed").expect("tamper");
    let out = w.run(&["verify"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{HOST}/acme/demo 1.2.0")),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            &dir.display()
                .to_string()
                .replace(&w.work.display().to_string(), ".")
        ),
        "{stderr}"
    );
}

#[test]
fn twenty_parallel_inits_share_one_plugin_cache_without_corruption() {
    let w = world(&["1.2.0"], |_| {});
    let plugin_cache = w.home.path().join("plugin-cache");
    std::fs::create_dir_all(&plugin_cache).expect("mkdir");
    let bin = tflock_bin();
    let mut children = Vec::new();
    for i in 0..20 {
        let dir = w.home.path().join(format!("run{i}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(
            dir.join("main.tf"),
            format!("terraform {{\n  required_providers {{\n    demo = {{\n      source  = \"{HOST}/acme/demo\"\n      version = \"1.2.0\"\n    }}\n  }}\n}}\n"),
        )
        .expect("write");
        children.push((
            dir.clone(),
            Command::new(&bin)
                .arg("init")
                .current_dir(&dir)
                .env("HOME", w.home.path())
                .env("TF_CLI_CONFIG_FILE", w.home.path().join("cli.tfrc"))
                .env("TF_PLUGIN_CACHE_DIR", &plugin_cache)
                .env("TFLOCK_CACHE_DIR", &w.cache)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn"),
        ));
    }
    let mut locks = Vec::new();
    for (dir, child) in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{}", text(&out));
        locks.push(std::fs::read_to_string(dir.join(".terraform.lock.hcl")).expect("lock"));
        let verify = Command::new(&bin)
            .arg("verify")
            .current_dir(&dir)
            .env("HOME", w.home.path())
            .output()
            .expect("verify");
        assert!(verify.status.success(), "{}", text(&verify));
    }
    assert!(
        locks.windows(2).all(|p| p[0] == p[1]),
        "runs disagree on the lock file"
    );
    let cached = plugin_cache
        .join(HOST)
        .join("acme/demo/1.2.0")
        .join(Platform::current().to_string());
    let h1 = tflock_core::hash::hash_files(
        file_list(&cached)
            .iter()
            .map(|n| (n.clone(), std::fs::read(cached.join(n)).expect("read")))
            .collect::<Vec<_>>()
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice())),
    )
    .expect("hash");
    assert_eq!(
        h1.to_string(),
        w.registry
            .expected_h1(&w.id("1.2.0", &Platform::current().to_string()))
    );
}

#[test]
fn a_warm_plugin_cache_installs_the_locked_version_while_the_registry_is_down() {
    let w = world(&["1.2.0"], |_| {});
    w.config("1.2.0");
    let plugin_cache = w.home.path().join("plugin-cache");
    std::fs::create_dir_all(&plugin_cache).expect("mkdir");
    let init = |dir: &Path| {
        Command::new(tflock_bin())
            .arg("init")
            .current_dir(dir)
            .env("HOME", w.home.path())
            .env("TF_CLI_CONFIG_FILE", w.home.path().join("cli.tfrc"))
            .env("TF_PLUGIN_CACHE_DIR", &plugin_cache)
            .env("TFLOCK_CACHE_DIR", &w.cache)
            .output()
            .expect("run tflock")
    };
    let first = init(&w.work);
    assert!(first.status.success(), "{}", text(&first));

    // A second checkout with the committed lock file, while every registry request fails.
    let other = w.home.path().join("checkout2");
    std::fs::create_dir_all(&other).expect("mkdir");
    for f in ["main.tf", ".terraform.lock.hcl"] {
        std::fs::copy(w.work.join(f), other.join(f)).expect("copy");
    }
    for path in w.server.requests() {
        w.server.set_fault(&path, Fault::Status(503));
    }
    let requests_before = w.server.requests().len();
    let second = init(&other);
    assert!(second.status.success(), "{}", text(&second));
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(
        stdout.contains(&format!(
            "- Using {HOST}/acme/demo v1.2.0 from the shared cache directory"
        )),
        "{stdout}"
    );
    assert_eq!(
        w.server.requests().len(),
        requests_before,
        "the registry was contacted"
    );
    assert_eq!(
        std::fs::read_to_string(other.join(".terraform.lock.hcl")).expect("lock"),
        w.lock()
    );
    let verify = Command::new(tflock_bin())
        .arg("verify")
        .current_dir(&other)
        .env("HOME", w.home.path())
        .output()
        .expect("verify");
    assert!(verify.status.success(), "{}", text(&verify));
}
