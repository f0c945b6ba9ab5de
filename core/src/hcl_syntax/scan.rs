//! A hand-written equivalent of hclsyntax's Ragel scanner (`scan_tokens.rl`): the same
//! tokens, split at the same bytes, including its quirks at `$`, `%` and stray `\r`.

use super::grapheme;
use super::token::{Kind, Span, Token};
use crate::diag::Pos;

/// What the scanner is inside of; the Ragel machine's `fcall` stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Main,
    Quoted,
    Heredoc,
}

struct Heredoc {
    marker: Vec<u8>,
    start_of_line: bool,
}

struct Scanner<'a> {
    data: &'a [u8],
    pos: Pos,
    base: usize,
    tokens: Vec<Token>,
    modes: Vec<Mode>,
    braces: i64,
    ret_braces: Vec<i64>,
    heredocs: Vec<Heredoc>,
}

/// Scans a whole configuration file. A leading UTF-8 BOM is skipped: it counts in byte
/// offsets but not in columns, as in hclsyntax.
pub(crate) fn scan(src: &[u8]) -> (Vec<Token>, &[u8], usize) {
    let (data, base) = match src.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        Some(rest) => (rest, 3),
        None => (src, 0),
    };
    let mut s = Scanner {
        data,
        pos: Pos {
            line: 1,
            column: 1,
            byte: base,
        },
        base,
        // Typical configuration has a token every three or four bytes.
        tokens: Vec::with_capacity(data.len() / 4 + 1),
        modes: vec![Mode::Main],
        braces: 0,
        ret_braces: Vec::new(),
        heredocs: Vec::new(),
    };
    s.run();
    let end = data.len();
    s.emit(Kind::Eof, end, end);
    (s.tokens, data, base)
}

/// The length of one UTF-8 sequence as Ragel's `AnyUTF8` sees it (lenient: any lead byte
/// with the right number of continuation bytes), or `None` for a `BrokenUTF8` byte.
pub(crate) fn ragel_char_len(data: &[u8], i: usize) -> Option<usize> {
    let need = match data[i] {
        0x00..=0x7F => return Some(1),
        0xC0..=0xDF => 1,
        0xE0..=0xEF => 2,
        0xF0..=0xF7 => 3,
        _ => return None,
    };
    let ok = (1..=need).all(|k| data.get(i + k).is_some_and(|b| (0x80..=0xBF).contains(b)));
    ok.then_some(need + 1)
}

/// Decodes one UTF-8 sequence as Go's `utf8.DecodeRune` does (`None` and length 1 for a
/// bad byte).
pub(crate) fn decode(bytes: &[u8], i: usize) -> (Option<char>, usize) {
    let b = bytes[i];
    let len = match b {
        0x00..=0x7F => return (Some(b as char), 1),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (None, 1),
    };
    match bytes
        .get(i..i + len)
        .and_then(|s| std::str::from_utf8(s).ok())
    {
        Some(s) => (s.chars().next(), len),
        None => (None, 1),
    }
}

fn is_ident_start(data: &[u8], i: usize) -> Option<usize> {
    let b = *data.get(i)?;
    if b == b'_' || b.is_ascii_alphabetic() {
        return Some(1);
    }
    if b < 0x80 {
        return None;
    }
    match decode(data, i) {
        (Some(c), len) if unicode_ident::is_xid_start(c) => Some(len),
        _ => None,
    }
}

fn ident_continue(data: &[u8], i: usize) -> Option<usize> {
    let b = data[i];
    if b == b'_' || b == b'-' || b.is_ascii_alphanumeric() {
        return Some(1);
    }
    if b < 0x80 {
        return None;
    }
    match decode(data, i) {
        (Some(c), len) if unicode_ident::is_xid_continue(c) => Some(len),
        _ => None,
    }
}

/// The end of the identifier starting at `i`, if one does.
pub(crate) fn ident_end(data: &[u8], i: usize) -> Option<usize> {
    let mut j = i + is_ident_start(data, i)?;
    while j < data.len() {
        match ident_continue(data, j) {
            Some(len) => j += len,
            None => break,
        }
    }
    Some(j)
}

