//! Key rings: transferable public keys (RFC 4880 §11.1) read as go-crypto's
//! `ReadArmoredKeyRing` reads them, keeping what signature checking needs.

use super::armor::{dearmor, has_armor};
use super::key::PublicKey;
use super::packet::{
    read_packets, Packet, TAG_PUBLIC_KEY, TAG_PUBLIC_SUBKEY, TAG_SIGNATURE, TAG_USER_ID,
};
use super::sig::{Signature, KEY_FLAG_SIGN, SIG_SUBKEY_BINDING};
use super::verify::verify_binding;
use super::{invalid, PgpError};

/// One transferable public key: the primary key and its bound subkeys.
#[derive(Debug, Clone)]
pub struct Entity {
    /// The primary key.
    pub primary: PublicKey,
    /// Whether the primary key's self-signature allows signing (or sets no flags).
    pub primary_signs: bool,
    /// Subkeys with a valid binding signature, each with whether it may sign.
    pub subkeys: Vec<(PublicKey, bool)>,
}

fn no_armor() -> PgpError {
    PgpError::InvalidArgument("no armored data found".to_string())
}

/// Every entity in the first armored block of `text`.
pub fn read_armored_keyring(text: &str) -> Result<Vec<Entity>, PgpError> {
    if !has_armor(text) {
        return Err(no_armor());
    }
    let data = dearmor(text).map_err(|e| match e {
        PgpError::Eof => no_armor(),
        other => other,
    })?;
    let kind = block_type(text);
    if kind != "PGP PUBLIC KEY BLOCK" && kind != "PGP PRIVATE KEY BLOCK" {
        return Err(PgpError::InvalidArgument(format!(
            "expected public or private key block, got: {kind}"
        )));
    }
    let packets = read_packets(&data)?;
    let mut entities = Vec::new();
    let mut last_error = None;
    let mut groups = groups_by_key(&packets);
    if let Some(first) = groups.first() {
        if first.first().is_some_and(|p| p.tag != TAG_PUBLIC_KEY) {
            last_error = Some(invalid("first packet was not a public/private key"));
            groups.remove(0);
        }
    }
    for group in groups {
        match read_entity(group) {
            Ok(e) => entities.push(e),
            Err(e) => last_error = Some(e),
        }
    }
    if entities.is_empty() {
        return Err(last_error.unwrap_or_else(no_armor));
    }
    Ok(entities)
}

/// The type named on the first armor header line.
fn block_type(text: &str) -> &str {
    text.lines()
        .map(|l| l.trim_end())
        .find(|l| l.starts_with("-----BEGIN ") && l.ends_with("-----"))
        .map_or("", |l| &l["-----BEGIN ".len()..l.len() - 5])
}

/// The packets split so that each primary key starts a group (anything before the first
/// key forms a group of its own).
fn groups_by_key(packets: &[Packet]) -> Vec<&[Packet]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, p) in packets.iter().enumerate() {
        if p.tag == TAG_PUBLIC_KEY && i > start {
            out.push(&packets[start..i]);
            start = i;
        }
    }
    if start < packets.len() {
        out.push(&packets[start..]);
    }
    out
}

fn read_entity(group: &[Packet]) -> Result<Entity, PgpError> {
    let primary = PublicKey::parse(&group[0].body)?;
    let mut entity = Entity {
        primary_signs: true,
        primary,
        subkeys: Vec::new(),
    };
    let mut i = 1;
    let mut in_user_id = false;
    while i < group.len() {
        let p = &group[i];
        i += 1;
        match p.tag {
            TAG_USER_ID => in_user_id = true,
            TAG_SIGNATURE if in_user_id => {
                if let Ok(sig) = Signature::parse(&p.body) {
                    let own = sig.issuer == Some(entity.primary.key_id());
                    if own && (0x10..=0x13).contains(&sig.sig_type) {
                        if let Some(flags) = sig.key_flags {
                            entity.primary_signs = flags & KEY_FLAG_SIGN != 0;
                        }
                    }
                }
            }
            TAG_PUBLIC_SUBKEY => {
                in_user_id = false;
                let sigs: Vec<&Packet> = group[i..]
                    .iter()
                    .take_while(|q| q.tag == TAG_SIGNATURE)
                    .collect();
                i += sigs.len();
                if let Some(bound) = bind_subkey(&entity.primary, &p.body, &sigs)? {
                    entity.subkeys.push(bound);
                }
            }
            _ => in_user_id = in_user_id && p.tag != TAG_PUBLIC_KEY,
        }
    }
    Ok(entity)
}

/// The subkey and whether it may sign, if a binding signature verifies; subkeys of an
/// unsupported algorithm or without a valid binding are left out.
fn bind_subkey(
    primary: &PublicKey,
    body: &[u8],
    sigs: &[&Packet],
) -> Result<Option<(PublicKey, bool)>, PgpError> {
    let Ok(subkey) = PublicKey::parse(body) else {
        return Ok(None);
    };
    if sigs.is_empty() {
        return Err(invalid("subkey packet not followed by signature"));
    }
    for p in sigs {
        let Ok(sig) = Signature::parse(&p.body) else {
            continue;
        };
        if sig.sig_type != SIG_SUBKEY_BINDING {
            continue;
        }
        if verify_binding(primary, &subkey, &sig).is_ok() {
            let signs = sig.key_flags.is_none_or(|f| f & KEY_FLAG_SIGN != 0);
            return Ok(Some((subkey, signs)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hashicorp_keys::{HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY};

    fn summary(armored: &str) -> Vec<(String, bool)> {
        let ring = read_armored_keyring(armored).unwrap();
        assert_eq!(ring.len(), 1);
        let e = &ring[0];
        std::iter::once((hex::encode_upper(e.primary.key_id()), e.primary_signs))
            .chain(
                e.subkeys
                    .iter()
                    .map(|(k, s)| (hex::encode_upper(k.key_id()), *s)),
            )
            .collect()
    }

    /// Usage as `gpg --show-keys` reports it: HashiCorp's `[SC]` primary, `[E]` and two `[S]`
    /// subkeys (every binding and back-signature verifies); the partners key's `[E]` subkey.
    #[test]
    fn hashicorp_keys_read_with_their_subkeys_bound_and_flagged() {
        let own = |id: &str, signs| (id.to_string(), signs);
        assert_eq!(
            summary(HASHICORP_PUBLIC_KEY),
            [
                own("34365D9472D7468F", true),
                own("54422F612379BA9A", false),
                own("B0B441097685B676", true),
                own("C820C6D5CD27AB87", true),
            ]
        );
        assert_eq!(
            summary(HASHICORP_PARTNERS_KEY),
            [
                own("7D72D4268E4660FC", true),
                own("208E1FBF540EA92C", false)
            ]
        );
    }
}
