//! Detached OpenPGP signatures over `SHA256SUMS`, checked against a registry's
//! `signing_keys`, and the HashiCorp/partner trust chain Terraform applies on top.
//!
//! Uses the core's own verification-only OpenPGP (`super::openpgp`), which consults no
//! clock: expired keys and signatures are accepted, as Terraform does ("Expired keys are
//! tolerated") and OpenTofu does by default (it only warns).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::hashicorp_keys::{HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY};
use super::openpgp::{
    self, check_detached, dearmor, has_armor, read_armored_keyring, Check, PgpError,
};

/// One entry of a registry's `signing_keys.gpg_public_keys`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigningKey {
    /// The key ID the registry claims (informational; Terraform ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// The ASCII-armored public key (one or more keys).
    #[serde(default)]
    pub ascii_armor: String,
    /// An ASCII-armored detached signature by the HashiCorp Partners key over the
    /// de-armored bytes of `ascii_armor` (partner providers only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub trust_signature: String,
    /// Who owns the key (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Where the key is documented (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
}

/// The keys that decide "signed by HashiCorp" and "signed by a HashiCorp partner".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustRoots {
    /// Armored HashiCorp key(s); a SHA256SUMS signature verified by these is official.
    pub hashicorp: String,
    /// Armored HashiCorp Partners key(s), which make `trust_signature`s.
    pub partners: String,
}

impl TrustRoots {
    /// The real HashiCorp keys Terraform ships.
    pub fn hashicorp() -> TrustRoots {
        TrustRoots {
            hashicorp: HASHICORP_PUBLIC_KEY.to_string(),
            partners: HASHICORP_PARTNERS_KEY.to_string(),
        }
    }
}

impl Default for TrustRoots {
    fn default() -> Self {
        TrustRoots::hashicorp()
    }
}

/// A signature check failure, worded as Terraform words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    /// A `signing_keys` entry is not a readable armored key ring.
    DecodingKey(PgpError),
    /// The signature names a listed key but does not verify (or cannot be read).
    Checking(PgpError),
    /// No listed key issued the signature.
    UnknownIssuer,
    /// The HashiCorp trust-root key ring is unreadable.
    HashiCorpKeyring(PgpError),
    /// The partners trust-root key ring is unreadable.
    PartnersKeyring(PgpError),
    /// The `trust_signature` is not a readable armored signature.
    DecodingTrustSignature(PgpError),
    /// The `trust_signature` does not verify with the partners key.
    VerifyingTrustSignature(PgpError),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::DecodingKey(e) => write!(f, "error decoding signing key: {e}"),
            SignatureError::Checking(e) => write!(f, "error checking signature: {e}"),
            SignatureError::UnknownIssuer => {
                write!(f, "authentication signature from unknown issuer")
            }
            SignatureError::HashiCorpKeyring(e) => {
                write!(f, "error creating HashiCorp keyring: {e}")
            }
            SignatureError::PartnersKeyring(e) => {
                write!(f, "error creating HashiCorp Partners keyring: {e}")
            }
            SignatureError::DecodingTrustSignature(e) => {
                write!(f, "error decoding trust signature: {e}")
            }
            SignatureError::VerifyingTrustSignature(e) => {
                write!(f, "error verifying trust signature: {e}")
            }
        }
    }
}

impl std::error::Error for SignatureError {}

/// Which listed key verified the signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundKey {
    /// Index into the `signing_keys` list.
    pub index: usize,
    /// The verifying key's primary key ID: 16 upper-case hex digits (`KeyIdString`).
    pub key_id: String,
}

/// Who stands behind a verified signature (Terraform's three outcomes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Signer {
    /// The HashiCorp key verifies the document signature.
    HashiCorp,
    /// The signing key carries a valid trust signature from the HashiCorp Partners key.
    Partner,
    /// Any other key the registry listed.
    Community,
}

