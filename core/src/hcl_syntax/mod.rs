//! hclsyntax's syntax diagnostics for native-syntax (`.tf`, `.terraform.lock.hcl`) files.
//!
//! hcl-edit and hclsyntax disagree on what is valid and word their errors differently, and a
//! syntax error is the error users meet most. This module re-derives, without building a
//! syntax tree, what `hclsyntax.ParseConfig` reports: the scanner's token stream (`scan`),
//! its invalid-token checks (`invalid`), then the recursive-descent parser's error paths and
//! recovery (`parser`, `template`), so summaries, details and ranges are hclsyntax's own.

mod body;
mod constructors;
mod escapes;
mod expr;
mod grapheme;
mod invalid;
mod kept;
mod parser;
mod scan;
mod template;
mod token;

use crate::diag::{Diagnostic, Range};
pub use kept::{kept_value, KeptValue};
pub(crate) use parser::{KeptItem, TopBlock};
pub(crate) use token::Span;

/// Every diagnostic `hclsyntax.ParseConfig` reports for `src` read as `filename`, in order.
/// Without the `hclsyntax-diagnostics` feature (every build in this workspace has it; a
/// library user may turn it off for size) nothing: hcl-edit's verdict and generic syntax
/// errors stand alone.
pub fn diagnostics(src: &[u8], filename: &str) -> Vec<Diagnostic> {
    check(src, filename).0
}

/// [`diagnostics`], and what hcl-edit must be shown instead of `src` to read it as hclsyntax
/// does (meaningful only when there is no error).
pub fn check(src: &[u8], filename: &str) -> (Vec<Diagnostic>, ForHclEdit) {
    if !cfg!(feature = "hclsyntax-diagnostics") {
        return (Vec::new(), ForHclEdit::default());
    }
    let (tokens, data, _) = scan::scan(src);
    let mut diags = invalid::check(&tokens, data, filename);
    let parsed = parser::parse(&tokens, data, filename);
    // A line break in a label or a quoted template is the scanner's error, and the
    // parser's: whether the parser's recovery is one the blanks show is decided below.
    // An invalid token the parser skipped in its recovery (`&` in a line of prose read as
    // a block header) is one hclsyntax's parser read like any other: the body it
    // recovered stands, and hcl-edit is shown the token blanked.
    let blanked = |at: usize| {
        parsed
            .blanks
            .iter()
            .any(|&(from, to)| from <= at && at < to)
    };
    let scanned_clean = diags.iter().all(|d| {
        d.range.as_ref().is_some_and(|r| {
            let at = r.start.byte;
            if d.summary == "Invalid multi-line string" {
                // One the parser skipped in its recovery (the rest of a header after a
                // broken label) is hidden like any token it skipped.
                blanked(at)
                    || parsed
                        .label_breaks
                        .iter()
                        .any(|&(from, to)| from <= at && at < to)
            } else {
                d.summary != "Invalid character encoding" && blanked(at)
            }
        })
    }) && tokens
        .iter()
        .filter(|t| t.kind.is_invalid_token())
        .all(|t| blanked(t.from));
    let mut blanks = parsed.blanks;
    let parsed_blanks = blanks.len();
    // Every recovery is shown, and each reported error (a redefined attribute aside) is
    // one of them: hcl-edit then reads the body hclsyntax recovered.
    let errors = parsed
        .diags
        .iter()
        .filter(|d| d.is_error() && d.summary != "Attribute redefined")
        .count();
    let recovered = scanned_clean && parsed.represented == Some(errors);
    diags.extend(parsed.diags);
    // hcl-edit 0.10 loses its way after an empty heredoc (`<<EOT` and its marker on the
    // next line) when a later heredoc with the same marker sits in parentheses or
    // brackets; an empty heredoc is the empty string, so it reads `""` there instead.
    let mut empty_strings = Vec::new();
    for pair in tokens.windows(2) {
        // One the parser blanked already (a skipped item) stays blank.
        let skipped = |at: usize| {
            blanks[..parsed_blanks]
                .iter()
                .any(|&(from, to)| from <= at && at < to)
        };
        if pair[0].kind == token::Kind::OHeredoc
            && pair[1].kind == token::Kind::CHeredoc
            && !skipped(pair[0].from)
        {
            blanks.push((pair[0].from, pair[1].to));
            empty_strings.push(pair[0].from);
        }
    }
    (
        diags,
        ForHclEdit {
            blanks,
            empty_strings,
            quotes: parsed.quotes,
            recovered,
            labels: if recovered { parsed.labels } else { Vec::new() },
            closers: if recovered {
                parsed.closers
            } else {
                String::new()
            },
            kept_items: if recovered {
                parsed.kept_items
            } else {
                Vec::new()
            },
        },
    )
}

