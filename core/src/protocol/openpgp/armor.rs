//! ASCII armor (RFC 4880 §6): only the first block counts, as in go-crypto's `armor.Decode`.

use super::PgpError;
use crate::gotext::base64;

/// True if `s` holds an armor header line; go-crypto finds no armored data otherwise.
pub fn has_armor(s: &str) -> bool {
    s.contains("-----BEGIN PGP ")
}

/// The binary body of the first armored block in `text`.
pub fn dearmor(text: &str) -> Result<Vec<u8>, PgpError> {
    let mut lines = text.lines().map(|l| l.trim_end_matches([' ', '\t', '\r']));
    let begin = lines
        .by_ref()
        .find(|l| l.starts_with("-----BEGIN ") && l.ends_with("-----"))
        .ok_or(PgpError::Eof)?;
    let kind = &begin["-----BEGIN ".len()..begin.len() - 5];
    let end = format!("-----END {kind}-----");
    let mut body = String::new();
    let mut checksum = None;
    let mut in_headers = true;
    for line in lines {
        if line == end || line.starts_with("-----END ") {
            return finish(&body, checksum);
        }
        if in_headers {
            if line.is_empty() {
                in_headers = false;
                continue;
            }
            if line.contains(": ") || line.ends_with(':') {
                continue;
            }
            in_headers = false;
        }
        if let Some(sum) = line.strip_prefix('=') {
            checksum = Some(sum.to_string());
        } else {
            body.extend(line.chars().filter(|c| !c.is_whitespace()));
        }
    }
    Err(PgpError::UnexpectedEof)
}

/// Decodes the body and checks the optional CRC-24 line.
fn finish(body: &str, checksum: Option<String>) -> Result<Vec<u8>, PgpError> {
    let data = base64::decode(body.as_bytes()).map_err(|at| match at {
        Some(at) => PgpError::Base64 { at },
        None => PgpError::UnexpectedEof,
    })?;
    if let Some(sum) = checksum {
        let want = base64::decode(sum.trim().as_bytes()).ok();
        let got = crc24(&data).to_be_bytes();
        if want.as_deref() != Some(&got[1..]) {
            return Err(super::invalid("armor invalid"));
        }
    }
    Ok(data)
}

/// RFC 4880 §6.1 CRC-24.
fn crc24(data: &[u8]) -> u32 {
    let mut crc: u32 = 0x00B7_04CE;
    for &b in data {
        crc ^= u32::from(b) << 16;
        for _ in 0..8 {
            crc <<= 1;
            if crc & 0x0100_0000 != 0 {
                crc ^= 0x0186_4CFB;
            }
        }
    }
    crc & 0x00FF_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc24_of_rfc_example_inputs() {
        assert_eq!(crc24(b""), 0xB704CE);
        assert_eq!(crc24(b"123456789"), 0x21CF02);
    }

    #[test]
    fn decodes_the_first_block_with_headers_and_checksum() {
        let text = "junk\n-----BEGIN PGP SIGNATURE-----\nVersion: x\n\naGVs\nbG8=\n=";
        let sum = base64::encode(&crc24(b"hello").to_be_bytes()[1..]);
        let text = format!("{text}{sum}\n-----END PGP SIGNATURE-----\n-----BEGIN PGP X-----\n");
        assert_eq!(dearmor(&text).unwrap(), b"hello");
        let bad = text.replace(&sum, "AAAA");
        assert_eq!(
            dearmor(&bad).unwrap_err().to_string(),
            "openpgp: invalid data: armor invalid"
        );
        assert_eq!(dearmor("nothing").unwrap_err(), PgpError::Eof);
    }
}
