//! Diagnostics as values, shaped like Terraform's `tfdiags`/HCL diagnostics so every host
//! (CLI, wasm, Worker) can render them the same way.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Stops the operation.
    Error,
    /// Reported, but the operation goes on.
    Warning,
}

/// A position in a source file: 1-based line and column (in characters), 0-based byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in Unicode grapheme-ish characters as HCL does (we count chars).
    pub column: usize,
    /// 0-based byte offset into the file.
    pub byte: usize,
}

impl Pos {
    /// The position of byte offset `byte` within `src` (clamped to the end).
    pub fn from_offset(src: &str, byte: usize) -> Pos {
        let byte = byte.min(src.len());
        let mut line = 1;
        let mut line_start = 0;
        for (i, b) in src.as_bytes()[..byte].iter().enumerate() {
            if *b == b'\n' {
                line += 1;
                line_start = i + 1;
            }
        }
        // A byte offset inside a multi-byte char counts up to that char.
        let mut end = byte;
        while end > line_start && !src.is_char_boundary(end) {
            end -= 1;
        }
        let column = src[line_start..end].chars().count() + 1;
        Pos { line, column, byte }
    }
}

/// Where each line of one text starts, and how many UTF-8 continuation bytes precede every
/// `STRIDE`th byte, so that a position costs a binary search and a short count:
/// [`Pos::from_offset`] scans from the start, which made loading a large file quadratic (a
/// generated `.tf.json` is often a single line, so line starts alone are not enough).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    continuations: Vec<usize>,
}

/// Bytes between two continuation-byte checkpoints of a [`LineIndex`].
const STRIDE: usize = 256;

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

impl LineIndex {
    /// Indexes the lines of `src`.
    pub fn new(src: &str) -> LineIndex {
        let bytes = src.as_bytes();
        let newlines = bytes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1);
        let mut continuations = Vec::with_capacity(bytes.len() / STRIDE + 1);
        let mut seen = 0;
        continuations.push(0);
        for chunk in bytes.chunks(STRIDE) {
            seen += chunk.iter().filter(|&&b| is_continuation(b)).count();
            continuations.push(seen);
        }
        LineIndex {
            starts: std::iter::once(0).chain(newlines).collect(),
            continuations,
        }
    }

    /// How many continuation bytes `src[..at]` holds.
    fn continuations_before(&self, src: &[u8], at: usize) -> usize {
        let k = at / STRIDE;
        self.continuations[k]
            + src[k * STRIDE..at]
                .iter()
                .filter(|&&b| is_continuation(b))
                .count()
    }

    /// The position of byte offset `byte` within `src` (the text this index was built
    /// from), the same as [`Pos::from_offset`].
    pub fn pos(&self, src: &str, byte: usize) -> Pos {
        let byte = byte.min(src.len());
        let line = self.starts.partition_point(|&s| s <= byte).max(1);
        let line_start = self.starts[line - 1];
        let mut end = byte;
        while end > line_start && !src.is_char_boundary(end) {
            end -= 1;
        }
        let bytes = src.as_bytes();
        let continuations =
            self.continuations_before(bytes, end) - self.continuations_before(bytes, line_start);
        Pos {
            line,
            column: end - line_start - continuations + 1,
            byte,
        }
    }

    /// The range covering bytes `span` of `src`, a file called `filename`.
    pub fn range(&self, filename: &str, src: &str, span: std::ops::Range<usize>) -> Range {
        Range {
            filename: filename.to_string(),
            start: self.pos(src, span.start),
            end: self.pos(src, span.end),
        }
    }
}

/// A span of a named file, like `hcl.Range`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Range {
    /// The file name as the host named it.
    pub filename: String,
    /// First position (inclusive).
    pub start: Pos,
    /// Last position (exclusive).
    pub end: Pos,
}

impl Range {
    /// The range covering bytes `span` of `src`, a file called `filename`.
    pub fn from_span(filename: &str, src: &str, span: std::ops::Range<usize>) -> Range {
        Range {
            filename: filename.to_string(),
            start: Pos::from_offset(src, span.start),
            end: Pos::from_offset(src, span.end),
        }
    }

    /// `hcl.RangeBetween`: from this range's start through `end`'s end.
    pub fn to(&self, end: &Range) -> Range {
        Range {
            filename: self.filename.clone(),
            start: self.start,
            end: end.end,
        }
    }

    /// The one-column range HCL builds from a token's start and a byte offset into it: the
    /// offset is added to the column as bytes, and the range ends one column on, even past
    /// the end of the line or of the file (Go's `errPos.Column += errOfs` arithmetic).
    pub fn offset_into_token(filename: &str, src: &str, token: usize, at: usize) -> Range {
        let mut start = Pos::from_offset(src, token);
        start.column += at - token;
        start.byte += at - token;
        let mut end = start;
        end.column += 1;
        end.byte += 1;
        Range {
            filename: filename.to_string(),
            start,
            end,
        }
    }
}

