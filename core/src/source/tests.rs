//! The conversation state machine fed canned responses: which requests it makes, in which
//! order, and the answers and texts it produces.

use super::*;
use crate::addrs::{Platform, Provider};
use crate::protocol::cliconfig::CliConfig;
use crate::version::Version;
use crate::Flavor;
use std::collections::BTreeMap;
use url::Url;

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn provider(s: &str) -> Provider {
    Provider::parse(s, Flavor::Terraform).unwrap()
}

fn versions_need(p: &str) -> Question {
    Question::Versions(provider(p))
}

fn meta_need(p: &str, v: &str, platform: &str) -> Question {
    Question::PackageMeta(
        provider(p),
        Version::parse(v).unwrap(),
        Platform::parse(platform).unwrap(),
    )
}

fn config(text: &str) -> CliConfig {
    let (cfg, diags) = CliConfig::parse(text, "test.tfrc", Flavor::Terraform);
    assert!(!diags.has_errors(), "{diags:?}");
    cfg
}

/// A canned world: URL → response, directory → listing. Records every request.
#[derive(Default)]
struct World {
    http: BTreeMap<String, Result<HttpResponse, String>>,
    dirs: BTreeMap<String, Vec<DirEntry>>,
    asked: Vec<SourceRequest>,
}

impl World {
    fn json(&mut self, u: &str, body: &str) -> &mut Self {
        let r = HttpResponse::new(&url(u), 200, "OK", Some("application/json"), body);
        self.http.insert(u.to_string(), Ok(r));
        self
    }

    fn respond(&mut self, u: &str, r: Result<HttpResponse, String>) -> &mut Self {
        self.http.insert(u.to_string(), r);
        self
    }

    fn status(&mut self, u: &str, status: u16, reason: &str) -> &mut Self {
        let r = HttpResponse::new(&url(u), status, reason, Some("text/plain"), "");
        self.http.insert(u.to_string(), Ok(r));
        self
    }

    fn dir(&mut self, path: &str, entries: Vec<DirEntry>) -> &mut Self {
        self.dirs.insert(path.to_string(), entries);
        self
    }

    fn perform(&mut self, req: &SourceRequest) -> SourceResponse {
        self.asked.push(req.clone());
        match req {
            SourceRequest::Get { url, .. } => {
                SourceResponse::Http(self.http.get(url.as_str()).cloned().unwrap_or_else(|| {
                    Ok(HttpResponse::new(
                        url,
                        404,
                        "Not Found",
                        Some("text/plain"),
                        "",
                    ))
                }))
            }
            SourceRequest::ListDir { path } => SourceResponse::Listing(
                self.dirs
                    .get(path)
                    .cloned()
                    .ok_or_else(|| format!("open {path}: no such file or directory")),
            ),
        }
    }

    fn answer(&mut self, set: &mut SourceSet, question: &Question) -> Found {
        let conv = set.conversation(question.clone());
        conv.run(set, |req| self.perform(req))
    }

    fn urls(&self) -> Vec<String> {
        self.asked
            .iter()
            .map(|r| match r {
                SourceRequest::Get { url, auth_host } => {
                    format!("GET {url} auth={}", auth_host.as_deref().unwrap_or("-"))
                }
                SourceRequest::ListDir { path } => format!("LIST {path}"),
            })
            .collect()
    }
}

fn versions_of(a: Found) -> Result<Vec<String>, (SourceErrorKind, String)> {
    match a {
        Found::Versions(Ok(v)) => Ok(v.versions.iter().map(ToString::to_string).collect()),
        Found::Versions(Err(e)) => Err((e.kind, e.message)),
        other => panic!("not a versions answer: {other:?}"),
    }
}

fn meta_of(a: Found) -> Result<SourcePackage, (SourceErrorKind, String)> {
    match a {
        Found::PackageMeta(r) => r.map_err(|e| (e.kind, e.message)),
        other => panic!("not a package answer: {other:?}"),
    }
}

const DISCO: &str = "https://example.com/.well-known/terraform.json";
const SHA: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn download_json(download_url: &str) -> String {
    format!(
        r#"{{"protocols":["5.0"],"os":"linux","arch":"amd64","filename":"p.zip",
            "download_url":"{download_url}","shasum":"{SHA}",
            "shasums_url":"SHA256SUMS","shasums_signature_url":"SHA256SUMS.sig",
            "signing_keys":{{"gpg_public_keys":[]}}}}"#
    )
}

