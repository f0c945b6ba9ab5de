//! Registry, mirror, discovery, filesystem-mirror and CLI-config models against the
//! fixtures in `tests/fixtures/protocol/`.

use std::path::PathBuf;

use tflock_core::protocol::cliconfig::{CliConfig, MethodKind};
use tflock_core::protocol::discovery::{discovery_url, Discovery};
use tflock_core::protocol::fs_mirror::{parse_entry, Layout};
use tflock_core::protocol::mirror::{
    check_content_type, mirror_base_url, platform_missing, version_url, MirrorIndex,
    MirrorPackageError, MirrorVersion,
};
use tflock_core::protocol::registry::{
    download_path, versions_path, DownloadResponse, VersionsResponse,
};
use tflock_core::Flavor;
use url::Url;

fn fixture(path: &str) -> Vec<u8> {
    let p: PathBuf = tflock_tests::fixtures("protocol").join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn fixture_text(path: &str) -> String {
    String::from_utf8(fixture(path)).unwrap()
}

#[test]
fn discovery_then_registry_urls_resolve_like_terraform() {
    let disco_url = discovery_url("registry.example.com").unwrap();
    let d = Discovery::parse(&fixture("discovery/terraform.json"), &disco_url).unwrap();
    let base = d
        .providers_v1("registry.example.com", Flavor::Terraform)
        .unwrap();
    assert_eq!(base.as_str(), "https://registry.example.com/v1/providers/");
    assert_eq!(
        base.join(&versions_path("acme", "demo")).unwrap().as_str(),
        "https://registry.example.com/v1/providers/acme/demo/versions"
    );
    assert_eq!(
        base.join(&download_path("acme", "demo", "1.2.0", "linux", "amd64"))
            .unwrap()
            .as_str(),
        "https://registry.example.com/v1/providers/acme/demo/1.2.0/download/linux/amd64"
    );
    // A non-string service value is reported, not a crash.
    assert!(d.service_url("login.v1").is_err());
}

#[test]
fn versions_listing_skips_invalid_versions_and_reports_warnings() {
    let v = VersionsResponse::parse(
        &fixture("registry_versions/versions.json"),
        "registry.example.com/acme/demo",
    )
    .unwrap();
    let versions: Vec<&str> = v.valid_versions().map(|e| e.version.as_str()).collect();
    assert_eq!(versions, vec!["1.0.0", "1.1.0"]);
    let d = v
        .warnings_diagnostic("registry.example.com/acme/demo")
        .unwrap();
    assert_eq!(
        d.detail,
        "The remote registry returned warnings for registry.example.com/acme/demo:\n- This provider is deprecated; use acme/demo2."
    );
    assert_eq!(v.versions[0].platforms[1].platform(), "darwin_arm64");
}

#[test]
fn download_answer_with_packages_lists_every_platform() {
    let body = fixture("registry_download_packages/download.json");
    let answer = DownloadResponse::parse(&body, "registry.opentofu.org/acme/demo").unwrap();
    let url = Url::parse(
        "https://registry.opentofu.org/v1/providers/acme/demo/1.2.0/download/linux/amd64",
    )
    .unwrap();
    let meta = answer
        .validate(
            Flavor::OpenTofu,
            "registry.opentofu.org/acme/demo",
            "1.2.0",
            "linux",
            "amd64",
            &url,
        )
        .unwrap();
    assert!(meta.has_packages());
    assert_eq!(meta.packages.len(), 4);
    assert_eq!(meta.packages["linux_amd64"].package_size, 4000);
    let wanted: Vec<String> = ["linux_amd64", "darwin_arm64", "linux_arm64"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        meta.packages_missing(&wanted),
        vec!["linux_arm64".to_string()]
    );
    assert_eq!(meta.signing_keys[0].source.as_deref(), Some("Acme"));

    // Terraform does not read `packages` at all.
    let tf = answer
        .validate(
            Flavor::Terraform,
            "registry.opentofu.org/acme/demo",
            "1.2.0",
            "linux",
            "amd64",
            &url,
        )
        .unwrap();
    assert!(!tf.has_packages());
}

#[test]
fn download_answer_urls_resolve_against_the_final_response_url() {
    let body = fixture("registry_download_packages/download_no_packages.json");
    let answer = DownloadResponse::parse(&body, "r.example/acme/demo").unwrap();
    let url =
        Url::parse("https://r.example/v1/providers/acme/demo/1.2.0/download/linux/amd64").unwrap();
    let meta = answer
        .validate(
            Flavor::Terraform,
            "r.example/acme/demo",
            "1.2.0",
            "linux",
            "amd64",
            &url,
        )
        .unwrap();
    assert_eq!(
        meta.download_url.as_str(),
        "https://r.example/v1/providers/acme/demo/1.2.0/download/linux/terraform-provider-demo_1.2.0_linux_amd64.zip"
    );
    assert_eq!(
        meta.shasums_url.as_str(),
        "https://r.example/v1/providers/acme/demo/1.2.0/download/SHA256SUMS"
    );
    assert!(meta.signing_keys.is_empty());
    // Asking for another platform than the answer describes is an error with Terraform's text.
    assert_eq!(
        answer
            .validate(
                Flavor::Terraform,
                "r.example/acme/demo",
                "1.2.0",
                "darwin",
                "arm64",
                &url
            )
            .unwrap_err()
            .to_string(),
        "registry response to request for darwin_arm64 archive has incorrect target linux_amd64"
    );
}

#[test]
fn malformed_json_is_a_query_failure() {
    let err = DownloadResponse::parse(b"{\"os\": 1}", "r.example/acme/demo").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("could not query provider registry for r.example/acme/demo: "),
        "{err}"
    );
}

