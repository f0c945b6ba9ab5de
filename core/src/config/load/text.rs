//! Bytes to text the way HCL does it: UTF-8 only; the native parser skips a leading UTF-8
//! byte-order mark while the JSON parser does not (so a BOM in `.tf.json` is a syntax error,
//! as in Terraform); CRLF line endings are accepted by both.

use crate::diag::{Diagnostic, Pos, Range};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes a file's bytes. For native syntax a leading BOM is removed.
pub fn decode(name: &str, bytes: &[u8], json: bool) -> Result<String, Box<Diagnostic>> {
    let body = if json {
        bytes
    } else {
        bytes.strip_prefix(BOM).unwrap_or(bytes)
    };
    match std::str::from_utf8(body) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let good = &body[..e.valid_up_to()];
            // The prefix is valid UTF-8 by construction; fall back to an empty prefix anyway.
            let good = std::str::from_utf8(good).unwrap_or("");
            let start = Pos::from_offset(good, good.len());
            let end = Pos {
                column: start.column + 1,
                byte: start.byte + 1,
                ..start
            };
            Err(Box::new(Diagnostic::error(
                "Invalid character encoding",
                "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
            )
            .with_range(Range { filename: name.to_string(), start, end })))
        }
    }
}
