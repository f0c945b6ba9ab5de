//! Detached OpenPGP signatures over `SHA256SUMS`, checked against a registry's
//! `signing_keys`, and the HashiCorp/partner trust chain Terraform applies on top.
//!
//! Uses the `pgp` crate, which verifies without consulting a clock: expired keys and
//! signatures are accepted, as Terraform does ("Expired keys are tolerated") and OpenTofu
//! does by default (it only warns).

use std::fmt;
use std::io::Read;

use pgp::composed::{Deserializable, DetachedSignature, SignedPublicKey};
use pgp::crypto::public_key::PublicKeyAlgorithm;
use pgp::types::KeyDetails;
use serde::{Deserialize, Serialize};

use super::hashicorp_keys::{HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY};

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
    DecodingKey(String),
    /// The signature names a listed key but does not verify (or cannot be read).
    Checking(String),
    /// No listed key issued the signature.
    UnknownIssuer,
    /// The HashiCorp trust-root key ring is unreadable.
    HashiCorpKeyring(String),
    /// The partners trust-root key ring is unreadable.
    PartnersKeyring(String),
    /// The `trust_signature` is not a readable armored signature.
    DecodingTrustSignature(String),
    /// The `trust_signature` does not verify with the partners key.
    VerifyingTrustSignature(String),
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

/// An armored (or binary) key ring: every transferable public key in it.
fn read_keyring(armored: &str) -> Result<Vec<SignedPublicKey>, String> {
    if !has_armor(armored) {
        return Err("openpgp: invalid argument: no armored data found".to_string());
    }
    let iter = SignedPublicKey::from_reader_many(armored.as_bytes())
        .map_err(|e| e.to_string())?
        .0;
    let mut keys = Vec::new();
    for key in iter {
        keys.push(key.map_err(|e| e.to_string())?);
    }
    if keys.is_empty() {
        return Err("openpgp: invalid argument: no armored data found".to_string());
    }
    Ok(keys)
}

/// A detached signature, binary (as registries serve `.sig` files) or armored.
fn read_signature(bytes: &[u8]) -> Result<DetachedSignature, String> {
    DetachedSignature::from_reader_single(bytes)
        .map(|(sig, _)| sig)
        .map_err(|e| format!("openpgp: invalid data: {e}"))
}

/// The outcome of checking one signature against one key ring (`CheckDetachedSignature`).
enum Check {
    /// Verified; the primary key ID of the entity holding the verifying (sub)key.
    Verified(String),
    /// No key in the ring matches the signature's issuer.
    UnknownIssuer,
    /// A matching key exists but the signature does not verify with it.
    Invalid(String),
}

fn check_detached(keyring: &[SignedPublicKey], data: &[u8], sig: &DetachedSignature) -> Check {
    let issuer_ids: Vec<[u8; 8]> = sig
        .signature
        .issuer_key_id()
        .into_iter()
        .filter_map(|id| <[u8; 8]>::try_from(id.as_ref()).ok())
        .collect();
    let issuer_fprs: Vec<Vec<u8>> = sig
        .signature
        .issuer_fingerprint()
        .into_iter()
        .map(|f| f.as_bytes().to_vec())
        .collect();
    let matches = |id: [u8; 8], fpr: &[u8]| {
        issuer_ids.contains(&id) || issuer_fprs.iter().any(|f| f.as_slice() == fpr)
    };
    let mut last_err = None;
    for entity in keyring {
        let primary_id = key_id_hex(entity.primary_key.legacy_key_id().as_ref());
        let pk = &entity.primary_key;
        if matches(
            key_id_bytes(pk.legacy_key_id().as_ref()),
            pk.fingerprint().as_bytes(),
        ) {
            match sig.verify(pk, data) {
                Ok(()) => return Check::Verified(primary_id),
                Err(e) => last_err = Some(go_verification_error(pk.algorithm(), &e.to_string())),
            }
        }
        for sub in &entity.public_subkeys {
            if matches(
                key_id_bytes(sub.legacy_key_id().as_ref()),
                sub.fingerprint().as_bytes(),
            ) {
                match sig.verify(sub, data) {
                    Ok(()) => return Check::Verified(primary_id.clone()),
                    Err(e) => {
                        last_err = Some(go_verification_error(sub.algorithm(), &e.to_string()))
                    }
                }
            }
        }
    }
    match last_err {
        Some(e) => Check::Invalid(e),
        None => Check::UnknownIssuer,
    }
}