#[test]
fn mirror_answers_parse_with_go_json_rules() {
    let index = MirrorIndex::parse(&fixture("mirror_index/index.json")).unwrap();
    assert_eq!(index.versions, vec!["1.0.0", "1.1.0-beta.1", "1.2.0"]);
    assert_eq!(index.skipped, vec!["latest"]);

    let base = mirror_base_url("https://mirror.example.com/providers/").unwrap();
    let v_url = version_url(&base, "registry.opentofu.org", "acme", "demo", "1.2.0").unwrap();
    assert_eq!(
        v_url.as_str(),
        "https://mirror.example.com/providers/registry.opentofu.org/acme/demo/1.2.0.json"
    );
    let v = MirrorVersion::parse(&fixture("mirror_version_mixed_case/1.2.0.json")).unwrap();
    assert_eq!(v.archives.len(), 3);

    let linux = v
        .package(Flavor::Terraform, "linux_amd64", &v_url, false, String::new)
        .unwrap();
    assert_eq!(
        linux.url.as_str(),
        "https://mirror.example.com/providers/registry.opentofu.org/acme/demo/terraform-provider-demo_1.2.0_linux_amd64.zip"
    );
    assert_eq!(linux.hashes.len(), 1);
    let windows = v
        .package(
            Flavor::Terraform,
            "windows_amd64",
            &v_url,
            false,
            String::new,
        )
        .unwrap();
    assert_eq!(windows.url.as_str(), "https://mirror.example.com/providers/elsewhere/terraform-provider-demo_1.2.0_windows_amd64.zip");
    assert!(windows.hashes.is_empty(), "no hashes: installed unverified");

    let all = v
        .package(Flavor::OpenTofu, "linux_amd64", &v_url, true, String::new)
        .unwrap();
    assert_eq!(all.hashes.len(), 3);

    let missing = v.package(Flavor::Terraform, "freebsd_arm", &v_url, false, || {
        platform_missing(
            &base,
            "registry.opentofu.org/acme/demo",
            "1.2.0",
            "freebsd_arm",
        )
    });
    assert_eq!(
        missing,
        Err(MirrorPackageError::PlatformMissing(
            "provider mirror https://mirror.example.com/providers/ does not have a package of registry.opentofu.org/acme/demo 1.2.0 for freebsd_arm".to_string()
        ))
    );
    assert!(check_content_type(Some("application/json; charset=utf-8")).is_ok());
    assert!(check_content_type(Some("application/octet-stream")).is_err());
}

