//! Where things live in the bucket. Public objects sit at their URL path
//! (`<host>/<namespace>/<type>/index.json`, `<version>.json`, archives); the mirror's own
//! bookkeeping lives under `_tflock/`, which no request path can name (routes take exactly
//! four segments and refuse ones starting with `_` or `.`). Every key is built here, so a
//! host never spells one with `format!`.

/// `<dir>/index.json`, the versions of the provider whose documents live in `dir`
/// (`host/ns/type`).
pub fn index(dir: &str) -> String {
    format!("{dir}/index.json")
}

/// `<dir>/<version>.json`, the archives of one version.
pub fn version(dir: &str, version: &str) -> String {
    format!("{dir}/{version}.json")
}

/// `<dir>/<filename>`, an archive.
pub fn archive(dir: &str, filename: &str) -> String {
    format!("{dir}/{filename}")
}

/// The origin record of a version whose documents live in `dir` (`host/ns/type`).
pub fn origin_record(dir: &str, version: &str) -> String {
    format!("_tflock/origin/{dir}/{version}.json")
}

/// The single-flight lease of an archive download or upload.
pub fn lease(archive_key: &str) -> String {
    format!("_tflock/lease/{archive_key}")
}

/// Where the multipart uploads in progress are recorded (see `edge::uploads`).
pub const UPLOADS_PREFIX: &str = "_tflock/uploads/";

/// The record of a multipart upload in progress into `archive_key`, so that one its writer
/// never finished (an isolate evicted mid-pull) can be found and aborted.
pub fn upload(archive_key: &str) -> String {
    format!("{UPLOADS_PREFIX}{archive_key}")
}

/// The archive key an upload record (a key under [`UPLOADS_PREFIX`]) stands for.
pub fn upload_target(record_key: &str) -> Option<&str> {
    record_key.strip_prefix(UPLOADS_PREFIX)
}

/// Whether `key` is bookkeeping rather than a public object.
pub fn is_private(key: &str) -> bool {
    key.starts_with("_tflock/")
}

/// The hashes (`{"h1": ..., "zh": ...}`) of a stored archive, written before its lease is
/// released, so a later upload of the same key can be compared without re-reading it.
pub fn hashes(archive_key: &str) -> String {
    format!("_tflock/hashes/{archive_key}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_keys_are_paths_and_bookkeeping_is_private() {
        let dir = "registry.terraform.io/hashicorp/aws";
        assert_eq!(index(dir), "registry.terraform.io/hashicorp/aws/index.json");
        assert_eq!(
            version(dir, "1.2.3"),
            "registry.terraform.io/hashicorp/aws/1.2.3.json"
        );
        let a = archive(dir, "terraform-provider-aws_1.2.3_linux_amd64.zip");
        assert!(!is_private(&a));
        for k in [
            lease(&a),
            upload(&a),
            hashes(&a),
            origin_record(dir, "1.2.3"),
        ] {
            assert!(is_private(&k), "{k}");
        }
        assert_eq!(upload_target(&upload(&a)), Some(a.as_str()));
        assert_eq!(upload_target(&lease(&a)), None);
    }
}
