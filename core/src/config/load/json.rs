//! A small JSON parser that keeps byte spans, because Terraform's diagnostics for `.tf.json`
//! files point at exact positions and `serde_json` does not report them. Error summaries and
//! details follow HCL's JSON parser.

use std::ops::Range as Span;

/// A JSON value with the byte span it was written at.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value.
    pub kind: NodeKind,
    /// Bytes of the whole value.
    pub span: Span<usize>,
}

/// An object property: key, key span and value (duplicates kept, in order).
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// The property name.
    pub key: String,
    /// Bytes of the quoted name.
    pub key_span: Span<usize>,
    /// The value.
    pub value: Node,
}

/// The JSON value kinds. Numbers keep their source text so nothing is rounded.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object, properties in order.
    Object(Vec<Property>),
}

impl Node {
    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }
    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The properties, if this is an object.
    pub fn as_object(&self) -> Option<&[Property]> {
        match &self.kind {
            NodeKind::Object(o) => Some(o),
            _ => None,
        }
    }
    /// The span of the opening brace/bracket or of the whole scalar (HCL's `StartRange`).
    pub fn start_span(&self) -> Span<usize> {
        match &self.kind {
            NodeKind::Array(_) | NodeKind::Object(_) => self.span.start..self.span.start + 1,
            _ => self.span.clone(),
        }
    }
}

/// A syntax error: HCL's summary and detail, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// HCL's summary.
    pub summary: &'static str,
    /// HCL's detail.
    pub detail: String,
    /// Bytes the error points at.
    pub span: Span<usize>,
    /// For a bad string, the string token's first byte: HCL then reports `span.start` as
    /// an offset into that token (see `Range::offset_into_token`).
    pub token: Option<usize>,
    /// Where HCL's follow-on "Root value must be object" points when the error left it no
    /// root value at all (it failed in the root value's own tokens, not in a nested value
    /// HCL skips over): the root's first token.
    pub root: Option<Span<usize>>,
    /// Errors HCL reports before this one (summary, detail, span): a property name that is
    /// an invalid keyword is first refused as a value.
    pub before: Vec<(&'static str, String, Span<usize>)>,
}

/// HCL's error for a configuration file whose root value is not an object (or array).
pub const ROOT_NOT_OBJECT: (&str, &str) = (
    "Root value must be object",
    "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
);

/// Parses one JSON document.
pub fn parse(src: &str) -> Result<Node, JsonError> {
    let mut p = Parser {
        s: src.as_bytes(),
        src,
        i: 0,
        depth: 0,
        frames: 0,
    };
    p.ws();
    let root_start = p.i;
    let v = p.value().map_err(|mut e| {
        // The root's first token: a brace or bracket, else the token the error is about
        // (a keyword, a stray character, the end of the data). A root string's token is
        // not at hand, so nothing follows that error.
        e.root = match (&e.root, p.s.get(root_start)) {
            (None, _) | (_, Some(b'"')) => None,
            (_, Some(b'{' | b'[')) => Some(root_start..root_start + 1),
            _ => Some(e.span.clone()),
        };
        e
    })?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err(
            "Extraneous data after value",
            "Extra characters appear after the JSON value.",
            p.i..p.i + 1,
        ));
    }
    Ok(v)
}

const VALUE_START: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

// Deep nesting would overflow the stack on hostile input; HCL has no limit but real files are shallow.
const MAX_DEPTH: usize = 500;

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    depth: usize,
    /// How many values are being parsed (1 inside the root value's own tokens).
    frames: usize,
}

