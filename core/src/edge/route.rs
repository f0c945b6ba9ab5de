//! Which object a request to the edge mirror names, decided without IO.

use crate::addrs::Provider;
use crate::protocol::fs_mirror::{parse_entry, Layout};
use crate::protocol::package_name::file_name;
use crate::version::Version;
use crate::Flavor;

/// What the Worker does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Serve a document (`index.json` or `<version>.json`), filling it from the origin.
    Document(Document),
    /// Serve an archive, pulling it from the origin on a miss.
    Archive(Upload),
    /// A CORS preflight.
    Preflight,
    /// `POST /_admin/backfill`: warm the mirror ahead of use.
    Backfill,
    /// `GET /_admin/objects?prefix=`: what the bucket holds.
    Objects,
    /// Store an uploaded archive and list it in the mirror documents.
    Upload(Upload),
    /// No such document.
    NotFound,
    /// The path exists but not for this method.
    MethodNotAllowed,
}

/// A mirror document: where it lives and which provider (and version) it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The R2 object key (the path without its leading slash).
    pub key: String,
    /// The provider's hostname.
    pub hostname: String,
    /// `<host>/<namespace>/<type>`.
    pub dir: String,
    /// The version, for `<version>.json`; `None` for `index.json`.
    pub version: Option<String>,
}

/// An archive (served or uploaded): where it goes and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// The archive's R2 key.
    pub key: String,
    /// `<host>/<namespace>/<type>`: where `index.json` and `<version>.json` live.
    pub dir: String,
    /// The provider version.
    pub version: String,
    /// `os_arch`.
    pub platform: String,
    /// The archive file name (its URL relative to `<version>.json`).
    pub filename: String,
    /// The provider's hostname (normalised).
    pub hostname: String,
}

/// Routes `method` and URL `path` (as sent: percent-encoded, no query).
///
/// Every name is parsed with the rules Terraform applies to a `source` address before
/// anything is built from it, and keys use the normalised address, so an alias of a name
/// (`REGISTRY.terraform.io`, `:443`, `HashiCorp`, `%61ws`) lands on the same objects and a
/// segment that is no name (`http:`, `..`, `%2F`, `evil@host`) is a 404 that touches nothing.
pub fn route(method: &str, path: &str, flavor: Flavor) -> Route {
    match (method, path) {
        ("POST", "/_admin/backfill") => return Route::Backfill,
        ("GET", "/_admin/objects") => return Route::Objects,
        (_, "/_admin/backfill" | "/_admin/objects") => return Route::MethodNotAllowed,
        _ => {}
    }
    let Some(rel) = path.strip_prefix('/') else {
        return Route::NotFound;
    };
    let Some(parts) = decoded_segments(rel) else {
        return Route::NotFound;
    };
    let [host, namespace, type_, last] = parts.as_slice() else {
        return Route::NotFound;
    };
    let Some(provider) = mirrored_provider(host, namespace, type_, flavor) else {
        return Route::NotFound;
    };
    if method == "OPTIONS" {
        // A preflight for anything a GET would not serve is as unknown as the GET.
        return match route("GET", path, flavor) {
            Route::Document(_) | Route::Archive(_) => Route::Preflight,
            _ => Route::NotFound,
        };
    }
    let dir = format!(
        "{}/{}/{}",
        provider.hostname, provider.namespace, provider.r#type
    );
    if last.to_ascii_lowercase().ends_with(".zip") {
        return match (method, archive(&provider, &dir, last)) {
            ("GET" | "HEAD", Some(a)) => Route::Archive(a),
            ("PUT", Some(u)) => Route::Upload(u),
            (_, Some(_)) => Route::MethodNotAllowed,
            (_, None) => Route::NotFound,
        };
    }
    let (name, version) = match last.strip_suffix(".json") {
        Some("index") => ("index".to_string(), None),
        Some(v) => match Version::parse(v) {
            Ok(v) => (v.to_string(), Some(v.to_string())),
            Err(_) => return Route::NotFound,
        },
        None => return Route::NotFound,
    };
    match method {
        "GET" | "HEAD" => Route::Document(Document {
            key: super::keys::version(&dir, &name),
            hostname: provider.hostname,
            dir,
            version,
        }),
        _ => Route::MethodNotAllowed,
    }
}