/// Go's (ProtonMail go-crypto) text for a signature that does not verify. A wrong digest
/// shows up in `pgp` as a mismatch of the two quick-check bytes, which go-crypto does not
/// check for v4 signatures, so it reports the algorithm's verification failure instead.
fn go_verification_error(alg: PublicKeyAlgorithm, pgp_error: &str) -> String {
    let name = match alg {
        PublicKeyAlgorithm::RSA | PublicKeyAlgorithm::RSASign | PublicKeyAlgorithm::RSAEncrypt => {
            "RSA"
        }
        PublicKeyAlgorithm::DSA => "DSA",
        PublicKeyAlgorithm::ECDSA => "ECDSA",
        PublicKeyAlgorithm::EdDSALegacy => "EdDSA",
        PublicKeyAlgorithm::Ed25519 => "Ed25519",
        PublicKeyAlgorithm::Ed448 => "Ed448",
        _ => {
            let first = pgp_error.lines().next().unwrap_or(pgp_error);
            return format!("openpgp: invalid signature: {first}");
        }
    };
    format!("openpgp: invalid signature: {name} verification failure")
}

/// True if `s` holds an ASCII armor header; go-crypto's armor decoder finds nothing otherwise.
fn has_armor(s: &str) -> bool {
    s.contains("-----BEGIN PGP ")
}

fn key_id_bytes(b: &[u8]) -> [u8; 8] {
    <[u8; 8]>::try_from(b).unwrap_or_default()
}

/// 16 upper-case hex digits, as Go's `KeyIdString`.
fn key_id_hex(b: &[u8]) -> String {
    hex::encode_upper(b)
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
        let ring = read_keyring(&key.ascii_armor).map_err(SignatureError::DecodingKey)?;
        let sig = read_signature(signature).map_err(SignatureError::Checking)?;
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
    let hashicorp = read_keyring(&roots.hashicorp).map_err(SignatureError::HashiCorpKeyring)?;
    let sig = read_signature(signature).map_err(SignatureError::Checking)?;
    if let Check::Verified(_) = check_detached(&hashicorp, document, &sig) {
        return Ok(Signer::HashiCorp);
    }
    if key.trust_signature.is_empty() {
        return Ok(Signer::Community);
    }
    let partners = read_keyring(&roots.partners).map_err(SignatureError::PartnersKeyring)?;
    let author_key = dearmor(&key.ascii_armor).map_err(SignatureError::DecodingKey)?;
    // Terraform armor-decodes the trust signature; anything else ends at EOF.
    if !has_armor(&key.trust_signature) {
        return Err(SignatureError::DecodingTrustSignature("EOF".to_string()));
    }
    let trust = read_signature(key.trust_signature.as_bytes())
        .map_err(SignatureError::DecodingTrustSignature)?;
    match check_detached(&partners, &author_key, &trust) {
        Check::Verified(_) => Ok(Signer::Partner),
        Check::UnknownIssuer => Err(SignatureError::VerifyingTrustSignature(
            "openpgp: signature made by unknown entity".to_string(),
        )),
        Check::Invalid(e) => Err(SignatureError::VerifyingTrustSignature(e)),
    }
}

/// The binary body of an ASCII-armored block (what the partners key signed).
fn dearmor(armored: &str) -> Result<Vec<u8>, String> {
    let mut reader = pgp::armor::Dearmor::new(armored.as_bytes());
    let mut out = Vec::new();
    reader.read_to_end(&mut out).map_err(|e| e.to_string())?;
    if out.is_empty() {
        return Err("EOF".to_string());
    }
    Ok(out)
}

/// The primary key ID (16 upper-case hex digits) of the first key in an armored ring.
pub fn primary_key_id(armored: &str) -> Result<String, String> {
    let ring = read_keyring(armored)?;
    Ok(key_id_hex(ring[0].primary_key.legacy_key_id().as_ref()))
}

/// The primary key fingerprint (upper-case hex) of the first key in an armored ring.
pub fn primary_fingerprint(armored: &str) -> Result<String, String> {
    let ring = read_keyring(armored)?;
    Ok(hex::encode_upper(
        ring[0].primary_key.fingerprint().as_bytes(),
    ))
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
