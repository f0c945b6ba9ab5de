//! Where things live in the bucket. Public objects sit at their URL path
//! (`<host>/<namespace>/<type>/index.json`, `<version>.json`, archives); the mirror's own
//! bookkeeping lives under `_tflock/`, which no request path can name (routes take exactly
//! four segments and refuse ones starting with `_` or `.`).

/// The origin record of a version whose documents live in `dir` (`host/ns/type`).
pub fn origin_record(dir: &str, version: &str) -> String {
    format!("_tflock/origin/{dir}/{version}.json")
}

/// The single-flight lease of an archive download or upload.
pub fn lease(archive_key: &str) -> String {
    format!("_tflock/lease/{archive_key}")
}

/// A cached origin "not found" for a public key.
pub fn miss(public_key: &str) -> String {
    format!("_tflock/miss/{public_key}")
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
