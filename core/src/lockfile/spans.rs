//! Byte spans of a parsed file turned into diagnostic ranges, plus HCL's small range rules.

use crate::{LineIndex, Range};
use std::ops;

/// The text of one file being decoded and its name, for building `Range`s.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub(crate) filename: &'a str,
    pub(crate) text: &'a str,
    pub(crate) lines: &'a LineIndex,
}

impl<'a> Source<'a> {
    /// The range of `span`, clamped to the text so bad spans never panic.
    pub(crate) fn range(&self, span: ops::Range<usize>) -> Range {
        let end = span.end.min(self.text.len());
        let start = span.start.min(end);
        self.lines.range(self.filename, self.text, start..end)
    }

    /// The zero-length range at byte `at` (HCL's "missing item" ranges).
    pub(crate) fn point(&self, at: usize) -> Range {
        self.range(at..at)
    }

    /// The byte offset of the next `{` at or after `from`, skipping whitespace and comments
    /// (the block header's open brace).
    pub(crate) fn open_brace_after(&self, from: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut i = from;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => return Some(i),
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'#' => i = skip_line(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = self.text[i + 2..]
                        .find("*/")
                        .map_or(bytes.len(), |p| i + 2 + p + 2)
                }
                _ => return None,
            }
        }
        None
    }
}

fn skip_line(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p + 1)
}
