//! Provider registry protocol v1 (`providers.v1`): the `versions` listing and the
//! `download/<os>/<arch>` answer, including OpenTofu's `packages` extension.
//!
//! Validation follows `registry_client.go` step by step so the first error reported is the
//! one Terraform/OpenTofu would report, with the same text.

use crate::collections::SortedMap;
use crate::gotext::quote;
use std::fmt;

use serde::{Deserialize, Serialize};
use url::Url;

use super::names::{check_hash_str, looks_like_version, parse_version_major_minor, platform_error};
use super::signature::SigningKey;
use super::urls::{is_http, resolve};
use crate::{Diagnostic, Flavor};

/// The relative path of the version listing for `namespace/type`, to resolve against the
/// `providers.v1` base URL.
pub fn versions_path(namespace: &str, type_: &str) -> String {
    format!("{namespace}/{type_}/versions")
}

/// The relative path of the download metadata for one version and platform.
pub fn download_path(namespace: &str, type_: &str, version: &str, os: &str, arch: &str) -> String {
    format!("{namespace}/{type_}/{version}/download/{os}/{arch}")
}

/// An error about a registry answer, already worded as the product words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryError(pub String);

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RegistryError {}

/// `ErrQueryFailed`: `could not query provider registry for <addr>: <err>`.
pub fn query_failed(provider: &str, err: impl fmt::Display) -> RegistryError {
    RegistryError(format!(
        "could not query provider registry for {provider}: {err}"
    ))
}

/// The error for an HTTP status on a registry request, `None` for 200.
pub fn status_error(
    status: u16,
    status_text: &str,
    provider: &str,
    hostname: &str,
    have_credentials: bool,
    not_found: impl FnOnce() -> String,
) -> Option<RegistryError> {
    match status {
        200 => None,
        404 => Some(RegistryError(not_found())),
        401 | 403 => Some(RegistryError(if have_credentials {
            format!("host {hostname} rejected the given authentication credentials")
        } else {
            format!("host {hostname} requires authentication credentials")
        })),
        _ => Some(query_failed(provider, status_text)),
    }
}

/// 404 on the versions listing.
pub fn provider_not_known(hostname: &str, provider: &str) -> String {
    format!("provider registry {hostname} does not have a provider named {provider}")
}

/// 404 on a download request.
pub fn platform_not_supported(provider: &str, version: &str, platform: &str) -> String {
    format!("provider {provider} {version} is not available for {platform}")
}

/// One entry of `versions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionEntry {
    /// The version string as the registry sent it.
    pub version: String,
    /// Plugin protocol versions (`"5.0"`), optional in the listing.
    #[serde(default)]
    pub protocols: Vec<String>,
    /// Platforms with packages (Terraform ignores these; tools use them).
    #[serde(default)]
    pub platforms: Vec<PlatformEntry>,
}

/// `{"os": ..., "arch": ...}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlatformEntry {
    /// Operating system.
    #[serde(default)]
    pub os: String,
    /// CPU architecture.
    #[serde(default)]
    pub arch: String,
}

impl PlatformEntry {
    /// `<os>_<arch>`.
    pub fn platform(&self) -> String {
        format!("{}_{}", self.os, self.arch)
    }
}

/// The body of `GET <base><namespace>/<type>/versions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionsResponse {
    /// Every published version.
    #[serde(default)]
    pub versions: Vec<VersionEntry>,
    /// Free-form warnings the registry wants users to see.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl VersionsResponse {
    /// Parses the JSON body; a decoding failure is a query failure for `provider`.
    pub fn parse(body: &[u8], provider: &str) -> Result<VersionsResponse, RegistryError> {
        serde_json::from_slice(body).map_err(|e| query_failed(provider, e))
    }

    /// The entries whose version string is valid; invalid ones are skipped as Terraform does
    /// (it only logs them).
    pub fn valid_versions(&self) -> impl Iterator<Item = &VersionEntry> {
        self.versions
            .iter()
            .filter(|v| looks_like_version(&v.version))
    }

    /// The warning diagnostic Terraform shows for `warnings`, if any.
    pub fn warnings_diagnostic(&self, provider: &str) -> Option<Diagnostic> {
        if self.warnings.is_empty() {
            return None;
        }
        let mut detail = format!("The remote registry returned warnings for {provider}:");
        for w in &self.warnings {
            detail.push_str("\n- ");
            detail.push_str(w);
        }
        Some(Diagnostic::warning(
            "Additional provider information from registry",
            detail,
        ))
    }
}

