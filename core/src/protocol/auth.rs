//! Package authentication: the checks Terraform and OpenTofu run on a downloaded package
//! before installing it, in their order and with their error texts, and the result they
//! print (`signed by HashiCorp`, `self-signed`, `signed`, `signing skipped`, ...).
//!
//! Sans-IO: the host downloads the archive and hashes it (SHA-256 of the zip, its size and,
//! where needed, its `h1:`), then hands those values in with the `SHA256SUMS` document and
//! its signature. Every hash the checks vouch for comes back with its provenance.

use crate::gotext::quote;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::names::preferred_hashes;
use super::registry::PackageMeta;
use super::sha256sums::{check_listed_checksum, Sha256Sums};
use super::signature::{classify_signer, find_signing_key, Signer, SigningKey, TrustRoots};
use crate::Flavor;

/// The overall authentication outcome, as the products name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthKind {
    /// No check vouched for the package (Terraform prints `unauthenticated`).
    Unauthenticated,
    /// A hash from the source matched the package.
    VerifiedChecksum,
    /// Terraform: signed with the HashiCorp key.
    SignedByHashiCorp,
    /// Terraform: signed with a key carrying a HashiCorp partner trust signature.
    SignedByPartner,
    /// Terraform: signed with another key the registry listed.
    SelfSigned,
    /// OpenTofu: signed with a key the registry listed.
    Signed,
    /// OpenTofu: the registry vouched for the hashes but the signature was not checked.
    SigningSkipped,
}

impl AuthKind {
    /// The product's wording.
    pub fn text(self) -> &'static str {
        match self {
            AuthKind::Unauthenticated => "unauthenticated",
            AuthKind::VerifiedChecksum => "verified checksum",
            AuthKind::SignedByHashiCorp => "signed by HashiCorp",
            AuthKind::SignedByPartner => "signed by a HashiCorp partner",
            AuthKind::SelfSigned => "self-signed",
            AuthKind::Signed => "signed",
            AuthKind::SigningSkipped => "signing skipped",
        }
    }
}

impl fmt::Display for AuthKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// Where trust in one hash came from (OpenTofu's `HashDisposition`, also filled for
/// Terraform so tools can show provenance).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashRecord {
    /// The hash string (`zh:…`, `h1:…`).
    pub hash: String,
    /// The platform the hash belongs to, when known (SHA256SUMS lines carry none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Key ID (16 upper-case hex) whose verified signature covers this hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
    /// Reported by the provider's origin registry (SHA256SUMS or `packages`).
    #[serde(default)]
    pub reported_by_registry: bool,
    /// Computed locally from the downloaded package and matched.
    #[serde(default)]
    pub verified_locally: bool,
    /// Reported by a network mirror marked `trust_all_hashes` (OpenTofu).
    #[serde(default)]
    pub reported_by_trusted_mirror: bool,
}

impl HashRecord {
    /// The hash as the crate's hash type.
    pub fn package_hash(&self) -> Option<crate::hash::PackageHash> {
        crate::hash::PackageHash::parse(&self.hash).ok()
    }
}

/// A successful authentication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthResult {
    /// The outcome the product prints.
    pub kind: AuthKind,
    /// The signing key's ID, when a signature was verified.
    pub key_id: Option<String>,
    /// Every hash the checks vouched for, deduplicated, first-seen order.
    pub hashes: Vec<HashRecord>,
    /// Set when a verified `SHA256SUMS` could not be parsed strictly; its lines then
    /// vouch for nothing (Terraform would have ignored or crashed on it).
    pub sums_problem: Option<String>,
}

impl AuthResult {
    /// An "unauthenticated" result (no checks, e.g. a mirror without hashes).
    pub fn unauthenticated() -> AuthResult {
        AuthResult {
            kind: AuthKind::Unauthenticated,
            key_id: None,
            hashes: Vec::new(),
            sums_problem: None,
        }
    }

    /// True if a signature was verified.
    pub fn signed(&self) -> bool {
        matches!(
            self.kind,
            AuthKind::SignedByHashiCorp
                | AuthKind::SignedByPartner
                | AuthKind::SelfSigned
                | AuthKind::Signed
        )
    }

