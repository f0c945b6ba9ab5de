//! hclsyntax's token kinds and a token's place in the file.

use crate::diag::Pos;

/// A token kind, one per `hclsyntax.TokenType` the scanner can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    Ellipsis,
    FatArrow,
    Question,
    Colon,
    DoubleColon,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    QuotedLit,
    StringLit,
    NumberLit,
    Ident,
    Comment,
    Newline,
    Eof,
    BitwiseAnd,
    BitwiseOr,
    BitwiseNot,
    BitwiseXor,
    Apostrophe,
    Backtick,
    Semicolon,
    Invalid,
    BadUtf8,
    QuotedNewline,
    /// No token: what `oppositeBracket` answers for a non-bracket.
    Nil,
}

impl Kind {
    /// Whether `checkInvalidTokens` refuses this token wherever it stands (a line break
    /// in a quoted string aside, which ends the string).
    pub fn is_invalid_token(self) -> bool {
        matches!(
            self,
            Kind::BitwiseAnd
                | Kind::BitwiseOr
                | Kind::BitwiseNot
                | Kind::BitwiseXor
                | Kind::Apostrophe
                | Kind::Backtick
                | Kind::Semicolon
                | Kind::Invalid
                | Kind::BadUtf8
        )
    }
}

/// Start and end positions without the file name, which every diagnostic adds later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    /// `hcl.RangeBetween`: from the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
}

/// One scanned token: its kind, its bytes (offsets into the BOM-stripped source) and span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub from: usize,
    pub to: usize,
    pub span: Span,
}