/// Renders like Go's `hcl.Range.String()`: `main.tf:1,1-15` or `main.tf:1,1-2,3`.
impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start.line == self.end.line {
            write!(
                f,
                "{}:{},{}-{}",
                self.filename, self.start.line, self.start.column, self.end.column
            )
        } else {
            write!(
                f,
                "{}:{},{}-{},{}",
                self.filename, self.start.line, self.start.column, self.end.line, self.end.column
            )
        }
    }
}

/// One problem report: Terraform's `Diagnostic { severity, summary, detail, subject }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// One-line summary, exactly Terraform's text where Terraform has one.
    pub summary: String,
    /// Longer explanation (may be empty).
    pub detail: String,
    /// Where in which file, when the problem has a source location (HCL's `Subject`).
    pub range: Option<Range>,
    /// A wider range around `range` that the source snippet shows (HCL's `Context`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Range>,
}

impl Diagnostic {
    /// An error diagnostic without a source range.
    pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            range: None,
            context: None,
        }
    }

    /// A warning diagnostic without a source range.
    pub fn warning(summary: impl Into<String>, detail: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(summary, detail)
        }
    }

    /// The same diagnostic pointing at `range`.
    pub fn with_range(mut self, range: Range) -> Diagnostic {
        self.range = Some(range);
        self
    }

    /// The same diagnostic with `context` as the wider range its snippet shows.
    pub fn with_context(mut self, context: Range) -> Diagnostic {
        self.context = Some(context);
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Renders as Terraform's CLI does with `-no-color` when it has no source text and does not
/// wrap (`crate::diag_text` renders with both): `Error: <summary>`, the location, the detail.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        write!(f, "{word}: {}\n\n", self.summary)?;
        if let Some(range) = &self.range {
            write!(
                f,
                "  on {} line {}:\n  (source code not available)\n\n",
                range.filename, range.start.line
            )?;
        }
        f.write_str(&self.detail)
    }
}

/// An ordered collection of diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// An empty collection.
    pub fn new() -> Diagnostics {
        Diagnostics(Vec::new())
    }

    /// Appends one diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    /// Appends all of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(other);
    }

    /// True if any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// The diagnostics in the order Terraform's text views show them
    /// (`tfdiags.Diagnostics.Sort`): warnings before errors, those without a range before
    /// those with one, then by file (fewer `/`-separated parts first, then by name), start
    /// byte and end byte; diagnostics alike in all of these keep their order. (Its `-json`
    /// views keep the order they were found in.)
    pub fn in_display_order(&self) -> Vec<&Diagnostic> {
        let mut out: Vec<&Diagnostic> = Vec::with_capacity(self.0.len());
        // An insertion sort: stable, and lists of diagnostics are short.
        for d in &self.0 {
            let at = out
                .iter()
                .rposition(|o| display_order(o, d) != std::cmp::Ordering::Greater)
                .map_or(0, |i| i + 1);
            out.insert(at, d);
        }
        out
    }

    /// What Terraform's text views print, in [`Self::in_display_order`]: warnings with a
    /// source range and one summary folded into the first of them, whose detail ends with
    /// "(and one more similar warning elsewhere)" or "(and N more similar warnings
    /// elsewhere)" (`ConsolidateWarnings(1)`); errors and range-less warnings as they are.
    pub fn for_text_view(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::with_capacity(self.0.len());
        // Summary → (index in `out` of the first such warning, how many more).
        let mut groups: Vec<(&str, usize, usize)> = Vec::new();
        for d in self.in_display_order() {
            if d.is_error() || d.range.is_none() {
                out.push(d.clone());
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == d.summary) {
                Some(g) => g.2 += 1,
                None => {
                    groups.push((&d.summary, out.len(), 0));
                    out.push(d.clone());
                }
            }
        }
        for (_, at, more) in groups {
            let note = match more {
                0 => continue,
                1 => "(and one more similar warning elsewhere)".to_string(),
                n => format!("(and {n} more similar warnings elsewhere)"),
            };
            let d = &mut out[at];
            d.detail = if d.detail.is_empty() {
                note
            } else {
                format!("{}\n\n{note}", d.detail)
            };
        }
        out
    }
}

