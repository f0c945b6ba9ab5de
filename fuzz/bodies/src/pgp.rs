//! OpenPGP: ASCII armor and key rings (text), packets, keys and signatures (binary).

use std::sync::OnceLock;
use tflock_core::protocol::hashicorp_keys::HASHICORP_PUBLIC_KEY;
use tflock_core::protocol::openpgp::{
    check_detached, dearmor, has_armor, read_armored_keyring, read_signature, Entity, PublicKey,
    Signature,
};

/// The data every fuzzed signature is checked over (what a registry signs: its `SHA256SUMS`).
const SIGNED: &[u8] = b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  terraform-provider-null_2.1.0_linux_amd64.zip\n";

/// HashiCorp's key ring, parsed once: the ring real signatures are checked against.
fn hashicorp_ring() -> &'static [Entity] {
    static RING: OnceLock<Vec<Entity>> = OnceLock::new();
    RING.get_or_init(|| {
        read_armored_keyring(HASHICORP_PUBLIC_KEY).expect("the embedded key parses")
    })
}

/// Armored text: dearmoring, key rings (each key checked against a fuzzed signature is
/// left to `openpgp_packets`), and a signature from the same text.
pub fn openpgp_armor(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = has_armor(text);
    let _ = dearmor(text);
    if let Ok(ring) = read_armored_keyring(text) {
        for e in &ring {
            let _ = e.primary.key_id();
            let _ = e.primary.can_sign();
        }
        if let Ok(sig) = read_signature(data) {
            let _ = check_detached(&ring, SIGNED, &sig);
        }
    }
}

/// Binary input: packet framing (through `read_signature`, which splits packets), key and
/// signature bodies, then a detached check of any signature against HashiCorp's ring.
pub fn openpgp_packets(data: &[u8]) {
    let _ = PublicKey::parse(data);
    let _ = Signature::parse(data);
    if let Ok(sig) = read_signature(data) {
        let _ = check_detached(hashicorp_ring(), SIGNED, &sig);
    }
}