impl Parser<'_> {
    fn err(&self, summary: &'static str, detail: &str, span: Span<usize>) -> JsonError {
        JsonError {
            summary,
            detail: detail.to_string(),
            span,
            token: None,
            root: self.at_root(),
            before: Vec::new(),
        }
    }

    /// For an error raised now: a marker (the span is filled in by [`parse`]) when it is in
    /// the root value's own tokens.
    fn at_root(&self) -> Option<Span<usize>> {
        (self.frames <= 1).then_some(0..0)
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Result<Node, JsonError> {
        self.frames += 1;
        let v = self.value_in_frame()?;
        self.frames -= 1;
        Ok(v)
    }

    fn value_in_frame(&mut self) -> Result<Node, JsonError> {
        let start = self.i;
        let Some(&c) = self.s.get(self.i) else {
            return Err(self.err(
                "Missing value",
                "The JSON data ends prematurely.",
                start..start,
            ));
        };
        match c {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let s = self.string()?;
                Ok(Node {
                    kind: NodeKind::String(s),
                    span: start..self.i,
                })
            }
            b'-' | b'0'..=b'9' => self.number(),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.keyword(),
            b'}' => Err(self.err("Missing JSON value", VALUE_START, start..start + 1)),
            b']' => Err(self.err("Missing array element value", VALUE_START, start..start + 1)),
            _ => {
                let end = next_char_end(self.src, start);
                Err(self.err("Invalid start of value", VALUE_START, start..end))
            }
        }
    }

    fn object(&mut self) -> Result<Node, JsonError> {
        let open = self.i;
        self.enter(open)?;
        self.i += 1;
        let mut props = Vec::new();
        loop {
            self.ws();
            match self.s.get(self.i) {
                None => {
                    return Err(self.err(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open..open + 1,
                    ))
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                Some(b'"') => {}
                // HCL reads the name as a value first: an invalid keyword is refused as one,
                // then as a name, both at the word.
                Some(b'a'..=b'z' | b'A'..=b'Z' | b'_') => {
                    let start = self.i;
                    let before = match self.keyword() {
                        Ok(_) => Vec::new(),
                        Err(e) => vec![(e.summary, e.detail, e.span)],
                    };
                    let mut e = self.err(
                        "Invalid object property name",
                        "A JSON object property name must be a string",
                        start..self.i,
                    );
                    e.before = before;
                    return Err(e);
                }
                Some(_) => {
                    let end = next_char_end(self.src, self.i);
                    return Err(self.err(
                        "Invalid object property name",
                        "A JSON object property name must be a string",
                        self.i..end,
                    ));
                }
            }
            let key_start = self.i;
            let key = self.string()?;
            let key_span = key_start..self.i;
            self.ws();
            match self.s.get(self.i) {
                Some(b':') => self.i += 1,
                Some(b'=') => {
                    return Err(self.err(
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                        self.i..self.i + 1,
                    ))
                }
                _ => {
                    return Err(self.err(
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                        self.i..self.i,
                    ))
                }
            }
            self.ws();
            let value = self.value()?;
            props.push(Property {
                key,
                key_span,
                value,
            });
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        return Err(self.err(
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in an object.",
                            comma..comma + 1,
                        ));
                    }
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                Some(b']') => {
                    return Err(self.err(
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                        self.i..self.i + 1,
                    ))
                }
                None => {
                    return Err(self.err(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        open..open + 1,
                    ))
                }
                Some(_) => {
                    return Err(self.err(
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                        self.i..next_char_end(self.src, self.i),
                    ))
                }
            }
        }
        self.depth -= 1;
        Ok(Node {
            kind: NodeKind::Object(props),
            span: open..self.i,
        })
    }

    fn array(&mut self) -> Result<Node, JsonError> {
        let open = self.i;
        self.enter(open)?;
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Node {
                kind: NodeKind::Array(items),
                span: open..self.i,
            });
        }
        loop {
            self.ws();
            if self.i >= self.s.len() {
                return Err(self.err(
                    "Unclosed object",
                    "No closing bracket was found for this JSON array.",
                    open..open + 1,
                ));
            }
            items.push(self.value()?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => {
                    let comma = self.i;
                    self.i += 1;
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        return Err(self.err(
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an array.",
                            comma..comma + 1,
                        ));
                    }
                }
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                Some(b':') => {
                    return Err(self.err(
                        "Invalid array value",
                        "A colon is not used to introduce values in a JSON array.",
                        self.i..self.i + 1,
                    ))
                }
                Some(b'}') => {
                    return Err(self.err(
                        "Mismatched brackets",
                        "A JSON array must be closed with a bracket, not a brace.",
                        self.i..self.i + 1,
                    ))
                }
                None => {
                    return Err(self.err(
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                        open..open + 1,
                    ))
                }
                Some(_) => {
                    return Err(self.err(
                        "Missing attribute seperator comma",
                        "A comma must appear between each value in an array.",
                        self.i..next_char_end(self.src, self.i),
                    ))
                }
            }
        }
        self.depth -= 1;
        Ok(Node {
            kind: NodeKind::Array(items),
            span: open..self.i,
        })
    }

    fn enter(&mut self, at: usize) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                "Invalid start of value",
                "The JSON value is nested too deeply.",
                at..at + 1,
            ));
        }
        Ok(())
    }

    // HCL's scanner ends a string token at its closing quote or at any control byte; the
    // parser then decodes the token with Go's encoding/json and points one byte past the
    // offset Go reports (the byte after a bad escape, or the byte that ended the token).
    fn string(&mut self) -> Result<String, JsonError> {
        let mut out = String::new();
        let token = self.i;
        let bad = |p: &Parser, at: usize| JsonError {
            token: Some(token),
            ..p.err(
                "Invalid JSON string",
                "There is a syntax error in the given JSON string.",
                at..at + 1,
            )
        };
        self.i += 1;
        loop {
            let c = match self.s.get(self.i) {
                None => return Err(bad(self, self.i)),
                Some(&c) if c < 0x20 => return Err(bad(self, self.i)),
                Some(&c) => c,
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    let e = match self.s.get(self.i + 1) {
                        None => return Err(bad(self, self.i + 1)),
                        Some(&e) if e < 0x20 => return Err(bad(self, self.i + 1)),
                        Some(&e) => e,
                    };
                    self.i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4().map_err(|at| bad(self, at))?;
                            out.push(self.utf16(unit).map_err(|at| bad(self, at))?);
                        }
                        _ => return Err(bad(self, self.i)),
                    }
                }
                _ => {
                    let end = next_char_end(self.src, self.i);
                    out.push_str(&self.src[self.i..end]);
                    self.i = end;
                }
            }
        }
    }

    /// The character a `\uXXXX` unit starts: a surrogate pairs with a following `\uXXXX`
    /// low surrogate, else it becomes U+FFFD (as Go decodes it).
    fn utf16(&mut self, unit: u32) -> Result<char, usize> {
        if (0xD800..0xE000).contains(&unit) {
            if self.s.get(self.i..self.i + 2) == Some(b"\\u") {
                let save = self.i;
                self.i += 2;
                let lo = self.hex4()?;
                if (0xD800..0xDC00).contains(&unit) && (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((unit - 0xD800) << 10) + (lo - 0xDC00);
                    return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
                }
                self.i = save;
            }
            return Ok('\u{FFFD}');
        }
        Ok(char::from_u32(unit).unwrap_or('\u{FFFD}'))
    }

    /// Four hex digits, or the error offset Go's decoder reports for them.
    fn hex4(&mut self) -> Result<u32, usize> {
        let mut v = 0;
        for k in 0..4 {
            let at = self.i + k;
            match self.s.get(at) {
                None => return Err(at),
                Some(&c) if c < 0x20 => return Err(at),
                Some(&c) => match (c as char).to_digit(16) {
                    Some(d) => v = v * 16 + d,
                    None => return Err(at + 1),
                },
            }
        }
        self.i += 4;
        Ok(v)
    }

    fn number(&mut self) -> Result<Node, JsonError> {
        let start = self.i;
        while self.i < self.s.len()
            && matches!(
                self.s[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        let text = &self.src[start..self.i];
        if !valid_number(text) {
            return Err(self.err(
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                start..self.i,
            ));
        }
        Ok(Node {
            kind: NodeKind::Number(text.to_string()),
            span: start..self.i,
        })
    }

    fn keyword(&mut self) -> Result<Node, JsonError> {
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        let word = &self.src[start..self.i];
        let kind = match word {
            "null" => NodeKind::Null,
            "true" => NodeKind::Bool(true),
            "false" => NodeKind::Bool(false),
            "undefined" | "NaN" | "Infinity" => {
                return Err(JsonError {
                    summary: "Invalid JSON keyword",
                    detail: format!("The JavaScript identifier {word:?} cannot be used in JSON."),
                    span: start..self.i,
                    token: None,
                    root: self.at_root(),
                    before: Vec::new(),
                })
            }
            _ => {
                return Err(JsonError {
                    summary: "Invalid JSON keyword",
                    detail: format!("{word:?} is not a valid JSON keyword."),
                    span: start..self.i,
                    token: None,
                    root: self.at_root(),
                    before: Vec::new(),
                })
            }
        };
        Ok(Node {
            kind,
            span: start..self.i,
        })
    }
}

fn valid_number(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == int_start || (b[int_start] == b'0' && i - int_start > 1) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

fn next_char_end(src: &str, i: usize) -> usize {
    src[i..].chars().next().map_or(i, |c| i + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_spans_of_keys_and_values() {
        let v = parse(r#" {"a": [1, "x\"y"], "b": null}"#).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o[0].key_span, 2..5);
        assert_eq!(o[0].value.as_array().unwrap()[1].as_str(), Some("x\"y"));
        assert_eq!(v.span, 1..30);
    }

    #[test]
    fn reports_hcl_json_errors() {
        assert_eq!(
            parse(r#"{"a": 1,}"#).unwrap_err().summary,
            "Trailing comma in object"
        );
        assert_eq!(
            parse(r#"{"a" = 1}"#).unwrap_err().summary,
            "Missing property value colon"
        );
        assert_eq!(
            parse("{} x").unwrap_err().summary,
            "Extraneous data after value"
        );
        assert_eq!(parse("01").unwrap_err().summary, "Invalid JSON number");
        assert_eq!(
            parse(&"[".repeat(10_000)).unwrap_err().summary,
            "Invalid start of value"
        );
    }

    /// Where HCL points for a bad string, checked against Terraform 1.15.5 (its first
    /// diagnostic; Terraform goes on to report what its recovery trips over next).
    #[test]
    fn a_bad_string_points_where_go_decoding_stops() {
        let at = |src: &str| {
            let e = parse(src).unwrap_err();
            assert_eq!(e.summary, "Invalid JSON string", "{src:?}");
            let r = crate::diag::Range::offset_into_token("f", src, e.token.unwrap(), e.span.start);
            format!(
                "{},{}-{},{}",
                r.start.line, r.start.column, r.end.line, r.end.column
            )
        };
        // A control byte ends the token, so Go reports its end.
        assert_eq!(at("{\n  \"a\": \"${\u{1}x}\"\n}"), "2,11-2,12");
        assert_eq!(at("{\n  \"a\": \"x\n y\"\n}"), "2,10-2,11");
        assert_eq!(at("{\"a\": \"x\ty\"}"), "1,9-1,10");
        assert_eq!(at("{\"a\u{5}b\": 1}"), "1,4-1,5");
        // The end of the file: one column past it.
        assert_eq!(at(r#"{"a": "xy"#), "1,10-1,11");
        assert_eq!(at(r#"{"a": "xy\"#), "1,11-1,12");
        // A bad escape: the byte after the offending one; columns count bytes.
        assert_eq!(at(r#"{"a": "x\qy"}"#), "1,11-1,12");
        assert_eq!(at(r#"{"a": "éé\qy"}"#), "1,14-1,15");
        assert_eq!(at(r#"{"a": "x\u12"}"#), "1,14-1,15");
        assert_eq!(at(r#"{"a": "x\u12x4"}"#), "1,14-1,15");
        assert_eq!(at(r#"{"a": "x\u+123"}"#), "1,12-1,13");
        assert_eq!(at(r#"{"a": "x\ud800\u00g1"}"#), "1,20-1,21");
    }

    #[test]
    fn an_unpaired_surrogate_becomes_the_replacement_character() {
        let v = parse(r#"{"a": "x\ud800\u0041", "b": "\ud83d\ude00", "c": "\udc00y"}"#).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o[0].value.as_str(), Some("x\u{FFFD}A"));
        assert_eq!(o[1].value.as_str(), Some("\u{1F600}"));
        assert_eq!(o[2].value.as_str(), Some("\u{FFFD}y"));
    }
}
