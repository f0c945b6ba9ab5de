//! hclsyntax's recursive-descent parser (`parser.go`) reduced to what decides its
//! diagnostics: the token it stops at, the ranges it reports, the order it reports them in,
//! and its recovery, which decides what it reports after the first error.

use super::token::{Kind, Span, Token};
use crate::diag::{Diagnostic, Pos};

pub(crate) type Diags = Vec<Diagnostic>;

/// What the parser keeps of an expression: its source range (a few messages quote it).
pub(crate) type Expr = Span;

/// The diagnostics `parser.ParseBody(TokenEOF)` reports for the scanned file, and the byte
/// ranges hcl-edit must read as spaces (see [`Parser::blanks`]).
pub(crate) fn parse(tokens: &[Token], data: &[u8], filename: &str) -> Parsed {
    let mut p = Parser::new(tokens, data, filename);
    let diags = p.parse_body(Kind::Eof);
    let represented =
        (p.first_error_cut && p.recoveries == p.represented).then_some(p.represented_errors);
    Parsed {
        diags,
        blanks: p.blanks,
        represented,
        labels: p.labels,
        closers: p.closers,
        kept_items: p.kept_items,
        quotes: p.quotes,
        label_breaks: p.label_breaks,
        top_blocks: p.top_blocks,
    }
}

/// What [`parse`] found in a file.
pub(crate) struct Parsed {
    pub diags: Diags,
    /// See [`Parser::blanks`].
    pub blanks: Vec<Blank>,
    /// How many errors came with a recovery the blanks show, when they show every
    /// recovery and the first error was one of them.
    pub represented: Option<usize>,
    /// See [`Parser::labels`].
    pub labels: Vec<(usize, String)>,
    /// See [`Parser::closers`].
    pub closers: String,
    /// See [`Parser::kept_items`].
    pub kept_items: Vec<KeptItem>,
    /// See [`Parser::quotes`].
    pub quotes: Vec<usize>,
    /// See [`Parser::label_breaks`].
    pub label_breaks: Vec<Blank>,
    /// See [`Parser::top_blocks`].
    pub top_blocks: Vec<TopBlock>,
}

/// An item of the recovered body that hcl-edit is shown no text for (it is blanked), which
/// Terraform goes on to decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeptItem {
    /// A block hclsyntax keeps with an empty body after an invalid header (`bad file:`, a
    /// header ending at its line, an `=` after labels).
    Block {
        /// The block type.
        kind: String,
        /// Where the block type was written.
        kind_span: Span,
        /// The labels (as hclsyntax reads them) and where each was written, quotes included.
        labels: Vec<(String, Span)>,
    },
    /// An argument whose value is missing or does not start an expression: hclsyntax keeps
    /// it with a placeholder of unknown value (`cty.DynamicVal`).
    Unknown {
        /// The argument name.
        name: String,
        /// Where the name was written.
        name_span: Span,
        /// The placeholder's range: the token where the value should have started, or the
        /// expression kept (see [`Parser::unknown_from`]).
        value_span: Span,
        /// Where the argument's range ends: after the last token its value read (the
        /// equals sign when it read none), as hclsyntax's `Attribute.SrcRange` does.
        end: usize,
        /// What evaluating the placeholder reports (see [`Parser::evaluated`]).
        evaluated: Option<Vec<Diagnostic>>,
        /// A placeholder token that is also an arithmetic operator (`%t` after the first
        /// error: hclsyntax reads `%` as a placeholder of unknown value, then as `%` with
        /// `t` its right operand): the operator, where it and its right operand were written.
        operation: Option<(char, Span, Span)>,
        /// Whether the value was read outside recovery mode: its text read alone is then
        /// read as the file's parse read it (see [`tuple_cut`]).
        read_first: bool,
    },
}

impl KeptItem {
    /// The byte offset where the item starts.
    pub(crate) fn at(&self) -> usize {
        match self {
            KeptItem::Block { kind_span, .. } => kind_span.start.byte,
            KeptItem::Unknown { name_span, .. } => name_span.start.byte,
        }
    }
}

