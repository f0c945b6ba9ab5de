//! What goes wrong reading or checking OpenPGP data, as a value. Each kind displays as the
//! text go-crypto's `openpgp` gives the same failure, which Terraform puts in its messages.

use std::fmt;

/// An OpenPGP failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgpError {
    /// No armor block at all (Go's `io.EOF`).
    Eof,
    /// Input ended inside a structure (Go's `io.ErrUnexpectedEOF`).
    UnexpectedEof,
    /// Armor body that is not base64: the offset of the first bad byte.
    Base64 {
        /// Byte offset in the armor body.
        at: usize,
    },
    /// Malformed data (go-crypto's `StructuralError`).
    InvalidData(String),
    /// A feature this verifier (like go-crypto) does not support (`UnsupportedError`).
    Unsupported(String),
    /// Input of the wrong kind (`InvalidArgumentError`).
    InvalidArgument(String),
    /// A signature that does not verify (`SignatureError`).
    BadSignature(String),
    /// No key in the ring issued the signature (`ErrUnknownIssuer`).
    UnknownIssuer,
}

impl fmt::Display for PgpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgpError::Eof => f.write_str("EOF"),
            PgpError::UnexpectedEof => f.write_str("unexpected EOF"),
            PgpError::Base64 { at } => write!(f, "illegal base64 data at input byte {at}"),
            PgpError::InvalidData(what) => write!(f, "openpgp: invalid data: {what}"),
            PgpError::Unsupported(what) => write!(f, "openpgp: unsupported feature: {what}"),
            PgpError::InvalidArgument(what) => write!(f, "openpgp: invalid argument: {what}"),
            PgpError::BadSignature(what) => write!(f, "openpgp: invalid signature: {what}"),
            PgpError::UnknownIssuer => f.write_str("openpgp: signature made by unknown entity"),
        }
    }
}

impl std::error::Error for PgpError {}

/// `StructuralError`.
pub(super) fn invalid(what: impl fmt::Display) -> PgpError {
    PgpError::InvalidData(what.to_string())
}

/// `UnsupportedError`.
pub(super) fn unsupported(what: impl fmt::Display) -> PgpError {
    PgpError::Unsupported(what.to_string())
}