/// The path's segments, percent-decoded one by one (so `%2F` stays inside its segment and
/// is refused there); `None` unless the bytes are UTF-8.
fn decoded_segments(rel: &str) -> Option<Vec<String>> {
    rel.split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .ok()
                .map(|d| d.into_owned())
        })
        .collect()
}

/// The provider a mirror path names, parsed as a `source` string is; legacy (`-`) and
/// built-in providers have no packages to mirror.
fn mirrored_provider(host: &str, namespace: &str, type_: &str, flavor: Flavor) -> Option<Provider> {
    if [host, namespace, type_].iter().any(|s| s.contains('/')) {
        return None;
    }
    let p = Provider::parse_source(&format!("{host}/{namespace}/{type_}"), flavor).ok()?;
    (!p.is_legacy() && !p.is_builtin_for(flavor)).then_some(p)
}

/// A packed-layout archive name (`terraform-provider-TYPE_VERSION_OS_ARCH.zip`), read as
/// Terraform reads filesystem mirrors, renamed from the normalised parts.
fn archive(p: &Provider, dir: &str, last: &str) -> Option<Upload> {
    let entry = parse_entry(
        &format!("example.com/{}/{}/{last}", p.namespace, p.r#type),
        false,
        "",
    )?;
    // Terraform takes any OS and architecture without whitespace; a key only takes what
    // real platforms are made of.
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    let (os, arch) = entry.platform.split_once('_')?;
    if entry.layout != Layout::Packed || !plain(os) || !plain(arch) {
        return None;
    }
    let version = Version::parse(&entry.version).ok()?.to_string();
    let filename = file_name(&p.r#type, &version, &entry.platform);
    // Filesystem mirrors ignore fields after the platform; a key has no such aliases.
    if crate::gotext::to_lower(last) != filename {
        return None;
    }
    Some(Upload {
        key: super::keys::archive(dir, &filename),
        dir: dir.to_string(),
        version,
        platform: entry.platform,
        filename,
        hostname: p.hostname.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route_tf(method: &str, path: &str) -> Route {
        route(method, path, Flavor::Terraform)
    }

    #[test]
    fn documents_and_archives_are_served_and_archives_uploaded() {
        assert_eq!(
            route_tf("GET", "/registry.terraform.io/hashicorp/aws/index.json"),
            Route::Document(Document {
                key: "registry.terraform.io/hashicorp/aws/index.json".into(),
                hostname: "registry.terraform.io".into(),
                dir: "registry.terraform.io/hashicorp/aws".into(),
                version: None,
            })
        );
        assert!(matches!(
            route_tf("HEAD", "/example.com/ns/p/1.2.3.json"),
            Route::Document(Document { version: Some(v), .. }) if v == "1.2.3"
        ));
        let zip = "/example.com/ns/p/terraform-provider-p_1.2.3_linux_amd64.zip";
        let upload = Upload {
            key: "example.com/ns/p/terraform-provider-p_1.2.3_linux_amd64.zip".into(),
            dir: "example.com/ns/p".into(),
            version: "1.2.3".into(),
            platform: "linux_amd64".into(),
            filename: "terraform-provider-p_1.2.3_linux_amd64.zip".into(),
            hostname: "example.com".into(),
        };
        assert_eq!(route_tf("GET", zip), Route::Archive(upload.clone()));
        assert_eq!(route_tf("PUT", zip), Route::Upload(upload));
        assert_eq!(route_tf("OPTIONS", zip), Route::Preflight);
        assert_eq!(route_tf("POST", "/_admin/backfill"), Route::Backfill);
        assert_eq!(route_tf("GET", "/_admin/objects"), Route::Objects);
        assert_eq!(route_tf("GET", "/_admin/backfill"), Route::MethodNotAllowed);
        assert_eq!(
            route_tf("PUT", "/example.com/ns/p/index.json"),
            Route::MethodNotAllowed
        );
        assert_eq!(route_tf("DELETE", zip), Route::MethodNotAllowed);
    }

    #[test]
    fn anything_else_is_not_found() {
        for path in [
            "/",
            "/example.com/ns/p",
            "/example.com/ns/p/notes.txt",
            "/example.com/ns/p/latest.json",
            "/example.com/../p/index.json",
            "/example.com/ns/p/terraform-provider-q_1.0.0_linux_amd64.zip",
            "/example.com/ns/p/terraform-provider-p_one_linux_amd64.zip",
            "/a/b/c/d/index.json",
            "/_tflock/origin/x/index.json",
            "/example.com/_ns/p/index.json",
        ] {
            assert_eq!(route_tf("GET", path), Route::NotFound, "{path}");
        }
    }

    #[test]
    fn aliases_of_a_name_share_its_objects() {
        let canonical = route_tf("GET", "/registry.terraform.io/hashicorp/aws/5.1.0.json");
        for alias in [
            "/REGISTRY.terraform.io/hashicorp/aws/5.1.0.json",
            "/registry.terraform.io:443/hashicorp/aws/5.1.0.json",
            "/registry.terraform.io/HashiCorp/AWS/5.1.0.json",
            "/registry.terraform.io/%68ashicorp/aws/5.1.0.json",
        ] {
            assert_eq!(route_tf("GET", alias), canonical, "{alias}");
        }
        let Route::Archive(a) = route_tf(
            "GET",
            "/Registry.Terraform.IO/HashiCorp/AWS/terraform-provider-AWS_5.1.0_Linux_AMD64.zip",
        ) else {
            panic!("an upper-case archive name is an archive")
        };
        assert_eq!(
            a.key,
            "registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip"
        );
    }

    #[test]
    fn segments_that_are_no_names_are_not_found() {
        let not_hosts = [
            "http:",
            "https:",
            "http:evil.example",
            "https:evil.example",
            "..",
            ".",
            "%2e%2e",
            "a%2Fb",
            "a%2fb",
            "a\\b",
            "a?b",
            "a#b",
            "a b",
            "a%20b",
            "a@b",
            "u:p@h",
            "",
            "%ff",
            "a:b",
            "a:0x50",
            "a..b",
        ];
        let not_names = [
            &not_hosts[..],
            &["-", "a.b", "_x", "x_", "a--b", "-a", "a-"],
        ]
        .concat();
        let mut paths = Vec::new();
        for bad in not_hosts {
            paths.push(format!("/{bad}/hashicorp/aws/index.json"));
        }
        for bad in not_names {
            paths.extend([
                format!("/example.com/{bad}/aws/index.json"),
                format!("/example.com/hashicorp/{bad}/index.json"),
                format!("/example.com/hashicorp/aws/{bad}.json"),
                format!("/example.com/hashicorp/aws/terraform-provider-aws_{bad}_linux_amd64.zip"),
                format!("/example.com/hashicorp/aws/terraform-provider-aws_1.0.0_{bad}_amd64.zip"),
                format!("/example.com/hashicorp/aws/terraform-provider-aws_1.0.0_linux_{bad}.zip"),
            ]);
        }
        for path in &paths {
            for method in ["GET", "HEAD", "PUT", "OPTIONS"] {
                let r = route_tf(method, path);
                assert!(
                    matches!(r, Route::NotFound),
                    "{method} {path} routed to {r:?}"
                );
            }
        }
        for path in [
            "/http:/evil.example/index.json",
            "/app.terraform.io/http:/evil.example/index.json",
            "/app.terraform.io/https:/evil.example/index.json",
            "/app.terraform.io//evil.example/index.json",
            "/terraform.io/builtin/terraform/index.json",
            "/example.com/hashicorp/terraform-provider-aws/index.json",
            "/registry.terraform.io/-/aws/index.json",
            "/example.com/hashicorp/aws/index.json/",
            "//example.com/hashicorp/aws/index.json",
            "example.com/hashicorp/aws/index.json",
        ] {
            assert_eq!(route_tf("GET", path), Route::NotFound, "{path}");
        }
    }

    #[test]
    fn hostnames_with_ports_and_ips_are_parsed_not_trusted() {
        // Which hosts may be pulled through is the configuration's call; the route only
        // normalises them.
        let Route::Document(d) = route_tf("GET", "/127.0.0.1:8443/acme/demo/index.json") else {
            panic!()
        };
        assert_eq!(d.key, "127.0.0.1:8443/acme/demo/index.json");
        assert_eq!(
            route_tf("GET", "/u@127.0.0.1/acme/demo/index.json"),
            Route::NotFound
        );
    }
}