/// What `hclsyntax.ParseExpression` reports for a lone expression (parsed, like a bare
/// expression there, as if inside parentheses), and the ranges to blank for hcl-edit.
pub(crate) fn parse_expression<'a>(
    tokens: &'a [Token],
    data: &'a [u8],
    filename: &'a str,
) -> (Diags, Vec<Blank>) {
    let mut p = Parser::new(tokens, data, filename);
    p.push_newlines(false);
    let (_, mut diags) = p.parse_expression();
    let extra = p.peek();
    if diags.is_empty() && extra.kind != Kind::Eof {
        diags.push(p.diag(
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
            extra.span,
        ));
    }
    (diags, p.blanks)
}

/// For a lone tuple constructor: where hclsyntax cut its parse short at a failing item (that
/// item's start, and its range), if it did, the ranges of the items before the cut (all
/// of them without one) that hold a placeholder, and where a missing separator ends the
/// items it keeps, if one does. `read_first` says whether the file's parse
/// read the value outside recovery mode: a token that starts no expression is reported
/// only outside it, and what follows it is read differently in it (`%[4]` is the
/// placeholder `%`, or the placeholder modulo `[4]`), so this parse starts in the mode
/// that one read it in.
pub(crate) fn tuple_cut(tokens: &[Token], data: &[u8], read_first: bool) -> Option<TupleParse> {
    let mut p = Parser::new(tokens, data, "");
    p.push_newlines(false);
    if p.peek().kind != Kind::OBrack {
        return None;
    }
    p.recovery = !read_first;
    p.items_holding = Some(Vec::new());
    p.parse_expression();
    // The outer tuple's failing item holds any inner one's: it starts first.
    let cut = p.tuple_cuts.into_iter().min_by_key(|&(at, _)| at);
    let mut holding = p.items_holding.unwrap_or_default();
    if let Some((at, _)) = cut {
        holding.retain(|s| s.start.byte < at);
    }
    Some(TupleParse {
        cut,
        holding,
        separator: p.separator_cut,
    })
}

/// What [`tuple_cut`] found.
pub(crate) struct TupleParse {
    /// The failing item's start and range, if the parse was cut short there.
    pub cut: Option<(usize, Span)>,
    /// The items before any cut that hold a placeholder.
    pub holding: Vec<Span>,
    /// Where a missing separator ends the items kept.
    pub separator: Option<usize>,
}

/// A byte range of the scanned data that hcl-edit must read as spaces.
pub(crate) type Blank = (usize, usize);

impl<'a> Parser<'a> {
    pub(super) fn new(tokens: &'a [Token], data: &'a [u8], filename: &'a str) -> Self {
        Parser {
            tokens,
            data,
            filename,
            next: 0,
            newlines: vec![true],
            recovery: false,
            depth: 0,
            blanks: Vec::new(),
            recoveries: 0,
            represented: 0,
            represented_errors: 0,
            first_error_cut: false,
            labels: Vec::new(),
            closers: String::new(),
            kept_items: Vec::new(),
            unknown_from: None,
            evaluated: None,
            tuple_cuts: Vec::new(),
            items_holding: None,
            separator_cut: None,
            syntax_error_from: None,
            operand_cut: None,
            placeholder_dropped: false,
            kept: None,
            quotes: Vec::new(),
            label_breaks: Vec::new(),
            top_blocks: Vec::new(),
        }
    }
}