/// `sortDiagnostics.Less` as an ordering (`Equal` where it leaves the order as found): see
/// [`Diagnostics::in_display_order`].
pub fn display_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let warning_first = |d: &Diagnostic| d.severity != Severity::Warning;
    let order = warning_first(a).cmp(&warning_first(b));
    if order != Ordering::Equal {
        return order;
    }
    match (&a.range, &b.range) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) if x.filename != y.filename => {
            let parts = |r: &Range| r.filename.matches('/').count();
            parts(x)
                .cmp(&parts(y))
                .then_with(|| x.filename.cmp(&y.filename))
        }
        (Some(x), Some(y)) => x
            .start
            .byte
            .cmp(&y.start.byte)
            .then(x.end.byte.cmp(&y.end.byte)),
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_views_fold_ranged_warnings_of_one_summary_into_the_first() {
        let at = |line: usize| Range {
            filename: "main.tf".to_string(),
            start: Pos {
                line,
                column: 1,
                byte: line * 10,
            },
            end: Pos {
                line,
                column: 2,
                byte: line * 10 + 1,
            },
        };
        let mut d = Diagnostics::new();
        for line in [3, 1, 2] {
            d.push(Diagnostic::warning("Dup", format!("line {line}")).with_range(at(line)));
        }
        d.push(Diagnostic::warning("Other", "").with_range(at(4)));
        d.push(Diagnostic::warning("Other", "").with_range(at(5)));
        d.push(Diagnostic::warning("Dup", "no range"));
        d.push(Diagnostic::error("Dup", "an error").with_range(at(6)));
        let shown: Vec<(String, String)> = d
            .for_text_view()
            .into_iter()
            .map(|d| (d.summary, d.detail))
            .collect();
        let pair = |s: &str, d: &str| (s.to_string(), d.to_string());
        assert_eq!(
            shown,
            vec![
                pair("Dup", "no range"),
                pair("Dup", "line 1\n\n(and 2 more similar warnings elsewhere)"),
                pair("Other", "(and one more similar warning elsewhere)"),
                pair("Dup", "an error"),
            ]
        );
    }

    #[test]
    fn text_views_show_warnings_first_then_by_file_and_position() {
        // Terraform's own test data `invalid-import-files`: `terraform providers` shows
        // these in file order, not in the order its loader found them.
        let at = |file: &str, line: usize, byte: usize| Range {
            filename: file.to_string(),
            start: Pos {
                line,
                column: 1,
                byte,
            },
            end: Pos {
                line,
                column: 9,
                byte: byte + 8,
            },
        };
        let mut found = Diagnostics::new();
        let mut add = |summary: &str, r: Option<Range>, warning: bool| {
            let d = if warning {
                Diagnostic::warning(summary, "")
            } else {
                Diagnostic::error(summary, "")
            };
            found.push(match r {
                Some(r) => d.with_range(r),
                None => d,
            });
        };
        add("Duplicate resource", Some(at("b.tf", 14, 200)), false);
        add("Duplicate import", Some(at("b.tf", 11, 150)), false);
        add(
            "Invalid import provider argument",
            Some(at("a.tf", 9, 90)),
            false,
        );
        add("In a module", Some(at("m/a.tf", 1, 0)), false);
        add("Deprecated", Some(at("z.tf", 1, 0)), true);
        add("No range", None, false);
        add("Same place, found first", Some(at("b.tf", 11, 150)), false);
        let shown: Vec<&str> = found
            .in_display_order()
            .iter()
            .map(|d| d.summary.as_str())
            .collect();
        assert_eq!(
            shown,
            [
                "Deprecated",
                "No range",
                "Invalid import provider argument",
                "Duplicate import",
                "Same place, found first",
                "Duplicate resource",
                "In a module",
            ]
        );
    }

    #[test]
    fn the_line_index_gives_the_positions_a_scan_gives() {
        let texts = [
            "",
            "\n",
            "a\nbc\n\ndé\u{1F600}f\n",
            "no newline",
            "\n\nx",
            "tab\there\r\nwindows\r\n",
        ];
        let long = format!("{}\n{}", "é€x".repeat(300), "\u{1F600}a".repeat(200));
        let texts: Vec<&str> = texts.into_iter().chain([long.as_str()]).collect();
        for src in texts {
            let index = LineIndex::new(src);
            for byte in 0..=src.len() + 2 {
                assert_eq!(
                    index.pos(src, byte),
                    Pos::from_offset(src, byte),
                    "{src:?} at {byte}"
                );
            }
        }
    }

    #[test]
    fn range_renders_like_hcl() {
        let src = "abc\ndéf\n";
        let r = Range::from_span("main.tf", src, 4..7);
        assert_eq!(r.to_string(), "main.tf:2,1-3");
        let r = Range::from_span("main.tf", src, 0..6);
        assert_eq!(r.to_string(), "main.tf:1,1-2,2");
    }
}
