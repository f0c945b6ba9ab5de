//! Go's `strconv.Quote` (`%q`), because Terraform's and hclsyntax's messages embed user text
//! that way.

use super::is_print;
use std::fmt::Write;

/// `strconv.Quote(s)`: double quotes, `\"` and `\\`, short escapes for `\a \b \f \n \r \t
/// \v`, `\xHH` for other ASCII controls, `\uHHHH`/`\UHHHHHHHH` for other runes Go does not
/// print, every printable rune as it is.
pub(crate) fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// `fmt.Sprintf("%q", bytes)`: as [`quote`], and each byte that is not part of valid UTF-8
/// as `\xHH` (Go decodes such a byte as a one-byte `RuneError`).
pub(crate) fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            escape_rune(&mut out, c);
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}

fn escape_rune(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        c if is_print(c) => out.push(c),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        c if u32::from(c) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if u32::from(c) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{quote, quote_bytes};

    #[test]
    fn quotes_like_go_strconv_quote() {
        assert_eq!(quote("abc"), r#""abc""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\t\n\u{b}\u{1}\u{7f}"), r#""\t\n\v\x01\x7f""#);
        assert_eq!(quote("ü≥"), "\"ü≥\"");
        assert_eq!(quote("\u{a0}\u{200b}\u{85}"), r#""\u00a0\u200b\u0085""#);
        assert_eq!(quote("\u{10ffff}"), r#""\U0010ffff""#);
    }

    #[test]
    fn invalid_utf8_bytes_are_hex_escaped_one_by_one() {
        assert_eq!(quote_bytes(b"a\xe2\x82z\xff"), r#""a\xe2\x82z\xff""#);
        assert_eq!(quote_bytes(b"\xc3\xa9"), "\"é\"");
    }
}
