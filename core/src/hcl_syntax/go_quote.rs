//! Go's `%q` of a byte string (`strconv.Quote`), which hclsyntax uses to name a bad escape.

use super::scan::decode;
use crate::lockfile::go_print::is_print;

/// `fmt.Sprintf("%q", bytes)`.
pub(crate) fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    let mut i = 0;
    while i < bytes.len() {
        let (c, len) = decode(bytes, i);
        i += len;
        let Some(c) = c else {
            out.push_str(&format!("\\x{:02x}", bytes[i - len]));
            continue;
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_print(c) => out.push(c),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0B' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\x7F' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}
