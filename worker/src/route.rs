//! Which object a request names, decided without IO.

use tflock_core::protocol::fs_mirror::{parse_entry, FsMirrorEntry, Layout};

/// What the Worker does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Serve an R2 object (`index.json`, `<version>.json` or an archive) under `key`.
    Serve {
        /// The R2 object key.
        key: String,
        /// The response content type.
        content_type: &'static str,
    },
    /// Store an uploaded archive and list it in the mirror documents.
    Upload(Upload),
    /// No such document.
    NotFound,
    /// The path exists but not for this method.
    MethodNotAllowed,
}

/// An archive upload: where it goes and what it is.
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
}

/// Routes `method` and URL `path` (percent-decoding is not needed: valid names are ASCII).
pub fn route(method: &str, path: &str) -> Route {
    let rel = path.trim_start_matches('/');
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.len() != 4 || parts.iter().any(|p| p.is_empty() || p.starts_with('.')) {
        return Route::NotFound;
    }
    let last = parts[3];
    if last.ends_with(".zip") {
        return match (method, archive(rel)) {
            ("GET" | "HEAD", Some(_)) => Route::Serve {
                key: rel.to_string(),
                content_type: "application/zip",
            },
            ("PUT", Some(u)) => Route::Upload(u),
            (_, Some(_)) => Route::MethodNotAllowed,
            (_, None) => Route::NotFound,
        };
    }
    let is_doc = last == "index.json"
        || last
            .strip_suffix(".json")
            .is_some_and(tflock_core::protocol::names::looks_like_version);
    match (method, is_doc) {
        ("GET" | "HEAD", true) => Route::Serve {
            key: rel.to_string(),
            content_type: "application/json",
        },
        (_, true) => Route::MethodNotAllowed,
        (_, false) => Route::NotFound,
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_and_archives_are_served_and_archives_uploaded() {
        assert_eq!(
            route("GET", "/registry.terraform.io/hashicorp/aws/index.json"),
            Route::Serve {
                key: "registry.terraform.io/hashicorp/aws/index.json".into(),
                content_type: "application/json"
            }
        );
        assert!(matches!(
            route("GET", "/example.com/ns/p/1.2.3.json"),
            Route::Serve { .. }
        ));
        let zip = "/example.com/ns/p/terraform-provider-p_1.2.3_linux_amd64.zip";
        assert!(matches!(
            route("GET", zip),
            Route::Serve {
                content_type: "application/zip",
                ..
            }
        ));
        assert_eq!(
            route("PUT", zip),
            Route::Upload(Upload {
                key: "example.com/ns/p/terraform-provider-p_1.2.3_linux_amd64.zip".into(),
                dir: "example.com/ns/p".into(),
                version: "1.2.3".into(),
                platform: "linux_amd64".into(),
                filename: "terraform-provider-p_1.2.3_linux_amd64.zip".into(),
            })
        );
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
        ] {
            assert_eq!(route("GET", path), Route::NotFound, "{path}");
        }
    }
}
