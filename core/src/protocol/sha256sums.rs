//! `SHA256SUMS` documents: the checksum list a provider release signs.
//!
//! Terraform and OpenTofu read these loosely (whitespace-separated fields) and panic on a
//! blank line when collecting the signed `zh:` hashes. We parse strictly: every line must be
//! `<64 hex digits><whitespace><filename>`, and any other line is an error naming it.

use crate::gotext::quote;
use std::fmt;

/// One `<sha256>  <filename>` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumLine {
    /// The SHA-256 digest.
    pub sha256: [u8; 32],
    /// The file name as written.
    pub filename: String,
    /// 1-based line number in the document.
    pub line: usize,
}

/// Why a `SHA256SUMS` document was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SumsError {
    /// The document is not UTF-8 text.
    NotText,
    /// An empty (or whitespace-only) line before the end of the document.
    BlankLine {
        /// 1-based line number.
        line: usize,
    },
    /// A line without exactly a hash field and a filename field.
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The offending line.
        text: String,
    },
    /// The first field is not 64 hexadecimal digits.
    BadHash {
        /// 1-based line number.
        line: usize,
        /// The offending field.
        hash: String,
    },
}

impl fmt::Display for SumsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SumsError::NotText => write!(f, "checksum list is not UTF-8 text"),
            SumsError::BlankLine { line } => write!(f, "checksum list line {line} is blank"),
            SumsError::Malformed { line, text } => write!(
                f,
                "checksum list line {line} is malformed: expected \"<sha256>  <filename>\", got {text:?}"
            ),
            SumsError::BadHash { line, hash } => write!(
                f,
                "checksum list line {line} has invalid SHA-256 hash {hash:?}: must be 64 hexadecimal digits"
            ),
        }
    }
}

impl std::error::Error for SumsError {}

/// A strictly parsed `SHA256SUMS` document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sha256Sums {
    lines: Vec<SumLine>,
}

impl Sha256Sums {
    /// Parses `document`. A final newline is allowed; `\r\n` line ends are accepted.
    pub fn parse(document: &[u8]) -> Result<Sha256Sums, SumsError> {
        let text = std::str::from_utf8(document).map_err(|_| SumsError::NotText)?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut lines = Vec::new();
        if body.is_empty() {
            return Ok(Sha256Sums { lines });
        }
        for (i, raw) in body.split('\n').enumerate() {
            let line = i + 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let fields: Vec<&str> = raw.split_ascii_whitespace().collect();
            match fields.as_slice() {
                [] => return Err(SumsError::BlankLine { line }),
                [hash, filename] => {
                    let mut sha256 = [0u8; 32];
                    if hash.len() != 64 || hex::decode_to_slice(hash, &mut sha256).is_err() {
                        return Err(SumsError::BadHash {
                            line,
                            hash: hash.to_string(),
                        });
                    }
                    lines.push(SumLine {
                        sha256,
                        filename: filename.to_string(),
                        line,
                    });
                }
                _ => {
                    return Err(SumsError::Malformed {
                        line,
                        text: raw.to_string(),
                    })
                }
            }
        }
        Ok(Sha256Sums { lines })
    }

    /// All lines in document order.
    pub fn lines(&self) -> &[SumLine] {
        &self.lines
    }

    /// The digest listed for `filename` (the first line naming it).
    pub fn lookup(&self, filename: &str) -> Option<&[u8; 32]> {
        self.lines
            .iter()
            .find(|l| l.filename == filename)
            .map(|l| &l.sha256)
    }

    /// Every line as a `zh:` hash (lower-case hex), document order: what a valid signature
    /// over this document makes acceptable for every platform (`AcceptableHashes`).
    pub fn acceptable_hashes(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|l| format!("zh:{}", hex::encode(l.sha256)))
            .collect()
    }
}

/// Why a `SHA256SUMS` document does not vouch for an archive (Terraform's texts).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListedChecksumError {
    /// No line names the archive.
    #[error("checksum list has no SHA-256 hash for {}", quote(.filename))]
    NotListed {
        /// The archive's file name.
        filename: String,
    },
    /// The listed hash is not hexadecimal.
    #[error("checksum list has invalid SHA256 hash {}: {error}", quote(.listed))]
    Invalid {
        /// The listed text.
        listed: String,
        /// Go's `encoding/hex` error.
        error: HexError,
    },
    /// The listed hash is another one.
    #[error("checksum list has unexpected SHA-256 hash {} (expected {})", hex::encode(.got), hex::encode(.want))]
    Unexpected {
        /// What the list says.
        got: [u8; 32],
        /// What the registry said.
        want: [u8; 32],
    },
}

/// Go's `encoding/hex` decoding errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// A byte that is not a hex digit.
    #[error("encoding/hex: invalid byte: U+{:04X} {:?}", .0, *.0 as char)]
    InvalidByte(u8),
    /// More than 32 bytes of hex.
    #[error("encoding/hex: hash longer than 32 bytes")]
    TooLong,
    /// An odd number of hex digits.
    #[error("encoding/hex: odd length hex string")]
    OddLength,
}

