//! The edge mirror's fill procedure against the signed fake registry: every platform listed
//! with its signed `zh:`, credentials only where the CLI sends them, requests batched, and
//! every kind of origin lie refused.

use std::collections::BTreeMap;

use tflock_core::addrs::Provider;
use tflock_core::edge::config::EdgeConfig;
use tflock_core::edge::fill::{Fill, FillStep, Filled, OriginGet};
use tflock_core::edge::EdgeErrorKind;
use tflock_core::hash::hash_zip;
use tflock_core::source::HttpResponse;
use tflock_core::version::Version;
use tflock_tests::fake_registry::{FakeRegistry, PackageId, Signing};

const PLATFORMS: &[&str] = &["darwin_arm64", "linux_amd64", "windows_386"];

fn provider() -> Provider {
    Provider::new("registry.example.com", "acme", "demo")
}

fn registry() -> FakeRegistry {
    let mut r = FakeRegistry::new();
    r.publish(&provider(), "1.0.0", PLATFORMS);
    r.publish(&provider(), "1.1.0", &["linux_amd64"]);
    r
}

fn config() -> EdgeConfig {
    config_for("terraform")
}

fn config_for(flavor: &str) -> EdgeConfig {
    let vars = vec![
        (
            "TF_TOKEN_registry_example_com".to_string(),
            "secret".to_string(),
        ),
        ("TFLOCK_FLAVOR".to_string(), flavor.to_string()),
    ];
    EdgeConfig::from_vars(&vars).expect("config")
}

/// Runs a fill against the registry's files; returns the result, the rounds of requests and
/// every request made.
fn run(
    r: &FakeRegistry,
    fill: Fill,
) -> (
    Result<Filled, tflock_core::edge::EdgeError>,
    usize,
    Vec<OriginGet>,
) {
    let files = r.files();
    let mut fill = fill;
    let mut rounds = 0;
    let mut asked = Vec::new();
    loop {
        match fill.poll() {
            FillStep::Done(result) => return (result, rounds, asked),
            FillStep::Requests(requests) => {
                rounds += 1;
                assert!(rounds < 20, "the fill keeps asking");
                for request in requests {
                    let url = &request.url;
                    let response = match files.get(url.as_str()) {
                        Some(body) => HttpResponse::new(
                            url,
                            200,
                            "OK",
                            Some("application/json"),
                            body.clone(),
                        ),
                        None => HttpResponse::new(url, 404, "Not Found", None, Vec::new()),
                    };
                    asked.push(request.clone());
                    fill.receive(request, Ok(response));
                }
            }
        }
    }
}

fn id(platform: &str) -> PackageId {
    PackageId {
        provider: provider(),
        version: "1.0.0".into(),
        platform: platform.into(),
    }
}

fn version_fill() -> Fill {
    Fill::version(&config(), provider(), Version::parse("1.0.0").unwrap())
}

#[test]
fn a_version_lists_every_platform_with_its_signed_zh_in_few_rounds() {
    let r = registry();
    let (result, rounds, asked) = run(&r, version_fill());
    let Filled::Version { doc, record } = result.expect("filled") else {
        panic!("not a version");
    };
    let doc: serde_json::Value = serde_json::from_slice(&doc).unwrap();
    let archives = doc["archives"].as_object().unwrap();
    assert_eq!(
        archives.keys().collect::<Vec<_>>(),
        PLATFORMS.iter().collect::<Vec<_>>()
    );
    for p in PLATFORMS {
        let name = format!("terraform-provider-demo_1.0.0_{p}.zip");
        assert_eq!(archives[*p]["url"], name.as_str());
        assert_eq!(
            archives[*p]["hashes"],
            serde_json::json!([r.expected_zh(&id(p))])
        );
        let origin = &record.platforms[*p];
        assert_eq!(origin.zh, r.expected_zh(&id(p)));
        assert!(
            origin.url.ends_with(&FakeRegistry::filename(&id(p))),
            "{}",
            origin.url
        );
    }
    assert_eq!(record.auth, "self-signed");
    assert!(record.key_id.is_some());
    // discovery, versions, all downloads at once, SHA256SUMS, its signature.
    assert_eq!(rounds, 5, "{asked:#?}");
    for request in &asked {
        let OriginGet { url, auth_host } = request;
        let registry_api =
            url.path().starts_with("/.well-known/") || url.path().starts_with("/v1/");
        assert_eq!(
            auth_host.as_deref(),
            registry_api.then_some("registry.example.com"),
            "credentials for {url}"
        );
    }
}

#[test]
fn the_index_lists_the_origin_versions() {
    let r = registry();
    let (result, rounds, _) = run(&r, Fill::index(&config(), provider()));
    let Filled::Index { doc, versions } = result.expect("filled") else {
        panic!("not an index");
    };
    assert_eq!(versions, vec!["1.0.0", "1.1.0"]);
    let doc: serde_json::Value = serde_json::from_slice(&doc).unwrap();
    assert_eq!(
        doc,
        serde_json::json!({"versions": {"1.0.0": {}, "1.1.0": {}}})
    );
    assert_eq!(rounds, 2);
}