    /// The key ID as the install line shows it: Terraform only for partner and self-signed
    /// packages, OpenTofu whenever signed.
    pub fn displayed_key_id(&self) -> Option<&str> {
        match self.kind {
            AuthKind::SignedByPartner | AuthKind::SelfSigned | AuthKind::Signed => {
                self.key_id.as_deref()
            }
            _ => None,
        }
    }

    /// `<result>[, key ID <id>]`, the text in parentheses after `- Installed <addr> v<v>`.
    pub fn summary(&self) -> String {
        match self.displayed_key_id() {
            Some(id) => format!("{}, key ID {id}", self.kind),
            None => self.kind.to_string(),
        }
    }

    /// Hashes verified locally.
    pub fn local_hashes(&self) -> impl Iterator<Item = &str> {
        self.hashes
            .iter()
            .filter(|h| h.verified_locally)
            .map(|h| h.hash.as_str())
    }

    /// Hashes a lock file may record beyond the locally verified ones: Terraform records
    /// every signed `zh:` when signed; OpenTofu records signed hashes, or — when signing is
    /// not required for the provider — everything the registry or a trusted mirror reported.
    pub fn vouched_hashes(&self, signing_required: bool) -> Vec<&str> {
        self.hashes
            .iter()
            .filter(|h| {
                if signing_required {
                    h.signed_by.is_some()
                } else {
                    h.reported_by_registry || h.reported_by_trusted_mirror
                }
            })
            .map(|h| h.hash.as_str())
            .collect()
    }

    fn add(&mut self, rec: HashRecord) {
        if let Some(existing) = self.hashes.iter_mut().find(|h| h.hash == rec.hash) {
            existing.platform = existing.platform.take().or(rec.platform);
            existing.signed_by = existing.signed_by.take().or(rec.signed_by);
            existing.reported_by_registry |= rec.reported_by_registry;
            existing.verified_locally |= rec.verified_locally;
            existing.reported_by_trusted_mirror |= rec.reported_by_trusted_mirror;
        } else {
            self.hashes.push(rec);
        }
    }

    /// OpenTofu's `summaryResult`: signed > registry-reported > verified > trusted mirror.
    fn tofu_kind(&self) -> AuthKind {
        if self.hashes.iter().any(|h| h.signed_by.is_some()) {
            AuthKind::Signed
        } else if self.hashes.iter().any(|h| h.reported_by_registry) {
            AuthKind::SigningSkipped
        } else if self.hashes.iter().any(|h| h.verified_locally) {
            AuthKind::VerifiedChecksum
        } else if self.hashes.iter().any(|h| h.reported_by_trusted_mirror) {
            AuthKind::SigningSkipped
        } else {
            AuthKind::Unauthenticated
        }
    }
}

/// An authentication failure; `Display` is the product's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError(pub String);

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AuthError {}

/// What the host learned about a package downloaded from a registry.
#[derive(Debug, Clone)]
pub struct RegistryAuthInput<'a> {
    /// Whose rules and texts.
    pub flavor: Flavor,
    /// The provider's hostname (OpenTofu skips signature checks only on its own registry).
    pub provider_hostname: &'a str,
    /// OpenTofu's `OPENTOFU_ENFORCE_GPG_VALIDATION=true`.
    pub enforce_gpg_validation: bool,
    /// The validated download answer.
    pub meta: &'a PackageMeta,
    /// The `SHA256SUMS` bytes.
    pub document: &'a [u8],
    /// The detached signature bytes.
    pub signature: &'a [u8],
    /// SHA-256 of the downloaded zip.
    pub archive_sha256: [u8; 32],
    /// Size of the downloaded zip in bytes.
    pub archive_size: u64,
    /// Terraform's trust roots (ignored by OpenTofu).
    pub trust_roots: &'a TrustRoots,
}

/// Whether OpenTofu requires a valid signature (`shouldEnforceGPGValidation`): always when
/// the registry lists keys or for other registries; on registry.opentofu.org only when
/// enforced by the user. Terraform always requires one.
pub fn signing_required(
    flavor: Flavor,
    keys_listed: bool,
    provider_hostname: &str,
    enforce: bool,
) -> bool {
    match flavor {
        Flavor::Terraform => true,
        Flavor::OpenTofu => {
            keys_listed || provider_hostname != Flavor::OpenTofu.default_registry_host() || enforce
        }
    }
}

