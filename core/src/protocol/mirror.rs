//! Provider network mirror protocol: `<host>/<ns>/<type>/index.json` and
//! `<host>/<ns>/<type>/<version>.json` under a configured https base URL.
//!
//! Go's `encoding/json` matches object keys to struct fields case-insensitively, so the
//! bodies are read as untyped JSON and looked up the same way (`"Archives"`, `"HASHES"` and
//! `"Url"` all work in Terraform).

use crate::collections::SortedMap;
use crate::gotext::quote;

use serde_json::Value;
use url::Url;

use super::names::{check_hash_str, looks_like_version};
use super::urls::{resolve, resolve_under, EndpointError};
use crate::{Diagnostic, Flavor};

/// Validates a `network_mirror { url = ... }` value: https with a host. Returns Terraform's
/// diagnostic otherwise.
pub fn mirror_base_url(raw: &str) -> Result<Url, Box<Diagnostic>> {
    let url = Url::parse(raw).map_err(|e| {
        Box::new(Diagnostic::error(
            "Invalid URL for provider installation source",
            format!(
                "Cannot parse {} as a URL for a network provider mirror: {e}.",
                quote(raw)
            ),
        ))
    })?;
    if url.scheme() != "https" || url.host_str().is_none_or(str::is_empty) {
        return Err(Box::new(Diagnostic::error(
            "Invalid URL for provider installation source",
            format!(
                "Cannot use {} as a URL for a network provider mirror: the mirror must be at an https: URL.",
                quote(raw)
            ),
        )));
    }
    Ok(url)
}

/// A network mirror named by a command option instead of the CLI configuration:
/// `providers lock -net-mirror`, the npm `lock()`'s `networkMirror`. Terraform's rule
/// (`providers_lock.go`): the value must parse as a URL with the `https` scheme.
pub fn option_mirror_url(raw: &str, option: &str) -> Result<Url, InvalidMirrorOption> {
    match Url::parse(raw) {
        Ok(url) if url.scheme() == "https" => Ok(url),
        _ => Err(InvalidMirrorOption {
            option: option.to_string(),
        }),
    }
}

/// A mirror option that is not an `https:` URL; `option` names it as the host spells it
/// (`-net-mirror`, `networkMirror`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The {option} option requires a valid https: URL as the mirror base URL.")]
pub struct InvalidMirrorOption {
    /// The option, as the host spells it.
    pub option: String,
}

impl InvalidMirrorOption {
    /// Terraform's diagnostic for it.
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error("Invalid network mirror URL", self.to_string())
    }
}

/// The URL of `index.json` for a provider, resolved against the base as written (no slash
/// is added: a base without a trailing `/` loses its last segment, as in Terraform).
pub fn index_url(
    base: &Url,
    hostname: &str,
    namespace: &str,
    type_: &str,
) -> Result<Url, EndpointError> {
    resolve_under(base, &format!("{hostname}/{namespace}/{type_}/index.json"))
}

/// The URL of `<version>.json` for a provider version.
pub fn version_url(
    base: &Url,
    hostname: &str,
    namespace: &str,
    type_: &str,
    version: &str,
) -> Result<Url, EndpointError> {
    resolve_under(
        base,
        &format!("{hostname}/{namespace}/{type_}/{version}.json"),
    )
}

/// The result of checking a 200 response's `Content-Type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentTypeOk {
    /// Parameter names (e.g. `charset`) Terraform ignores with a log warning.
    pub ignored_params: Vec<String>,
}

/// Why a mirror response's `Content-Type` is refused (Go's `mime.ParseMediaType` errors and
/// Terraform's own check), in the words Terraform wraps into its query-failed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ContentTypeError {
    /// Empty, or no token before the slash.
    #[error("response has invalid Content-Type: mime: no media type")]
    NoMediaType,
    /// A token without a slash.
    #[error("response has invalid Content-Type: mime: expected slash after first token")]
    ExpectedSlash,
    /// Nothing valid after the slash.
    #[error("response has invalid Content-Type: mime: expected token after slash")]
    ExpectedToken,
    /// A parameter that is not `name=value`.
    #[error("response has invalid Content-Type: mime: invalid media parameter")]
    InvalidParameter,
    /// A well-formed media type other than `application/json`.
    #[error("response has invalid Content-Type: must be application/json")]
    NotJson,
}

