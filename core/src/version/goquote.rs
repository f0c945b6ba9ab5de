//! Go's `%q` / `strconv.Quote`, because Terraform's messages embed user text that way.

/// Quotes `s` the way Go's `strconv.Quote` does: double quotes, backslash escapes for
/// `"` and `\`, short escapes for `\a \b \f \n \r \t \v`, `\xHH` for other ASCII
/// controls, `\uHHHH`/`\UHHHHHHHH` for non-printable runes, and printable runes verbatim.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if (c as u32) > 0xffff => out.push_str(&format!("\\U{:08x}", c as u32)),
            c => out.push_str(&format!("\\u{:04x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and U+0020.
///
/// Rust's standard library has no general-category table, so outside ASCII this treats
/// control, white-space, format (Cf), private-use and non-character code points as
/// non-printable and everything else as printable. Unassigned code points (which Go
/// escapes) are the only known difference.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    const FORMAT: &[(u32, u32)] = &[
        (0x00ad, 0x00ad),
        (0x0600, 0x0605),
        (0x061c, 0x061c),
        (0x06dd, 0x06dd),
        (0x070f, 0x070f),
        (0x0890, 0x0891),
        (0x08e2, 0x08e2),
        (0x180e, 0x180e),
        (0x200b, 0x200f),
        (0x202a, 0x202e),
        (0x2060, 0x2064),
        (0x2066, 0x206f),
        (0xfeff, 0xfeff),
        (0xfff9, 0xfffb),
        (0x110bd, 0x110bd),
        (0x110cd, 0x110cd),
        (0x13430, 0x1343f),
        (0x1bca0, 0x1bca3),
        (0x1d173, 0x1d17a),
        (0xe0001, 0xe0001),
        (0xe0020, 0xe007f),
        // private use
        (0xe000, 0xf8ff),
        (0xf0000, 0x10ffff),
        // non-characters
        (0xfdd0, 0xfdef),
    ];
    if FORMAT.iter().any(|&(lo, hi)| (lo..=hi).contains(&u)) {
        return false;
    }
    u & 0xfffe != 0xfffe
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quotes_like_go_strconv_quote() {
        assert_eq!(quote("abc"), r#""abc""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\t\n\u{b}\u{1}\u{7f}"), r#""\t\n\v\x01\x7f""#);
        assert_eq!(quote("ü≥"), "\"ü≥\"");
        assert_eq!(quote("\u{a0}\u{200b}\u{85}"), r#""\u00a0\u200b\u0085""#);
        assert_eq!(quote("\u{10ffff}"), r#""\U0010ffff""#);
    }
}