/// Authenticates a registry package: (OpenTofu: `packages` consistency and size), the
/// `SHA256SUMS` line for `filename`, the archive's SHA-256, then the signature, stopping
/// at the first failure.
pub fn authenticate_registry_package(
    input: &RegistryAuthInput<'_>,
) -> Result<AuthResult, AuthError> {
    authenticate_registry_package_with(input, &mut verify_sums_signature)
}

/// [`authenticate_registry_package`] with the signature step supplied by the caller (a run
/// verifies each `SHA256SUMS` once and answers its other packages from memory); `verify`
/// must give what [`verify_sums_signature`] gives.
pub fn authenticate_registry_package_with(
    input: &RegistryAuthInput<'_>,
    verify: &mut dyn FnMut(&SumsSignatureInput<'_>) -> Result<SignedSums, AuthError>,
) -> Result<AuthResult, AuthError> {
    let meta = input.meta;
    let mut result = AuthResult::unauthenticated();
    if input.flavor == Flavor::OpenTofu {
        check_packages(input, &mut result)?;
    }
    check_listed_checksum(input.document, &meta.filename, &meta.sha256)
        .map_err(|e| AuthError(e.to_string()))?;
    let got = format!("zh:{}", hex::encode(input.archive_sha256));
    let want = format!("zh:{}", hex::encode(meta.sha256));
    if got != want {
        return Err(AuthError(format!(
            "archive has incorrect checksum {got} (expected {want})"
        )));
    }
    result.add(HashRecord {
        hash: got,
        platform: Some(meta.platform.clone()),
        verified_locally: true,
        ..HashRecord::default()
    });

    let (signed_hashes, sums_problem) = match Sha256Sums::parse(input.document) {
        Ok(sums) => (sums.acceptable_hashes(), None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    result.sums_problem = sums_problem;

    let signed = verify(&SumsSignatureInput {
        flavor: input.flavor,
        provider_hostname: input.provider_hostname,
        enforce_gpg_validation: input.enforce_gpg_validation,
        signing_keys: &meta.signing_keys,
        document: input.document,
        signature: input.signature,
        trust_roots: input.trust_roots,
    })?;
    for h in signed_hashes {
        result.add(HashRecord {
            hash: h,
            signed_by: signed.key_id.clone(),
            reported_by_registry: true,
            ..HashRecord::default()
        });
    }
    result.key_id = signed.key_id;
    result.kind = match signed.kind {
        Some(kind) => kind,
        None => result.tofu_kind(),
    };
    Ok(result)
}

/// What the signature check over a `SHA256SUMS` document needs.
#[derive(Debug, Clone)]
pub struct SumsSignatureInput<'a> {
    /// Whose rules and texts.
    pub flavor: Flavor,
    /// The provider's hostname (OpenTofu skips signature checks only on its own registry).
    pub provider_hostname: &'a str,
    /// OpenTofu's `OPENTOFU_ENFORCE_GPG_VALIDATION=true`.
    pub enforce_gpg_validation: bool,
    /// The registry's `signing_keys`, in its order.
    pub signing_keys: &'a [SigningKey],
    /// The `SHA256SUMS` bytes.
    pub document: &'a [u8],
    /// The detached signature bytes.
    pub signature: &'a [u8],
    /// Terraform's trust roots (ignored by OpenTofu).
    pub trust_roots: &'a TrustRoots,
}

/// Who vouched for a `SHA256SUMS` document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedSums {
    /// Terraform's classification; `None` for OpenTofu, whose kind depends on the other
    /// checks too.
    pub kind: Option<AuthKind>,
    /// The verifying key's ID; `None` when OpenTofu did not require a signature.
    pub key_id: Option<String>,
}

/// The signature step of registry package authentication, on its own: a mirror checks it
/// once per `SHA256SUMS` before any archive is downloaded, and the per-package check
/// reuses it so both say the same thing.
pub fn verify_sums_signature(input: &SumsSignatureInput<'_>) -> Result<SignedSums, AuthError> {
    match input.flavor {
        Flavor::Terraform => {
            let found = find_signing_key(input.document, input.signature, input.signing_keys)
                .map_err(|e| AuthError(e.to_string()))?;
            let key = &input.signing_keys[found.index];
            let signer = classify_signer(input.document, input.signature, key, input.trust_roots)
                .map_err(|e| AuthError(e.to_string()))?;
            let kind = match signer {
                Signer::HashiCorp => AuthKind::SignedByHashiCorp,
                Signer::Partner => AuthKind::SignedByPartner,
                Signer::Community => AuthKind::SelfSigned,
            };
            Ok(SignedSums {
                kind: Some(kind),
                key_id: Some(found.key_id),
            })
        }
        Flavor::OpenTofu => {
            let required = signing_required(
                Flavor::OpenTofu,
                !input.signing_keys.is_empty(),
                input.provider_hostname,
                input.enforce_gpg_validation,
            );
            if !required {
                return Ok(SignedSums {
                    kind: None,
                    key_id: None,
                });
            }
            let found = find_signing_key(input.document, input.signature, input.signing_keys)
                .map_err(|e| {
                    AuthError(format!(
                        "the provider is not signed with a valid signing key; please contact the provider author ({e})"
                    ))
                })?;
            Ok(SignedSums {
                kind: None,
                key_id: Some(found.key_id),
            })
        }
    }
}

/// OpenTofu's `registryPackageAuthentication`: with `packages` present, the requested
/// platform must be listed with a positive size equal to the download's, its `zh:` must be
/// the registry `shasum`; then every platform's `h1:`/`zh:` is registry-reported.
fn check_packages(input: &RegistryAuthInput<'_>, result: &mut AuthResult) -> Result<(), AuthError> {
    let meta = input.meta;
    if meta.packages.is_empty() {
        return Ok(());
    }
    let Some(entry) = meta.packages.get(&meta.platform) else {
        return Err(AuthError(format!(
            "registry response missing package with platform {}",
            quote(&meta.platform)
        )));
    };
    if entry.package_size <= 0 {
        return Err(AuthError(format!(
            "registry response has invalid package size {}",
            entry.package_size
        )));
    }
    if u64::try_from(entry.package_size).ok() != Some(input.archive_size) {
        return Err(AuthError(format!(
            "registry response indicates a package of size {}, but received a package of size {}",
            entry.package_size, input.archive_size
        )));
    }
    let shasum = hex::encode(meta.sha256);
    let mut found = false;
    for h in &entry.hashes {
        if let Some(value) = h.strip_prefix("zh:") {
            if value != shasum {
                return Err(AuthError(format!(
                    "registry response expected sha256sum is {}, which does not match the platform's value of {}", quote(&shasum), quote(value)
                )));
            }
            found = true;
        }
    }
    if !found {
        return Err(AuthError(
            "registry response does not contain matching sha256sum package entry and is invalid"
                .to_string(),
        ));
    }
    for (platform, entry) in &meta.packages {
        for h in preferred_hashes(&entry.hashes) {
            result.add(HashRecord {
                hash: h,
                platform: Some(platform.clone()),
                reported_by_registry: true,
                ..HashRecord::default()
            });
        }
    }
    Ok(())
}

/// The RFC's extra step for `packages`: the `h1:` computed locally from the downloaded
/// package must be one of the registry's `h1:` hashes for the platform. A registry that
/// lists `h1:` hashes which do not match has lied, and nothing it reported may be recorded.
/// (Not an OpenTofu text: OpenTofu's source as read records the local `h1:` alongside.)
pub fn check_registry_h1(meta: &PackageMeta, local_h1: &str) -> Result<(), AuthError> {
    let Some(entry) = meta.packages.get(&meta.platform) else {
        return Ok(());
    };
    let listed: Vec<&String> = entry
        .hashes
        .iter()
        .filter(|h| h.starts_with("h1:"))
        .collect();
    if listed.is_empty() || listed.iter().any(|h| h.as_str() == local_h1) {
        return Ok(());
    }
    Err(AuthError(format!(
        "registry response lists h1 checksums for {} that do not match the downloaded package ({local_h1}); the registry's package hashes cannot be trusted",
        meta.platform
    )))
}

/// Hashes the host computed for a local package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocalHashes {
    /// `h1:` of the package contents.
    pub h1: Option<String>,
    /// `zh:` of the archive (only for archives; unpacked directories have none).
    pub zh: Option<String>,
}

