//! Helpers shared by the `cli_e2e_*` suites: a fake registry and mirror served over
//! loopback (plain or TLS), a throw-away HOME with a CLI config, and the lock file text
//! Terraform writes, built from the fake registry's independently computed hashes.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::fake_registry::{package_files, FakeRegistry, PackageId, MIRROR_HOST};
use tflock_tests::http_server::StaticServer;
use tflock_tests::tflock_bin;

/// The fake registry's hostname (mapped to the loopback server by a `host` block).
pub const HOST: &str = "registry.example.com";

/// The platforms every fake release offers (this machine's included).
pub fn platforms() -> Vec<String> {
    let mut out: Vec<String> = ["darwin_arm64", "linux_amd64", "windows_amd64"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let here = Platform::current().to_string();
    if !out.contains(&here) {
        out.push(here);
    }
    out.sort();
    out
}

/// `registry.example.com/acme/<name>`.
pub fn provider(name: &str) -> Provider {
    Provider::parse(&format!("{HOST}/acme/{name}"), Flavor::Terraform).expect("address")
}

/// A package id.
pub fn id(provider: &Provider, version: &str, platform: &str) -> PackageId {
    PackageId {
        provider: provider.clone(),
        version: version.to_string(),
        platform: platform.to_string(),
    }
}

/// A registry publishing each `(provider, version)` for [`platforms`].
pub fn registry(releases: &[(&Provider, &str)]) -> FakeRegistry {
    let mut r = FakeRegistry::new();
    let plats = platforms();
    let plats: Vec<&str> = plats.iter().map(String::as_str).collect();
    for (p, v) in releases {
        r.publish(p, v, &plats);
    }
    r
}

fn content_type(path: &str) -> &'static str {
    if path.ends_with(".json") || path.ends_with("/versions") || path.contains("/download/") {
        "application/json"
    } else {
        "application/octet-stream"
    }
}

/// The registry's files (discovery, API, zips, sums) as a server's file tree.
pub fn registry_files(r: &FakeRegistry, host: &str) -> BTreeMap<String, (Vec<u8>, String)> {
    r.files_for_host(host)
        .into_iter()
        .map(|(path, body)| {
            let ctype = content_type(&path).to_string();
            (path, (body, ctype))
        })
        .collect()
}

/// The network mirror's files (`/providers/<host>/<ns>/<type>/...`).
pub fn mirror_files(r: &FakeRegistry) -> BTreeMap<String, (Vec<u8>, String)> {
    registry_files(r, MIRROR_HOST)
}

/// A `host` block pointing `HOST`'s provider registry at `server`.
pub fn host_block(server: &StaticServer) -> String {
    format!(
        "host \"{HOST}\" {{\n  services = {{\n    \"providers.v1\" = \"{}/v1/providers/\"\n  }}\n}}\n",
        server.base_url()
    )
}

/// A throw-away HOME with a working directory and a CLI config.
pub struct Env {
    /// HOME (and everything else) lives here.
    pub home: tempfile::TempDir,
    /// The root module directory.
    pub work: PathBuf,
    /// Extra environment for every run.
    pub vars: Vec<(String, String)>,
}

impl Env {
    /// An empty environment.
    pub fn new() -> Env {
        let home = tempfile::tempdir().expect("tempdir");
        let work = home.path().join("work");
        std::fs::create_dir_all(&work).expect("mkdir");
        Env {
            home,
            work,
            vars: Vec::new(),
        }
    }

    /// Writes the CLI config file the runs use.
    pub fn cli_config(&self, text: &str) {
        std::fs::write(self.home.path().join("cli.tfrc"), text).expect("write cli config");
    }

    /// Writes the server's CA to a file and points `SSL_CERT_FILE` at it.
    pub fn trust(&mut self, server: &StaticServer) {
        let path = self.home.path().join("test-ca.pem");
        std::fs::write(&path, server.ca_pem().expect("a TLS server")).expect("write CA");
        self.vars
            .push(("SSL_CERT_FILE".into(), path.display().to_string()));
    }

    /// Sets an environment variable for every run.
    pub fn set(&mut self, k: &str, v: &str) {
        self.vars.push((k.into(), v.into()));
    }

    /// A `main.tf` requiring each `(name, constraint)` of `registry.example.com/acme/<name>`.
    pub fn requires(&self, reqs: &[(&str, &str)]) {
        let mut body = String::from("terraform {\n  required_providers {\n");
        for (name, constraint) in reqs {
            body.push_str(&format!(
                "    {name} = {{\n      source  = \"{HOST}/acme/{name}\"\n      version = \"{constraint}\"\n    }}\n"
            ));
        }
        body.push_str("  }\n}\n");
        std::fs::write(self.work.join("main.tf"), body).expect("write main.tf");
    }