#[test]
fn registry_conversation_discovers_once_and_remembers_the_version_list() {
    let mut w = World::default();
    w.json(DISCO, r#"{"providers.v1": "/v1/providers/"}"#)
        .json(
            "https://example.com/v1/providers/acme/demo/versions",
            r#"{"versions":[{"version":"1.0.0","protocols":["5.0"]},
                            {"version":"2.0.0","protocols":["4.0"]},
                            {"version":"1.1.0"}],"warnings":["deprecated"]}"#,
        )
        .json(
            "https://example.com/v1/providers/acme/demo/1.1.0/download/linux/amd64",
            &download_json("https://cdn.example.net/p.zip"),
        )
        .respond(
            "https://example.com/v1/providers/acme/demo/1.1.0/download/linux/SHA256SUMS",
            Ok(HttpResponse::new(
                &url("https://example.com/v1/providers/acme/demo/1.1.0/download/linux/SHA256SUMS"),
                200,
                "OK",
                Some("text/plain"),
                "sums",
            )),
        )
        .json(
            "https://example.com/v1/providers/acme/demo/1.1.0/download/linux/SHA256SUMS.sig",
            "sig",
        );
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
    let a = w.answer(&mut set, &versions_need("example.com/acme/demo"));
    let Found::Versions(Ok(v)) = &a else {
        panic!("{a:?}")
    };
    // Protocol 4 only is not installable.
    assert_eq!(
        v.versions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["1.0.0", "1.1.0"]
    );
    assert_eq!(v.warnings, ["deprecated"]);
    assert_eq!(
        w.urls(),
        [
            format!("GET {DISCO} auth=example.com"),
            "GET https://example.com/v1/providers/acme/demo/versions auth=example.com".into(),
        ]
    );
    w.asked.clear();
    let m = meta_of(w.answer(
        &mut set,
        &meta_need("example.com/acme/demo", "1.1.0", "linux_amd64"),
    ))
    .unwrap();
    let SourcePackage::Registry {
        meta,
        sha256sums,
        signature,
    } = m
    else {
        panic!("not a registry package")
    };
    assert_eq!(meta.download_url.as_str(), "https://cdn.example.net/p.zip");
    assert_eq!(
        (sha256sums.as_slice(), signature.as_slice()),
        (&b"sums"[..], &b"sig"[..])
    );
    // Discovery and the version list were remembered; SHA256SUMS goes without credentials.
    assert_eq!(
        w.urls(),
        [
            "GET https://example.com/v1/providers/acme/demo/1.1.0/download/linux/amd64 auth=example.com",
            "GET https://example.com/v1/providers/acme/demo/1.1.0/download/linux/SHA256SUMS auth=-",
            "GET https://example.com/v1/providers/acme/demo/1.1.0/download/linux/SHA256SUMS.sig auth=-",
        ]
    );
}

#[test]
fn discovery_failures_are_worded_like_terraform_and_remembered() {
    let mut w = World::default();
    w.respond(DISCO, Err("connection refused".into()));
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
    let err = versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err();
    assert_eq!(
        err,
        (
            SourceErrorKind::Other,
            "could not connect to example.com: connection refused".to_string()
        )
    );
    // The failed discovery is not repeated for the next need of the same host.
    let err = meta_of(w.answer(
        &mut set,
        &meta_need("example.com/acme/other", "1.0.0", "linux_amd64"),
    ))
    .unwrap_err();
    assert_eq!(
        err.1,
        "could not connect to example.com: connection refused"
    );
    assert_eq!(w.asked.len(), 1);

    let mut w = World::default();
    w.status(DISCO, 500, "Internal Server Error");
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1,
        "failed to request discovery document: 500 Internal Server Error"
    );

    // A host without providers.v1 (here: no discovery document at all) is HostNoProviders.
    let mut w = World::default();
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::OpenTofu).unwrap();
    let err = versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err();
    assert_eq!(
        err,
        (
            SourceErrorKind::HostNoProviders {
                hostname: "example.com".into(),
                other_version: false,
            },
            "host example.com does not offer a OpenTofu provider registry".to_string()
        )
    );
}

