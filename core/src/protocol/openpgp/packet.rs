//! OpenPGP packet framing (RFC 4880 §4.2): old and new headers, partial body lengths.

use super::{invalid, PgpError};

/// Signature packet tag.
pub const TAG_SIGNATURE: u8 = 2;
/// Public-key packet tag.
pub const TAG_PUBLIC_KEY: u8 = 6;
/// User ID packet tag.
pub const TAG_USER_ID: u8 = 13;
/// Public-subkey packet tag.
pub const TAG_PUBLIC_SUBKEY: u8 = 14;

/// One packet: its tag and body.
pub struct Packet {
    /// The packet type.
    pub tag: u8,
    /// The body, partial chunks joined.
    pub body: Vec<u8>,
}

/// Splits `data` into packets.
pub fn read_packets(mut data: &[u8]) -> Result<Vec<Packet>, PgpError> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let (p, rest) = read_packet(data)?;
        out.push(p);
        data = rest;
    }
    Ok(out)
}

fn eof() -> PgpError {
    PgpError::UnexpectedEof
}

fn take(data: &[u8], n: usize) -> Result<(&[u8], &[u8]), PgpError> {
    if data.len() < n {
        return Err(eof());
    }
    Ok(data.split_at(n))
}

fn read_packet(data: &[u8]) -> Result<(Packet, &[u8]), PgpError> {
    let first = data[0];
    if first & 0x80 == 0 {
        return Err(invalid("tag byte does not have MSB set"));
    }
    let data = &data[1..];
    if first & 0x40 == 0 {
        let tag = (first >> 2) & 0x0f;
        let (len, data) = match first & 3 {
            0 => (usize::from(*data.first().ok_or_else(eof)?), &data[1..]),
            1 => {
                let (b, rest) = take(data, 2)?;
                (usize::from(u16::from_be_bytes([b[0], b[1]])), rest)
            }
            2 => {
                let (b, rest) = take(data, 4)?;
                (u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize, rest)
            }
            _ => (data.len(), data),
        };
        let (body, rest) = take(data, len)?;
        return Ok((
            Packet {
                tag,
                body: body.to_vec(),
            },
            rest,
        ));
    }
    let tag = first & 0x3f;
    let mut body = Vec::new();
    let mut data = data;
    loop {
        let (len, partial, after) = new_length(data)?;
        let (chunk, rest) = take(after, len)?;
        body.extend_from_slice(chunk);
        data = rest;
        if !partial {
            return Ok((Packet { tag, body }, data));
        }
    }
}

/// A new-format length: (length, is a partial chunk, the bytes after the length).
fn new_length(data: &[u8]) -> Result<(usize, bool, &[u8]), PgpError> {
    let o1 = *data.first().ok_or_else(eof)?;
    Ok(match o1 {
        0..=191 => (usize::from(o1), false, &data[1..]),
        192..=223 => {
            let o2 = *data.get(1).ok_or_else(eof)?;
            (
                ((usize::from(o1) - 192) << 8) + usize::from(o2) + 192,
                false,
                &data[2..],
            )
        }
        224..=254 => (1usize << (o1 & 0x1f), true, &data[1..]),
        255 => {
            let (b, rest) = take(&data[1..], 4)?;
            (
                u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize,
                false,
                rest,
            )
        }
    })
}

/// A cursor over a packet body.
pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads `data` from the start.
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data }
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], PgpError> {
        let (b, rest) = take(self.data, n)?;
        self.data = rest;
        Ok(b)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, PgpError> {
        Ok(self.bytes(1)?[0])
    }

    /// A big-endian 16-bit number.
    pub fn u16(&mut self) -> Result<u16, PgpError> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    /// A multiprecision integer's bytes (RFC 4880 §3.2), leading zero bytes dropped.
    pub fn mpi(&mut self) -> Result<&'a [u8], PgpError> {
        let bits = usize::from(self.u16()?);
        let b = self.bytes(bits.div_ceil(8))?;
        let skip = b.iter().take_while(|&&x| x == 0).count();
        Ok(&b[skip..])
    }

    /// A one-byte-length-prefixed field (curve OIDs, KDF parameters).
    pub fn short_field(&mut self) -> Result<&'a [u8], PgpError> {
        let n = usize::from(self.u8()?);
        self.bytes(n)
    }

    /// Whatever is left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}
