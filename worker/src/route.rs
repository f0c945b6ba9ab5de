//! Which object a request names, decided without IO.

use tflock_core::protocol::fs_mirror::{parse_entry, FsMirrorEntry, Layout};

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

/// Routes `method` and URL `path` (percent-decoding is not needed: valid names are ASCII).
pub fn route(method: &str, path: &str) -> Route {
    match (method, path) {
        ("POST", "/_admin/backfill") => return Route::Backfill,
        ("GET", "/_admin/objects") => return Route::Objects,
        (_, "/_admin/backfill" | "/_admin/objects") => return Route::MethodNotAllowed,
        _ => {}
    }
    let rel = path.trim_start_matches('/');
    let parts: Vec<&str> = rel.split('/').collect();
    // Bookkeeping lives under `_tflock/`; no public path may reach it.
    if parts.len() != 4
        || parts
            .iter()
            .any(|p| p.is_empty() || p.starts_with('.') || p.starts_with('_'))
    {
        return Route::NotFound;
    }
    if method == "OPTIONS" {
        return Route::Preflight;
    }
    let last = parts[3];
    if last.ends_with(".zip") {
        return match (method, archive(rel)) {
            ("GET" | "HEAD", Some(a)) => Route::Archive(a),
            ("PUT", Some(u)) => Route::Upload(u),
            (_, Some(_)) => Route::MethodNotAllowed,
            (_, None) => Route::NotFound,
        };
    }
    let version = match last.strip_suffix(".json") {
        Some("index") => None,
        Some(v) if tflock_core::protocol::names::looks_like_version(v) => Some(v.to_string()),
        _ => return Route::NotFound,
    };
    let Ok(hostname) = tflock_core::addrs::hostname::for_comparison(parts[0]) else {
        return Route::NotFound;
    };
    match method {
        "GET" | "HEAD" => Route::Document(Document {
            key: rel.to_string(),
            dir: format!("{hostname}/{}/{}", parts[1], parts[2]),
            hostname,
            version,
        }),
        _ => Route::MethodNotAllowed,
    }
}

/// A packed-layout archive path (`terraform-provider-TYPE_VERSION_OS_ARCH.zip`), read as
/// Terraform reads filesystem mirrors.
fn archive(rel: &str) -> Option<Upload> {
    let FsMirrorEntry {
        hostname,
        namespace,
        type_,
        version,
        platform,
        layout,
        filename,
    } = parse_entry(rel, false, "registry.terraform.io")?;
    if layout != Layout::Packed || rel.rsplit('/').next() != Some(filename.as_str()) {
        return None;
    }
    let dir = format!("{hostname}/{namespace}/{type_}");
    Some(Upload {
        key: format!("{dir}/{filename}"),
        dir,
        version,
        platform,
        filename,
        hostname,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_and_archives_are_served_and_archives_uploaded() {
        assert_eq!(
            route("GET", "/registry.terraform.io/hashicorp/aws/index.json"),
            Route::Document(Document {
                key: "registry.terraform.io/hashicorp/aws/index.json".into(),
                hostname: "registry.terraform.io".into(),
                dir: "registry.terraform.io/hashicorp/aws".into(),
                version: None,
            })
        );
        assert!(matches!(
            route("HEAD", "/example.com/ns/p/1.2.3.json"),
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
        assert_eq!(route("GET", zip), Route::Archive(upload.clone()));
        assert_eq!(route("PUT", zip), Route::Upload(upload));
        assert_eq!(route("OPTIONS", zip), Route::Preflight);
        assert_eq!(route("POST", "/_admin/backfill"), Route::Backfill);
        assert_eq!(route("GET", "/_admin/objects"), Route::Objects);
        assert_eq!(route("GET", "/_admin/backfill"), Route::MethodNotAllowed);
        assert_eq!(
            route("PUT", "/example.com/ns/p/index.json"),
            Route::MethodNotAllowed
        );
        assert_eq!(route("DELETE", zip), Route::MethodNotAllowed);
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
            assert_eq!(route("GET", path), Route::NotFound, "{path}");
        }
    }
}
