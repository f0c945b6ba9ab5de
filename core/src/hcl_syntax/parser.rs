//! hclsyntax's recursive-descent parser (`parser.go`) reduced to what decides its
//! diagnostics: the token it stops at, the ranges it reports, the order it reports them in,
//! and its recovery, which decides what it reports after the first error.

use super::token::{Kind, Span, Token};
use crate::diag::{Diagnostic, Pos};
use std::collections::HashMap;

pub(crate) type Diags = Vec<Diagnostic>;

/// What the parser keeps of an expression: its source range (a few messages quote it).
pub(crate) type Expr = Span;

/// The diagnostics `parser.ParseBody(TokenEOF)` reports for the scanned file.
pub(crate) fn parse(tokens: &[Token], data: &[u8], filename: &str) -> Diags {
    let mut p = Parser {
        tokens,
        data,
        filename,
        next: 0,
        newlines: vec![true],
        recovery: false,
        depth: 0,
    };
    p.parse_body(Kind::Eof)
}

pub(crate) struct Parser<'a> {
    tokens: &'a [Token],
    pub data: &'a [u8],
    filename: &'a str,
    next: usize,
    newlines: Vec<bool>,
    pub recovery: bool,
    depth: usize,
}

/// How deeply blocks and expressions may nest before parsing stops: Go's stacks grow, ours
/// (1 MiB in wasm) do not, and no real configuration comes near this.
pub(crate) const MAX_DEPTH: usize = 128;

const BINARY_OPS: &[&[Kind]] = &[
    &[Kind::Or],
    &[Kind::And],
    &[Kind::EqualOp, Kind::NotEqual],
    &[
        Kind::GreaterThan,
        Kind::GreaterThanEq,
        Kind::LessThan,
        Kind::LessThanEq,
    ],
    &[Kind::Plus, Kind::Minus],
    &[Kind::Star, Kind::Slash, Kind::Percent],
];

/// `oppositeBracket`.
pub(crate) fn opposite(kind: Kind) -> Kind {
    match kind {
        Kind::OBrace => Kind::CBrace,
        Kind::OBrack => Kind::CBrack,
        Kind::OParen => Kind::CParen,
        Kind::OQuote => Kind::CQuote,
        Kind::OHeredoc => Kind::CHeredoc,
        Kind::CBrace => Kind::OBrace,
        Kind::CBrack => Kind::OBrack,
        Kind::CParen => Kind::OParen,
        Kind::CQuote => Kind::OQuote,
        Kind::CHeredoc => Kind::OHeredoc,
        Kind::TemplateControl | Kind::TemplateInterp => Kind::TemplateSeqEnd,
        Kind::TemplateSeqEnd => Kind::TemplateInterp,
        _ => Kind::Nil,
    }
}

/// A zero position: what Go's zero `hcl.Range` contributes to a range built from it.
const ZERO: Span = Span {
    start: Pos {
        line: 0,
        column: 0,
        byte: 0,
    },
    end: Pos {
        line: 0,
        column: 0,
        byte: 0,
    },
};

impl<'a> Parser<'a> {
    // ---- the peeker ----

    fn next_token(&self) -> (Token, usize) {
        let include = *self.newlines.last().unwrap_or(&true);
        for i in self.next..self.tokens.len() {
            let tok = self.tokens[i];
            match tok.kind {
                Kind::Comment => {
                    // Line comments own their newline; it still ends an argument.
                    if include && tok.to > tok.from && self.data[tok.to - 1] == b'\n' {
                        let fake = Token {
                            kind: Kind::Newline,
                            from: tok.to - 1,
                            ..tok
                        };
                        return (fake, i + 1);
                    }
                    continue;
                }
                Kind::Newline if !include => continue,
                _ => return (tok, i + 1),
            }
        }
        (self.tokens[self.tokens.len() - 1], self.tokens.len())
    }

    pub fn peek(&self) -> Token {
        self.next_token().0
    }

    pub fn read(&mut self) -> Token {
        let (tok, next) = self.next_token();
        self.next = next;
        tok
    }

    pub fn next_range(&self) -> Span {
        self.peek().span
    }

    pub fn prev_range(&self) -> Span {
        if self.next == 0 {
            return self.next_range();
        }
        self.tokens[self.next - 1].span
    }