    /// Runs `tflock` in the working directory.
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.work, args)
    }

    /// Runs `tflock` in `dir`.
    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.command_in(dir, args).output().expect("run tflock")
    }

    /// The `tflock` command [`Env::run_in`] runs, to spawn it instead.
    pub fn command_in(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(tflock_bin());
        cmd.args(args)
            .current_dir(dir)
            .env("HOME", self.home.path())
            .env("TF_CLI_CONFIG_FILE", self.home.path().join("cli.tfrc"))
            .env("TFLOCK_CACHE_DIR", self.home.path().join("hash-cache"))
            .env_remove("TF_PLUGIN_CACHE_DIR")
            .env_remove("TFLOCK_FLAVOR")
            .env_remove("SSL_CERT_FILE")
            .env_remove("SSL_CERT_DIR")
            .env_remove("TFLOCK_HTTP_TIMEOUT")
            .env_remove("TF_REGISTRY_CLIENT_TIMEOUT");
        for (k, _) in std::env::vars() {
            if k.starts_with("TF_TOKEN_") {
                cmd.env_remove(k);
            }
        }
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd
    }

    /// The lock file text ("" when absent).
    pub fn lock(&self) -> String {
        std::fs::read_to_string(self.work.join(".terraform.lock.hcl")).unwrap_or_default()
    }

    /// Where `init` unpacks a package for this machine.
    pub fn installed_dir(&self, p: &Provider, version: &str) -> PathBuf {
        self.work
            .join(".terraform/providers")
            .join(&p.hostname)
            .join(&p.namespace)
            .join(&p.r#type)
            .join(version)
            .join(Platform::current().to_string())
    }
}

/// One provider block of a lock file, as Terraform writes it.
pub struct LockEntry<'a> {
    /// Address.
    pub provider: &'a Provider,
    /// Selected version.
    pub version: &'a str,
    /// Canonical constraints, if any.
    pub constraints: Option<&'a str>,
    /// Hashes (sorted here).
    pub hashes: Vec<String>,
}

/// The exact lock file text Terraform (or OpenTofu) writes for `entries`.
pub fn lock_text(flavor: Flavor, entries: &[LockEntry<'_>]) -> String {
    let tool = match flavor {
        Flavor::Terraform => "terraform",
        Flavor::OpenTofu => "tofu",
    };
    let mut out = format!(
        "# This file is maintained automatically by \"{tool} init\".\n# Manual edits may be lost in future updates.\n"
    );
    let mut sorted: Vec<&LockEntry<'_>> = entries.iter().collect();
    sorted.sort_by_key(|e| e.provider.to_string());
    for e in sorted {
        out.push_str(&format!("\nprovider \"{}\" {{\n", e.provider));
        match e.constraints {
            Some(c) => out.push_str(&format!(
                "  version     = \"{}\"\n  constraints = \"{c}\"\n",
                e.version
            )),
            None => out.push_str(&format!("  version = \"{}\"\n", e.version)),
        }
        let mut hashes = e.hashes.clone();
        hashes.sort();
        hashes.dedup();
        out.push_str("  hashes = [\n");
        for h in hashes {
            out.push_str(&format!("    \"{h}\",\n"));
        }
        out.push_str("  ]\n}\n");
    }
    out
}

/// Status, stdout and stderr, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// stdout + stderr.
pub fn all_output(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `text` with its line breaks read as spaces: diagnostics' details are word-wrapped to the
/// terminal's width (78 columns off a terminal) as Terraform's are, so a sentence of one may
/// run over several lines.
pub fn unwrapped(text: &str) -> String {
    text.replace('\n', " ")
}

/// Copies the directory tree `from` into `to` (created; existing files are overwritten).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

/// Writes `provider`'s packages into a filesystem mirror at `dir`, packed (zips) or unpacked.
pub fn fs_mirror(reg: &FakeRegistry, dir: &Path, provider: &Provider, version: &str, packed: bool) {
    let base = dir
        .join(&provider.hostname)
        .join(&provider.namespace)
        .join(&provider.r#type);
    for p in platforms() {
        let pkg = id(provider, version, &p);
        if packed {
            std::fs::create_dir_all(&base).expect("mkdir");
            std::fs::write(
                base.join(FakeRegistry::filename(&pkg)),
                reg.genuine_zip(&pkg),
            )
            .expect("write zip");
        } else {
            let pdir = base.join(version).join(&p);
            std::fs::create_dir_all(&pdir).expect("mkdir");
            for (name, content) in package_files(&pkg) {
                std::fs::write(pdir.join(name), content).expect("write file");
            }
        }
    }
}