#[test]
fn signatures_that_do_not_verify_refuse_the_whole_version() {
    for signing in [Signing::Bad, Signing::UnknownKey, Signing::NoKeys] {
        let mut r = registry();
        r.knobs.signing = signing;
        let err = run(&r, version_fill()).0.expect_err("refused");
        assert_eq!(err.kind, EdgeErrorKind::Refused, "{signing:?}: {err}");
        assert_eq!(err.status(), 502);
        assert!(
            err.message
                .starts_with("registry.example.com/acme/demo 1.0.0 for "),
            "{err}"
        );
    }
}

#[test]
fn archives_are_accepted_only_as_signed_and_as_the_origin_describes_them() {
    let mut r = registry();
    r.knobs.packages = true;
    r.knobs.tamper_zip = vec![id("linux_amd64").selector()];
    r.knobs.lying_h1 = vec![id("windows_386").selector()];
    // OpenTofu reads the origin's `packages` (Terraform ignores them, and so does the mirror).
    let tofu = Fill::version(
        &config_for("opentofu"),
        provider(),
        Version::parse("1.0.0").unwrap(),
    );
    let Filled::Version { record, .. } = run(&r, tofu).0.expect("filled") else {
        panic!("not a version");
    };
    let accept = |p: &str| record.accept(p, &hash_zip(&r.served_zip(&id(p))).unwrap());
    assert_eq!(
        accept("darwin_arm64").unwrap(),
        vec![
            r.expected_h1(&id("darwin_arm64")),
            r.expected_zh(&id("darwin_arm64"))
        ]
    );
    let tampered = accept("linux_amd64").unwrap_err();
    assert_eq!(tampered.kind, EdgeErrorKind::Refused);
    assert!(tampered.message.contains("signed SHA256SUMS"), "{tampered}");
    let lying = accept("windows_386").unwrap_err();
    assert_eq!(lying.kind, EdgeErrorKind::Refused);
    assert!(lying.message.contains("origin registry lists"), "{lying}");
}

#[test]
fn unknown_providers_versions_and_unreachable_origins_are_told_apart() {
    let r = registry();
    let missing_version = Fill::version(&config(), provider(), Version::parse("9.0.0").unwrap());
    assert_eq!(
        run(&r, missing_version).0.unwrap_err().kind,
        EdgeErrorKind::NotFound
    );
    let other = Provider::new("registry.example.com", "acme", "nothing");
    assert_eq!(
        run(&r, Fill::index(&config(), other)).0.unwrap_err().kind,
        EdgeErrorKind::NotFound
    );

    let mut fill = version_fill();
    let mut answered = BTreeMap::new();
    let err = loop {
        match fill.poll() {
            FillStep::Done(result) => break result.unwrap_err(),
            FillStep::Requests(requests) => {
                for request in requests {
                    answered.insert(format!("{request:?}"), ());
                    fill.receive(request, Err("connection refused".into()));
                }
            }
        }
    };
    assert_eq!(err.kind, EdgeErrorKind::OriginFailed, "{err}");
    assert!(err.message.contains("connection refused"), "{err}");
    assert_eq!(answered.len(), 1);
}

fn limited(limits: &str) -> EdgeConfig {
    let vars = vec![("TFLOCK_LIMITS".to_string(), limits.to_string())];
    EdgeConfig::from_vars(&vars).expect("config")
}

#[test]
fn a_version_past_the_platform_cap_is_refused_before_any_download_is_asked() {
    let r = registry();
    let fill = Fill::version(
        &limited("platforms=2"),
        provider(),
        Version::parse("1.0.0").unwrap(),
    );
    let (result, _, asked) = run(&r, fill);
    let err = result.unwrap_err();
    assert_eq!(err.status(), 502);
    assert!(
        err.message.contains("3 platforms") && err.message.contains("at most 2"),
        "{err}"
    );
    assert!(
        asked
            .iter()
            .all(|r| !format!("{r:?}").contains("/download/")),
        "{asked:#?}"
    );
    // At the cap it fills.
    let fill = Fill::version(
        &limited("platforms=3"),
        provider(),
        Version::parse("1.0.0").unwrap(),
    );
    assert!(run(&r, fill).0.is_ok());
}

#[test]
fn a_fill_stops_once_the_origin_sent_more_than_its_byte_budget() {
    let r = registry();
    let fill = Fill::version(
        &limited("fill_bytes=100"),
        provider(),
        Version::parse("1.0.0").unwrap(),
    );
    let (result, rounds, _) = run(&r, fill);
    let err = result.unwrap_err();
    assert_eq!(err.status(), 502, "{err}");
    assert!(err.message.contains("more than 100 bytes"), "{err}");
    assert!(rounds < 5, "it went on for {rounds} rounds");
}
