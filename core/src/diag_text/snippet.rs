//! The source snippet under a diagnostic's location line, as Terraform's JSON view builds it
//! (`views/json.NewDiagnostic`, `snippetFromRange`) and its text views print it.

use super::context::context_string;
use crate::diag::{Pos, Range};

/// A diagnostic's place as Terraform shows it: the highlighted range (empty ranges widened
/// by a byte) and, when the file's text is known, the snippet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The highlighted range, which the location line names.
    pub range: Range,
    /// The code around it, when the host has the file's text.
    pub snippet: Option<Snippet>,
}

/// The lines of code a diagnostic is shown with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// What names the place (`resource "aws_instance" "x"`), if anything.
    pub context: Option<String>,
    /// The number of the snippet range's first line (the lines shown count on from it).
    pub start_line: usize,
    /// The lines that overlap the snippet range, joined by `\n`.
    pub code: String,
    /// Byte offset into `code` where the highlight starts.
    pub highlight_start: usize,
    /// Byte offset into `code` where the highlight ends.
    pub highlight_end: usize,
}

/// `hcl.RangeOver`: the range covering both, an empty one ignored.
fn range_over(a: &Range, b: &Range) -> Range {
    if a.start.byte == a.end.byte {
        return b.clone();
    }
    if b.start.byte == b.end.byte {
        return a.clone();
    }
    Range {
        filename: a.filename.clone(),
        start: if a.start.byte < b.start.byte {
            a.start
        } else {
            b.start
        },
        end: if a.end.byte > b.end.byte {
            a.end
        } else {
            b.end
        },
    }
}

/// Widens an empty range by one byte and column, as Terraform does before showing it.
fn widened(mut r: Range) -> Range {
    if r.start.byte == r.end.byte {
        r.end.byte += 1;
        r.end.column += 1;
    }
    r
}

/// Where a diagnostic with `subject` (and the wider `context`, if it has one) is shown,
/// `src` being the text of the subject's file if the host has it.
pub fn locate(subject: &Range, context: Option<&Range>, src: Option<&[u8]>) -> Located {
    let mut highlight = subject.clone();
    // Some diagnostics leave the end unset (Go's zero position).
    if highlight.end
        == (Pos {
            line: 0,
            column: 0,
            byte: 0,
        })
    {
        highlight.end = highlight.start;
    }
    let snippet_range = range_over(context.unwrap_or(&highlight), &highlight);
    let snippet_range = widened(snippet_range);
    let highlight = widened(highlight);
    let snippet = src.map(|src| snippet(src, &highlight, &snippet_range));
    Located {
        range: highlight,
        snippet,
    }
}

/// The lines of `src` as `bufio.ScanLines` splits them: byte ranges without the line break
/// (nor a carriage return before it); no empty last line after a final line break.
fn lines(src: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= src.len() {
            return None;
        }
        let start = at;
        let (mut end, next) = match src[at..].iter().position(|&b| b == b'\n') {
            Some(i) => (at + i, at + i + 1),
            None => (src.len(), src.len()),
        };
        if end > start && src[end - 1] == b'\r' {
            end -= 1;
        }
        at = next;
        Some((start, end))
    })
}

/// `hcl.Range.Overlaps` for byte ranges: an empty one overlaps nothing, and a range's end
/// counts as inside the other (so a snippet ending at a line's start takes that line).
fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    let contains = |r: (usize, usize), o: usize| o >= r.0 && o < r.1;
    if a.0 == a.1 || b.0 == b.1 {
        return false;
    }
    contains(a, b.0) || contains(a, b.1) || contains(b, a.0) || contains(b, a.1)
}

fn snippet(src: &[u8], highlight: &Range, snippet_range: &Range) -> Snippet {
    let wanted = (snippet_range.start.byte, snippet_range.end.byte);
    let mut code: Vec<u8> = Vec::new();
    let mut code_start = 0;
    for (from, to) in lines(src) {
        if overlaps((from, to), wanted) {
            if code_start == 0 && code.is_empty() {
                code_start = from;
            }
            code.extend_from_slice(&src[from..to]);
            code.push(b'\n');
        }
    }
    if code.last() == Some(&b'\n') {
        code.pop();
    }
    let code = String::from_utf8_lossy(&code).into_owned();
    let len = code.len() as i64;
    let start = highlight.start.byte as i64 - code_start as i64;
    let end = start + (highlight.end.byte as i64 - highlight.start.byte as i64);
    let clamp = |v: i64| v.clamp(0, len) as usize;
    let offset = highlight.start.byte.checked_sub(1);
    let context = context_string(&highlight.filename, src, offset);
    Snippet {
        context: (!context.is_empty()).then_some(context),
        start_line: snippet_range.start.line,
        code,
        highlight_start: clamp(start),
        highlight_end: clamp(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(src: &str, from: usize, to: usize) -> Range {
        Range::from_span("main.tf", src, from..to)
    }

    #[test]
    fn a_range_ending_at_a_line_start_takes_that_line_too() {
        let src = "a = \"x\n}\nb = 1\n";
        // The quoted newline: from the `x` through the line break.
        let r = range(src, 5, 7);
        let s = locate(&r, None, Some(src.as_bytes())).snippet.unwrap();
        assert_eq!(s.code, "a = \"x\n}");
        assert_eq!((s.highlight_start, s.highlight_end), (5, 7));
        assert_eq!(s.start_line, 1);
    }

    #[test]
    fn empty_lines_inside_a_snippet_are_left_out() {
        let src = "a {\n\n  b = 1\n}\n";
        let s = locate(&range(src, 0, src.len() - 1), None, Some(src.as_bytes()))
            .snippet
            .unwrap();
        assert_eq!(s.code, "a {\n  b = 1\n}");
    }

    #[test]
    fn an_empty_range_at_the_end_of_the_file_is_widened_past_it() {
        let src = "a = 1\nb = {";
        let at = src.len();
        let located = locate(&range(src, at, at), None, Some(src.as_bytes()));
        assert_eq!(located.range.end.byte, at + 1);
        let s = located.snippet.unwrap();
        assert_eq!(s.code, "b = {");
        assert_eq!((s.highlight_start, s.highlight_end), (5, 5));
    }

    #[test]
    fn the_context_range_widens_the_snippet_and_carriage_returns_go() {
        let src = "block \"x\" {\r\n  y = 1 =\r\n}\r\n";
        let subject = range(src, 21, 22);
        let context = range(src, 0, 22);
        let s = locate(&subject, Some(&context), Some(src.as_bytes()))
            .snippet
            .unwrap();
        assert_eq!(s.code, "block \"x\" {\n  y = 1 =");
        assert_eq!(s.context.as_deref(), Some("block \"x\""));
    }
}