pub(crate) struct Parser<'a> {
    tokens: &'a [Token],
    pub data: &'a [u8],
    filename: &'a str,
    next: usize,
    newlines: Vec<bool>,
    pub recovery: bool,
    pub depth: usize,
    /// Where hcl-edit reads the file differently from hclsyntax, to be blanked before it
    /// parses: newlines and comments hclsyntax skips inside brackets and `for` expressions
    /// (hcl-edit refuses a line break before an operator there), and object items whose key
    /// a later item repeats (hcl-edit refuses duplicate keys; the last one wins anyway).
    pub blanks: Vec<Blank>,
    /// How many times the parser skipped tokens to recover from an error.
    pub recoveries: usize,
    /// How many of those skips `blanks` shows hcl-edit as hclsyntax's recovered tree has
    /// them (an object constructor cut short before its failing item).
    pub represented: usize,
    /// How many of those reported an error (after the first, hclsyntax's recovery mode
    /// silences most).
    pub represented_errors: usize,
    /// The first error's recovery is one `blanks` shows (a collection constructor cut short
    /// at a missing separator, a template sequence cut out of a block label); errors that
    /// leave a placeholder in hclsyntax's tree cannot be shown.
    pub first_error_cut: bool,
    /// Block labels hclsyntax keeps with a template sequence replaced (see
    /// `parse_quoted_string_literal`): the offset of the opening quote, and the text.
    pub labels: Vec<(usize, String)>,
    /// What closes the blocks the file ends inside, innermost first: hclsyntax closes
    /// them at the end of the file, so hcl-edit is shown `\n}` for each after the text
    /// (` }` for a single-line block, which must close on its line).
    pub closers: String,
    /// Items of the recovered body that `blanks` hides from hcl-edit: blocks kept with an
    /// empty body after an invalid header, arguments kept with a placeholder value.
    pub kept_items: Vec<KeptItem>,
    /// Where the first expression of the argument being read starts that hclsyntax keeps
    /// in its tree although parsing it failed, and that is read here as of unknown value:
    /// a token that starts no expression (a placeholder of unknown value), a traversal
    /// whose dot has no name (an `ExprSyntaxError` placeholder) or a bad name after `.*.`,
    /// a template with one of those inside or that the file ends in. An
    /// argument whose value starts there is kept with it.
    pub unknown_from: Option<usize>,
    /// What Terraform's evaluation of the placeholder at `unknown_from` reports: an
    /// `ExprSyntaxError` gives its parse diagnostics again, a placeholder of unknown value
    /// nothing; `None` where the kept expression is not modelled (a traversal kept before
    /// a bad splat name, a template the file ends in).
    pub evaluated: Option<Diags>,
    /// Tuple constructors whose item failed to parse, cutting them short there (hclsyntax
    /// keeps the failing item as the last): where the item starts, and its range.
    pub tuple_cuts: Vec<(usize, Span)>,
    /// For [`tuple_cut`] only: the items of the tuple the text starts with that hold a
    /// placeholder.
    pub items_holding: Option<Vec<Span>>,
    /// For [`tuple_cut`] only: where the tuple the text starts with misses a separator
    /// (hclsyntax keeps the items before it).
    pub separator_cut: Option<usize>,
    /// Where the first traversal of the argument being read starts whose dot has no name:
    /// hclsyntax's `ExprSyntaxError` placeholder, which an object keeps as a failing value.
    pub syntax_error_from: Option<usize>,
    /// Where the last operator whose right operand (or conditional whose result) failed in
    /// recovery mode was read, as the nesting depth and the operand hclsyntax keeps in its
    /// place (`var.x` of `var.x == null [] : 1`): read last, it is the outermost.
    pub operand_cut: Option<(usize, Span)>,
    /// Whether an object constructor in the argument being read dropped its failing item
    /// (a key, or a value that is no `ExprSyntaxError`): the value hclsyntax keeps has no
    /// placeholder then, and is not read as unknown.
    pub placeholder_dropped: bool,
    /// For [`super::kept::kept_value`] only: every placeholder hclsyntax keeps in the value
    /// read, with what evaluating it reports (as [`Parser::evaluated`]); a zero-width span
    /// where the placeholder took no token (the token that starts no expression is read on).
    pub kept: Option<Vec<(Span, Option<Diags>)>>,
    /// Bytes hcl-edit must read as `"`: the line break that ends a label whose closing
    /// quote is missing (see `parse_quoted_string_literal`).
    pub quotes: Vec<usize>,
    /// The byte ranges a line break in a label or quoted template made the parser skip
    /// (from the line break through the token recovery stopped at): the line breaks inside
    /// are the scanner's errors, and hclsyntax's parser goes on after them.
    pub label_breaks: Vec<Blank>,
    /// The blocks of the file's own body, as hclsyntax's recovered tree keeps them.
    pub top_blocks: Vec<TopBlock>,
}

/// A block of a file's top-level body: what `hcled.ContextString` names a diagnostic's
/// place by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopBlock {
    /// The block type.
    pub kind: String,
    /// The labels, as hclsyntax reads them (a label with an escape or a template sequence
    /// as written between its quotes).
    pub labels: Vec<String>,
    /// `Block.Range()`: from the type to the end of the closing brace (only the type for a
    /// block whose header went wrong).
    pub span: std::ops::Range<usize>,
}

