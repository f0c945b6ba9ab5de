//! Check a signed `SHA256SUMS`: parse it, find the key that signed it, say who the signer is.

/// Find the key behind a signature and classify its signer.
pub use crate::protocol::signature::{classify_signer, find_signing_key, Signer};
/// A parsed `SHA256SUMS`, a signing key, the keys trusted for a registry.
pub use crate::protocol::{Sha256Sums, SigningKey, TrustRoots};
