//! HCL quoted-string literals exactly as hclwrite writes them (`TokensForValue` of a string).

use crate::gotext::is_print;
use std::fmt::Write;

/// `s` as an HCL quoted string the way `hclwrite.TokensForValue(cty.StringVal(s))` writes it:
/// NFC-normalized (cty does that to every string), then `\n`, `\r`, `\t`, `\"`, `\\` escaped,
/// template introducers doubled (`$${`, `%%{`), and runes Go does not consider printable
/// written as `\uXXXX` / `\UXXXXXXXX`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let normal = crate::nfc::nfc(s);
    let mut chars = normal.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if is_print(c) => out.push(c),
            c if u32::from(c) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08x}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn escapes_like_hclwrite() {
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("h1:abc="), "\"h1:abc=\"");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote("${x}%{y}$x%"), "\"$${x}%%{y}$x%\"");
        assert_eq!(
            quote("é\u{1}\u{a0}\u{e000}\u{10ffff}"),
            "\"é\\u0001\\u00a0\\ue000\\U0010ffff\""
        );
    }
}