/// The blocks of `src`'s own body as `hclsyntax.ParseConfig` recovers them from any syntax
/// errors: what `hcled.ContextString` looks a diagnostic's place up in.
pub(crate) fn top_level_blocks(src: &[u8]) -> Vec<TopBlock> {
    let (tokens, data, _) = scan::scan(src);
    parser::parse(&tokens, data, "").top_blocks
}

/// Byte ranges of a native-syntax text (after any byte-order mark) that hcl-edit must read as
/// spaces: hcl-edit refuses some layouts and objects hclsyntax accepts (a line break before
/// an operator inside a `for` expression, a repeated object key), and blanking the newlines
/// and comments hclsyntax ignores there, and the items a later key overrides, makes it read
/// the same values. Offsets do not move, so spans still point into the original text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForHclEdit {
    blanks: Vec<(usize, usize)>,
    /// Where `""` is written over blanks (empty heredocs).
    empty_strings: Vec<usize>,
    /// Where `"` is written before the blanks (see `Parser::quotes`).
    quotes: Vec<usize>,
    /// The file has syntax errors, and the blanks show hcl-edit the body hclsyntax
    /// recovered from them, which Terraform goes on to decode.
    recovered: bool,
    /// Block labels of the recovered body whose text hcl-edit cannot be shown: the byte
    /// offset of the label's opening quote, and the text hclsyntax kept.
    labels: Vec<(usize, String)>,
    /// What closes the blocks the recovered body closes at the end of the file (appended
    /// to the text; nothing before it moves).
    closers: String,
    /// Items of the recovered body that hcl-edit is shown no text for (they are blanked):
    /// they go into the model where they were written.
    kept_items: Vec<KeptItem>,
}

impl ForHclEdit {
    /// Whether the file's syntax errors leave a body hcl-edit can be shown (see
    /// [`ForHclEdit::apply`]) as hclsyntax recovered it.
    pub fn recovered(&self) -> bool {
        self.recovered
    }

    /// The text hclsyntax recovered for the quoted block label starting at byte `at`, where
    /// it differs from what hcl-edit reads there.
    pub fn label_at(&self, at: usize) -> Option<&str> {
        self.labels
            .iter()
            .find(|(from, _)| *from == at)
            .map(|(_, text)| text.as_str())
    }

    /// The items hclsyntax keeps that the text hcl-edit is shown does not have: blocks with
    /// an empty body after an invalid header, arguments with a placeholder value.
    pub(crate) fn kept_items(&self) -> &[KeptItem] {
        &self.kept_items
    }
}

impl ForHclEdit {
    /// The text to give hcl-edit for `text` (which this was computed from, without its BOM).
    pub fn apply<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.blanks.is_empty() && self.closers.is_empty() && self.quotes.is_empty() {
            return std::borrow::Cow::Borrowed(text);
        }
        let mut bytes = text.as_bytes().to_vec();
        for &at in &self.quotes {
            if let Some(byte) = bytes.get_mut(at) {
                *byte = b'"';
            }
        }
        for &(from, to) in &self.blanks {
            if let Some(range) = bytes.get_mut(from..to) {
                range.fill(b' ');
            }
        }
        for &at in &self.empty_strings {
            if let Some(quotes) = bytes.get_mut(at..at + 2) {
                quotes.fill(b'"');
            }
        }
        bytes.extend_from_slice(self.closers.as_bytes());
        // Whole tokens are blanked, so the result stays UTF-8; if not, hcl-edit gets the
        // original and its own verdict.
        match String::from_utf8(bytes) {
            Ok(s) => std::borrow::Cow::Owned(s),
            Err(_) => std::borrow::Cow::Borrowed(text),
        }
    }
}

