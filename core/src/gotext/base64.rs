//! Standard base64 (RFC 4648 §4, padded), as Go's `base64.StdEncoding` writes it: the `h1:`
//! value and OpenPGP armor bodies.
//!
//! The core's own rather than the `base64` crate (6 KB of wasm for these two callers,
//! wasm/npm/README.md "Size"). Decoding keeps the crate's verdicts, which the armor reader's
//! messages were built on: the offset of the first byte that is not base64 (or of a last
//! symbol with bits left over), or no offset for a wrong length or padding.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `data` in padded standard base64.
pub(crate) fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from_be_bytes([0, b[0], b[1], b[2]]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The 6-bit value of a base64 symbol (`=` is not one).
fn value(b: u8) -> Option<u32> {
    let v = match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes padded standard base64. `Err(Some(offset))`: the byte at `offset` is not base64,
/// or is a last symbol whose unused bits are not zero; `Err(None)`: the length or the
/// padding is wrong.
pub(crate) fn decode(input: &[u8]) -> Result<Vec<u8>, Option<usize>> {
    let len = input.len();
    let rem = len % 4;
    // A lone last symbol is looked at first (the crate's order of checks).
    if rem == 1 && input[len - 1] != b'=' && value(input[len - 1]).is_none() {
        return Err(Some(len - 1));
    }
    // Every whole group but the last, which may carry padding.
    let body = len
        .saturating_sub(rem)
        .saturating_sub(if rem == 0 { 4 } else { 0 });
    let mut out = Vec::with_capacity(len / 4 * 3 + 3);
    for (q, quad) in input[..body].chunks_exact(4).enumerate() {
        let mut n = 0u32;
        for (i, &b) in quad.iter().enumerate() {
            n = n << 6 | value(b).ok_or(Some(q * 4 + i))?;
        }
        out.extend_from_slice(&n.to_be_bytes()[1..]);
    }
    let mut symbols = 0usize;
    let mut pads = 0usize;
    let mut first_pad = 0usize;
    let mut n = 0u32;
    for (i, &b) in input[body..].iter().enumerate() {
        if b == b'=' {
            if i < 2 {
                return Err(Some(body + i));
            }
            if pads == 0 {
                first_pad = i;
            }
            pads += 1;
            continue;
        }
        if pads > 0 {
            return Err(Some(body + first_pad));
        }
        n |= value(b).ok_or(Some(body + i))? << (26 - 6 * symbols);
        symbols += 1;
    }
    if len > 0 && symbols < 2 {
        return Err(None);
    }
    if (pads + symbols) % 4 != 0 {
        return Err(None);
    }
    let bytes = symbols * 6 / 8;
    if n & (!0u32 >> (bytes * 8)) != 0 {
        return Err(Some(body + symbols - 1));
    }
    out.extend_from_slice(&n.to_be_bytes()[..bytes]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use proptest::prelude::*;

    /// The `base64` crate's verdict, in this module's terms.
    fn crate_decode(input: &[u8]) -> Result<Vec<u8>, Option<usize>> {
        base64::engine::general_purpose::STANDARD
            .decode(input)
            .map_err(|e| match e {
                base64::DecodeError::InvalidByte(at, _)
                | base64::DecodeError::InvalidLastSymbol(at, _) => Some(at),
                _ => None,
            })
    }

    #[test]
    fn encodes_the_rfc_4648_test_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded.as_bytes()), Ok(plain.as_bytes().to_vec()));
        }
    }

    #[test]
    fn decode_errors_name_the_bytes_the_base64_crate_names() {
        for input in [
            "Zm9v!mFy",
            "Zm9vYmE",
            "Zm9vY",
            "Zm9vYg=",
            "Zm9vYg===",
            "Zm=vYmFy",
            "Zm9vYh==",
            "Zm9vYmF=",
            "Zm9vYmE=Zm9v",
            "=",
            "==",
            "A",
            "AB",
            "AB=A",
            "Zm9vYmFy=",
        ] {
            assert_eq!(
                decode(input.as_bytes()),
                crate_decode(input.as_bytes()),
                "{input}"
            );
        }
    }

    proptest! {
        #[test]
        fn decodes_like_the_base64_crate(s in "[A-Za-z0-9+/=!\n]{0,24}") {
            prop_assert_eq!(decode(s.as_bytes()), crate_decode(s.as_bytes()));
        }

        #[test]
        fn encodes_like_the_base64_crate(data in proptest::collection::vec(any::<u8>(), 0..40)) {
            let ours = encode(&data);
            prop_assert_eq!(&ours, &base64::engine::general_purpose::STANDARD.encode(&data));
            prop_assert_eq!(decode(ours.as_bytes()), Ok(data));
        }
    }
}