/// `signing_keys` in a download answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigningKeys {
    /// The keys, in registry order (the first that verifies wins).
    #[serde(default)]
    pub gpg_public_keys: Vec<SigningKey>,
}

/// One platform of OpenTofu's `packages` extension.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageEntry {
    /// `zh:` and `h1:` hashes of that platform's package.
    #[serde(default)]
    pub hashes: Vec<String>,
    /// Size of the zip archive in bytes.
    #[serde(default)]
    pub package_size: i64,
}

/// The body of `GET <base><ns>/<type>/<version>/download/<os>/<arch>`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadResponse {
    /// Plugin protocol versions.
    #[serde(default)]
    pub protocols: Vec<String>,
    /// Echo of the requested OS.
    #[serde(default)]
    pub os: String,
    /// Echo of the requested architecture.
    #[serde(default)]
    pub arch: String,
    /// The archive's name as listed in `SHA256SUMS`.
    #[serde(default)]
    pub filename: String,
    /// Where to get the archive (may be relative to this answer).
    #[serde(default)]
    pub download_url: String,
    /// Lower-case hex SHA-256 of the archive.
    #[serde(default)]
    pub shasum: String,
    /// Where to get `SHA256SUMS`.
    #[serde(default)]
    pub shasums_url: String,
    /// Where to get the detached signature of `SHA256SUMS`.
    #[serde(default)]
    pub shasums_signature_url: String,
    /// Keys that may have signed `SHA256SUMS`.
    #[serde(default)]
    pub signing_keys: SigningKeys,
    /// OpenTofu extension: per-platform hashes and sizes for every platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packages: Option<SortedMap<String, PackageEntry>>,
}

/// A validated download answer with resolved URLs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageMeta {
    /// Parsed protocol versions as `(major, minor)`, sorted.
    pub protocols: Vec<(u64, u64)>,
    /// The platform (`os_arch`) the answer is for.
    pub platform: String,
    /// Name of the archive in `SHA256SUMS`.
    pub filename: String,
    /// Absolute archive URL.
    pub download_url: Url,
    /// SHA-256 of the archive.
    pub sha256: [u8; 32],
    /// Absolute `SHA256SUMS` URL.
    pub shasums_url: Url,
    /// Absolute signature URL.
    pub shasums_signature_url: Url,
    /// Signing keys, registry order.
    pub signing_keys: Vec<SigningKey>,
    /// OpenTofu `packages`, keyed by platform (empty when absent or for Terraform).
    pub packages: SortedMap<String, PackageEntry>,
}

/// Why a protocol version list rules a package out.
fn protocol_supported(protocols: &[(u64, u64)]) -> bool {
    // Terraform and OpenTofu speak plugin protocols >= 5, < 7.
    protocols.is_empty() || protocols.iter().any(|(major, _)| (5..7).contains(major))
}

impl DownloadResponse {
    /// Parses the JSON body; a decoding failure is a query failure for `provider`.
    pub fn parse(body: &[u8], provider: &str) -> Result<DownloadResponse, RegistryError> {
        serde_json::from_slice(body).map_err(|e| query_failed(provider, e))
    }

