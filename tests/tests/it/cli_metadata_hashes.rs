//! `providers lock -metadata-hashes` end to end (issue 31, item 3): against the loopback
//! registry serving OpenTofu's `packages` and a loopback HTTPS network mirror listing
//! `h1:` and `zh:`, one package is downloaded per provider (none once the hash cache has
//! it), the lock is byte for byte the one a download of every platform writes, `-json`
//! says which hashes came from metadata, and the CLI config's `tflock_metadata_hashes`
//! turns the mode on. Downloads are counted on the servers.

use crate::e2e_common::{
    host_block, mirror_files, platforms, provider, registry, registry_files, text, Env,
};
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;

const PROVIDERS: [&str; 2] = ["demo", "extra"];

fn releases() -> FakeRegistry {
    let (demo, extra) = (provider("demo"), provider("extra"));
    let mut reg = registry(&[(&demo, "1.0.0"), (&extra, "1.0.0")]);
    reg.knobs.packages = true;
    reg.knobs.mirror_zh = true;
    reg
}

/// A fresh HOME (own hash cache) requiring both providers, with `config` as its CLI config.
fn env(config: &str) -> Env {
    let env = Env::new();
    env.cli_config(config);
    env.requires(&[("demo", "1.0.0"), ("extra", "1.0.0")]);
    env
}

/// Runs `providers lock` for every platform with `extra` args; returns stdout and the zips
/// `server` served during the run.
fn lock(env: &Env, server: &StaticServer, extra: &[&str]) -> (String, Vec<String>) {
    let before = server.requests().len();
    let flags: Vec<String> = platforms()
        .iter()
        .map(|p| format!("-platform={p}"))
        .collect();
    let mut args = vec!["providers", "lock"];
    args.extend(flags.iter().map(String::as_str));
    args.extend(extra);
    let out = env.run(&args);
    assert!(out.status.success(), "{}", text(&out));
    let zips = server.requests()[before..]
        .iter()
        .filter(|r| r.ends_with(".zip"))
        .cloned()
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), zips)
}

#[test]
fn opentofu_packages_lock_every_platform_with_one_download_per_provider_and_the_same_bytes() {
    let reg = releases();
    let server = StaticServer::start(registry_files(&reg, crate::e2e_common::HOST));
    let (full, meta) = (env(&host_block(&server)), env(&host_block(&server)));

    let (_, zips) = lock(&full, &server, &["-flavor=opentofu"]);
    assert_eq!(zips.len(), PROVIDERS.len() * platforms().len(), "{zips:?}");
    let (stdout, zips) = lock(&meta, &server, &["-flavor=opentofu", "-metadata-hashes"]);
    assert_eq!(zips.len(), PROVIDERS.len(), "{zips:?}");
    assert_eq!(meta.lock(), full.lock());
    assert!(
        stdout.contains("from the source's metadata, without downloading"),
        "{stdout}"
    );

    // The hash cache has each provider's one package now: nothing is downloaded.
    std::fs::remove_file(meta.work.join(".terraform.lock.hcl")).expect("remove lock");
    let (_, zips) = lock(&meta, &server, &["-flavor=opentofu", "-metadata-hashes"]);
    assert!(zips.is_empty(), "downloaded again: {zips:?}");
    assert_eq!(meta.lock(), full.lock());
}

#[test]
fn a_network_mirrors_hashes_lock_every_platform_and_json_says_which_came_from_metadata() {
    let reg = releases();
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let net = format!("-net-mirror={}/providers/", mirror.base_url());
    let (mut full, mut meta) = (env(""), env(""));
    full.trust(&mirror);
    meta.trust(&mirror);

    let (_, zips) = lock(&full, &mirror, &[&net]);
    assert_eq!(zips.len(), PROVIDERS.len() * platforms().len(), "{zips:?}");
    let (stdout, zips) = lock(&meta, &mirror, &[&net, "-metadata-hashes", "-json"]);
    assert_eq!(zips.len(), PROVIDERS.len(), "{zips:?}");
    assert_eq!(meta.lock(), full.lock());

    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    for p in doc["providers"].as_array().expect("providers") {
        let hashes = p["hashes"].as_array().expect("hashes");
        let count = |flag: &str| hashes.iter().filter(|h| h[flag] == true).count();
        // Terraform records one h1: per platform from a mirror: one computed, the rest
        // taken from the mirror's document.
        assert_eq!(hashes.len(), platforms().len(), "{p}");
        assert_eq!(count("computed_locally"), 1, "{p}");
        assert_eq!(count("from_metadata"), platforms().len() - 1, "{p}");
    }
}

#[test]
fn the_cli_configs_tflock_metadata_hashes_turns_the_mode_on_without_the_flag() {
    let reg = releases();
    let server = StaticServer::start(registry_files(&reg, crate::e2e_common::HOST));
    let on = env(&format!(
        "{}tflock_metadata_hashes = true\n",
        host_block(&server)
    ));
    let (_, zips) = lock(&on, &server, &["-flavor=opentofu"]);
    assert_eq!(zips.len(), PROVIDERS.len(), "{zips:?}");
    // Without the setting the default stays the products' own: every package.
    let off = env(&host_block(&server));
    let (_, zips) = lock(&off, &server, &["-flavor=opentofu"]);
    assert_eq!(zips.len(), PROVIDERS.len() * platforms().len(), "{zips:?}");
    assert_eq!(on.lock(), off.lock());
}

#[test]
fn init_accepts_metadata_hashes_and_installs_and_locks_as_without_it() {
    let reg = releases();
    let server = StaticServer::start(registry_files(&reg, crate::e2e_common::HOST));
    let (plain, meta) = (env(&host_block(&server)), env(&host_block(&server)));
    for (e, extra) in [(&plain, None), (&meta, Some("-metadata-hashes"))] {
        let before = server.requests().len();
        let mut args = vec!["init", "-flavor=opentofu"];
        args.extend(extra);
        let out = e.run(&args);
        assert!(out.status.success(), "{}", text(&out));
        // init needs the package it installs, one per provider, in both modes.
        let zips = server.requests()[before..]
            .iter()
            .filter(|r| r.ends_with(".zip"))
            .count();
        assert_eq!(zips, PROVIDERS.len());
    }
    assert_eq!(meta.lock(), plain.lock());
}