#[test]
fn discovery_follows_the_redirected_url_and_host_blocks_replace_it() {
    let mut w = World::default();
    let mut moved = HttpResponse::new(
        &url("https://moved.example.net/.well-known/terraform.json"),
        200,
        "OK",
        Some("application/json"),
        r#"{"providers.v1": "v1/p/"}"#,
    );
    moved.final_url = url("https://moved.example.net/.well-known/terraform.json");
    w.respond(DISCO, Ok(moved)).json(
        "https://moved.example.net/.well-known/v1/p/acme/demo/versions",
        r#"{"versions":[{"version":"0.1.0"}]}"#,
    );
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap(),
        ["0.1.0"]
    );

    let cfg = config(
        "host \"example.com\" {\n  services = {\n    \"providers.v1\" = \"http://127.0.0.1:8080/reg/\"\n  }\n}\n",
    );
    let mut w = World::default();
    w.json(
        "http://127.0.0.1:8080/reg/acme/demo/versions",
        r#"{"versions":[{"version":"3.0.0"}]}"#,
    );
    let mut set = SourceSet::from_cli_config(&cfg, Flavor::Terraform).unwrap();
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap(),
        ["3.0.0"]
    );
    assert_eq!(w.asked.len(), 1, "{:?}", w.urls());
}

#[test]
fn registry_status_texts() {
    let base = "https://example.com/v1/providers/acme/demo/";
    let mut w = World::default();
    w.json(DISCO, r#"{"providers.v1": "/v1/providers/"}"#);
    let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
    // 404 on versions: the provider is unknown.
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err(),
        (
            SourceErrorKind::ProviderNotKnown,
            "provider registry example.com does not have a provider named example.com/acme/demo"
                .to_string()
        )
    );
    // 401 without and with credentials.
    w.status(&format!("{base}versions"), 401, "Unauthorized");
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1,
        "host example.com requires authentication credentials"
    );
    let mut denied =
        HttpResponse::new(&url(&format!("{base}versions")), 403, "Forbidden", None, "");
    denied.had_credentials = true;
    w.respond(&format!("{base}versions"), Ok(denied));
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1,
        "host example.com rejected the given authentication credentials"
    );
    w.status(&format!("{base}versions"), 502, "Bad Gateway");
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1,
        "could not query provider registry for example.com/acme/demo: 502 Bad Gateway"
    );
    w.json(&format!("{base}versions"), "{not json");
    assert!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1
            .starts_with("could not query provider registry for example.com/acme/demo: ")
    );

    // 404 on download: the platform is not supported; a missing SHA256SUMS names its host.
    w.json(
        &format!("{base}versions"),
        r#"{"versions":[{"version":"1.0.0"}]}"#,
    );
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")
        ))
        .unwrap_err(),
        (
            SourceErrorKind::PlatformNotSupported { mirror_url: None },
            "provider example.com/acme/demo 1.0.0 is not available for linux_amd64".to_string()
        )
    );
    w.json(
        &format!("{base}1.0.0/download/linux/amd64"),
        &download_json("p.zip"),
    );
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")
        ))
        .unwrap_err()
        .1,
        "404 Not Found returned from example.com"
    );
}

const MIRROR: &str = "https://mirror.example/tf/";

fn mirror_set(flavor: Flavor, trust_all_hashes: bool) -> SourceSet {
    SourceSet::single(
        Method::NetworkMirror {
            base: url(MIRROR),
            trust_all_hashes,
        },
        &CliConfig::default(),
        flavor,
    )
}

#[test]
fn a_404_mirror_index_means_not_found_in_any_location() {
    let mut w = World::default();
    let mut set = mirror_set(Flavor::Terraform, false);
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err(),
        (
            SourceErrorKind::Other,
            "provider example.com/acme/demo was not found in any of the search locations\n\n- provider mirror at https://mirror.example/tf/".to_string()
        )
    );
    assert_eq!(
        w.urls(),
        ["GET https://mirror.example/tf/example.com/acme/demo/index.json auth=mirror.example"]
    );
    // ...and a version the mirror never listed is not available from any source.
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")
        ))
        .unwrap_err()
        .1,
        "provider example.com/acme/demo 1.0.0 is not available from any of the configured sources"
    );
}

#[test]
fn a_mirror_answer_with_the_wrong_content_type_is_a_query_failure() {
    let mut w = World::default();
    let index = format!("{MIRROR}example.com/acme/demo/index.json");
    w.respond(
        &index,
        Ok(HttpResponse::new(
            &url(&index),
            200,
            "OK",
            Some("text/html"),
            r#"{"versions":{"1.0.0":{}}}"#,
        )),
    );
    let mut set = mirror_set(Flavor::Terraform, false);
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err().1,
        "failed to query provider mirror https://mirror.example/tf/ for example.com/acme/demo: response has invalid Content-Type: must be application/json"
    );
    w.status(&index, 403, "Forbidden");
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo")))
            .unwrap_err()
            .1,
        "host mirror.example rejected the given authentication credentials"
    );
    w.status(&index, 500, "Internal Server Error");
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap_err().1,
        "failed to query provider mirror https://mirror.example/tf/ for example.com/acme/demo: server returned unsuccessful status 500"
    );
}

