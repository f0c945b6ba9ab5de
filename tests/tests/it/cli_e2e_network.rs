//! End to end over loopback: where credentials go (CLI config `credentials` blocks and
//! `TF_TOKEN_<host>`: only registry and mirror JSON endpoints, never package downloads or
//! checksum files), and servers that stall or never answer (bounded timeouts, retries, an
//! error naming the URL).

use crate::e2e_common::*;
use std::time::{Duration, Instant};
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::{Fault, Request, StaticServer};

fn auth(r: &Request) -> Option<&str> {
    r.header("Authorization")
}

/// Every request to a JSON API endpoint carried `token`; every other request none.
fn assert_token_only_on_api(log: &[Request], token: &str, is_api: impl Fn(&str) -> bool) {
    assert!(!log.is_empty());
    let want = format!("Bearer {token}");
    let mut api = 0;
    for r in log {
        if is_api(&r.path) {
            api += 1;
            assert_eq!(auth(r), Some(want.as_str()), "{} lacks the token", r.path);
        } else {
            assert_eq!(auth(r), None, "{} must not get credentials", r.path);
        }
    }
    assert!(api > 0, "no API request seen: {log:?}");
    assert!(
        log.iter().any(|r| r.path.ends_with(".zip")),
        "no download seen: {log:?}"
    );
}

fn registry_api(path: &str) -> bool {
    path.starts_with("/v1/providers/")
}

#[test]
fn a_credentials_block_token_goes_to_the_registry_api_but_not_to_downloads() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&format!(
        "{}credentials \"{HOST}\" {{\n  token = \"config-token\"\n}}\n",
        host_block(&server)
    ));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let log = server.request_log();
    assert!(log.iter().any(|r| r.path.contains("SHA256SUMS")), "{log:?}");
    assert_token_only_on_api(&log, "config-token", registry_api);
}

#[test]
fn tf_token_variable_wins_over_the_credentials_block() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let mut env = Env::new();
    env.cli_config(&format!(
        "{}credentials \"{HOST}\" {{\n  token = \"config-token\"\n}}\n",
        host_block(&server)
    ));
    // Dots are written as underscores, as shells need.
    env.set("TF_TOKEN_registry_example_com", "env-token");
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["providers", "lock", "-platform=linux_amd64"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_token_only_on_api(&server.request_log(), "env-token", registry_api);
}

#[test]
fn no_credentials_no_authorization_header() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let mut env = Env::new();
    env.cli_config(&host_block(&server));
    // A token for another host must not leak to this one.
    env.set("TF_TOKEN_other_example_com", "elsewhere");
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    let log = server.request_log();
    assert!(log.iter().all(|r| auth(r).is_none()), "{log:?}");
}

