//! Each `SHA256SUMS` signature of a run is verified once, however many platforms' packages
//! it covers: every package of a release carries the same document, signature and keys.

use crate::collections::SortedMap;
use crate::protocol::auth::{verify_sums_signature, AuthError, SignedSums, SumsSignatureInput};
use sha2::{Digest, Sha256};

/// Signature verdicts of this run, keyed by what they were computed from.
#[derive(Debug, Default)]
pub(super) struct SignatureMemo {
    verdicts: SortedMap<[u8; 32], Result<SignedSums, AuthError>>,
    verified: usize,
}

impl SignatureMemo {
    /// [`verify_sums_signature`], computed once per distinct input. The flavor, the
    /// enforcement switch and the trust roots are the run's own, so they are left out of
    /// the key; the hostname, the keys, the document and the signature make it.
    pub fn verify(&mut self, input: &SumsSignatureInput<'_>) -> Result<SignedSums, AuthError> {
        let key = key(input);
        if let Some(verdict) = self.verdicts.get(&key) {
            return verdict.clone();
        }
        self.verified += 1;
        let verdict = verify_sums_signature(input);
        self.verdicts.insert(key, verdict.clone());
        verdict
    }

    /// How many signatures were really verified (not answered from memory).
    #[cfg(test)]
    pub fn verified(&self) -> usize {
        self.verified
    }
}

fn key(input: &SumsSignatureInput<'_>) -> [u8; 32] {
    let mut h = Sha256::new();
    // Length prefixes keep the concatenation unambiguous.
    let mut part = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(input.provider_hostname.as_bytes());
    // Key IDs are informational (Terraform ignores them), so they are left out.
    for k in input.signing_keys {
        part(k.ascii_armor.as_bytes());
        part(k.trust_signature.as_bytes());
    }
    part(input.document);
    part(input.signature);
    h.finalize().into()
}