#[test]
fn mirror_archive_urls_resolve_against_the_redirected_version_document() {
    let mut w = World::default();
    w.json(
        &format!("{MIRROR}example.com/acme/demo/index.json"),
        r#"{"versions":{"1.0.0":{},"1.1.0":{}}}"#,
    );
    let version_json = format!("{MIRROR}example.com/acme/demo/1.1.0.json");
    let mut moved = HttpResponse::new(
        &url("https://cdn.example.net/x/1.1.0.json"),
        200,
        "OK",
        Some("application/json; charset=utf-8"),
        r#"{"archives":{"linux_amd64":{"url":"demo_linux_amd64.zip","hashes":["h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","zh:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"]},
                        "darwin_arm64":{"url":"demo_darwin_arm64.zip","hashes":["h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="]}}}"#,
    );
    moved.final_url = url("https://cdn.example.net/x/1.1.0.json");
    w.respond(&version_json, Ok(moved));
    let mut set = mirror_set(Flavor::OpenTofu, true);
    let pkg = meta_of(w.answer(
        &mut set,
        &meta_need("example.com/acme/demo", "1.1.0", "linux_amd64"),
    ))
    .unwrap();
    let SourcePackage::NetworkMirror {
        mirror_url,
        url: archive,
        hashes,
        trust_all_hashes,
    } = pkg
    else {
        panic!("not a mirror package")
    };
    assert_eq!(mirror_url, MIRROR);
    assert_eq!(archive, "https://cdn.example.net/x/demo_linux_amd64.zip");
    assert!(trust_all_hashes);
    assert_eq!(
        hashes.len(),
        3,
        "OpenTofu trust_all_hashes keeps every platform's"
    );

    assert_eq!(
        meta_of(w.answer(&mut set, &meta_need("example.com/acme/demo", "1.1.0", "windows_386")))
            .unwrap_err(),
        (
            SourceErrorKind::PlatformNotSupported {
                mirror_url: Some(MIRROR.to_string())
            },
            "provider mirror https://mirror.example/tf/ does not have a package of example.com/acme/demo 1.1.0 for windows_386".to_string()
        )
    );
    assert_eq!(
        meta_of(w.answer(&mut set, &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")))
            .unwrap_err()
            .1,
        "provider mirror does not have archive index for previously-reported example.com/acme/demo version 1.0.0"
    );
    // index.json was fetched once for all three needs.
    assert_eq!(
        w.urls().iter().filter(|u| u.contains("index.json")).count(),
        1
    );
}

#[test]
fn filesystem_mirror_walk_prefers_unpacked_directories() {
    let mut w = World::default();
    w.dir(
        "/mirror",
        vec![DirEntry::dir("example.com"), DirEntry::file("README")],
    )
    .dir(
        "/mirror/example.com/acme/demo",
        vec![
            DirEntry::dir("1.0.0"),
            DirEntry::file("terraform-provider-demo_1.0.0_linux_amd64.zip"),
            DirEntry::file("terraform-provider-demo_0.9.0_darwin_arm64.zip"),
            DirEntry::file("notes.txt"),
        ],
    )
    .dir(
        "/mirror/example.com/acme/demo/1.0.0",
        vec![
            DirEntry::dir("linux_amd64"),
            DirEntry::file("windows_amd64"),
        ],
    );
    let mut set = SourceSet::single(
        Method::FilesystemMirror {
            path: "/mirror".into(),
        },
        &CliConfig::default(),
        Flavor::Terraform,
    );
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap(),
        ["0.9.0", "1.0.0"]
    );
    assert_eq!(
        w.urls(),
        [
            "LIST /mirror",
            "LIST /mirror/example.com/acme/demo",
            "LIST /mirror/example.com/acme/demo/1.0.0",
        ]
    );
    w.asked.clear();
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")
        )),
        Ok(SourcePackage::LocalDir {
            path: "/mirror/example.com/acme/demo/1.0.0/linux_amd64".into()
        })
    );
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "0.9.0", "darwin_arm64")
        )),
        Ok(SourcePackage::LocalArchive {
            path: "/mirror/example.com/acme/demo/terraform-provider-demo_0.9.0_darwin_arm64.zip"
                .into()
        })
    );
    // A file where a platform directory belongs is ignored.
    assert_eq!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "windows_amd64")
        ))
        .unwrap_err(),
        (
            SourceErrorKind::PlatformNotSupported { mirror_url: None },
            "provider example.com/acme/demo 1.0.0 is not available for windows_amd64".to_string()
        )
    );
    assert!(w.asked.is_empty(), "the walk is remembered: {:?}", w.urls());
}