/// The text to give hcl-edit's expression parser for the lone expression `src` (see
/// [`ForHclEdit`]); `src` itself when hclsyntax refuses it or the feature is off.
pub fn expression_for_hcl_edit(src: &str) -> std::borrow::Cow<'_, str> {
    if !cfg!(feature = "hclsyntax-diagnostics") {
        return std::borrow::Cow::Borrowed(src);
    }
    let (tokens, data, _) = scan::scan(src.as_bytes());
    if !invalid::check(&tokens, data, "").is_empty() {
        return std::borrow::Cow::Borrowed(src);
    }
    let (diags, blanks) = parser::parse_expression(&tokens, data, "");
    if !diags.is_empty() || src.len() != data.len() {
        return std::borrow::Cow::Borrowed(src);
    }
    ForHclEdit {
        blanks,
        empty_strings: Vec::new(),
        quotes: Vec::new(),
        recovered: false,
        labels: Vec::new(),
        closers: String::new(),
        kept_items: Vec::new(),
    }
    .apply(src)
}

/// For the text of a value that is a tuple constructor hclsyntax cut short at an item that
/// failed to parse (`[a.b, x.%s]`): where that item starts and the byte range hclsyntax
/// keeps it with (`x.`), relative to `src`. The items before it are the others it keeps.
/// `read_first`: the file's parse read the value outside recovery mode (see
/// `Placeholder::read_first`).
pub fn tuple_cut(src: &str, read_first: bool) -> Option<(usize, std::ops::Range<usize>)> {
    tuple_read(src, read_first)?.cut
}

/// How hclsyntax reads a tuple constructor's text (see [`tuple_read`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TupleRead {
    /// [`tuple_cut`]'s cut, if the parse was cut short.
    pub cut: Option<(usize, std::ops::Range<usize>)>,
    /// The byte ranges of the items it keeps before any cut that hold a placeholder
    /// (`[{ k = %s }, a.b]` after a file's first error, `%s` read as the placeholder
    /// modulo `s`).
    pub holding: Vec<std::ops::Range<usize>>,
    /// Where a missing separator ends the items it keeps (`[%[3]s]` after a file's first
    /// error: the placeholder modulo `[3]`, then `s`).
    pub separator: Option<usize>,
}

/// For the text of a value that is a tuple constructor: where hclsyntax cut it short, and
/// which items it keeps hold a placeholder.
pub fn tuple_read(src: &str, read_first: bool) -> Option<TupleRead> {
    let (tokens, data, _) = scan::scan(src.as_bytes());
    if data.len() != src.len() {
        return None;
    }
    let bytes = |span: Span| span.start.byte..span.end.byte;
    let read = parser::tuple_cut(&tokens, data, read_first)?;
    Some(TupleRead {
        cut: read.cut.map(|(at, span)| (at, bytes(span))),
        holding: read.holding.into_iter().map(bytes).collect(),
        separator: read.separator,
    })
}

/// What `hclsyntax.ParseExpression` reports for `src` read as a lone expression starting at
/// `start` of `filename`: a `-var` value of a complex-typed variable (from the file's start),
/// or a JSON string holding a reference, which Terraform re-parses from its opening quote.
pub fn expression_diagnostics(
    src: &[u8],
    filename: &str,
    start: crate::diag::Pos,
) -> Vec<Diagnostic> {
    if !cfg!(feature = "hclsyntax-diagnostics") {
        return Vec::new();
    }
    let (tokens, data, _) = scan::scan(src);
    let mut diags = invalid::check(&tokens, data, filename);
    diags.extend(parser::parse_expression(&tokens, data, filename).0);
    let shift = |p: &mut crate::diag::Pos| {
        if p.line == 1 {
            p.column += start.column - 1;
        }
        p.line += start.line - 1;
        p.byte += start.byte;
    };
    for d in &mut diags {
        if let Some(r) = d.range.as_mut() {
            shift(&mut r.start);
            shift(&mut r.end);
        }
    }
    diags
}

/// The first error `hclsyntax.ParseConfig` reports for `src`, if it reports any.
pub fn first_error(src: &[u8], filename: &str) -> Option<Diagnostic> {
    diagnostics(src, filename)
        .into_iter()
        .find(Diagnostic::is_error)
}