    pub fn push_newlines(&mut self, include: bool) {
        self.newlines.push(include);
    }

    pub fn pop_newlines(&mut self) {
        self.newlines.pop();
    }

    pub fn bytes(&self, tok: &Token) -> &'a [u8] {
        &self.data[tok.from..tok.to]
    }

    pub fn is_keyword(&self, tok: &Token, kw: &str) -> bool {
        tok.kind == Kind::Ident && self.bytes(tok) == kw.as_bytes()
    }

    pub fn diag(&self, summary: &str, detail: impl Into<String>, at: Span) -> Diagnostic {
        Diagnostic::error(summary, detail).with_range(super::range(self.filename, at))
    }

    /// `hcl.Range.String()` of `at`, as messages quote other places in the file.
    pub fn range_string(&self, at: Span) -> String {
        super::range(self.filename, at).to_string()
    }

    // ---- recovery ----

    pub fn recover(&mut self, end: Kind) -> Token {
        let start = opposite(end);
        self.recovery = true;
        let mut nest = 0;
        loop {
            let tok = self.read();
            let mut kind = tok.kind;
            if end == Kind::TemplateSeqEnd && kind == Kind::TemplateControl {
                kind = Kind::TemplateInterp;
            }
            if kind == start {
                nest += 1;
            } else if kind == end {
                if nest < 1 {
                    return tok;
                }
                nest -= 1;
            } else if kind == Kind::Eof {
                return tok;
            }
        }
    }

    fn recover_after_body_item(&mut self) {
        self.recovery = true;
        let mut open: Vec<Kind> = Vec::new();
        loop {
            let tok = self.read();
            match tok.kind {
                Kind::Newline if open.is_empty() => return,
                Kind::Eof => return,
                Kind::OBrace
                | Kind::OBrack
                | Kind::OParen
                | Kind::OQuote
                | Kind::OHeredoc
                | Kind::TemplateInterp
                | Kind::TemplateControl => open.push(tok.kind),
                Kind::CBrace | Kind::CBrack | Kind::CParen | Kind::CQuote | Kind::CHeredoc => {
                    let opener = opposite(tok.kind);
                    while open.last().is_some_and(|&k| k != opener) {
                        open.pop();
                    }
                    open.pop();
                }
                Kind::TemplateSeqEnd => {
                    while open
                        .last()
                        .is_some_and(|&k| k != Kind::TemplateInterp && k != Kind::TemplateControl)
                    {
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }

    // ---- bodies ----

    fn parse_body(&mut self, end: Kind) -> Diags {
        let mut diags = Diags::new();
        // A HashMap: a `locals` block may hold thousands of arguments.
        let mut attrs: HashMap<&'a [u8], Span> = HashMap::new();
        let start_range = self.prev_range();
        loop {
            let next = self.peek();
            if next.kind == end {
                self.read();
                break;
            }
            match next.kind {
                Kind::Newline => {
                    self.read();
                }
                Kind::Ident => {
                    let (item, item_diags) = self.parse_body_item();
                    diags.extend(item_diags);
                    if let Some(Item::Attribute { name, name_range }) = item {
                        match attrs.get(name) {
                            Some(existing) => {
                                let detail = format!(
                                    "The argument {} was already set at {}. Each argument may be set only once.",
                                    super::go_quote::quote(name),
                                    self.range_string(*existing)
                                );
                                diags.push(self.diag("Attribute redefined", detail, name_range));
                            }
                            None => {
                                attrs.insert(name, name_range);
                            }
                        }
                    }
                }
                _ => {
                    let bad = self.read();
                    if !self.recovery {
                        diags.push(match bad.kind {
                            Kind::OQuote => self.diag(
                                "Invalid argument name",
                                "Argument names must not be quoted.",
                                bad.span,
                            ),
                            Kind::Eof if end == Kind::CBrace => self.diag(
                                "Unclosed configuration block",
                                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                start_range,
                            ),
                            Kind::Eof => self.diag(
                                "Unclosed configuration body",
                                "Found end of file before the end of this configuration body.",
                                start_range,
                            ),
                            _ => self.diag(
                                "Argument or block definition required",
                                "An argument or block definition is required here.",
                                bad.span,
                            ),
                        });
                    }
                    self.recover(end);
                    break;
                }
            }
        }
        diags
    }

    fn parse_body_item(&mut self) -> (Option<Item<'a>>, Diags) {
        let ident = self.read();
        if ident.kind != Kind::Ident {
            self.recover_after_body_item();
            let d = self.diag(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                ident.span,
            );
            return (None, vec![d]);
        }
        let next = self.peek();
        match next.kind {
            Kind::Equal => self.finish_attribute(ident, false),
            Kind::OQuote | Kind::OBrace | Kind::Ident => {
                let diags = self.nested(|p| ((), p.finish_block(ident)), ()).1;
                (None, diags)
            }
            _ => {
                self.recover_after_body_item();
                let d = self.diag(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                );
                (None, vec![d])
            }
        }
    }

    fn parse_single_attr_body(&mut self) -> Diags {
        let ident = self.read();
        if ident.kind != Kind::Ident {
            self.recover_after_body_item();
            return vec![self.diag(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                ident.span,
            )];
        }
        let next = self.peek();
        match next.kind {
            Kind::Equal => self.finish_attribute(ident, true).1,
            Kind::OQuote | Kind::OBrace | Kind::Ident => {
                self.recover_after_body_item();
                let name = String::from_utf8_lossy(self.bytes(&ident)).into_owned();
                vec![self.diag(
                    "Argument definition required",
                    format!("A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.", super::go_quote::quote(name.as_bytes())),
                    ident.span.to(next.span),
                )]
            }
            _ => {
                self.recover_after_body_item();
                vec![self.diag(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                )]
            }
        }
    }

    fn finish_attribute(&mut self, ident: Token, single_line: bool) -> (Option<Item<'a>>, Diags) {
        self.read(); // the equals sign
        let (_, mut diags) = self.parse_expression();
        if self.recovery && !diags.is_empty() {
            self.recover_after_body_item();
        } else if !single_line {
            let end = self.peek();
            if end.kind != Kind::Newline && end.kind != Kind::Eof {
                if !self.recovery {
                    let (summary, detail) = if end.kind == Kind::Comma {
                        ("Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.")
                    } else {
                        (
                            "Missing newline after argument",
                            "An argument definition must end with a newline.",
                        )
                    };
                    diags.push(self.diag(summary, detail, end.span));
                }
                self.recover_after_body_item();
            } else {
                self.read();
            }
        }
        let item = Item::Attribute {
            name: self.bytes(&ident),
            name_range: ident.span,
        };
        (Some(item), diags)
    }

    fn finish_block(&mut self, _ident: Token) -> Diags {
        let mut diags = Diags::new();
        let o_brace;
        loop {
            let tok = self.peek();
            match tok.kind {
                Kind::OBrace => {
                    o_brace = self.read();
                    break;
                }
                Kind::OQuote => diags.extend(self.parse_quoted_string_literal()),
                Kind::Ident => {
                    self.read();
                }
                _ => {
                    match tok.kind {
                        Kind::Equal => diags.push(self.diag(
                            "Invalid block definition",
                            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                            tok.span,
                        )),
                        Kind::Newline => diags.push(self.diag(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                            tok.span,
                        )),
                        _ if !self.recovery => diags.push(self.diag(
                            "Invalid block definition",
                            "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                            tok.span,
                        )),
                        _ => {}
                    }
                    self.recover_after_body_item();
                    return diags;
                }
            }
        }
        let body_diags = match self.peek().kind {
            Kind::Newline | Kind::Eof | Kind::CBrace => self.parse_body(Kind::CBrace),
            _ => {
                let body_diags = self.parse_single_attr_body();
                let next = self.peek();
                match next.kind {
                    Kind::CBrace => {
                        self.read();
                    }
                    Kind::Comma => {
                        diags.push(self.diag(
                            "Invalid single-argument block definition",
                            "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                            next.span,
                        ));
                        self.recover(Kind::CBrace);
                    }
                    Kind::Newline => {
                        diags.push(self.diag(
                            "Invalid single-argument block definition",
                            "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                            next.span,
                        ));
                        self.recover(Kind::CBrace);
                    }
                    _ => {
                        if !self.recovery {
                            if next.kind == Kind::Eof {
                                diags.push(self.diag(
                                    "Unclosed configuration block",
                                    "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                    o_brace.span,
                                ));
                            } else {
                                diags.push(self.diag(
                                    "Invalid single-argument block definition",
                                    "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                                    next.span,
                                ));
                            }
                        }
                        self.recover(Kind::CBrace);
                    }
                }
                body_diags
            }
        };
        diags.extend(body_diags);
        let eol = self.peek();
        if eol.kind == Kind::Newline || eol.kind == Kind::Eof {
            self.read();
        } else {
            if !self.recovery {
                diags.push(self.diag(
                    "Missing newline after block definition",
                    "A block definition must end with a newline.",
                    eol.span,
                ));
            }
            self.recover_after_body_item();
        }
        diags
    }

    /// `parseQuotedStringLiteral`, for block labels.
    fn parse_quoted_string_literal(&mut self) -> Diags {
        let o_quote = self.read();
        let mut diags = Diags::new();
        loop {
            let tok = self.read();
            match tok.kind {
                Kind::CQuote => break,
                Kind::QuotedLit => diags.extend(self.escape_diags(&tok)),
                Kind::TemplateControl | Kind::TemplateInterp => {
                    let which = if tok.kind == Kind::TemplateControl {
                        "%"
                    } else {
                        "$"
                    };
                    diags.push(self.diag(
                        "Invalid string literal",
                        format!("Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."),
                        tok.span,
                    ));
                    self.recover(Kind::TemplateSeqEnd);
                }
                Kind::Eof => {
                    diags.push(self.diag(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        tok.span,
                    ));
                    break;
                }
                _ => {
                    diags.push(self.diag(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        tok.span,
                    ));
                    self.recover(Kind::CQuote);
                    break;
                }
            }
        }
        let _ = o_quote;
        diags
    }

    /// `ParseStringLiteralToken`'s diagnostics for a quoted literal token.
    pub fn escape_diags(&self, tok: &Token) -> Diags {
        if tok.kind != Kind::QuotedLit {
            return Diags::new();
        }
        super::escapes::check(self.bytes(tok), tok.span)
            .into_iter()
            .map(|(detail, at)| self.diag("Invalid escape sequence", detail, at))
            .collect()
    }

    // ---- expressions ----

    /// Runs `f` one nesting level deeper, or reports that the nesting is too deep.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> (T, Diags), placeholder: T) -> (T, Diags) {
        if self.depth >= MAX_DEPTH {
            let mut diags = Diags::new();
            if !self.recovery {
                let at = self.peek().span;
                diags.push(self.diag(
                    "Configuration nested too deeply",
                    format!("Blocks, brackets or operators are nested more than {MAX_DEPTH} levels deep here; tflock does not read deeper nesting."),
                    at,
                ));
            }
            self.recovery = true;
            self.recover(Kind::Eof);
            return (placeholder, diags);
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    pub fn parse_expression(&mut self) -> (Expr, Diags) {
        let at = self.next_range();
        self.nested(Self::parse_conditional, at)
    }

    fn parse_conditional(&mut self) -> (Expr, Diags) {
        let start_range = self.next_range();
        let (cond, mut diags) = self.parse_binary_ops(BINARY_OPS);
        if self.recovery && !diags.is_empty() {
            return (cond, diags);
        }
        if self.peek().kind != Kind::Question {
            return (cond, diags);
        }
        self.read();
        let (_, true_diags) = self.parse_expression();
        let failed = !true_diags.is_empty();
        diags.extend(true_diags);
        if self.recovery && failed {
            return (cond, diags);
        }
        let colon = self.peek();
        if colon.kind != Kind::Colon {
            diags.push(self.diag(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                colon.span,
            ));
            return (cond, diags);
        }
        self.read();
        let (false_expr, false_diags) = self.parse_expression();
        let failed = !false_diags.is_empty();
        diags.extend(false_diags);
        if self.recovery && failed {
            return (cond, diags);
        }
        (start_range.to(false_expr), diags)
    }

    fn parse_binary_ops(&mut self, ops: &[&[Kind]]) -> (Expr, Diags) {
        let Some((this_level, remaining)) = ops.split_first() else {
            return self.parse_expression_with_traversals();
        };
        let (mut lhs, mut diags) = self.parse_binary_ops(remaining);
        if self.recovery && !diags.is_empty() {
            return (lhs, diags);
        }
        let mut rhs: Option<Expr> = None;
        loop {
            let next = self.peek();
            if !this_level.contains(&next.kind) {
                break;
            }
            if let Some(r) = rhs {
                lhs = lhs.to(r);
            }
            self.read();
            let (r, rhs_diags) = self.parse_binary_ops(remaining);
            rhs = Some(r);
            let failed = !rhs_diags.is_empty();
            diags.extend(rhs_diags);
            if self.recovery && failed {
                return (lhs, diags);
            }
        }
        match rhs {
            Some(r) => (lhs.to(r), diags),
            None => (lhs, diags),
        }
    }

    fn parse_expression_with_traversals(&mut self) -> (Expr, Diags) {
        let at = self.next_range();
        self.nested(Self::parse_term_and_traversals, at)
    }

    fn parse_term_and_traversals(&mut self) -> (Expr, Diags) {
        let (term, mut diags) = self.parse_expression_term();
        let (ret, more) = self.parse_expression_traversals(term);
        diags.extend(more);
        (ret, diags)
    }

    fn parse_expression_traversals(&mut self, from: Expr) -> (Expr, Diags) {
        let mut diags = Diags::new();
        let mut ret = from;
        'traversal: loop {
            let next = self.peek();
            match next.kind {
                Kind::Dot => {
                    let dot = self.read();
                    let attr_tok = self.peek();
                    match attr_tok.kind {
                        Kind::Ident => {
                            let t = self.read();
                            ret = ret.to(dot.span.to(t.span));
                        }
                        Kind::NumberLit => {
                            let num = self.read();
                            let text = self.bytes(&num);
                            if let Some(i) = text.iter().position(|&b| b == b'.') {
                                diags.push(self.diag(
                                    "Invalid legacy index syntax",
                                    format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{}][{}].", String::from_utf8_lossy(&text[..i]), String::from_utf8_lossy(&text[i + 1..])),
                                    num.span,
                                ));
                            } else {
                                diags.extend(self.number_diags(&num));
                            }
                            ret = ret.to(dot.span.to(num.span));
                        }
                        Kind::Star => {
                            let marker = self.read();
                            let mut last_range = marker.span;
                            while self.peek().kind == Kind::Dot {
                                self.read();
                                if self.peek().kind == Kind::NumberLit {
                                    let num = self.read();
                                    let text = self.bytes(&num);
                                    if let Some(i) = text.iter().position(|&b| b == b'.') {
                                        diags.push(self.diag(
                                            "Invalid legacy index syntax",
                                            format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{}][{}].", String::from_utf8_lossy(&text[..i]), String::from_utf8_lossy(&text[i + 1..])),
                                            attr_tok.span,
                                        ));
                                    } else {
                                        diags.extend(self.number_diags(&num));
                                    }
                                    last_range = num.span;
                                    continue;
                                }
                                if self.peek().kind != Kind::Ident {
                                    if !self.recovery {
                                        if self.peek().kind == Kind::Star {
                                            diags.push(self.diag(
                                                "Nested splat expression not allowed",
                                                "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                                                self.peek().span,
                                            ));
                                        } else {
                                            diags.push(self.diag(
                                                "Invalid attribute name",
                                                "An attribute name is required after a dot.",
                                                attr_tok.span,
                                            ));
                                        }
                                    }
                                    self.recovery = true;
                                    continue 'traversal;
                                }
                                last_range = self.read().span;
                            }
                            ret = from.to(last_range);
                        }
                        _ => {
                            diags.push(self.diag(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attr_tok.span,
                            ));
                            self.recovery = true;
                        }
                    }
                }
                Kind::OBrack => {
                    let open = self.read();
                    if self.peek().kind == Kind::Star {
                        self.read();
                        let mut close = self.read();
                        if close.kind != Kind::CBrack && !self.recovery {
                            // Go keeps a pointer to `close`, which recovery then overwrites:
                            // the subject is where recovery stopped.
                            close = self.recover(Kind::CBrack);
                            diags.push(self.diag(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                close.span,
                            ));
                        }
                        let item = open.span.to(close.span);
                        let (trav, nested) = self.parse_expression_traversals(item);
                        diags.extend(nested);
                        ret = from.to(trav);
                    } else {
                        self.push_newlines(false);
                        let (_, key_diags) = self.parse_expression();
                        let failed = !key_diags.is_empty();
                        diags.extend(key_diags);
                        let close = if self.recovery && failed {
                            self.recover(Kind::CBrack)
                        } else {
                            let close = self.read();
                            if close.kind != Kind::CBrack && !self.recovery {
                                // As above: the subject is where recovery stopped.
                                let close = self.recover(Kind::CBrack);
                                diags.push(self.diag(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    close.span,
                                ));
                                close
                            } else {
                                close
                            }
                        };
                        self.pop_newlines();
                        ret = ret.to(open.span.to(close.span));
                    }
                }
                _ => break,
            }
        }
        (ret, diags)
    }

    fn number_diags(&self, tok: &Token) -> Diags {
        if valid_number(self.bytes(tok)) {
            return Diags::new();
        }
        vec![self.diag(
            "Invalid number literal",
            "Failed to recognize the value of this number literal.",
            tok.span,
        )]
    }

    fn parse_expression_term(&mut self) -> (Expr, Diags) {
        let start = self.peek();
        match start.kind {
            Kind::OParen => {
                let o_paren = self.read();
                self.push_newlines(false);
                let (inner, mut diags) = self.parse_expression();
                if !diags.is_empty() {
                    self.recover(Kind::CParen);
                    self.pop_newlines();
                    return (inner, diags);
                }
                let close = self.peek();
                if close.kind != Kind::CParen {
                    diags.push(self.diag(
                        "Unbalanced parentheses",
                        "Expected a closing parenthesis to terminate the expression.",
                        close.span,
                    ));
                    self.recovery = true;
                }
                let c_paren = self.read();
                self.pop_newlines();
                (o_paren.span.to(c_paren.span), diags)
            }
            Kind::NumberLit => {
                let tok = self.read();
                (tok.span, self.number_diags(&tok))
            }
            Kind::Ident => {
                let tok = self.read();
                if self.peek().kind == Kind::OParen {
                    return self.finish_function_call(tok);
                }
                (tok.span, Diags::new())
            }
            Kind::OQuote | Kind::OHeredoc => {
                let open = self.read();
                let closer = opposite(open.kind);
                let diags = super::template::parse_template_inner(self, closer);
                let close_range = self.prev_range();
                (open.span.to(close_range), diags)
            }
            Kind::Minus | Kind::Bang => {
                let tok = self.read();
                let (operand, diags) = self.parse_expression_with_traversals();
                (tok.span.to(operand), diags)
            }
            Kind::OBrack => self.parse_tuple_cons(),
            Kind::OBrace => self.parse_object_cons(),
            _ => {
                let mut diags = Diags::new();
                if !self.recovery {
                    diags.push(if start.kind == Kind::Eof {
                        self.diag(
                            "Missing expression",
                            "Expected the start of an expression, but found the end of the file.",
                            start.span,
                        )
                    } else {
                        self.diag(
                            "Invalid expression",
                            "Expected the start of an expression, but found an invalid expression token.",
                            start.span,
                        )
                    });
                }
                self.recovery = true;
                (start.span, diags)
            }
        }
    }

    fn finish_function_call(&mut self, name: Token) -> (Expr, Diags) {
        let open = self.read();
        let mut diags = Diags::new();
        let mut close = ZERO;
        self.push_newlines(false);
        loop {
            if self.peek().kind == Kind::CParen {
                close = self.read().span;
                break;
            }
            let (_, arg_diags) = self.parse_expression();
            let failed = !arg_diags.is_empty();
            diags.extend(arg_diags);
            if self.recovery && failed {
                self.recover(Kind::CParen);
                break;
            }
            let sep = self.read();
            if sep.kind == Kind::CParen {
                close = sep.span;
                break;
            }
            if sep.kind == Kind::Ellipsis {
                if self.peek().kind != Kind::CParen {
                    if !self.recovery {
                        diags.push(self.diag(
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                            sep.span,
                        ));
                    }
                    close = self.recover(Kind::CParen).span;
                } else {
                    close = self.read().span;
                }
                break;
            }
            if sep.kind != Kind::Comma {
                if sep.kind == Kind::Eof {
                    diags.push(self.diag(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parethesis nesting elsewhere in this file.",
                        name.span.to(open.span),
                    ));
                } else {
                    diags.push(self.diag(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sep.span,
                    ));
                }
                close = self.recover(Kind::CParen).span;
                break;
            }
            if self.peek().kind == Kind::CParen {
                close = self.read().span;
                break;
            }
        }
        self.pop_newlines();
        (name.span.to(close), diags)
    }

    fn parse_tuple_cons(&mut self) -> (Expr, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let result = self.tuple_items(open);
        self.pop_newlines();
        result
    }

    fn tuple_items(&mut self, open: Token) -> (Expr, Diags) {
        if self.is_keyword(&self.peek(), "for") {
            return self.finish_for_expr(open);
        }
        let mut diags = Diags::new();
        let close;
        loop {
            if self.peek().kind == Kind::CBrack {
                close = self.read();
                break;
            }
            let (_, expr_diags) = self.parse_expression();
            let failed = !expr_diags.is_empty();
            diags.extend(expr_diags);
            if self.recovery && failed {
                close = self.recover(Kind::CBrack);
                break;
            }
            let next = self.peek();
            if next.kind == Kind::CBrack {
                close = self.read();
                break;
            }
            if next.kind != Kind::Comma {
                if !self.recovery {
                    diags.push(if next.kind == Kind::Eof {
                        self.diag(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.span,
                        )
                    } else {
                        self.diag(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.span,
                        )
                    });
                }
                close = self.recover(Kind::CBrack);
                break;
            }
            self.read();
        }
        (open.span.to(close.span), diags)
    }

    fn parse_object_cons(&mut self) -> (Expr, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.is_keyword(&self.peek(), "for");
        self.pop_newlines();
        if is_for {
            return self.finish_for_expr(open);
        }
        self.push_newlines(true);
        let result = self.object_items(open);
        self.pop_newlines();
        result
    }

    fn object_items(&mut self, open: Token) -> (Expr, Diags) {
        let mut diags = Diags::new();
        let close;
        loop {
            let next = self.peek();
            if next.kind == Kind::Newline {
                self.read();
                continue;
            }
            if next.kind == Kind::CBrace {
                close = self.read();
                break;
            }
            let (_, key_diags) = self.parse_expression();
            let failed = !key_diags.is_empty();
            diags.extend(key_diags);
            if self.recovery && failed {
                close = self.recover(Kind::CBrace);
                break;
            }
            let next = self.peek();
            if next.kind != Kind::Equal && next.kind != Kind::Colon {
                if !self.recovery {
                    diags.push(match next.kind {
                        Kind::Newline | Kind::Comma => self.diag(
                            "Missing attribute value",
                            "Expected an attribute value, introduced by an equals sign (\"=\").",
                            next.span,
                        ),
                        Kind::Ident => self.diag(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                            next.span,
                        ),
                        Kind::Eof => self.diag(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span,
                        ),
                        _ => self.diag(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            next.span,
                        ),
                    });
                }
                close = self.recover(Kind::CBrace);
                break;
            }
            self.read();
            let (_, value_diags) = self.parse_expression();
            let failed = !value_diags.is_empty();
            diags.extend(value_diags);
            if self.recovery && failed {
                close = self.recover(Kind::CBrace);
                break;
            }
            let next = self.peek();
            if next.kind == Kind::CBrace {
                close = self.read();
                break;
            }
            if next.kind != Kind::Comma && next.kind != Kind::Newline {
                if !self.recovery {
                    diags.push(if next.kind == Kind::Eof {
                        self.diag(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span,
                        )
                    } else {
                        self.diag(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            next.span,
                        )
                    });
                }
                close = self.recover(Kind::CBrace);
                break;
            }
            self.read();
        }
        (open.span.to(close.span), diags)
    }

    fn finish_for_expr(&mut self, open: Token) -> (Expr, Diags) {
        self.push_newlines(false);
        let result = self.for_expr(open);
        self.pop_newlines();
        result
    }

    fn for_error(
        &mut self,
        open: Token,
        close_kind: Kind,
        mut diags: Diags,
        detail: Option<&str>,
    ) -> (Expr, Diags) {
        if let Some(detail) = detail {
            if !self.recovery {
                let at = self.peek().span;
                diags.push(self.diag("Invalid 'for' expression", detail, at));
            }
        }
        let close = self.recover(close_kind);
        (open.span.to(close.span), diags)
    }

    fn for_expr(&mut self, open: Token) -> (Expr, Diags) {
        self.read(); // "for"
        let make_obj = open.kind == Kind::OBrace;
        let close_kind = if make_obj { Kind::CBrace } else { Kind::CBrack };
        let mut diags = Diags::new();
        if self.peek().kind != Kind::Ident {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires variable name after 'for'."),
            );
        }
        self.read();
        if self.peek().kind == Kind::Comma {
            self.read();
            if self.peek().kind != Kind::Ident {
                return self.for_error(
                    open,
                    close_kind,
                    diags,
                    Some("For expression requires value variable name after comma."),
                );
            }
            self.read();
        }
        if !self.is_keyword(&self.peek(), "in") {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires the 'in' keyword after its name declarations."),
            );
        }
        self.read();
        let (_, coll_diags) = self.parse_expression();
        let failed = !coll_diags.is_empty();
        diags.extend(coll_diags);
        if self.recovery && failed {
            return self.for_error(open, close_kind, diags, None);
        }
        if self.peek().kind != Kind::Colon {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires a colon after the collection expression."),
            );
        }
        self.read();
        let (mut val_expr, mut val_diags) = self.parse_expression();
        let mut key: Option<(Expr, Diags)> = None;
        if self.peek().kind == Kind::FatArrow {
            self.read();
            key = Some((val_expr, val_diags));
            (val_expr, val_diags) = self.parse_expression();
        }
        let key_failed = key.as_ref().is_some_and(|(_, d)| !d.is_empty());
        let val_failed = !val_diags.is_empty();
        let key_expr = key.map(|(e, d)| {
            diags.extend(d);
            e
        });
        diags.extend(val_diags);
        if self.recovery && (key_failed || val_failed) {
            return self.for_error(open, close_kind, diags, None);
        }
        let mut ellipsis = None;
        if self.peek().kind == Kind::Ellipsis {
            ellipsis = Some(self.read());
        }
        if self.is_keyword(&self.peek(), "if") {
            self.read();
            let (_, cond_diags) = self.parse_expression();
            let failed = !cond_diags.is_empty();
            diags.extend(cond_diags);
            if self.recovery && failed {
                return self.for_error(open, close_kind, diags, None);
            }
        }
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            if !self.recovery {
                let at = self.peek().span;
                diags.push(self.diag(
                    "Invalid 'for' expression",
                    "Extra characters after the end of the 'for' expression.",
                    at,
                ));
            }
            self.recover(close_kind)
        };
        if !make_obj {
            if let Some(key) = key_expr {
                diags.push(self.diag(
                    "Invalid 'for' expression",
                    "Key expression is not valid when building a tuple.",
                    key,
                ));
            }
            if let Some(e) = ellipsis {
                diags.push(self.diag(
                    "Invalid 'for' expression",
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    e.span,
                ));
            }
        } else if key_expr.is_none() {
            diags.push(self.diag(
                "Invalid 'for' expression",
                "Key expression is required when building an object.",
                val_expr,
            ));
        }
        (open.span.to(close.span), diags)
    }
}

/// A body item the parser returns: only attributes matter (for "Attribute redefined").
enum Item<'a> {
    Attribute { name: &'a [u8], name_range: Span },
}

/// Whether `cty.ParseNumberVal` (Go's `big.Float` parsing) accepts a scanned number literal.
fn valid_number(text: &[u8]) -> bool {
    // The scanner only produces digits, dots and exponents: Go rejects a second dot, a dot
    // after the exponent, and a second exponent.
    let mut dots = 0;
    let mut exp = false;
    for &b in text {
        match b {
            b'.' if exp => return false,
            b'.' => {
                dots += 1;
                if dots > 1 {
                    return false;
                }
            }
            b'e' | b'E' => {
                if exp {
                    return false;
                }
                exp = true;
            }
            _ => {}
        }
    }
    true
}