#[test]
fn mirror_credentials_are_keyed_by_the_mirror_host_and_port_and_skip_archives() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let mirror = StaticServer::start_tls(mirror_files(&reg));
    let mut env = Env::new();
    env.trust(&mirror);
    env.cli_config(&format!(
        "credentials \"{}\" {{\n  token = \"mirror-token\"\n}}\nprovider_installation {{\n  network_mirror {{\n    url = \"{}/providers/\"\n  }}\n}}\n",
        mirror.authority(),
        mirror.base_url()
    ));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_token_only_on_api(&mirror.request_log(), "mirror-token", |p| {
        p.ends_with(".json")
    });

    // `providers lock -net-mirror` uses the same credentials.
    let before = mirror.request_log().len();
    std::fs::remove_file(env.work.join(".terraform.lock.hcl")).expect("rm lock");
    let net = format!("-net-mirror={}/providers/", mirror.base_url());
    let out = env.run(&["providers", "lock", net.as_str(), "-no-hash-cache"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_token_only_on_api(&mirror.request_log()[before..], "mirror-token", |p| {
        p.ends_with(".json")
    });
}

/// A world whose server misbehaves on `path`, with a 1-second timeout.
fn faulty(fault: Fault, path: impl Fn(&FakeRegistry) -> String) -> (Env, StaticServer, String) {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let path = path(&reg);
    server.set_fault(&path, fault);
    let mut env = Env::new();
    env.cli_config(&host_block(&server));
    env.set("TFLOCK_HTTP_TIMEOUT", "1");
    env.requires(&[("demo", "1.2.0")]);
    (env, server, path)
}

#[test]
fn a_registry_answer_that_stalls_after_its_headers_times_out_retries_and_names_the_url() {
    let (env, server, path) = faulty(Fault::Stall, |_| {
        "/v1/providers/acme/demo/versions".to_string()
    });
    let started = Instant::now();
    let out = env.run(&["init"]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    let url = format!("{}{path}", server.base_url());
    assert!(stderr.contains(&format!("Get \"{url}\"")), "{stderr}");
    assert!(stderr.contains("timed out"), "{stderr}");
    assert!(
        stderr.contains("the request failed after 3 attempts"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "could not query provider registry for {HOST}/acme/demo"
        )),
        "{stderr}"
    );
    let attempts = server.requests().iter().filter(|r| **r == path).count();
    assert_eq!(attempts, 3, "{:?}", server.requests());
    assert!(env.lock().is_empty());
}

#[test]
fn a_download_that_never_answers_times_out_retries_and_names_the_url() {
    let here = tflock_core::addrs::Platform::current().to_string();
    let (env, server, path) = faulty(Fault::Hang, |_| {
        format!(
            "/files/acme/demo/1.2.0/{}",
            FakeRegistry::filename(&id(&provider("demo"), "1.2.0", &here))
        )
    });
    let started = Instant::now();
    let out = env.run(&["init"]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(took < Duration::from_secs(30), "took {took:?}");
    let stderr = unwrapped(&String::from_utf8_lossy(&out.stderr));
    let url = format!("{}{path}", server.base_url());
    assert!(stderr.contains(&format!("Get \"{url}\"")), "{stderr}");
    assert!(stderr.contains("timed out"), "{stderr}");
    assert!(stderr.contains("Failed to install provider"), "{stderr}");
    let attempts = server.requests().iter().filter(|r| **r == path).count();
    assert_eq!(attempts, 3, "{:?}", server.requests());
    assert!(env.lock().is_empty());
    assert!(!env.installed_dir(&provider("demo"), "1.2.0").exists());
}

#[test]
fn a_download_cut_off_mid_body_is_not_retried_and_installs_nothing() {
    let here = tflock_core::addrs::Platform::current().to_string();
    let (env, server, path) = faulty(Fault::Truncate, |_| {
        format!(
            "/files/acme/demo/1.2.0/{}",
            FakeRegistry::filename(&id(&provider("demo"), "1.2.0", &here))
        )
    });
    let out = env.run(&["init"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Failed to install provider"), "{stderr}");
    let attempts = server.requests().iter().filter(|r| **r == path).count();
    assert_eq!(attempts, 1, "a half-hashed body must not be retried");
    assert!(env.lock().is_empty());
}

/// `init` against a host block that declares `services` (no server is contacted).
fn init_with_services(host: &str, services: &str) -> String {
    let env = Env::new();
    env.cli_config(&format!(
        "host \"{host}\" {{\n  services = {{\n    {services}\n  }}\n}}\n"
    ));
    std::fs::write(
        env.work.join("main.tf"),
        format!("terraform {{\n  required_providers {{\n    demo = {{ source = \"{host}/acme/demo\" }}\n  }}\n}}\n"),
    )
    .expect("write main.tf");
    let out = env.run(&["init"]);
    assert!(!out.status.success(), "{}", text(&out));
    unwrapped(&all_output(&out))
}

#[test]
fn a_host_with_only_another_providers_protocol_gets_terraforms_other_version_message() {
    let all = init_with_services(
        "example.com",
        "\"providers.v2\" = \"https://127.0.0.1:1/v2/\"",
    );
    assert!(
        all.contains("Error: Invalid provider registry host")
            && all.contains("The host \"example.com\" given in provider source address \"example.com/acme/demo\" does not offer a Terraform provider registry that is compatible with this Terraform version, but it may be compatible with a different Terraform version."),
        "{all}"
    );
}

#[test]
fn a_github_source_address_gets_terraforms_repository_hint() {
    let all = init_with_services("github.com", "\"modules.v1\" = \"https://127.0.0.1:1/m/\"");
    assert!(
        all.contains("Error: Invalid provider registry host")
            && all.contains("The given source address \"github.com/acme/demo\" specifies a GitHub repository rather than a Terraform provider. Refer to the documentation of the provider to find the correct source address to use."),
        "{all}"
    );
}
