//! Public-key packets (RFC 4880 §5.5.2, v4): algorithm, key material, fingerprint, key ID.

use super::packet::Reader;
use super::sha1::Sha1;
use super::{invalid, unsupported, PgpError};

/// RSA (encrypt or sign), RSA sign-only, RSA encrypt-only.
pub const ALG_RSA: [u8; 3] = [1, 2, 3];
/// ECDSA.
pub const ALG_ECDSA: u8 = 19;
/// EdDSA with a curve OID (the "legacy" Ed25519 form).
pub const ALG_EDDSA_LEGACY: u8 = 22;
/// Ed25519 (RFC 9580).
pub const ALG_ED25519: u8 = 27;

/// DER-less OID of Ed25519 in EdDSA legacy keys (1.3.6.1.4.1.11591.15.1).
pub const OID_ED25519: &[u8] = &[0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01];
/// OID of NIST P-256 (1.2.840.10045.3.1.7).
pub const OID_P256: &[u8] = &[0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07];

/// The verifying part of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Material {
    /// RSA modulus and public exponent (big-endian, no leading zeros).
    Rsa {
        /// Modulus.
        n: Vec<u8>,
        /// Public exponent.
        e: Vec<u8>,
    },
    /// ECDSA: curve OID and SEC1 point.
    Ecdsa {
        /// Curve OID bytes.
        oid: Vec<u8>,
        /// SEC1-encoded point.
        point: Vec<u8>,
    },
    /// EdDSA legacy: curve OID and the prefixed point (0x40 || 32 bytes for Ed25519).
    EdDsaLegacy {
        /// Curve OID bytes.
        oid: Vec<u8>,
        /// The point MPI.
        point: Vec<u8>,
    },
    /// Ed25519 (algorithm 27).
    Ed25519([u8; 32]),
    /// Any other algorithm: readable, never verifies.
    Other,
}

/// A v4 public key or subkey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    /// The public-key algorithm ID.
    pub algorithm: u8,
    /// What verifies signatures.
    pub material: Material,
    /// The packet body (hashed into binding signatures).
    pub body: Vec<u8>,
    /// SHA-1 fingerprint.
    pub fingerprint: [u8; 20],
}

impl PublicKey {
    /// Parses a public-key or public-subkey packet body.
    pub fn parse(body: &[u8]) -> Result<PublicKey, PgpError> {
        let mut r = Reader::new(body);
        let version = r.u8()?;
        if version != 4 {
            return Err(unsupported(format!("public key version {version}")));
        }
        r.bytes(4)?; // creation time
        let algorithm = r.u8()?;
        let material = match algorithm {
            a if ALG_RSA.contains(&a) => Material::Rsa {
                n: r.mpi()?.to_vec(),
                e: r.mpi()?.to_vec(),
            },
            ALG_ECDSA => Material::Ecdsa {
                oid: r.short_field()?.to_vec(),
                point: r.mpi()?.to_vec(),
            },
            ALG_EDDSA_LEGACY => Material::EdDsaLegacy {
                oid: r.short_field()?.to_vec(),
                point: r.mpi()?.to_vec(),
            },
            ALG_ED25519 => {
                let k = r.bytes(32)?;
                let mut key = [0u8; 32];
                key.copy_from_slice(k);
                Material::Ed25519(key)
            }
            16..=18 | 25 | 26 | 28 => Material::Other,
            other => return Err(unsupported(format!("public key type: {other}"))),
        };
        if matches!(&material, Material::Rsa { e, .. } if e.len() > 3) {
            return Err(unsupported("large public exponent"));
        }
        if body.len() > usize::from(u16::MAX) {
            return Err(invalid("public key packet too long"));
        }
        let mut sha = Sha1::new();
        sha.update(&key_prefix(body));
        sha.update(body);
        Ok(PublicKey {
            algorithm,
            material,
            body: body.to_vec(),
            fingerprint: sha.finish(),
        })
    }

    /// The 64-bit key ID: the low 8 bytes of the fingerprint.
    pub fn key_id(&self) -> [u8; 8] {
        let mut id = [0u8; 8];
        id.copy_from_slice(&self.fingerprint[12..]);
        id
    }

    /// Whether this key's algorithm can make signatures.
    pub fn can_sign(&self) -> bool {
        !matches!(self.material, Material::Other) && self.algorithm != 3
    }
}

/// What precedes a key body when it is hashed: 0x99 and the two-byte length.
pub fn key_prefix(body: &[u8]) -> [u8; 3] {
    let len = (body.len() as u16).to_be_bytes();
    [0x99, len[0], len[1]]
}