/// `Content-Type` must parse as a media type equal to `application/json` (parameters are
/// ignored).
pub fn check_content_type(header: Option<&str>) -> Result<ContentTypeOk, ContentTypeError> {
    let ct = header.unwrap_or("");
    let mut parts = ct.split(';');
    let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    if media.is_empty() {
        return Err(ContentTypeError::NoMediaType);
    }
    let is_token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&b))
    };
    match media.split_once('/') {
        None if is_token(&media) => return Err(ContentTypeError::ExpectedSlash),
        Some((t, s)) if is_token(t) && is_token(s) => {}
        Some((t, _)) if is_token(t) => return Err(ContentTypeError::ExpectedToken),
        _ => return Err(ContentTypeError::NoMediaType),
    }
    let mut ignored_params = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        match p.split_once('=') {
            Some((name, _)) if is_token(name.trim()) => {
                ignored_params.push(name.trim().to_ascii_lowercase())
            }
            _ => return Err(ContentTypeError::InvalidParameter),
        }
    }
    if media != "application/json" {
        return Err(ContentTypeError::NotJson);
    }
    Ok(ContentTypeOk { ignored_params })
}

/// `ErrQueryFailed` for a mirror: `failed to query provider mirror <base> for <addr>: <err>`.
pub fn mirror_query_failed(base: &Url, provider: &str, err: impl std::fmt::Display) -> String {
    format!("failed to query provider mirror {base} for {provider}: {err}")
}

/// The error for a non-200 status on `index.json` (`None` for 200). 404 is "not found"
/// (`None` is not returned; the caller treats [`MirrorStatus::NotFound`] as no versions).
pub fn index_status(status: u16) -> MirrorStatus {
    match status {
        200 => MirrorStatus::Ok,
        404 => MirrorStatus::NotFound,
        401 | 403 => MirrorStatus::Unauthorized,
        s => MirrorStatus::Failed(format!("server returned unsuccessful status {s}")),
    }
}

/// How a mirror request's HTTP status is interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MirrorStatus {
    /// 200.
    Ok,
    /// 404: the provider (index) or the version (`<version>.json`) is unknown.
    NotFound,
    /// 401/403: `host <h> rejected the given authentication credentials`.
    Unauthorized,
    /// Anything else, with Terraform's wrapped error text.
    Failed(String),
}

/// Case-insensitive object member lookup; the last matching key wins, like Go's decoder
/// assigning fields in document order (an exact-case key is preferred when both exist).
fn member<'a>(obj: &'a serde_json::Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).or_else(|| {
        obj.iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
            .next_back()
    })
}

/// A mirror document Terraform cannot decode: serde_json's text or the `encoding/json`
/// error Go reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid response content from mirror server: {0}")]
pub struct InvalidContent(String);

fn invalid_content(e: impl std::fmt::Display) -> InvalidContent {
    InvalidContent(e.to_string())
}

/// A parsed `index.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorIndex {
    /// Valid version strings, in document order (invalid keys are skipped, as Terraform
    /// skips them with a log warning).
    pub versions: Vec<String>,
    /// Keys that were not valid versions.
    pub skipped: Vec<String>,
}

impl MirrorIndex {
    /// Parses `{"versions": {"2.0.0": {}, ...}}`.
    pub fn parse(body: &[u8]) -> Result<MirrorIndex, InvalidContent> {
        let v: Value = serde_json::from_slice(body).map_err(invalid_content)?;
        let obj = v
            .as_object()
            .ok_or_else(|| invalid_content("json: cannot unmarshal non-object into Go value"))?;
        let mut versions = Vec::new();
        let mut skipped = Vec::new();
        match member(obj, "versions") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for k in map.keys() {
                    if looks_like_version(k) {
                        versions.push(k.clone());
                    } else {
                        skipped.push(k.clone());
                    }
                }
            }
            Some(_) => {
                return Err(invalid_content(
                    "json: cannot unmarshal non-object into Go struct field .versions",
                ))
            }
        }
        Ok(MirrorIndex { versions, skipped })
    }
}

/// One platform's archive in `<version>.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorArchive {
    /// The `url` exactly as sent.
    pub url: String,
    /// The `hashes` as sent (may be empty: then the package is unverified).
    pub hashes: Vec<String>,
}

/// A parsed `<version>.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorVersion {
    /// Archives keyed by platform string.
    pub archives: SortedMap<String, MirrorArchive>,
}

/// What a mirror says about one platform's package, ready for authentication.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorPackage {
    /// Absolute archive URL (resolved against the `<version>.json` response URL).
    pub url: Url,
    /// The archive file name (last path segment).
    pub filename: String,
    /// Hashes to check the download against, with the platform each came from: only the
    /// target platform's, or every platform's with OpenTofu `trust_all_hashes`.
    pub hashes: Vec<(String, String)>,
}