#[test]
fn filesystem_mirror_paths_classify_like_terraforms_search() {
    let text = fixture_text("fs_mirror_tree/paths.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (lhs, want) = line.split_once(" => ").unwrap();
        let (kind, path) = lhs.split_once(' ').unwrap();
        let got = parse_entry(path, kind == "d", "registry.terraform.io");
        let want: Vec<&str> = want.split_whitespace().collect();
        match want[0] {
            "ignored" => assert!(got.is_none(), "{line}: {got:?}"),
            layout => {
                let e = got.unwrap_or_else(|| panic!("{line}: ignored"));
                let l = if layout == "packed" {
                    Layout::Packed
                } else {
                    Layout::Unpacked
                };
                assert_eq!(
                    (e.layout, e.version.as_str(), e.platform.as_str()),
                    (l, want[1], want[2]),
                    "{line}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 14);
}

#[test]
fn tofurc_with_every_installation_setting() {
    let (cfg, diags) = CliConfig::parse(
        &fixture_text("cliconfig_tofurc/tofurc"),
        "tofurc",
        Flavor::OpenTofu,
    );
    assert!(diags.is_empty(), "{diags:?}");
    let pi = &cfg.provider_installation[0];
    assert_eq!(
        pi.dev_overrides.get("acme/demo").map(String::as_str),
        Some("/home/dev/go/bin")
    );
    let kinds: Vec<&MethodKind> = pi.methods.iter().map(|m| &m.kind).collect();
    assert_eq!(
        kinds,
        vec![
            &MethodKind::FilesystemMirror {
                path: "/usr/share/terraform/providers".into()
            },
            &MethodKind::NetworkMirror {
                url: "https://mirror.example.com/providers/".into()
            },
            &MethodKind::Direct,
        ]
    );
    assert!(pi.methods[1].trust_all_hashes);
    assert_eq!(pi.methods[1].download_retry_count, Some(5));
    assert!(cfg.plugin_cache_may_break_dependency_lock_file);
    assert_eq!(
        cfg.plugin_cache_dir_expanded(|k| (k == "HOME").then(|| "/home/dev".to_string()))
            .as_deref(),
        Some("/home/dev/.terraform.d/plugin-cache")
    );
    let disco = cfg
        .host_override("registry.internal.example")
        .unwrap()
        .unwrap();
    assert_eq!(
        disco
            .providers_v1("registry.internal.example", Flavor::OpenTofu)
            .unwrap()
            .as_str(),
        "https://registry.internal.example/custom/providers/v1/"
    );

    let sources = cfg.sources(Flavor::OpenTofu).unwrap().unwrap();
    let who = |h: &str, n: &str, t: &str| -> Vec<usize> {
        sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.can_handle(h, n, t))
            .map(|(i, _)| i)
            .collect()
    };
    assert_eq!(who("registry.internal.example", "team", "thing"), vec![0]);
    // `*/*` means every provider on the default host (registry.opentofu.org for OpenTofu).
    assert_eq!(who("registry.opentofu.org", "hashicorp", "aws"), vec![1, 2]);
    assert_eq!(who("registry.opentofu.org", "acme", "demo"), vec![2]);
    assert_eq!(who("registry.terraform.io", "hashicorp", "aws"), vec![2]);
}

#[test]
fn terraformrc_method_errors_match_terraforms_texts() {
    let (cfg, diags) = CliConfig::parse(
        &fixture_text("cliconfig_terraformrc_errors/terraformrc"),
        "terraformrc",
        Flavor::Terraform,
    );
    let got: Vec<String> = diags
        .iter()
        .map(|d| format!("{} | {}", d.summary, d.detail))
        .collect();
    let want: Vec<String> = fixture_text("cliconfig_terraformrc_errors/expected.txt")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        cfg.provider_installation[0].methods.len(),
        1,
        "only direct survives"
    );
}