    /// Validates the answer to a request for `version` on `os`/`arch`, resolving URLs
    /// against `response_url` (the final URL after redirects). Checks run in the products'
    /// order: protocols, target platform, download URL, `packages` (OpenTofu), `shasum`,
    /// SHASUMS URL, signature URL.
    pub fn validate(
        &self,
        flavor: Flavor,
        provider: &str,
        version: &str,
        os: &str,
        arch: &str,
        response_url: &Url,
    ) -> Result<PackageMeta, RegistryError> {
        let mut protocols = Vec::new();
        for p in &self.protocols {
            match parse_version_major_minor(p) {
                Ok(v) => protocols.push(v),
                Err(e) => {
                    return Err(query_failed(
                        provider,
                        format!(
                            "registry response includes invalid version string {}: {e}",
                            quote(p)
                        ),
                    ))
                }
            }
        }
        crate::collections::sort(&mut protocols);
        if !protocol_supported(&protocols) {
            return Err(RegistryError(format!(
                "provider {provider} {version} is not supported by this version of {}",
                match flavor {
                    Flavor::Terraform => "terraform",
                    Flavor::OpenTofu => "OpenTofu",
                }
            )));
        }
        let requested = format!("{os}_{arch}");
        if self.os != os || self.arch != arch {
            return Err(RegistryError(format!(
                "registry response to request for {requested} archive has incorrect target {}_{}",
                self.os, self.arch
            )));
        }
        let download_url = resolve_http(response_url, &self.download_url, "download URL")?;

        let mut packages = SortedMap::new();
        if flavor == Flavor::OpenTofu {
            for (platform, entry) in self.packages.iter().flatten() {
                if let Some(e) = platform_error(platform) {
                    return Err(query_failed(
                        provider,
                        format!(
                            "registry response includes invalid package platform {}: {e}",
                            quote(platform)
                        ),
                    ));
                }
                for h in &entry.hashes {
                    if let Err(e) = check_hash_str(h) {
                        return Err(query_failed(
                            provider,
                            format!(
                                "registry response includes invalid package hash {}: {e}",
                                quote(h)
                            ),
                        ));
                    }
                }
                packages.insert(platform.clone(), entry.clone());
            }
        }

        let mut sha256 = [0u8; 32];
        if self.shasum.len() != 64 {
            // Both products format a nil error here: Terraform with `%s`, OpenTofu with `%w`.
            let nil = match flavor {
                Flavor::Terraform => "%!s(<nil>)",
                Flavor::OpenTofu => "%!w(<nil>)",
            };
            return Err(query_failed(
                provider,
                format!(
                    "registry response includes invalid SHA256 hash {}: {nil}",
                    quote(&self.shasum)
                ),
            ));
        }
        if hex::decode_to_slice(&self.shasum, &mut sha256).is_err() {
            let bad = self
                .shasum
                .chars()
                .find(|c| !c.is_ascii_hexdigit())
                .unwrap_or('?');
            return Err(query_failed(
                provider,
                format!(
                    "registry response includes invalid SHA256 hash {}: encoding/hex: invalid byte: U+{:04X} {bad:?}",
                    quote(&self.shasum), bad as u32
                ),
            ));
        }
        let shasums_url = resolve_http(response_url, &self.shasums_url, "SHASUMS URL")?;
        let shasums_signature_url = resolve_http(
            response_url,
            &self.shasums_signature_url,
            "SHASUMS signature URL",
        )?;
        Ok(PackageMeta {
            protocols,
            platform: requested,
            filename: self.filename.clone(),
            download_url,
            sha256,
            shasums_url,
            shasums_signature_url,
            signing_keys: self.signing_keys.gpg_public_keys.clone(),
            packages,
        })
    }
}

fn resolve_http(base: &Url, reference: &str, what: &str) -> Result<Url, RegistryError> {
    let url = resolve(base, reference)
        .map_err(|e| RegistryError(format!("registry response includes invalid {what}: {e}")))?;
    if !is_http(&url) {
        return Err(RegistryError(format!(
            "registry response includes invalid {what}: must use http or https scheme"
        )));
    }
    Ok(url)
}