/// Step 1 of registry package authentication (`matchingChecksumAuthentication`), with
/// Terraform's loose reading: the first line whose second whitespace field is `filename`
/// must carry the registry's `shasum`. Error texts are Terraform's.
pub fn check_listed_checksum(
    document: &[u8],
    filename: &str,
    want: &[u8; 32],
) -> Result<(), ListedChecksumError> {
    let mut found: Option<&[u8]> = None;
    for line in document.split(|b| *b == b'\n') {
        let mut fields = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty());
        if let (Some(first), Some(second)) = (fields.next(), fields.next()) {
            if second == filename.as_bytes() {
                found = Some(first);
                break;
            }
        }
    }
    let Some(checksum) = found else {
        return Err(ListedChecksumError::NotListed {
            filename: filename.to_string(),
        });
    };
    let mut got = [0u8; 32];
    if let Err(e) = decode_hex_like_go(checksum, &mut got) {
        return Err(ListedChecksumError::Invalid {
            listed: String::from_utf8_lossy(checksum).into_owned(),
            error: e,
        });
    }
    if &got != want {
        return Err(ListedChecksumError::Unexpected { got, want: *want });
    }
    Ok(())
}

/// Go's `hex.Decode` into a fixed 32-byte buffer: errors as Go words them. A shorter input
/// leaves the tail zeroed (Go does the same), so it then fails the comparison instead.
fn decode_hex_like_go(src: &[u8], dst: &mut [u8; 32]) -> Result<(), HexError> {
    fn val(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let pairs = src.len() / 2;
    for i in 0..pairs {
        let (hi, lo) = (src[2 * i], src[2 * i + 1]);
        let h = val(hi).ok_or(HexError::InvalidByte(hi))?;
        let l = val(lo).ok_or(HexError::InvalidByte(lo))?;
        if i >= dst.len() {
            // Go would panic writing past a [32]byte; a longer hash simply cannot match.
            return Err(HexError::TooLong);
        }
        dst[i] = (h << 4) | l;
    }
    if src.len() % 2 == 1 {
        let b = src[src.len() - 1];
        if val(b).is_none() {
            return Err(HexError::InvalidByte(b));
        }
        return Err(HexError::OddLength);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "299dd806df78cb0537e5c111019eaca6e6b7797e1b63cb37cc6a76f91c6c0782";

    #[test]
    fn parses_lines_and_looks_up_by_filename() {
        let doc = format!(
            "{A}  p_1.0.0_linux_amd64.zip\r\n{}  p_1.0.0_darwin_arm64.zip\n",
            "0".repeat(64)
        );
        let sums = Sha256Sums::parse(doc.as_bytes()).unwrap();
        assert_eq!(sums.lines().len(), 2);
        assert_eq!(
            hex::encode(sums.lookup("p_1.0.0_linux_amd64.zip").unwrap()),
            A
        );
        assert!(sums.lookup("missing.zip").is_none());
        assert_eq!(sums.acceptable_hashes()[0], format!("zh:{A}"));
    }

    #[test]
    fn rejects_blank_and_malformed_lines_naming_them() {
        let doc = format!("{A}  a.zip\n\n{A}  b.zip\n");
        assert_eq!(
            Sha256Sums::parse(doc.as_bytes()),
            Err(SumsError::BlankLine { line: 2 })
        );
        let doc = format!("{A}  a.zip\n{A}\n");
        let err = Sha256Sums::parse(doc.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "checksum list line 2 is malformed: expected \"<sha256>  <filename>\", got \"{A}\""
            )
        );
        let doc = "abc  a.zip\n";
        assert!(matches!(
            Sha256Sums::parse(doc.as_bytes()),
            Err(SumsError::BadHash { line: 1, .. })
        ));
    }

    #[test]
    fn listed_checksum_errors_use_terraform_texts() {
        let mut want = [0u8; 32];
        hex::decode_to_slice(A, &mut want).unwrap();
        let doc = format!("{A}  a.zip\n");
        assert!(check_listed_checksum(doc.as_bytes(), "a.zip", &want).is_ok());
        assert_eq!(
            check_listed_checksum(doc.as_bytes(), "b.zip", &want)
                .unwrap_err()
                .to_string(),
            "checksum list has no SHA-256 hash for \"b.zip\""
        );
        let other = [0u8; 32];
        assert_eq!(
            check_listed_checksum(doc.as_bytes(), "a.zip", &other)
                .unwrap_err()
                .to_string(),
            format!(
                "checksum list has unexpected SHA-256 hash {A} (expected {})",
                "0".repeat(64)
            )
        );
        assert_eq!(
            check_listed_checksum(b"zz  a.zip\n", "a.zip", &want)
                .unwrap_err()
                .to_string(),
            "checksum list has invalid SHA256 hash \"zz\": encoding/hex: invalid byte: U+007A 'z'"
        );
    }
}
