//! Signature packets (RFC 4880 §5.2, v3 and v4) and the subpackets verification needs.

use super::packet::Reader;
use super::{invalid, unsupported, PgpError};

/// Signature over a binary document.
pub const SIG_BINARY: u8 = 0x00;
/// Signature over a canonical-text document.
pub const SIG_TEXT: u8 = 0x01;
/// Subkey binding signature.
pub const SIG_SUBKEY_BINDING: u8 = 0x18;
/// Primary key binding (back-)signature, made by a signing subkey.
pub const SIG_PRIMARY_BINDING: u8 = 0x19;

/// Key flag: this key may sign data.
pub const KEY_FLAG_SIGN: u8 = 0x02;

/// A parsed signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// Packet version (3 or 4).
    pub version: u8,
    /// What was signed.
    pub sig_type: u8,
    /// Public-key algorithm.
    pub algorithm: u8,
    /// Hash algorithm ID.
    pub hash: u8,
    /// The bytes hashed after the data: v4 header and hashed subpackets, or v3's type and time.
    pub hashed: Vec<u8>,
    /// Issuer key ID (subpacket 16, or from an issuer fingerprint, or the v3 field).
    pub issuer: Option<[u8; 8]>,
    /// Issuer fingerprint (subpacket 33).
    pub issuer_fingerprint: Option<Vec<u8>>,
    /// Key flags (subpacket 27), when present.
    pub key_flags: Option<u8>,
    /// An embedded signature (subpacket 32): a signing subkey's back-signature.
    pub embedded: Option<Box<Signature>>,
    /// Algorithm-specific values: MPIs, or one 64-byte Ed25519 signature.
    pub values: Vec<Vec<u8>>,
}

impl Signature {
    /// Parses a signature packet body.
    pub fn parse(body: &[u8]) -> Result<Signature, PgpError> {
        let mut r = Reader::new(body);
        let version = r.u8()?;
        match version {
            3 => parse_v3(&mut r),
            4 => parse_v4(body, &mut r),
            v => Err(unsupported(format!("signature packet version {v}"))),
        }
    }
}

fn parse_v3(r: &mut Reader<'_>) -> Result<Signature, PgpError> {
    if r.u8()? != 5 {
        return Err(unsupported("invalid hashed material length"));
    }
    let hashed = r.bytes(5)?.to_vec();
    let mut issuer = [0u8; 8];
    issuer.copy_from_slice(r.bytes(8)?);
    let algorithm = r.u8()?;
    let hash = r.u8()?;
    check_hash(hash)?;
    r.bytes(2)?;
    Ok(Signature {
        version: 3,
        sig_type: hashed[0],
        algorithm,
        hash,
        hashed,
        issuer: Some(issuer),
        issuer_fingerprint: None,
        key_flags: None,
        embedded: None,
        values: values(r, algorithm)?,
    })
}

fn parse_v4(body: &[u8], r: &mut Reader<'_>) -> Result<Signature, PgpError> {
    let sig_type = r.u8()?;
    let algorithm = r.u8()?;
    let hash = r.u8()?;
    check_hash(hash)?;
    let hashed_len = usize::from(r.u16()?);
    let hashed_area = r.bytes(hashed_len)?;
    let mut sig = Signature {
        version: 4,
        sig_type,
        algorithm,
        hash,
        hashed: body[..6 + hashed_len].to_vec(),
        issuer: None,
        issuer_fingerprint: None,
        key_flags: None,
        embedded: None,
        values: Vec::new(),
    };
    subpackets(&mut sig, hashed_area, true)?;
    let unhashed_len = usize::from(r.u16()?);
    subpackets(&mut sig, r.bytes(unhashed_len)?, false)?;
    r.bytes(2)?; // left 16 bits of the hash: go-crypto does not check them for v4
    sig.values = values(r, algorithm)?;
    Ok(sig)
}

/// Hash algorithms go-crypto can verify with: SHA-1, SHA-256, SHA-384, SHA-512, SHA-224.
fn check_hash(id: u8) -> Result<(), PgpError> {
    match id {
        2 | 8..=11 => Ok(()),
        other => Err(unsupported(format!("hash function {other}"))),
    }
}

fn values(r: &mut Reader<'_>, algorithm: u8) -> Result<Vec<Vec<u8>>, PgpError> {
    Ok(match algorithm {
        1..=3 => vec![r.mpi()?.to_vec()],
        17 | 19 | 22 => vec![r.mpi()?.to_vec(), r.mpi()?.to_vec()],
        27 => vec![r.bytes(64)?.to_vec()],
        _ => vec![r.rest().to_vec()],
    })
}

/// Subpacket types go-crypto understands; any other marked critical is refused.
const KNOWN: &[u8] = &[
    2, 3, 4, 5, 7, 9, 11, 12, 16, 20, 21, 22, 23, 25, 26, 27, 28, 29, 30, 32, 33, 34, 35, 39,
];

fn subpackets(sig: &mut Signature, mut area: &[u8], hashed: bool) -> Result<(), PgpError> {
    while !area.is_empty() {
        let (len, rest) = subpacket_length(area)?;
        if len == 0 || rest.len() < len {
            return Err(invalid("subpacket length out of range"));
        }
        let (packet, rest) = rest.split_at(len);
        area = rest;
        let (kind, data) = (packet[0] & 0x7f, &packet[1..]);
        let critical = packet[0] & 0x80 != 0;
        if hashed && critical && !KNOWN.contains(&kind) {
            return Err(unsupported(format!(
                "unknown critical signature subpacket type {kind}"
            )));
        }
        match kind {
            16 if data.len() == 8 => {
                let mut id = [0u8; 8];
                id.copy_from_slice(data);
                sig.issuer = Some(id);
            }
            16 => return Err(invalid("issuer subpacket with bad length")),
            27 if hashed => sig.key_flags = data.first().copied().or(Some(0)),
            32 => sig.embedded = Some(Box::new(Signature::parse(data)?)),
            33 if data.len() > 1 => {
                let fpr = &data[1..];
                if sig.issuer.is_none() && fpr.len() >= 8 {
                    let mut id = [0u8; 8];
                    let at = if data[0] == 4 { fpr.len() - 8 } else { 0 };
                    id.copy_from_slice(&fpr[at..at + 8]);
                    sig.issuer = Some(id);
                }
                sig.issuer_fingerprint = Some(fpr.to_vec());
            }
            _ => {}
        }
    }
    Ok(())
}

fn subpacket_length(data: &[u8]) -> Result<(usize, &[u8]), PgpError> {
    let short = || invalid("subpacket truncated");
    let o1 = *data.first().ok_or_else(short)?;
    Ok(match o1 {
        0..=191 => (usize::from(o1), &data[1..]),
        192..=254 => {
            let o2 = *data.get(1).ok_or_else(short)?;
            (
                ((usize::from(o1) - 192) << 8) + usize::from(o2) + 192,
                &data[2..],
            )
        }
        255 => {
            let b = data.get(1..5).ok_or_else(short)?;
            (
                u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize,
                &data[5..],
            )
        }
    })
}