fn number_end(data: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let mut best = j;
    loop {
        match data.get(j) {
            Some(b) if b.is_ascii_digit() => {
                j += 1;
                best = j;
            }
            Some(b'.') => j += 1,
            Some(b'e' | b'E') => {
                let k = match data.get(j + 1) {
                    Some(b'+' | b'-') => j + 2,
                    _ => j + 1,
                };
                if data.get(k).is_some_and(u8::is_ascii_digit) {
                    j = k + 1;
                    best = j;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    best
}

/// The end of a newline (`\n` or `\r\n`) at `i`.
fn newline_end(data: &[u8], i: usize) -> Option<usize> {
    match data.get(i..) {
        Some([b'\n', ..]) => Some(i + 1),
        Some([b'\r', b'\n', ..]) => Some(i + 2),
        _ => None,
    }
}

impl Scanner<'_> {
    fn emit(&mut self, kind: Kind, from: usize, to: usize) {
        let mut start = self.pos;
        start.column += from + self.base - self.pos.byte;
        start.byte = from + self.base;
        let mut end = start;
        grapheme::advance(&mut end, &self.data[from..to]);
        self.pos = end;
        self.tokens.push(Token {
            kind,
            from,
            to,
            span: Span { start, end },
        });
    }

    fn run(&mut self) {
        let mut p = 0;
        while p < self.data.len() {
            let mode = *self.modes.last().unwrap_or(&Mode::Main);
            let next = match mode {
                Mode::Main => self.main(p),
                Mode::Quoted => self.quoted(p),
                Mode::Heredoc => self.heredoc(p),
            };
            match next {
                Some(n) => p = n,
                None => {
                    // The Ragel machine stopped in a non-final state: the rest is invalid.
                    let end = self.data.len();
                    self.emit(Kind::Invalid, p, end);
                    return;
                }
            }
        }
    }

    fn begin_sequence(&mut self, kind: Kind, p: usize) -> usize {
        let end = if self.data.get(p + 2) == Some(&b'~') {
            p + 3
        } else {
            p + 2
        };
        self.emit(kind, p, end);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = false;
        }
        self.modes.push(Mode::Main);
        end
    }

    fn close_brace(&mut self, p: usize, end: usize, tilde: bool) -> usize {
        if self.ret_braces.last() == Some(&self.braces) {
            self.emit(Kind::TemplateSeqEnd, p, end);
            self.braces -= 1;
            self.ret_braces.pop();
            self.modes.pop();
        } else {
            let kind = if tilde {
                Kind::TemplateSeqEnd
            } else {
                Kind::CBrace
            };
            self.emit(kind, p, end);
            self.braces -= 1;
        }
        end
    }

    fn main(&mut self, p: usize) -> Option<usize> {
        let d = self.data;
        let b = d[p];
        let at = |k: usize| d.get(p + k).copied();
        let two = |x: u8| at(1) == Some(x);
        let tok = |s: &mut Self, kind: Kind, len: usize| {
            s.emit(kind, p, p + len);
            Some(p + len)
        };
        match b {
            b' ' | b'\t' => {
                let mut j = p;
                while j < d.len() && (d[j] == b' ' || d[j] == b'\t') {
                    j += 1;
                }
                Some(j)
            }
            b'0'..=b'9' => {
                let end = number_end(d, p);
                tok(self, Kind::NumberLit, end - p)
            }
            b'#' => self.line_comment(p),
            b'/' if two(b'/') => self.line_comment(p),
            b'/' if two(b'*') => match d[p + 2..].windows(2).position(|w| w == b"*/") {
                Some(i) => tok(self, Kind::Comment, i + 4),
                None => tok(self, Kind::Slash, 1),
            },
            b'\n' => tok(self, Kind::Newline, 1),
            b'\r' if two(b'\n') => tok(self, Kind::Newline, 2),
            b'=' if two(b'=') => tok(self, Kind::EqualOp, 2),
            b'=' if two(b'>') => tok(self, Kind::FatArrow, 2),
            b'!' if two(b'=') => tok(self, Kind::NotEqual, 2),
            b'>' if two(b'=') => tok(self, Kind::GreaterThanEq, 2),
            b'<' if two(b'=') => tok(self, Kind::LessThanEq, 2),
            b'<' if two(b'<') => match self.heredoc_intro(p) {
                Some(end) => Some(end),
                None => tok(self, Kind::LessThan, 1),
            },
            b'&' if two(b'&') => tok(self, Kind::And, 2),
            b'|' if two(b'|') => tok(self, Kind::Or, 2),
            b'.' if two(b'.') && at(2) == Some(b'.') => tok(self, Kind::Ellipsis, 3),
            // Function namespaces (`provider::aws::arn_parse`), scanned since HCL 2.20.
            b':' if two(b':') => tok(self, Kind::DoubleColon, 2),
            b'{' => {
                self.emit(Kind::OBrace, p, p + 1);
                self.braces += 1;
                Some(p + 1)
            }
            b'}' => Some(self.close_brace(p, p + 1, false)),
            b'~' if two(b'}') => Some(self.close_brace(p, p + 2, true)),
            b'"' => {
                self.emit(Kind::OQuote, p, p + 1);
                self.modes.push(Mode::Quoted);
                Some(p + 1)
            }
            _ => {
                if let Some(kind) = self_token(b) {
                    return tok(self, kind, 1);
                }
                if let Some(end) = ident_end(d, p) {
                    return tok(self, Kind::Ident, end - p);
                }
                match ragel_char_len(d, p) {
                    Some(len) => tok(self, Kind::Invalid, len),
                    None => tok(self, Kind::BadUtf8, 1),
                }
            }
        }
    }

    fn line_comment(&mut self, p: usize) -> Option<usize> {
        let end = match self.data[p..].iter().position(|&b| b == b'\n') {
            Some(i) => p + i + 1,
            None => self.data.len(),
        };
        self.emit(Kind::Comment, p, end);
        Some(end)
    }

    fn heredoc_intro(&mut self, p: usize) -> Option<usize> {
        let d = self.data;
        let mut i = p + 2;
        if d.get(i) == Some(&b'-') {
            i += 1;
        }
        let ident_stop = ident_end(d, i)?;
        let end = newline_end(d, ident_stop)?;
        self.emit(Kind::OHeredoc, p, end);
        let marker = d[i..ident_stop].to_vec();
        self.heredocs.push(Heredoc {
            marker,
            start_of_line: true,
        });
        self.modes.push(Mode::Heredoc);
        Some(end)
    }

    fn quoted(&mut self, p: usize) -> Option<usize> {
        let d = self.data;
        let b = d[p];
        let next = d.get(p + 1).copied();
        match b {
            b'$' | b'%' if next == Some(b'{') => {
                let kind = if b == b'$' {
                    Kind::TemplateInterp
                } else {
                    Kind::TemplateControl
                };
                Some(self.begin_sequence(kind, p))
            }
            b'"' => {
                self.emit(Kind::CQuote, p, p + 1);
                self.modes.pop();
                Some(p + 1)
            }
            b'$' | b'%' => {
                let len = if next == Some(b) && d.get(p + 2) == Some(&b'{') {
                    escaped_sequence_len(d, p)
                } else if next.is_some() {
                    1
                } else {
                    return None;
                };
                self.emit(Kind::QuotedLit, p, p + len);
                Some(p + len)
            }
            b'\r' | b'\n' => {
                let mut j = p;
                while j < d.len() && (d[j] == b'\r' || d[j] == b'\n') {
                    j += 1;
                }
                self.emit(Kind::QuotedNewline, p, j);
                Some(j)
            }
            _ => {
                let end = quoted_lit_end(d, p);
                if end > p {
                    self.emit(Kind::QuotedLit, p, end);
                    return Some(end);
                }
                let (kind, len) = match ragel_char_len(d, p) {
                    Some(len) => (Kind::Invalid, len),
                    None => (Kind::BadUtf8, 1),
                };
                self.emit(kind, p, p + len);
                Some(p + len)
            }
        }
    }

    fn heredoc(&mut self, p: usize) -> Option<usize> {
        let d = self.data;
        let b = d[p];
        let next = d.get(p + 1).copied();
        if (b == b'$' || b == b'%') && next == Some(b'{') {
            let kind = if b == b'$' {
                Kind::TemplateInterp
            } else {
                Kind::TemplateControl
            };
            return Some(self.begin_sequence(kind, p));
        }
        if b == b'$' || b == b'%' {
            if next == Some(b) && d.get(p + 2) == Some(&b'{') {
                return Some(self.midline(p, p + escaped_sequence_len(d, p)));
            }
            next?;
            // `$` and one byte before a newline: Ragel ends that line's literal early (its
            // `fhold`), so the two bytes are a literal of their own and the newline follows.
            if newline_end(d, p + 2).is_some() {
                if let Some(h) = self.heredocs.last_mut() {
                    h.start_of_line = true;
                }
                self.emit(Kind::StringLit, p, p + 2);
                return Some(p + 2);
            }
            return Some(self.midline(p, p + 1));
        }
        let mut j = p;
        while j < d.len() && !matches!(d[j], b'$' | b'%' | b'\r' | b'\n') {
            match ragel_char_len(d, j) {
                Some(len) => j += len,
                None => break,
            }
        }
        if let Some(nl) = newline_end(d, j) {
            return Some(self.end_of_line(p, j, nl));
        }
        if j > p {
            return Some(self.midline(p, j));
        }
        if d[j] == b'\r' {
            return None;
        }
        if ragel_char_len(d, j).is_none() {
            self.emit(Kind::BadUtf8, j, j + 1);
            return Some(j + 1);
        }
        None
    }

    fn midline(&mut self, p: usize, end: usize) -> usize {
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = false;
        }
        self.emit(Kind::StringLit, p, end);
        end
    }

    /// A heredoc line ending at `text_end` with its newline ending at `nl_end`: either the
    /// closing marker (then the newline is its own token) or a literal.
    fn end_of_line(&mut self, p: usize, text_end: usize, nl_end: usize) -> usize {
        let d = self.data;
        if let Some(h) = self.heredocs.last() {
            if h.start_of_line && is_marker_line(&d[p..nl_end], &h.marker) {
                self.emit(Kind::CHeredoc, p, text_end);
                self.emit(Kind::Newline, text_end, nl_end);
                self.heredocs.pop();
                self.modes.pop();
                return nl_end;
            }
        }
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = true;
        }
        self.emit(Kind::StringLit, p, nl_end);
        nl_end
    }
}