/// The scanner's tokens as `(Go token type name, bytes, range)`, for comparing the scanner
/// with `hclsyntax.LexConfig` in tests.
#[doc(hidden)]
pub fn token_dump(src: &[u8], filename: &str) -> Vec<(String, Vec<u8>, Range)> {
    let (tokens, data, _) = scan::scan(src);
    tokens
        .iter()
        .map(|t| {
            let name = match t.kind {
                token::Kind::BadUtf8 => "TokenBadUTF8".to_string(),
                token::Kind::Eof => "TokenEOF".to_string(),
                kind => format!("Token{kind:?}"),
            };
            (name, data[t.from..t.to].to_vec(), range(filename, t.span))
        })
        .collect()
}

fn range(filename: &str, span: Span) -> Range {
    Range {
        filename: filename.to_string(),
        start: span.start,
        end: span.end,
    }
}

/// Whether `s` is exactly one identifier (`hclsyntax.ValidIdentifier`), as Terraform requires
/// of the labels and names that objects are referred to by.
pub fn valid_identifier(s: &str) -> bool {
    !s.is_empty() && scan::ident_end(s.as_bytes(), 0) == Some(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_constructor_cut_short_by_the_first_error_is_a_recovered_body() {
        let recovered = |src: &str| check(src.as_bytes(), "main.tf").1.recovered();
        // The object keeps `b = 1`, the tuple `1`: hcl-edit is shown exactly that.
        let object = "a = {\n  b = 1\n  c {\n  }\n}\nd = 2\n";
        assert!(recovered(object));
        assert_eq!(
            check(object.as_bytes(), "main.tf").1.apply(object),
            "a = {\n  b = 1\n          }\nd = 2\n"
        );
        assert!(recovered("a = [1 2, 3]\n"));
        // hclsyntax leaves a placeholder for the missing value: the argument is blanked
        // and kept in the model (`kept_items`).
        assert!(recovered("a =\nd = 2\n"));
        // An operator whose right operand fails leaves its left one as the value.
        assert!(recovered("a = 1 +\nd = 2\n"));
        // A call cut at a missing separator keeps the arguments before it, and what
        // follows the call on its line is dropped.
        let src = "a = f(1 2) + 3\nd = 2\n";
        assert!(recovered(src));
        assert_eq!(
            check(src.as_bytes(), "main.tf").1.apply(src),
            "a = f(1  )    \nd = 2\n"
        );
        // So does a conditional without its colon, its condition, without a recovery.
        let src = "a = b ? 2\nd = 2\n";
        assert!(recovered(src));
        assert_eq!(
            check(src.as_bytes(), "main.tf").1.apply(src),
            "a = b    \nd = 2\n"
        );
        // An object never closed, and a valid file, have nothing recovered.
        assert!(!recovered("a = {\n  b c\n"));
        assert!(!recovered("a = {\n  b = 1\n}\n"));
    }

    #[test]
    fn a_template_sequence_in_a_label_is_cut_out_and_the_label_kept() {
        let src =
            "resource \"a\" \"x_${var.y}_$${z}\" {\n}\ndata \"b\" \"%{ if c }d%{ endif }\" {\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 3, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(
            edit.apply(src),
            "resource \"a\" \"x_        _$${z}\" {\n}\ndata \"b\" \"         d          \" {\n}\n"
        );
        let quote = |label: &str| src.find(label).expect("label") - 1;
        assert_eq!(edit.label_at(quote("x_")), Some("x_${ ... }_${z}"));
        assert_eq!(edit.label_at(quote("%{ if")), Some("%{ ... }d%{ ... }"));
        assert_eq!(edit.label_at(quote("a\"")), None);
        // An escape in the label is read as `ParseStringLiteralToken` reads it.
        let src = "resource \"a\" \"\\n\\u00e9${x}\" {\n}\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        let at = src.find("\"\\n").expect("label");
        assert_eq!(edit.label_at(at), Some("\n\u{e9}${ ... }"));
        // A bad one is an error that leaves the label whole (an unknown selector kept,
        // a short `\u` as written), and is blanked for hcl-edit.
        let src = "resource \"a\" \"c\\q\\u12\" {\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(edit.label_at(13), Some("cq\\u12"));
        assert_eq!(edit.apply(src), "resource \"a\" \"c      \" {\n}\n");
    }

    #[test]
    fn a_label_the_file_ends_in_is_kept_with_its_block() {
        let kept = |src: &str| {
            let (diags, edit) = check(src.as_bytes(), "main.tf");
            assert!(edit.recovered(), "{diags:?}");
            match edit.kept_items() {
                [KeptItem::Block { kind, labels, .. }] => {
                    let texts: Vec<_> = labels.iter().map(|(l, _)| l.clone()).collect();
                    (kind.clone(), texts, diags.len())
                }
                other => panic!("{other:?}"),
            }
        };
        // A sequence never closed: its recovery runs to the end of the file, skipping the
        // scanner's line breaks, and the label keeps the sequence's marker.
        assert_eq!(
            kept("resource \"a_${b\" \"c\" {\n  x = 1\n}\n"),
            ("resource".into(), vec!["a_${ ... }".into()], 5)
        );
        assert_eq!(
            kept("data \"a\" \"${x\n"),
            ("data".into(), vec!["a".into(), "${ ... }".into()], 2)
        );
        // A closing quote missing at the end of the file: the label read so far.
        assert_eq!(
            kept("resource \"abc"),
            ("resource".into(), vec!["abc".into()], 2)
        );
    }

    #[test]
    fn the_rest_of_a_line_after_a_complete_item_is_cut_out() {
        let src = "a = 1 b = [\n2\n] # c\nx {} y\nz = 3\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        // Only the first is reported: hclsyntax is in recovery mode after it.
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "a = 1           # c\nx {}  \nz = 3\n");
    }

    #[test]
    fn a_single_line_block_keeps_its_first_argument() {
        let src = "x { a = 1, b = 2 }\ny { c = 3\n  d = 4\n}\nz = 5\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        // hclsyntax reports both: these errors do not wait for recovery mode to end.
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(
            edit.apply(src),
            "x { a = 1        }\ny { c = 3         }\nz = 5\n"
        );
        // A block never closed is closed on its argument's line.
        let src = "x { a = 1, b = 2\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "x { a = 1         }");
    }

    #[test]
    fn a_body_keeps_the_items_before_a_stray_token_and_closes_at_the_end() {
        let src = "a = 1\n}\nb = 2\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "a = 1\n        ");
        // A block the file ends in is closed after the text, once per open block.
        let src = "x {\n  y {\n    c = 1";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "x {\n  y {\n    c = 1\n}\n}");
        // A quoted name skips to the block's end; what follows the block is kept.
        let src = "x {\n  \"q\" = 1\n  d = 2\n}\nz = 3\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "x {\n                  }\nz = 3\n");
    }

    #[test]
    fn an_invalid_block_header_keeps_the_block_with_an_empty_body() {
        let src = "bad file:\n\nafdas";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(edit.recovered());
        // Both items are hidden from hcl-edit; the block goes into the model instead.
        assert_eq!(edit.apply(src), "         \n\n     ");
        let labels = |kept: &[KeptItem]| match kept {
            [KeptItem::Block { kind, labels, .. }] => {
                let at: Vec<_> = labels
                    .iter()
                    .map(|(_, s)| (s.start.byte, s.end.byte))
                    .collect();
                let texts: Vec<_> = labels.iter().map(|(l, _)| l.clone()).collect();
                (kind.clone(), texts, at)
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(
            labels(edit.kept_items()),
            ("bad".into(), vec!["file".into()], vec![(4, 8)])
        );
        // A quoted label keeps its text and quotes' range.
        let (_, edit) = check(b"output \"o\" = 1\n", "main.tf");
        assert_eq!(
            labels(edit.kept_items()),
            ("output".into(), vec!["o".into()], vec![(7, 10)])
        );
        // A label with an escape keeps what the escape stands for.
        let (_, edit) = check(b"x \"a\\n\" :\n", "main.tf");
        assert_eq!(
            labels(edit.kept_items()),
            ("x".into(), vec!["a\n".into()], vec![(2, 7)])
        );
    }

    fn unknown_items(edit: &ForHclEdit) -> Vec<(String, usize, usize)> {
        edit.kept_items()
            .iter()
            .map(|k| match k {
                KeptItem::Unknown {
                    name, value_span, ..
                } => (name.clone(), value_span.start.byte, value_span.end.byte),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_traversal_whose_dot_has_no_name_keeps_the_argument() {
        let src = "data \"a\" \"%[1]s\" {\n  x = data.b.%[1]s.r[0].id\n  y = 1\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        // The rest of the line is skipped; the argument is kept with the traversal up to
        // its dot as a placeholder of unknown value.
        assert_eq!(
            edit.apply(src),
            format!("data \"a\" \"%[1]s\" {{\n{}\n  y = 1\n}}\n", " ".repeat(26))
        );
        let at = src.find("data.b").expect("value");
        assert_eq!(unknown_items(&edit), vec![("x".into(), at, at + 7)]);
        // An operator's right operand is dropped and the left one kept: hcl-edit is
        // shown the argument without the rest of its line, as is a conditional's
        // condition whose result fails.
        let src = "x = 1 + a.%s\ny = 1 * 2 ? b.%s : 3 # c\nz = 1\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        assert!(edit.kept_items().is_empty());
        assert_eq!(
            edit.apply(src),
            "x = 1       \ny = 1 * 2            # c\nz = 1\n"
        );
        // As the left operand, the placeholder is the value.
        assert!(check(b"x = a.%s + 1\ny = 1\n", "main.tf").1.recovered());
        // After the first error a placeholder is silent, and `%t` reads as an operator and
        // a name: the argument is kept, its range through the name.
        let src = "x = a.%s\ny = %t\nz = 1\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        assert_eq!(
            edit.apply(src),
            format!("{}\n{}\nz = 1\n", " ".repeat(8), " ".repeat(6))
        );
    }

    #[test]
    fn a_placeholder_inside_a_constructor_call_or_template_keeps_the_argument() {
        let src = "r \"a\" \"b\" {\n  t = {\n    n = a.%s.id\n  }\n  l = [a.b, c.%s]\n  f = f(1, d.%s)\n  s = [\"${e.%s}\"]\n  y = 1\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        // Each nameless dot is reported, in recovery mode too.
        assert_eq!(diags.len(), 4, "{diags:?}");
        assert!(edit.recovered());
        let names: Vec<_> = unknown_items(&edit)
            .into_iter()
            .map(|(n, _, _)| n)
            .collect();
        assert_eq!(names, ["t", "l", "f", "s"]);
        assert!(edit.apply(src).ends_with("\n  y = 1\n}\n"));
        // The tuple's range is the value's, through its closing bracket.
        let at = src.find("[a.b").expect("tuple");
        assert_eq!(
            unknown_items(&edit)[1].1..unknown_items(&edit)[1].2,
            at..at + 11
        );
        // An object drops a failing key, and a failing value that is not the traversal's
        // placeholder: hcl-edit is shown the object without that item and what follows.
        let src = "x = {\n  a = 1\n  , b = 1\n}\ny = {\n  a = 1, b = \"${b.%s}\", c = 2 }\nz = 1\n";
        let edit = check(src.as_bytes(), "main.tf").1;
        assert!(edit.recovered());
        assert!(edit.kept_items().is_empty());
        assert_eq!(
            edit.apply(src),
            "x = {\n  a = 1\n          }\ny = {\n  a = 1,                      }\nz = 1\n"
        );
        // One whose recovery runs past its closer is cut short elsewhere.
        assert!(!check(b"x = [a.%s\ny = 1\n", "main.tf").1.recovered());
    }

    #[test]
    fn a_placeholder_inside_a_value_is_not_what_the_value_evaluates_to() {
        let src = "r \"a\" \"b\" {\n  l = [a.%s]\n  w = a.%s\n  s = \"${b.%s}\"\n}\n";
        let (_, edit) = check(src.as_bytes(), "main.tf");
        let evaluated: Vec<_> = edit
            .kept_items()
            .iter()
            .map(|k| match k {
                KeptItem::Unknown {
                    name, evaluated, ..
                } => (name.as_str(), evaluated.is_some()),
                other => panic!("{other:?}"),
            })
            .collect();
        // A tuple around it is a tuple; the placeholder alone, or a template around it
        // (which evaluates its parts), is unknown with what evaluating it reports.
        assert_eq!(evaluated, [("l", false), ("w", true), ("s", true)]);
    }

    #[test]
    fn a_for_expression_that_fails_keeps_its_argument() {
        let src = "r \"a\" \"b\" {\n  x = [for i in v.a_%[1]s : {\n    a = i\n  }]\n  y = 1\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        // The placeholder runs from the bracket through the one its recovery stopped at.
        let at = src.find('[').expect("for");
        let end = src.find("}]").expect("end") + 2;
        assert_eq!(unknown_items(&edit), vec![("x".into(), at, end)]);
    }

    #[test]
    fn a_tuple_cut_short_keeps_its_failing_item_last() {
        assert_eq!(tuple_cut("[a.b, x.%s]", false), Some((6, 6..8)));
        // An invalid token is read as the file's parse read it: outside recovery mode the
        // placeholder `%` fails; in it, `%[4]` is the placeholder modulo `[4]`, which does
        // not, and `s` is a missing separator.
        assert_eq!(tuple_cut("[a, %[4]s]", true), Some((4, 4..5)));
        assert_eq!(tuple_cut("[%[4]s]", false), None);
        // In recovery mode `%s` is the placeholder modulo `s`: the tuple is read whole.
        let holding = |src| {
            tuple_read(src, false)
                .filter(|read| read.cut.is_none())
                .map(|read| {
                    read.holding
                        .iter()
                        .map(|r| (r.start, r.end))
                        .collect::<Vec<_>>()
                })
        };
        assert_eq!(holding("[{ k = %s }, a.b]"), Some(vec![(1, 11)]));
        assert_eq!(holding("[a.b]"), Some(vec![]));
        // A template, a tuple or an index around a placeholder is kept whole.
        assert_eq!(tuple_cut("[\"${x.%s}\"]", false), Some((1, 1..10)));
        assert_eq!(tuple_cut("[a, [x.%s]]", false), Some((4, 4..10)));
        assert_eq!(tuple_cut("[x.y[a.%s]]", false), Some((1, 1..10)));
        assert_eq!(tuple_cut("[a.b]", false), None);
        assert_eq!(tuple_cut("x.%s", false), None);
        // Items before a cut can hold a placeholder too (`%d` the placeholder modulo `d`).
        let read = tuple_read("[%d, a.b, x.%s]", false).expect("a tuple");
        assert_eq!(read.cut, Some((10, 10..12)));
        let spans = |read: &TupleRead| -> Vec<(usize, usize)> {
            read.holding.iter().map(|r| (r.start, r.end)).collect()
        };
        assert_eq!(spans(&read), vec![(1, 3)]);
        let read = tuple_read("[%[3]s]", false).expect("a tuple");
        assert_eq!((read.cut.clone(), read.separator), (None, Some(5)));
        assert_eq!(spans(&read), vec![(1, 5)]);
    }

    #[test]
    fn a_heredoc_the_file_ends_in_keeps_its_argument_and_block() {
        let src = "r \"a\" \"b\" {\n  x = <<EOT\n%[3]sEOT\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(
            edit.apply(src),
            format!("r \"a\" \"b\" {{\n{}\n}}", " ".repeat(src.len() - 12))
        );
        assert_eq!(unknown_items(&edit).len(), 1);
        // So is a quoted one broken by a line break (the scanner's error is shown).
        let src = b"v \"x\" {\n  d = \"never closed\n";
        let (diags, edit) = check(src, "main.tf");
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(edit.recovered());
        // So is one with interpolations: its value is not read here.
        let (_, edit) = check(b"x = <<EOT\n${a}\n", "main.tf");
        assert!(edit.recovered());
        assert_eq!(unknown_items(&edit).len(), 1);
    }

    #[test]
    fn a_label_without_its_closing_quote_ends_at_the_line_break() {
        let src = "x \"a\nb\" {\n  c = 1\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        // The scanner's line break, and the parser's.
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(edit.recovered());
        assert_eq!(edit.apply(src), "x \"a\"   {\n  c = 1\n}\n");
        assert_eq!(edit.label_at(2), Some("a"));
        // The next quote is the label's end, the rest of its line more labels; the file
        // ending in a label ends the header, and the block is kept with an empty body.
        let src = "o \"o {\n  v = 1\n}\n\nv \"v\" {\n  d = 1\n}\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert!(edit.recovered(), "{diags:?}");
        match edit.kept_items() {
            [KeptItem::Block { kind, labels, .. }] => {
                let texts: Vec<_> = labels.iter().map(|(l, _)| l.as_str()).collect();
                assert_eq!((kind.as_str(), texts), ("o", vec!["o {", "v", " {"]));
            }
            other => panic!("{other:?}"),
        }
    }

    fn first(src: &str) -> Option<(String, String)> {
        first_error(src.as_bytes(), "main.tf").map(|d| {
            let r = d.range.expect("a range");
            (d.summary, r.to_string())
        })
    }

    #[test]
    fn provider_functions_are_namespaced_calls() {
        assert_eq!(
            first("locals {\n  a = provider::aws::arn_parse(var.x)\n}\n"),
            None
        );
        assert_eq!(first("x = \"${provider::a::b(1)}\"\n"), None);
        // Terraform 1.15.5's own words and ranges for the two errors a namespace can have.
        assert_eq!(
            first("locals {\n  a = provider::1()\n}\n"),
            Some(("Missing function name".into(), "main.tf:2,17-18".into()))
        );
        assert_eq!(
            first("locals {\n  b = provider::aws::f\n  c = 1\n}\n"),
            Some(("Missing open parenthesis".into(), "main.tf:2,23-3,1".into()))
        );
    }

    fn hcl_edit_reads(src: &str) -> String {
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert!(diags.is_empty(), "{diags:?}");
        let text = edit.apply(src);
        assert_eq!(text.len(), src.len());
        if let Err(e) = hcl_edit::parser::parse_body(&text) {
            panic!("hcl-edit refuses {text:?}: {e}");
        }
        text.into_owned()
    }

    #[test]
    fn line_breaks_before_operators_in_for_expressions_reach_hcl_edit_as_spaces() {
        let src = "x = { for k, v in m : k => v\n  if v != null }\ny = [for x in l : x # c\n  == 1 ? \"a\"\n  : \"b\"]\nz = { for k, v in m : k => (v\n + 1) }\n";
        assert_eq!(
            hcl_edit_reads(src),
            "x = { for k, v in m : k => v   if v != null }\ny = [for x in l : x       == 1 ? \"a\"   : \"b\"]\nz = { for k, v in m : k => (v  + 1) }\n"
        );
        // The newline ending a heredoc stays: hcl-edit needs it.
        let heredoc = "x = [for s in l : <<EOT\n${s}\nEOT\n  ]\n";
        assert_eq!(hcl_edit_reads(heredoc), heredoc);
        // An object constructor's newlines separate items and are kept.
        assert_eq!(hcl_edit_reads("x = {\n  a = 1\n}\n"), "x = {\n  a = 1\n}\n");
    }

    #[test]
    fn repeated_object_keys_show_hcl_edit_only_the_last() {
        assert_eq!(
            hcl_edit_reads("x = { a = 1, b = 2, a = 3 }\n"),
            "x = {        b = 2, a = 3 }\n"
        );
        assert_eq!(
            hcl_edit_reads("x = {\n  a = 1 # one\n  \"a\" = 2\n  a = 3\n}\n"),
            "x = {\n                \"a\" = 2\n  a = 3\n}\n"
        );
        assert_eq!(
            expression_for_hcl_edit("{ (k) = [1,\n2], ( k ) = 3 }"),
            "{               ( k ) = 3 }"
        );
    }

    #[test]
    fn a_tuple_keeps_an_object_that_dropped_a_nested_item_and_skips_the_rest() {
        // The inner object keeps the traversal's placeholder, the outer one drops `g`, and
        // the tuple keeps `{}` as its last item: hcl-edit is shown `[{}]`.
        let src = "a = [{\n  g = {\n    i = x.%[2]s.id\n  }\n}, 2]\nb = 1\n";
        let (diags, edit) = check(src.as_bytes(), "main.tf");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(edit.recovered());
        assert!(edit.kept_items().is_empty());
        let shown = edit.apply(src);
        assert_eq!(shown.split_whitespace().collect::<String>(), "a=[{}]b=1");
    }
}