impl MirrorVersion {
    /// Parses `{"archives": {"<os>_<arch>": {"url": ..., "hashes": [...]}}}`.
    pub fn parse(body: &[u8]) -> Result<MirrorVersion, InvalidContent> {
        let v: Value = serde_json::from_slice(body).map_err(invalid_content)?;
        let obj = v
            .as_object()
            .ok_or_else(|| invalid_content("json: cannot unmarshal non-object into Go value"))?;
        let mut archives = SortedMap::new();
        match member(obj, "archives") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (platform, meta) in map {
                    let meta =
                        match meta {
                            Value::Object(m) => m,
                            Value::Null => continue,
                            _ => return Err(invalid_content(
                                "json: cannot unmarshal non-object into Go struct field .archives",
                            )),
                        };
                    let url = match member(meta, "url") {
                        None | Some(Value::Null) => String::new(),
                        Some(Value::String(s)) => s.clone(),
                        Some(_) => {
                            return Err(invalid_content(
                                "json: cannot unmarshal non-string into Go struct field .archives.url of type string",
                            ))
                        }
                    };
                    let hashes = match member(meta, "hashes") {
                        None | Some(Value::Null) => Vec::new(),
                        Some(Value::Array(items)) => items
                            .iter()
                            .map(|h| {
                                h.as_str().map(str::to_string).ok_or_else(|| {
                                    invalid_content(
                                        "json: cannot unmarshal non-string into Go struct field .archives.Hashes of type string",
                                    )
                                })
                            })
                            .collect::<Result<_, _>>()?,
                        Some(_) => {
                            return Err(invalid_content(
                                "json: cannot unmarshal non-array into Go struct field .archives.Hashes of type []string",
                            ))
                        }
                    };
                    archives.insert(platform.clone(), MirrorArchive { url, hashes });
                }
            }
            Some(_) => {
                return Err(invalid_content(
                    "json: cannot unmarshal non-object into Go struct field .archives",
                ))
            }
        }
        Ok(MirrorVersion { archives })
    }

    /// The package for `platform`, with URL resolved against `response_url` and the hashes
    /// to trust. `trust_all_hashes` only has an effect for OpenTofu. Errors are the
    /// unwrapped texts (wrap them with [`mirror_query_failed`] except the first, which
    /// Terraform reports as is).
    pub fn package(
        &self,
        flavor: Flavor,
        platform: &str,
        response_url: &Url,
        trust_all_hashes: bool,
        not_found: impl FnOnce() -> String,
    ) -> Result<MirrorPackage, MirrorPackageError> {
        let Some(archive) = self.archives.get(platform) else {
            return Err(MirrorPackageError::PlatformMissing(not_found()));
        };
        let url = resolve(response_url, &archive.url).map_err(|e| {
            MirrorPackageError::Query(format!(
                "provider mirror returned invalid URL {}: {e}",
                quote(&archive.url)
            ))
        })?;
        let filename = url
            .path_segments()
            .and_then(|mut s| s.next_back())
            .unwrap_or("")
            .to_string();
        let trust_all = trust_all_hashes && flavor == Flavor::OpenTofu;
        let mut hashes = Vec::new();
        for (p, a) in &self.archives {
            if trust_all || p == platform {
                for h in &a.hashes {
                    check_hash_str(h).map_err(|e| {
                        MirrorPackageError::Query(format!(
                            "provider mirror returned invalid provider hash {}: {e}",
                            quote(h)
                        ))
                    })?;
                    hashes.push((p.clone(), h.clone()));
                }
            }
        }
        Ok(MirrorPackage {
            url,
            filename,
            hashes,
        })
    }
}

/// Why a mirror cannot offer a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MirrorPackageError {
    /// `provider mirror <base> does not have a package of <addr> <v> for <platform>`.
    PlatformMissing(String),
    /// An error Terraform wraps as a query failure.
    Query(String),
}

/// The text for a platform missing from `<version>.json`.
pub fn platform_missing(base: &Url, provider: &str, version: &str, platform: &str) -> String {
    format!("provider mirror {base} does not have a package of {provider} {version} for {platform}")
}

