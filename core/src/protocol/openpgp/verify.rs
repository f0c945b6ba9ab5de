//! Hashing what a signature covers and checking it with the key's algorithm.

use super::key::{key_prefix, Material, PublicKey, OID_ED25519, OID_P256};
use super::keyring::Entity;
use super::sha1::Sha1;
use super::sha512::Sha512;
use super::sig::{Signature, KEY_FLAG_SIGN, SIG_BINARY, SIG_PRIMARY_BINDING, SIG_TEXT};
use super::{invalid, unsupported, PgpError};
use sha2::{Digest, Sha224, Sha256};

/// The outcome of checking one signature against one key ring (`CheckDetachedSignature`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// Verified; the primary key ID (16 upper-case hex digits) of the entity holding the key.
    Verified(String),
    /// No key in the ring matches the signature's issuer.
    UnknownIssuer,
    /// A matching key exists but the signature does not verify with it.
    Invalid(PgpError),
}

/// Checks a detached signature over `data` against every signing key of `keyring` whose
/// key ID is the signature's issuer.
pub fn check_detached(keyring: &[Entity], data: &[u8], sig: &Signature) -> Check {
    let Some(issuer) = sig.issuer else {
        return Check::UnknownIssuer;
    };
    let mut last_err = None;
    for entity in keyring {
        let primary = std::iter::once((&entity.primary, entity.primary_signs));
        let subkeys = entity.subkeys.iter().map(|(k, signs)| (k, *signs));
        for (key, signs) in primary.chain(subkeys) {
            if key.key_id() != issuer || !signs {
                continue;
            }
            match verify_document(key, sig, data) {
                Ok(()) => return Check::Verified(hex::encode_upper(entity.primary.key_id())),
                Err(e) => last_err = Some(e),
            }
        }
    }
    match last_err {
        Some(e) => Check::Invalid(e),
        None => Check::UnknownIssuer,
    }
}

/// Verifies a binary or text signature over `data`.
fn verify_document(key: &PublicKey, sig: &Signature, data: &[u8]) -> Result<(), PgpError> {
    let canonical;
    let data = match sig.sig_type {
        SIG_BINARY => data,
        SIG_TEXT => {
            canonical = canonical_text(data);
            &canonical
        }
        other => return Err(unsupported(format!("signature type {other:#04x}"))),
    };
    verify(key, sig, &[data])
}

/// Verifies a subkey binding signature by `primary` over `subkey`, and the subkey's
/// back-signature when the binding lets it sign (go-crypto's `VerifyKeySignature`).
pub fn verify_binding(
    primary: &PublicKey,
    subkey: &PublicKey,
    sig: &Signature,
) -> Result<(), PgpError> {
    let keys = [
        &key_prefix(&primary.body)[..],
        &primary.body,
        &key_prefix(&subkey.body)[..],
        &subkey.body,
    ];
    verify(primary, sig, &keys)?;
    if sig.key_flags.is_some_and(|f| f & KEY_FLAG_SIGN != 0) {
        let back = sig
            .embedded
            .as_deref()
            .filter(|b| b.sig_type == SIG_PRIMARY_BINDING)
            .ok_or_else(|| invalid("signing subkey is missing cross-signature"))?;
        verify(subkey, back, &keys)?;
    }
    Ok(())
}

/// Hashes `parts` and the signature's trailer, then checks the signature values.
fn verify(key: &PublicKey, sig: &Signature, parts: &[&[u8]]) -> Result<(), PgpError> {
    if key.algorithm != sig.algorithm {
        return Err(PgpError::InvalidArgument(
            "public key and signature use different algorithms".to_string(),
        ));
    }
    let mut trailer = sig.hashed.clone();
    if sig.version == 4 {
        trailer.extend_from_slice(&[4, 0xFF]);
        trailer.extend_from_slice(&(sig.hashed.len() as u32).to_be_bytes());
    }
    let digest = match sig.hash {
        2 => {
            let mut h = Sha1::new();
            parts.iter().for_each(|p| h.update(p));
            h.update(&trailer);
            h.finish().to_vec()
        }
        8 => digest::<Sha256>(parts, &trailer),
        9 => sha512(Sha512::new384(), parts, &trailer),
        10 => sha512(Sha512::new(), parts, &trailer),
        11 => digest::<Sha224>(parts, &trailer),
        other => return Err(unsupported(format!("hash function {other}"))),
    };
    match &key.material {
        Material::Rsa { n, e } => rsa_pkcs1v15(n, e, sig, &digest),
        Material::EdDsaLegacy { oid, point } => {
            if oid != OID_ED25519 {
                return Err(unsupported("unsupported EdDSA curve"));
            }
            let key = point
                .strip_prefix(&[0x40])
                .ok_or_else(|| invalid("EdDSA point without the 0x40 prefix"))?;
            let sig64 = [pad(&sig.values[0], 32), pad(value(sig, 1), 32)].concat();
            ed25519(key, &sig64, &digest).map_err(|()| failure("EdDSA"))
        }
        Material::Ed25519(key) => {
            ed25519(key, &sig.values[0], &digest).map_err(|()| failure("Ed25519"))
        }
        Material::Ecdsa { oid, point } => {
            if oid != OID_P256 {
                return Err(unsupported("unsupported ECDSA curve"));
            }
            p256_ecdsa(point, &sig.values[0], value(sig, 1), &digest).map_err(|()| failure("ECDSA"))
        }
        Material::Other => Err(unsupported(format!(
            "public key algorithm {}",
            key.algorithm
        ))),
    }
}