/// How deeply blocks and expressions may nest before parsing stops: Go's stacks grow, ours
/// (1 MiB in wasm) do not, and no real configuration comes near this.
pub(crate) const MAX_DEPTH: usize = 128;

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
pub(super) const ZERO: Span = Span {
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

    pub(super) fn next_token(&self) -> (Token, usize) {
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
        if !*self.newlines.last().unwrap_or(&true) {
            self.blank_skipped(self.next, next.saturating_sub(1));
        }
        self.next = next;
        tok
    }

    /// Records the newlines and comments among the skipped tokens `from..to` as blanks. The
    /// newline after a heredoc's closing marker stays: hcl-edit needs it to end the heredoc.
    fn blank_skipped(&mut self, from: usize, to: usize) {
        for i in from..to {
            let tok = self.tokens[i];
            let after_heredoc = i > 0 && self.tokens[i - 1].kind == Kind::CHeredoc;
            if tok.kind == Kind::Comment || (tok.kind == Kind::Newline && !after_heredoc) {
                self.blanks.push((tok.from, tok.to));
            }
        }
    }

    /// The index of the next token `read` would return (a fake newline counts as its comment).
    pub fn next_index(&self) -> usize {
        self.next_token().1.saturating_sub(1)
    }

    /// The index after the last token read.
    pub fn read_index(&self) -> usize {
        self.next
    }

    /// Goes on reading from token `index`.
    pub(super) fn start_at(&mut self, index: usize) {
        self.next = index;
    }

    /// The token at `index`.
    pub fn token(&self, index: usize) -> Token {
        self.tokens[index.min(self.tokens.len() - 1)]
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

    /// [`Parser::diag`] with HCL's `Context`: the wider range its snippet shows, from
    /// `from` through `to` (`hcl.RangeBetween`).
    pub fn diag_in(
        &self,
        summary: &str,
        detail: impl Into<String>,
        at: Span,
        from: Span,
        to: Span,
    ) -> Diagnostic {
        self.diag(summary, detail, at)
            .with_context(super::range(self.filename, from.to(to)))
    }

    /// `hcl.Range.String()` of `at`, as messages quote other places in the file.
    pub fn range_string(&self, at: Span) -> String {
        super::range(self.filename, at).to_string()
    }

    // ---- recovery ----

    pub fn recover(&mut self, end: Kind) -> Token {
        let start = opposite(end);
        self.recovery = true;
        self.recoveries += 1;
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

    /// `recoverOver`: skips to the next `start` bracket, then past its matching closer.
    pub(super) fn recover_over(&mut self, start: Kind) {
        loop {
            let tok = self.read();
            if tok.kind == start || tok.kind == Kind::Eof {
                break;
            }
        }
        self.recover(opposite(start));
    }

    pub(super) fn recover_after_body_item(&mut self) {
        self.recovery = true;
        self.recoveries += 1;
        let mut open: Vec<Kind> = Vec::new();
        let first = self.next_index();
        loop {
            let tok = self.read();
            match tok.kind {
                Kind::Newline | Kind::Eof if open.is_empty() => {
                    // Only the item's own end was read: nothing of the body was skipped.
                    if self.read_index() == first + 1 {
                        self.represented += 1;
                    }
                    return;
                }
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

    /// Keeps the expression `span` as the argument's placeholder unless one was kept
    /// already; `evaluated` as [`Parser::evaluated`]. One kept from the same place holds
    /// the earlier (`..x` is an `ExprSyntaxError` around the placeholder of `.`, and
    /// evaluates to the error's diagnostics), so its evaluation is the argument's.
    pub(super) fn keep_placeholder(&mut self, span: Span, evaluated: Option<Diags>) {
        if let Some(kept) = self.kept.as_mut() {
            kept.push((span, evaluated.clone()));
        }
        if self.unknown_from == Some(span.start.byte) {
            self.evaluated = evaluated;
        } else if self.unknown_from.is_none() {
            self.unknown_from = Some(span.start.byte);
            self.evaluated = evaluated;
        }
    }

    /// In [`super::kept::kept_value`]'s reading, records that hclsyntax drops the tokens
    /// from `from` up to the closer `close` its recovery stopped at.
    pub(super) fn drop_until(&mut self, from: usize, close: Token, closer: Kind) {
        if self.kept.is_some() && close.kind == closer && from < close.from {
            self.blanks.push((from, close.from));
        }
    }

    /// How deeply the parser is nested now (see [`Parser::nested`]).
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// Runs `f` one nesting level deeper, or reports that the nesting is too deep.
    pub(super) fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> (T, Diags),
        placeholder: T,
    ) -> (T, Diags) {
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
}
