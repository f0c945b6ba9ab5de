//! The objects and arrays of a JSON file as HCL's JSON parser recovers them from syntax
//! errors (`json/scanner.go`, `json/parser.go`), for its navigation
//! (`json/navigation.go`): a value that fails to parse becomes an invalid placeholder, and
//! the object or array around it goes on or gives up as HCL's does. Only what navigation
//! needs is kept: property names, objects, arrays and their byte ranges.

/// A value: an object, an array, or anything else (navigation passes over it).
pub(super) enum Value {
    /// Properties in order (duplicates kept), and the bytes from `{` through `}`.
    Object(Vec<(String, Value)>, std::ops::Range<usize>),
    /// Elements, and the bytes from `[` through `]`.
    Array(Vec<Value>, std::ops::Range<usize>),
    /// A scalar, or a placeholder for a value that failed.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    BraceO,
    BraceC,
    BrackO,
    BrackC,
    Comma,
    Colon,
    Equals,
    String,
    Number,
    Keyword,
    Invalid,
    Eof,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    from: usize,
    to: usize,
}

/// HCL's JSON scanner: it stops at the first byte that starts no token.
fn scan(src: &[u8]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        while i < src.len() && matches!(src[i], b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        let Some(&first) = src.get(i) else {
            tokens.push(Token {
                kind: Kind::Eof,
                from: i,
                to: i,
            });
            return tokens;
        };
        let start = i;
        let kind = match first {
            b'{' => Kind::BraceO,
            b'}' => Kind::BraceC,
            b'[' => Kind::BrackO,
            b']' => Kind::BrackC,
            b',' => Kind::Comma,
            b':' => Kind::Colon,
            b'=' => Kind::Equals,
            b'"' => Kind::String,
            b'-' | b'+' | b'.' | b'0'..=b'9' => Kind::Number,
            b if b.is_ascii_alphabetic() => Kind::Keyword,
            _ => Kind::Invalid,
        };
        i += 1;
        match kind {
            Kind::String => {
                let mut escaping = false;
                while i < src.len() {
                    match src[i] {
                        b'\\' => escaping = !escaping,
                        b'"' => {
                            i += 1;
                            if !escaping {
                                break;
                            }
                            escaping = false;
                            continue;
                        }
                        b if b < 32 => break,
                        _ => escaping = false,
                    }
                    i += 1;
                }
            }
            Kind::Number => {
                while i < src.len()
                    && matches!(src[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
            }
            Kind::Keyword => {
                while i < src.len() && (src[i].is_ascii_alphabetic() || src[i] == b'_') {
                    i += 1;
                }
            }
            Kind::Invalid => {
                tokens.push(Token {
                    kind,
                    from: start,
                    to: i,
                });
                tokens.push(Token {
                    kind: Kind::Eof,
                    from: i,
                    to: i,
                });
                return tokens;
            }
            _ => {}
        }
        tokens.push(Token {
            kind,
            from: start,
            to: i,
        });
    }
}

/// The text of a string token as Go's `json.Unmarshal` decodes it, or `None` where it
/// refuses it (unterminated, a control character, a bad escape).
fn decode_string(token: &[u8]) -> Option<String> {
    let inner = token.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let mut out: Vec<u8> = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let b = inner[i];
        if b < 32 || b == b'"' {
            return None;
        }
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let simple = match *inner.get(i + 1)? {
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            b'/' => Some(b'/'),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'u' => None,
            _ => return None,
        };
        if let Some(c) = simple {
            out.push(c);
            i += 2;
            continue;
        }
        let unit = |at: usize| -> Option<u32> {
            let hex = std::str::from_utf8(inner.get(at..at + 4)?).ok()?;
            u32::from_str_radix(hex, 16).ok()
        };
        let first = unit(i + 2)?;
        i += 6;
        let c = if (0xD800..0xDC00).contains(&first)
            && inner.get(i..i + 2) == Some(b"\\u")
            && unit(i + 2).is_some_and(|u| (0xDC00..0xE000).contains(&u))
        {
            let second = unit(i + 2)?;
            i += 6;
            char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        } else {
            char::from_u32(first)
        };
        let mut buf = [0; 4];
        out.extend_from_slice(c.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes());
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// How deeply values may nest before the rest is left unread (Go's stack grows; ours must
/// not overflow on hostile input).
const MAX_DEPTH: usize = 500;

struct Parser<'a> {
    src: &'a [u8],
    tokens: Vec<Token>,
    next: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.tokens[self.next]
    }

    fn read(&mut self) -> Token {
        let t = self.tokens[self.next];
        if t.kind != Kind::Eof {
            self.next += 1;
        }
        t
    }

    /// `parseValue`, with `None` for a value that failed (HCL's `invalidVal` placeholder
    /// where a caller keeps it) and whether it was a string and its text.
    fn value(&mut self) -> (Value, Option<String>) {
        let tok = self.peek();
        match tok.kind {
            Kind::BraceO | Kind::BrackO if self.depth >= MAX_DEPTH => {
                self.next = self.tokens.len() - 1;
                (Value::Other, None)
            }
            Kind::BraceO => {
                self.depth += 1;
                let v = self.object().unwrap_or(Value::Other);
                self.depth -= 1;
                (v, None)
            }
            Kind::BrackO => {
                self.depth += 1;
                let v = self.array().unwrap_or(Value::Other);
                self.depth -= 1;
                (v, None)
            }
            Kind::String => {
                self.read();
                (Value::Other, decode_string(&self.src[tok.from..tok.to]))
            }
            Kind::Number | Kind::Keyword => {
                self.read();
                (Value::Other, None)
            }
            _ => (Value::Other, None),
        }
    }

    /// `recover` of `parseObject` (`open`, `close` its brackets) or `parseArray`: reads on
    /// from `tok` to what seems the end of the value.
    fn recover(&mut self, mut tok: Token, open: Kind, close: Kind) {
        let mut depth = 1;
        loop {
            if tok.kind == open {
                depth += 1;
            } else if tok.kind == close {
                depth -= 1;
                if depth <= 1 {
                    return;
                }
            } else if tok.kind == Kind::Eof {
                return;
            }
            tok = self.read();
        }
    }

    fn object(&mut self) -> Option<Value> {
        let open = self.read();
        let mut attrs = Vec::new();
        loop {
            if self.peek().kind == Kind::BraceC {
                break;
            }
            let (_, key) = self.value();
            let key = key?;
            let colon = self.read();
            if colon.kind != Kind::Colon {
                self.recover(colon, Kind::BraceO, Kind::BraceC);
                return None;
            }
            let (value, _) = self.value();
            attrs.push((key, value));
            match self.peek().kind {
                Kind::Comma => {
                    self.read();
                    if self.peek().kind == Kind::BraceC {
                        return None;
                    }
                }
                Kind::Eof => return None,
                Kind::BrackC => {
                    self.read();
                    return None;
                }
                Kind::BraceC => break,
                _ => {
                    let t = self.read();
                    self.recover(t, Kind::BraceO, Kind::BraceC);
                    return None;
                }
            }
        }
        let close = self.read();
        Some(Value::Object(attrs, open.from..close.to))
    }

    fn array(&mut self) -> Option<Value> {
        let open = self.read();
        let mut values = Vec::new();
        loop {
            if self.peek().kind == Kind::BrackC {
                break;
            }
            let (value, _) = self.value();
            values.push(value);
            match self.peek().kind {
                Kind::Comma => {
                    self.read();
                    if self.peek().kind == Kind::BrackC {
                        return None;
                    }
                }
                Kind::BrackC => break,
                _ => {
                    let t = self.read();
                    self.recover(t, Kind::BrackO, Kind::BrackC);
                    return None;
                }
            }
        }
        let close = self.read();
        Some(Value::Array(values, open.from..close.to))
    }
}

/// The root value HCL navigates in `src`: an object or array, or nothing (HCL puts an
/// empty object in place of any other root).
pub(super) fn parse(src: &[u8]) -> Value {
    let mut p = Parser {
        src,
        tokens: scan(src),
        next: 0,
        depth: 0,
    };
    p.value().0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: &Value) -> Vec<String> {
        match v {
            Value::Object(attrs, _) => attrs.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn a_missing_value_leaves_a_placeholder_and_the_object_goes_on() {
        let v = parse(br#"{"a": {"b": }, "c": 1}"#);
        assert_eq!(keys(&v), ["a", "c"]);
    }

    #[test]
    fn a_bad_separator_gives_up_on_the_object_but_not_its_parent() {
        let v = parse(br#"{"a": {"b": 1 "x": 2}, "c": [1, 2]}"#);
        let Value::Object(attrs, _) = &v else {
            panic!("root")
        };
        assert!(matches!(attrs[0].1, Value::Other));
        assert_eq!(attrs[1].0, "c");
        assert!(matches!(attrs[1].1, Value::Array(..)));
    }

    #[test]
    fn property_names_are_decoded() {
        let v = parse(br#"{"a\u00e9\n\ud83d\ude00": 1, "\ud800": 2}"#);
        assert_eq!(keys(&v), ["a\u{e9}\n\u{1F600}", "\u{FFFD}"]);
        assert!(matches!(parse(br#"{"a\q": 1}"#), Value::Other));
    }
}