#[test]
fn include_and_exclude_route_providers_across_sources() {
    let cfg = config(
        r#"provider_installation {
  filesystem_mirror {
    path    = "/fs"
    include = ["example.com/acme/*"]
  }
  network_mirror {
    url     = "https://mirror.example/tf/"
    include = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
"#,
    );
    let mut set = SourceSet::from_cli_config(&cfg, Flavor::Terraform).unwrap();
    assert_eq!(set.entries().len(), 3);
    let mut w = World::default();
    w.dir("/fs", vec![DirEntry::dir("example.com")])
        .dir(
            "/fs/example.com/acme/demo",
            vec![DirEntry::file(
                "terraform-provider-demo_1.0.0_linux_amd64.zip",
            )],
        )
        .json(
            &format!("{MIRROR}example.com/acme/demo/index.json"),
            r#"{"versions":{"1.0.0":{},"2.0.0":{}}}"#,
        )
        .json(
            &format!("{MIRROR}example.com/acme/demo/2.0.0.json"),
            r#"{"archives":{"linux_amd64":{"url":"d.zip","hashes":[]}}}"#,
        );
    // example.com/acme/*: both mirrors, versions united, registry never asked.
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/demo"))).unwrap(),
        ["1.0.0", "2.0.0"]
    );
    // 1.0.0 comes from the first source listing it, 2.0.0 from the network mirror.
    assert!(matches!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "1.0.0", "linux_amd64")
        )),
        Ok(SourcePackage::LocalArchive { .. })
    ));
    assert!(matches!(
        meta_of(w.answer(
            &mut set,
            &meta_need("example.com/acme/demo", "2.0.0", "linux_amd64")
        )),
        Ok(SourcePackage::NetworkMirror { .. })
    ));
    assert!(
        w.urls().iter().all(|u| !u.contains("well-known")),
        "{:?}",
        w.urls()
    );

    // example.com/other/*: only the network mirror; its 404 names just that location.
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("example.com/other/thing")))
            .unwrap_err()
            .1,
        "provider example.com/other/thing was not found in any of the search locations\n\n- provider mirror at https://mirror.example/tf/"
    );
    // Anything else: only the registry.
    w.asked.clear();
    w.json(
        "https://registry.terraform.io/.well-known/terraform.json",
        r#"{"providers.v1": "/v1/providers/"}"#,
    )
    .json(
        "https://registry.terraform.io/v1/providers/hashicorp/null/versions",
        r#"{"versions":[{"version":"3.2.0"}]}"#,
    );
    assert_eq!(
        versions_of(w.answer(&mut set, &versions_need("hashicorp/null"))).unwrap(),
        ["3.2.0"]
    );
    assert_eq!(w.asked.len(), 2, "{:?}", w.urls());
    // An error from one source does not hide a later source's package.
    w.status(
        &format!("{MIRROR}example.com/acme/other/index.json"),
        500,
        "Internal Server Error",
    );
    let err =
        versions_of(w.answer(&mut set, &versions_need("example.com/acme/other"))).unwrap_err();
    assert!(
        err.1.contains("server returned unsuccessful status 500"),
        "{err:?}"
    );
}

#[test]
fn polling_repeats_the_outstanding_request_and_stray_responses_are_refused() {
    let mut set = mirror_set(Flavor::Terraform, false);
    let mut conv = set.conversation(versions_need("example.com/acme/demo"));
    let first = conv.poll(&mut set);
    assert_eq!(conv.poll(&mut set), first);
    conv.receive(SourceResponse::Listing(Ok(Vec::new())))
        .unwrap();
    assert!(conv
        .receive(SourceResponse::Listing(Ok(Vec::new())))
        .is_err());
    // A listing where a document was expected is a query failure, not a panic.
    let Step::Answer(a) = conv.poll(&mut set) else {
        panic!("expected an answer")
    };
    assert!(versions_of(a)
        .unwrap_err()
        .1
        .ends_with("the host answered an HTTP request with a directory listing"));
    assert_eq!(conv.exchanges().len(), 1);
}

mod credentials_stay_under_their_base {
    //! Provider names straight from a hostile host (a Worker route, a lock file) never steer
    //! a request that carries credentials away from the base those credentials belong to.