/// `packageHashAuthentication` (network-mirror `hashes`, lock-file checks): the package must
/// match one of the `h1:`/`zh:` hashes given. `hashes` pairs each hash with its platform;
/// with OpenTofu `trust_all_hashes` the unmatched ones are recorded as trusted-mirror reports.
pub fn authenticate_by_hashes(
    flavor: Flavor,
    platform: &str,
    hashes: &[(String, String)],
    local: &LocalHashes,
    trust_all_hashes: bool,
) -> Result<AuthResult, AuthError> {
    let all: Vec<String> = hashes.iter().map(|(_, h)| h.clone()).collect();
    let required = preferred_hashes(&all);
    if required.is_empty() {
        return Err(AuthError(format!(
            "this version of {} does not support any of the checksum formats given for this provider",
            flavor.product()
        )));
    }
    let matches = |h: &str| {
        (h.starts_with("h1:") && local.h1.as_deref() == Some(h))
            || (h.starts_with("zh:") && local.zh.as_deref() == Some(h))
    };
    let mut result = AuthResult::unauthenticated();
    for h in &required {
        if matches(h) {
            result.add(HashRecord {
                hash: h.clone(),
                platform: Some(platform.to_string()),
                verified_locally: true,
                ..HashRecord::default()
            });
            if flavor == Flavor::Terraform {
                break; // Terraform stops at the first match
            }
        }
    }
    if result.hashes.is_empty() {
        return Err(AuthError(if required.len() == 1 {
            format!(
                "provider package doesn't match the expected checksum {}",
                quote(&required[0])
            )
        } else {
            "provider package doesn't match the any of the expected checksums".to_string()
        }));
    }
    if trust_all_hashes && flavor == Flavor::OpenTofu {
        for (p, h) in hashes {
            let known = result.hashes.iter().any(|r| &r.hash == h);
            if !known && (h.starts_with("h1:") || h.starts_with("zh:")) {
                result.add(HashRecord {
                    hash: h.clone(),
                    platform: Some(p.clone()),
                    reported_by_trusted_mirror: true,
                    ..HashRecord::default()
                });
            }
        }
    }
    result.kind = match flavor {
        Flavor::Terraform => AuthKind::VerifiedChecksum,
        Flavor::OpenTofu => result.tofu_kind(),
    };
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_authentication_texts() {
        let local = LocalHashes {
            h1: Some("h1:good".into()),
            zh: None,
        };
        let one = [("linux_amd64".to_string(), "h1:bad".to_string())];
        assert_eq!(
            authenticate_by_hashes(Flavor::Terraform, "linux_amd64", &one, &local, false)
                .unwrap_err()
                .0,
            "provider package doesn't match the expected checksum \"h1:bad\""
        );
        let two = [
            ("linux_amd64".to_string(), "h1:bad".to_string()),
            ("linux_amd64".to_string(), "zh:bad".to_string()),
        ];
        assert_eq!(
            authenticate_by_hashes(Flavor::Terraform, "linux_amd64", &two, &local, false)
                .unwrap_err()
                .0,
            "provider package doesn't match the any of the expected checksums"
        );
        let none = [("linux_amd64".to_string(), "x9:abc".to_string())];
        assert_eq!(
            authenticate_by_hashes(Flavor::OpenTofu, "linux_amd64", &none, &local, false)
                .unwrap_err()
                .0,
            "this version of OpenTofu does not support any of the checksum formats given for this provider"
        );
        let ok = authenticate_by_hashes(
            Flavor::Terraform,
            "linux_amd64",
            &[("linux_amd64".into(), "h1:good".into())],
            &local,
            false,
        )
        .unwrap();
        assert_eq!(ok.summary(), "verified checksum");
    }

    #[test]
    fn trusted_mirror_hashes_are_recorded_for_opentofu() {
        let local = LocalHashes {
            h1: Some("h1:mine".into()),
            zh: None,
        };
        let hashes = [
            ("linux_amd64".to_string(), "h1:mine".to_string()),
            ("darwin_arm64".to_string(), "h1:theirs".to_string()),
        ];
        let r =
            authenticate_by_hashes(Flavor::OpenTofu, "linux_amd64", &hashes, &local, true).unwrap();
        assert_eq!(r.kind, AuthKind::VerifiedChecksum);
        assert_eq!(r.hashes.len(), 2);
        assert!(r.hashes[1].reported_by_trusted_mirror);
        assert_eq!(r.vouched_hashes(false), vec!["h1:theirs"]);
    }
}