fn value(sig: &Signature, i: usize) -> &[u8] {
    sig.values.get(i).map_or(&[], Vec::as_slice)
}

fn digest<D: Digest>(parts: &[&[u8]], trailer: &[u8]) -> Vec<u8> {
    let mut h = D::new();
    for p in parts {
        h.update(p);
    }
    h.update(trailer);
    h.finalize().to_vec()
}

fn sha512(mut h: Sha512, parts: &[&[u8]], trailer: &[u8]) -> Vec<u8> {
    for p in parts {
        h.update(p);
    }
    h.update(trailer);
    h.finish()
}

fn failure(algorithm: &str) -> PgpError {
    PgpError::BadSignature(format!("{algorithm} verification failure"))
}

/// `bytes` left-padded with zeros to `len` (longer input is returned as is and fails).
fn pad(bytes: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len.saturating_sub(bytes.len())];
    out.extend_from_slice(bytes);
    out
}

/// DER `DigestInfo` prefixes of PKCS #1 v1.5 signatures, by OpenPGP hash ID.
fn digest_info(hash: u8) -> &'static [u8] {
    match hash {
        2 => &[
            0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
            0x14,
        ],
        8 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x01, 0x05, 0x00, 0x04, 0x20,
        ],
        9 => &[
            0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x02, 0x05, 0x00, 0x04, 0x30,
        ],
        10 => &[
            0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x03, 0x05, 0x00, 0x04, 0x40,
        ],
        _ => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x04, 0x05, 0x00, 0x04, 0x1c,
        ],
    }
}

/// PKCS #1 v1.5 verification (RFC 8017 §8.2.2) of `s^e mod n` against the expected encoding,
/// with the signature left-padded to the modulus size as go-crypto pads it.
fn rsa_pkcs1v15(n: &[u8], e: &[u8], sig: &Signature, digest: &[u8]) -> Result<(), PgpError> {
    // go-crypto refuses moduli past 8192 bits; so do we, which also bounds the work.
    const MAX: usize = 8192 / 8;
    let n = strip_leading_zeros(n);
    let s = &sig.values[0];
    let k = n.len();
    let prefix = digest_info(sig.hash);
    if k > MAX || s.len() > k || e.is_empty() || e.len() > 8 || k < prefix.len() + digest.len() + 11
    {
        return Err(failure("RSA"));
    }
    let m = super::rsa::mod_pow(s, e, n).ok_or_else(|| failure("RSA"))?;
    let mut expected = vec![0x00, 0x01];
    expected.resize(k - prefix.len() - digest.len() - 1, 0xFF);
    expected.push(0x00);
    expected.extend_from_slice(prefix);
    expected.extend_from_slice(digest);
    if m == expected {
        Ok(())
    } else {
        Err(failure("RSA"))
    }
}

fn strip_leading_zeros(bytes: &[u8]) -> &[u8] {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    &bytes[first..]
}