/// `(('\\' StringLiteralChars) | (StringLiteralChars - [$%"\\]))+` from `p`.
fn quoted_lit_end(d: &[u8], p: usize) -> usize {
    let mut j = p;
    while j < d.len() {
        match d[j] {
            b'$' | b'%' | b'"' | b'\r' | b'\n' => break,
            b'\\' => {
                if j + 1 >= d.len() || matches!(d[j + 1], b'\r' | b'\n') {
                    break;
                }
                match ragel_char_len(d, j + 1) {
                    Some(len) => j += 1 + len,
                    None => break,
                }
            }
            _ => match ragel_char_len(d, j) {
                Some(len) => j += len,
                None => break,
            },
        }
    }
    j
}

/// `$${` or `%%{`, with the `~` that would have made it a trimming sequence.
fn escaped_sequence_len(d: &[u8], p: usize) -> usize {
    if d.get(p + 3) == Some(&b'~') {
        4
    } else {
        3
    }
}

/// Whether `line` is `marker` surrounded by white space (Go's `bytes.TrimSpace`).
fn is_marker_line(line: &[u8], marker: &[u8]) -> bool {
    std::str::from_utf8(line)
        .is_ok_and(|s| s.trim_matches(char::is_whitespace).as_bytes() == marker)
}

fn self_token(b: u8) -> Option<Kind> {
    Some(match b {
        b'[' => Kind::OBrack,
        b']' => Kind::CBrack,
        b'(' => Kind::OParen,
        b')' => Kind::CParen,
        b'.' => Kind::Dot,
        b',' => Kind::Comma,
        b'*' => Kind::Star,
        b'/' => Kind::Slash,
        b'%' => Kind::Percent,
        b'+' => Kind::Plus,
        b'-' => Kind::Minus,
        b'=' => Kind::Equal,
        b'<' => Kind::LessThan,
        b'>' => Kind::GreaterThan,
        b'!' => Kind::Bang,
        b'?' => Kind::Question,
        b':' => Kind::Colon,
        b'&' => Kind::BitwiseAnd,
        b'|' => Kind::BitwiseOr,
        b'~' => Kind::BitwiseNot,
        b'^' => Kind::BitwiseXor,
        b';' => Kind::Semicolon,
        b'`' => Kind::Backtick,
        b'\'' => Kind::Apostrophe,
        _ => return None,
    })
}