/// `findSigningKey`: the first listed key whose ring verifies `signature` over `document`.
/// A key that is not the issuer is skipped; an unreadable key or a failed verification by
/// the issuer is terminal, as in Terraform.
pub fn find_signing_key(
    document: &[u8],
    signature: &[u8],
    keys: &[SigningKey],
) -> Result<FoundKey, SignatureError> {
    for (index, key) in keys.iter().enumerate() {
        let ring = read_armored_keyring(&key.ascii_armor).map_err(SignatureError::DecodingKey)?;
        let sig = openpgp::read_signature(signature).map_err(SignatureError::Checking)?;
        match check_detached(&ring, document, &sig) {
            Check::Verified(key_id) => return Ok(FoundKey { index, key_id }),
            Check::UnknownIssuer => continue,
            Check::Invalid(e) => return Err(SignatureError::Checking(e)),
        }
    }
    Err(SignatureError::UnknownIssuer)
}

/// Terraform's classification of a signature already verified by `key`: HashiCorp if the
/// HashiCorp ring verifies the same signature; else partner if `key` has a trust signature
/// (which must then verify, or the whole authentication fails); else community.
pub fn classify_signer(
    document: &[u8],
    signature: &[u8],
    key: &SigningKey,
    roots: &TrustRoots,
) -> Result<Signer, SignatureError> {
    let hashicorp =
        read_armored_keyring(&roots.hashicorp).map_err(SignatureError::HashiCorpKeyring)?;
    let sig = openpgp::read_signature(signature).map_err(SignatureError::Checking)?;
    if let Check::Verified(_) = check_detached(&hashicorp, document, &sig) {
        return Ok(Signer::HashiCorp);
    }
    if key.trust_signature.is_empty() {
        return Ok(Signer::Community);
    }
    let partners =
        read_armored_keyring(&roots.partners).map_err(SignatureError::PartnersKeyring)?;
    let author_key = dearmor(&key.ascii_armor).map_err(SignatureError::DecodingKey)?;
    if author_key.is_empty() {
        return Err(SignatureError::DecodingKey(PgpError::Eof));
    }
    // Terraform armor-decodes the trust signature; anything else ends at EOF.
    if !has_armor(&key.trust_signature) {
        return Err(SignatureError::DecodingTrustSignature(PgpError::Eof));
    }
    let trust = openpgp::read_signature(key.trust_signature.as_bytes())
        .map_err(SignatureError::DecodingTrustSignature)?;
    match check_detached(&partners, &author_key, &trust) {
        Check::Verified(_) => Ok(Signer::Partner),
        Check::UnknownIssuer => Err(SignatureError::VerifyingTrustSignature(
            PgpError::UnknownIssuer,
        )),
        Check::Invalid(e) => Err(SignatureError::VerifyingTrustSignature(e)),
    }
}

/// The primary key ID (16 upper-case hex digits) of the first key in an armored ring.
pub fn primary_key_id(armored: &str) -> Result<String, PgpError> {
    let ring = read_armored_keyring(armored)?;
    Ok(hex::encode_upper(ring[0].primary.key_id()))
}

/// The primary key fingerprint (upper-case hex) of the first key in an armored ring.
pub fn primary_fingerprint(armored: &str) -> Result<String, PgpError> {
    let ring = read_armored_keyring(armored)?;
    Ok(hex::encode_upper(ring[0].primary.fingerprint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashicorp_key_constants_have_the_published_fingerprints() {
        assert_eq!(
            primary_fingerprint(HASHICORP_PUBLIC_KEY).unwrap(),
            "C874011F0AB405110D02105534365D9472D7468F"
        );
        assert_eq!(
            primary_key_id(HASHICORP_PUBLIC_KEY).unwrap(),
            "34365D9472D7468F"
        );
        // Fingerprint as printed by `gpg --show-keys` for the same block.
        assert_eq!(
            primary_fingerprint(HASHICORP_PARTNERS_KEY).unwrap(),
            "51890657C5ACDB4B823086567D72D4268E4660FC"
        );
    }

    #[test]
    fn no_keys_means_unknown_issuer() {
        assert_eq!(
            find_signing_key(b"doc", b"sig", &[]),
            Err(SignatureError::UnknownIssuer)
        );
        assert_eq!(
            SignatureError::UnknownIssuer.to_string(),
            "authentication signature from unknown issuer"
        );
    }

    #[test]
    fn garbage_key_is_a_decoding_error() {
        let keys = [SigningKey {
            ascii_armor: "not a key".into(),
            ..Default::default()
        }];
        let err = find_signing_key(b"doc", b"sig", &keys).unwrap_err();
        assert_eq!(
            err.to_string(),
            "error decoding signing key: openpgp: invalid argument: no armored data found"
        );
    }
}
