//! `ParseStringLiteralToken`'s escape-sequence errors for quoted string literals, with the
//! range of the offending sequence as `scanStringLit` slices it.

use super::grapheme;
use super::scan::ragel_char_len;
use super::token::Span;
use crate::gotext::quote_bytes as quote;

/// `(summary detail, span)` for each bad escape in the quoted literal `bytes` at `span`.
pub(crate) fn check(bytes: &[u8], span: Span) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut end = span.start;
    for slice in slices(bytes) {
        let start = end;
        grapheme::advance(&mut end, slice);
        let at = Span { start, end };
        if slice[0] != b'\\' {
            continue;
        }
        let Some(&selector) = slice.get(1) else {
            out.push((
                "Backslash must be followed by an escape sequence selector character.".to_string(),
                at,
            ));
            continue;
        };
        match selector {
            b'n' | b'r' | b't' | b'"' | b'\\' => {}
            b'u' | b'U' => {
                let (want, digits) = if selector == b'u' {
                    (6, "four")
                } else {
                    (10, "eight")
                };
                if slice.len() != want {
                    out.push((
                        format!(
                            "The \\{} escape sequence must be followed by {digits} hexadecimal digits.",
                            selector as char
                        ),
                        at,
                    ));
                    continue;
                }
                let hex = std::str::from_utf8(&slice[2..]).unwrap_or("0");
                let num = u32::from_str_radix(hex, 16).unwrap_or(0);
                if char::from_u32(num).is_none() {
                    out.push((format!("Cannot encode character U+{num:04x} in UTF-8."), at));
                }
            }
            _ => out.push((
                format!(
                    "The symbol {} is not a valid escape sequence selector.",
                    quote(&slice[1..])
                ),
                at,
            )),
        }
    }
    out
}

/// The text `ParseStringLiteralToken` makes of the quoted literal `bytes`: escapes and
/// doubled template introducers (`$${`) read as what they stand for; a bad escape is kept
/// as written (its selector alone for an unknown one), as hclsyntax keeps it.
pub(crate) fn decode(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for slice in slices(bytes) {
        match slice {
            [b'\\', selector, rest @ ..] => match selector {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'"' | b'\\' => out.push(*selector),
                b'u' | b'U' => {
                    let want = if *selector == b'u' { 4 } else { 8 };
                    let ch = std::str::from_utf8(rest)
                        .ok()
                        .filter(|hex| hex.len() == want)
                        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                        .and_then(char::from_u32);
                    match ch {
                        Some(ch) => out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
                        None => out.extend_from_slice(slice),
                    }
                }
                _ => out.extend_from_slice(&slice[1..]),
            },
            [b'$' | b'%', _, b'{'] if slice[1] == slice[0] => out.extend_from_slice(&slice[1..]),
            _ => out.extend_from_slice(slice),
        }
    }
    out
}

/// `scanStringLit(bytes, true)`: escapes, `$${`-style sequences, newlines and literal runs.
fn slices(d: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut lit = 0;
    let mut i = 0;
    while i < d.len() {
        let len = match d[i] {
            b'\\' => match d.get(i + 1) {
                Some(b'u') => 2 + hex_run(d, i + 2, 4),
                Some(b'U') => 2 + hex_run(d, i + 2, 8),
                Some(_) => 1 + ragel_char_len(d, i + 1).unwrap_or(0),
                None => 1,
            },
            b'$' | b'%' => {
                if d.get(i + 1) == Some(&d[i]) {
                    if d.get(i + 2) == Some(&b'{') {
                        3
                    } else {
                        2
                    }
                } else {
                    1
                }
            }
            b'\r' if d.get(i + 1) == Some(&b'\n') => 2,
            b'\r' | b'\n' => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        if lit < i {
            out.push(&d[lit..i]);
        }
        out.push(&d[i..i + len]);
        i += len;
        lit = i;
    }
    if lit < d.len() {
        out.push(&d[lit..]);
    }
    out
}

fn hex_run(d: &[u8], from: usize, max: usize) -> usize {
    d[from.min(d.len())..]
        .iter()
        .take(max)
        .take_while(|b| b.is_ascii_hexdigit())
        .count()
}

/// The text of the quoted literal `bytes` with its escape sequences decoded (and `$${`,
/// `%%{` undoubled), as `ParseStringLiteralToken` gives it; a sequence that is not valid
/// stays as written.
pub(crate) fn unescape(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"$${") || rest.starts_with(b"%%{") {
            out.extend_from_slice(&rest[1..3]);
            i += 3;
            continue;
        }
        if rest[0] != b'\\' || rest.len() < 2 {
            out.push(rest[0]);
            i += 1;
            continue;
        }
        let simple = match rest[1] {
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            i += 2;
            continue;
        }
        let digits = match rest[1] {
            b'u' => 4,
            b'U' => 8,
            _ => 0,
        };
        let code = rest
            .get(2..2 + digits)
            .filter(|_| digits > 0)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32);
        match code {
            Some(c) => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += 2 + digits;
            }
            None => {
                out.push(b'\\');
                i += 1;
            }
        }
    }
    out
}