/// The text for a 404 on `<version>.json` (wrapped as a query failure).
pub fn version_index_missing(provider: &str, version: &str) -> String {
    format!("provider mirror does not have archive index for previously-reported {provider} version {version}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_must_be_https_with_host() {
        assert!(mirror_base_url("https://mirror.example/providers/").is_ok());
        assert!(option_mirror_url("https://m/", "-net-mirror").is_ok());
        let e = option_mirror_url("http://m/", "-net-mirror").unwrap_err();
        assert_eq!(
            e.to_diagnostic().detail,
            "The -net-mirror option requires a valid https: URL as the mirror base URL."
        );
        assert!(option_mirror_url("not a url", "networkMirror").is_err());
        let d = mirror_base_url("http://mirror.example/").unwrap_err();
        assert_eq!(d.summary, "Invalid URL for provider installation source");
        assert_eq!(d.detail, "Cannot use \"http://mirror.example/\" as a URL for a network provider mirror: the mirror must be at an https: URL.");
    }

    #[test]
    fn paths_resolve_relative_to_the_base() {
        let base = Url::parse("https://m.example/tf/").unwrap();
        assert_eq!(
            index_url(&base, "registry.terraform.io", "hashicorp", "null")
                .unwrap()
                .as_str(),
            "https://m.example/tf/registry.terraform.io/hashicorp/null/index.json"
        );
        let no_slash = Url::parse("https://m.example/tf").unwrap();
        assert_eq!(
            version_url(&no_slash, "example.com", "a", "b", "1.0.0")
                .unwrap()
                .as_str(),
            "https://m.example/example.com/a/b/1.0.0.json"
        );
        // Go's url.Parse reads "example.com:8443/..." as a URL with scheme "example.com",
        // so Terraform requests that (useless) absolute URL for hosts with a port, and its
        // HTTP client refuses the scheme. It leaves the base, so it is refused before that.
        assert_eq!(
            version_url(&base, "example.com:8443", "a", "b", "1.0.0"),
            Err(super::EndpointError::OutsideBase {
                url: "example.com:8443/a/b/1.0.0.json".into(),
                base: base.to_string(),
            })
        );
    }

    #[test]
    fn content_type_rule() {
        assert!(check_content_type(Some("application/json")).is_ok());
        assert_eq!(
            check_content_type(Some("Application/JSON; charset=utf-8"))
                .unwrap()
                .ignored_params,
            vec!["charset"]
        );
        assert_eq!(
            check_content_type(Some("text/plain"))
                .unwrap_err()
                .to_string(),
            "response has invalid Content-Type: must be application/json"
        );
        assert_eq!(
            check_content_type(None).unwrap_err().to_string(),
            "response has invalid Content-Type: mime: no media type"
        );
    }

    #[test]
    fn version_json_keys_are_case_insensitive_and_urls_resolve() {
        let body = br#"{"Archives": {"linux_amd64": {"URL": "p_linux_amd64.zip", "HASHES": ["h1:abc"]},
                                       "darwin_arm64": {"url": "https://cdn.example/p_darwin_arm64.zip", "hashes": ["h1:def"]}}}"#;
        let v = MirrorVersion::parse(body).unwrap();
        let resp = Url::parse("https://m.example/tf/registry.terraform.io/a/p/1.0.0.json").unwrap();
        let p = v
            .package(Flavor::Terraform, "linux_amd64", &resp, true, String::new)
            .unwrap();
        assert_eq!(
            p.url.as_str(),
            "https://m.example/tf/registry.terraform.io/a/p/p_linux_amd64.zip"
        );
        assert_eq!(p.filename, "p_linux_amd64.zip");
        // trust_all_hashes is an OpenTofu setting: Terraform keeps only the target's hashes.
        assert_eq!(
            p.hashes,
            vec![("linux_amd64".to_string(), "h1:abc".to_string())]
        );
        let p = v
            .package(Flavor::OpenTofu, "linux_amd64", &resp, true, String::new)
            .unwrap();
        assert_eq!(p.hashes.len(), 2);
        assert!(matches!(
            v.package(Flavor::Terraform, "windows_386", &resp, false, || "missing".into()),
            Err(MirrorPackageError::PlatformMissing(m)) if m == "missing"
        ));
    }

    #[test]
    fn index_skips_invalid_versions() {
        let i =
            MirrorIndex::parse(br#"{"versions": {"2.0.0": {}, "nope": {}, "2.0.1": {}}}"#).unwrap();
        assert_eq!(i.versions, vec!["2.0.0", "2.0.1"]);
        assert_eq!(i.skipped, vec!["nope"]);
        assert!(MirrorIndex::parse(b"{")
            .unwrap_err()
            .to_string()
            .starts_with("invalid response content from mirror server: "));
    }
}