    use super::*;
    use crate::protocol::discovery::discovery_url;
    use crate::protocol::urls::is_under;
    use proptest::prelude::*;

    const REGISTRY_BASE: &str = "https://app.terraform.io/api/registry/v1/providers/";
    const MIRROR_BASE: &str = "https://mirror.example:8443/tf/";

    /// Pieces of names that could move a URL: scheme switches, slashes, dots, escapes.
    fn hostile_name() -> impl Strategy<Value = String> {
        let atoms = prop::sample::select(vec![
            "a",
            "acme",
            "http:",
            "https:",
            "ftp:",
            "/",
            "//",
            "\\",
            ".",
            "..",
            "%2e",
            "%2F",
            "?",
            "#",
            "@",
            ":",
            " ",
            "evil.example",
            "127.0.0.1",
            "[::1]",
            ":8080",
            "é",
            "\t",
            "\n",
            "~",
        ]);
        prop::collection::vec(atoms, 1..6).prop_map(|v| v.concat())
    }

    fn world() -> World {
        let mut w = World::default();
        w.json(
            "https://app.terraform.io/.well-known/terraform.json",
            r#"{"providers.v1": "/api/registry/v1/providers/"}"#,
        );
        w
    }

    fn ask_everything(set: &mut SourceSet, w: &mut World, p: &Provider) {
        let needs = [
            Question::Versions(p.clone()),
            Question::PackageMeta(
                p.clone(),
                Version::parse("1.0.0").unwrap(),
                Platform::parse("linux_amd64").unwrap(),
            ),
        ];
        for need in &needs {
            let _ = w.answer(set, need);
        }
    }

    /// Every credentialed request is discovery of its own host or under `base`.
    fn check(asked: &[SourceRequest], base: &Url) -> Result<(), TestCaseError> {
        for req in asked {
            let SourceRequest::Get {
                url,
                auth_host: Some(host),
            } = req
            else {
                continue;
            };
            let discovery = discovery_url(host).ok().as_ref() == Some(url);
            prop_assert!(
                discovery || is_under(base, url),
                "{url} carried {host}'s credentials outside {base}"
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn registry_requests(ns in hostile_name(), ty in hostile_name()) {
            let mut w = world();
            let mut set =
                SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
            ask_everything(&mut set, &mut w, &Provider::new("app.terraform.io", &ns, &ty));
            check(&w.asked, &url(REGISTRY_BASE))?;
        }

        #[test]
        fn registry_hostnames(host in hostile_name()) {
            let mut w = world();
            let mut set =
                SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
            let host = format!("app.terraform.io{host}");
            ask_everything(&mut set, &mut w, &Provider::new(&host, "acme", "demo"));
            for req in &w.asked {
                if let SourceRequest::Get { url, auth_host: Some(h) } = req {
                    prop_assert_eq!(
                        crate::protocol::urls::credentials_host(url),
                        h.clone(),
                        "{} carried {}'s credentials", url, h
                    );
                }
            }
        }

        #[test]
        fn mirror_requests(host in hostile_name(), ns in hostile_name(), ty in hostile_name()) {
            let mut w = World::default();
            let base = url(MIRROR_BASE);
            let method = Method::NetworkMirror { base: base.clone(), trust_all_hashes: false };
            let mut set = SourceSet::single(method, &CliConfig::default(), Flavor::Terraform);
            ask_everything(&mut set, &mut w, &Provider::new(&host, &ns, &ty));
            check(&w.asked, &base)?;
        }
    }

    #[test]
    fn a_scheme_switching_namespace_is_refused_and_a_valid_one_carries_the_token() {
        let mut w = world();
        let mut set = SourceSet::from_cli_config(&CliConfig::default(), Flavor::Terraform).unwrap();
        let evil = Provider::new("app.terraform.io", "http:", "evil.example");
        let err = versions_of(w.answer(&mut set, &Question::Versions(evil)))
            .unwrap_err()
            .1;
        assert!(err.contains("must stay under"), "{err}");
        assert!(w.urls().iter().all(|u| !u.contains("evil.example")));
        // The control: a parsed name reaches the registry with its host's credentials.
        let good = provider("app.terraform.io/acme/demo");
        let _ = w.answer(&mut set, &Question::Versions(good));
        assert!(w.urls().contains(
            &"GET https://app.terraform.io/api/registry/v1/providers/acme/demo/versions auth=app.terraform.io"
                .to_string()
        ));
    }
}
