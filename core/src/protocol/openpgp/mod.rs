//! Verification-only OpenPGP (RFC 4880 / RFC 9580 v4 packets): what checking a detached
//! signature over `SHA256SUMS` against registry keys needs, and nothing else.
//!
//! Texts and rules follow ProtonMail's go-crypto `openpgp`, which Terraform and OpenTofu
//! call (`ReadArmoredKeyRing`, `CheckDetachedSignature`): key rings are read from the first
//! armor block, subkeys count only with a valid binding signature (and, for signing
//! subkeys, a valid back-signature), the issuer key ID picks the keys to try, and no clock
//! is consulted (expired keys and signatures verify, as Terraform tolerates them).
//! Supported public-key algorithms: RSA, EdDSA (legacy Ed25519), Ed25519 and ECDSA P-256.

mod armor;
mod error;
mod key;
mod keyring;
mod packet;
mod rsa;
mod sha1;
mod sha512;
mod sig;
mod verify;

pub use armor::{dearmor, has_armor};
pub use error::PgpError;
pub use key::PublicKey;
pub use keyring::{read_armored_keyring, Entity};
pub use sig::Signature;
pub use verify::{check_detached, Check};

use error::{invalid, unsupported};

/// Reads a detached signature: binary, as registries serve `.sig` files, or armored.
pub fn read_signature(bytes: &[u8]) -> Result<Signature, PgpError> {
    let owned;
    let binary = match std::str::from_utf8(bytes) {
        Ok(text) if has_armor(text) => {
            owned = dearmor(text)?;
            owned.as_slice()
        }
        _ => bytes,
    };
    for p in packet::read_packets(binary)? {
        if p.tag == packet::TAG_SIGNATURE {
            return Signature::parse(&p.body);
        }
    }
    Err(invalid("no signature packet found"))
}