/// RFC 8032 verification as ed25519-dalek's `verify` does it (the cofactorless equation
/// [s]B = R + [k]A, `s` canonical, `A` a valid point), on curve25519-dalek directly so the
/// challenge hash is the core's SHA-512 rather than `sha2`'s unrolled one.
fn ed25519(key: &[u8], sig: &[u8], digest: &[u8]) -> Result<(), ()> {
    use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
    use curve25519_dalek::scalar::Scalar;
    let key: [u8; 32] = key.try_into().map_err(|_| ())?;
    let sig: [u8; 64] = sig.try_into().map_err(|_| ())?;
    let point = CompressedEdwardsY(key).decompress().ok_or(())?;
    let (r, s) = sig.split_at(32);
    let s: [u8; 32] = s.try_into().map_err(|_| ())?;
    let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(s)).ok_or(())?;
    let mut h = Sha512::new();
    h.update(r);
    h.update(&key);
    h.update(digest);
    let wide: [u8; 64] = h.finish().try_into().map_err(|_| ())?;
    let k = Scalar::from_bytes_mod_order_wide(&wide);
    let expected = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &-point, &s).compress();
    if expected.as_bytes() == r {
        Ok(())
    } else {
        Err(())
    }
}

fn p256_ecdsa(point: &[u8], r: &[u8], s: &[u8], digest: &[u8]) -> Result<(), ()> {
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    if r.len() > 32 || s.len() > 32 {
        return Err(());
    }
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(point).map_err(|_| ())?;
    let r = p256::FieldBytes::clone_from_slice(&pad(r, 32));
    let s = p256::FieldBytes::clone_from_slice(&pad(s, 32));
    let sig = p256::ecdsa::Signature::from_scalars(r, s).map_err(|_| ())?;
    key.verify_prehash(digest, &sig).map_err(|_| ())
}

/// go-crypto's canonical text: a `\n` not preceded by `\r` becomes `\r\n`; the byte after
/// a `\r` is passed through unexamined.
fn canonical_text(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 32);
    let mut after_cr = false;
    for &c in data {
        if after_cr {
            after_cr = false;
        } else if c == b'\r' {
            after_cr = true;
        } else if c == b'\n' {
            out.push(b'\r');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::canonical_text;

    #[test]
    fn canonical_text_adds_carriage_returns_like_go_crypto() {
        assert_eq!(canonical_text(b"a\nb\r\nc\r\r\n"), b"a\r\nb\r\nc\r\r\r\n");
    }

    /// ed25519-dalek's `verify`, which the core called before it had its own.
    fn dalek(key: &[u8], sig: &[u8], msg: &[u8]) -> bool {
        use ed25519_dalek::Verifier;
        let (Ok(key), Ok(sig)) = (<[u8; 32]>::try_from(key), <[u8; 64]>::try_from(sig)) else {
            return false;
        };
        let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&key) else {
            return false;
        };
        key.verify(msg, &ed25519_dalek::Signature::from_bytes(&sig))
            .is_ok()
    }

    #[test]
    fn ed25519_accepts_and_rejects_what_ed25519_dalek_does() {
        use ed25519_dalek::Signer;
        // The group order: s = order + small is non-canonical and must be refused.
        const ORDER: [u8; 32] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
            0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ];
        let mut cases = 0;
        for seed in 0..24u8 {
            let signer = ed25519_dalek::SigningKey::from_bytes(&[seed.wrapping_mul(37); 32]);
            let key = signer.verifying_key().to_bytes();
            let msg: Vec<u8> = (0..seed as usize * 5).map(|i| i as u8 ^ seed).collect();
            let sig = signer.sign(&msg).to_bytes();
            let mut variants = vec![(key.to_vec(), sig.to_vec(), msg.clone())];
            for at in [0, 31, 32, 63] {
                let mut bad = sig;
                bad[at] ^= 1 << (seed % 8);
                variants.push((key.to_vec(), bad.to_vec(), msg.clone()));
            }
            let mut bad_key = key;
            bad_key[seed as usize % 32] ^= 0x40;
            variants.push((bad_key.to_vec(), sig.to_vec(), msg.clone()));
            let mut other_msg = msg.clone();
            other_msg.push(seed);
            variants.push((key.to_vec(), sig.to_vec(), other_msg));
            let mut high_s = sig;
            high_s[32..].copy_from_slice(&ORDER);
            variants.push((key.to_vec(), high_s.to_vec(), msg.clone()));
            variants.push((key[..31].to_vec(), sig.to_vec(), msg.clone()));
            for (k, s, m) in variants {
                assert_eq!(
                    super::ed25519(&k, &s, &m).is_ok(),
                    dalek(&k, &s, &m),
                    "seed {seed}"
                );
                cases += 1;
            }
            assert!(super::ed25519(&key, &sig, &msg).is_ok());
        }
        assert_eq!(cases, 24 * 9);
    }
}