impl PackageMeta {
    /// The platforms of `wanted` that the `packages` extension does not list. The RFC
    /// requires `packages` to list every platform, whatever platform was requested.
    pub fn packages_missing(&self, wanted: &[String]) -> Vec<String> {
        wanted
            .iter()
            .filter(|p| !self.packages.contains_key(p.as_str()))
            .cloned()
            .collect()
    }

    /// True when the registry sent a non-empty `packages` map (OpenTofu only).
    pub fn has_packages(&self) -> bool {
        !self.packages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> DownloadResponse {
        serde_json::from_str(
            r#"{"protocols":["5.0"],"os":"linux","arch":"amd64","filename":"p_1.0.0_linux_amd64.zip",
            "download_url":"p_1.0.0_linux_amd64.zip","shasum":"299dd806df78cb0537e5c111019eaca6e6b7797e1b63cb37cc6a76f91c6c0782",
            "shasums_url":"/sums","shasums_signature_url":"https://other.example/sums.sig",
            "signing_keys":{"gpg_public_keys":[{"key_id":"ABC","ascii_armor":"x"}]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn resolves_urls_against_the_response_url() {
        let base =
            Url::parse("https://registry.example/v1/providers/a/p/1.0.0/download/linux/amd64")
                .unwrap();
        let meta = answer()
            .validate(
                Flavor::Terraform,
                "registry.example/a/p",
                "1.0.0",
                "linux",
                "amd64",
                &base,
            )
            .unwrap();
        assert_eq!(
            meta.download_url.as_str(),
            "https://registry.example/v1/providers/a/p/1.0.0/download/linux/p_1.0.0_linux_amd64.zip"
        );
        assert_eq!(meta.shasums_url.as_str(), "https://registry.example/sums");
        assert_eq!(
            meta.shasums_signature_url.as_str(),
            "https://other.example/sums.sig"
        );
        assert_eq!(meta.protocols, vec![(5, 0)]);
    }

    #[test]
    fn rejects_wrong_target_protocol_and_scheme() {
        let base = Url::parse("https://r.example/x").unwrap();
        let mut a = answer();
        a.arch = "arm64".into();
        assert_eq!(
            a.validate(
                Flavor::Terraform,
                "r.example/a/p",
                "1.0.0",
                "linux",
                "amd64",
                &base
            )
            .unwrap_err()
            .0,
            "registry response to request for linux_amd64 archive has incorrect target linux_arm64"
        );
        let mut a = answer();
        a.protocols = vec!["4.0".into()];
        assert_eq!(
            a.validate(
                Flavor::Terraform,
                "r.example/a/p",
                "1.0.0",
                "linux",
                "amd64",
                &base
            )
            .unwrap_err()
            .0,
            "provider r.example/a/p 1.0.0 is not supported by this version of terraform"
        );
        let mut a = answer();
        a.download_url = "ftp://x/y.zip".into();
        assert_eq!(
            a.validate(
                Flavor::Terraform,
                "r.example/a/p",
                "1.0.0",
                "linux",
                "amd64",
                &base
            )
            .unwrap_err()
            .0,
            "registry response includes invalid download URL: must use http or https scheme"
        );
        let mut a = answer();
        a.shasum = "abc".into();
        assert!(a
            .validate(Flavor::Terraform, "r.example/a/p", "1.0.0", "linux", "amd64", &base)
            .unwrap_err()
            .0
            .starts_with("could not query provider registry for r.example/a/p: registry response includes invalid SHA256 hash \"abc\": %!s(<nil>)"));
    }

    #[test]
    fn warnings_become_one_diagnostic() {
        let v = VersionsResponse::parse(
            br#"{"versions":[{"version":"1.0.0"},{"version":"bad"}],"warnings":["a","b"]}"#,
            "x/y",
        )
        .unwrap();
        assert_eq!(v.valid_versions().count(), 1);
        let d = v.warnings_diagnostic("registry.terraform.io/x/y").unwrap();
        assert_eq!(d.summary, "Additional provider information from registry");
        assert_eq!(
            d.detail,
            "The remote registry returned warnings for registry.terraform.io/x/y:\n- a\n- b"
        );
    }
}
