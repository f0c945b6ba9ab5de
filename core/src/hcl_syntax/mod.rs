//! hclsyntax's syntax diagnostics for native-syntax (`.tf`, `.terraform.lock.hcl`) files.
//!
//! hcl-edit and hclsyntax disagree on what is valid and word their errors differently, and a
//! syntax error is the error users meet most. This module re-derives, without building a
//! syntax tree, what `hclsyntax.ParseConfig` reports: the scanner's token stream (`scan`),
//! its invalid-token checks (`invalid`), then the recursive-descent parser's error paths and
//! recovery (`parser`, `template`), so summaries, details and ranges are hclsyntax's own.

mod body;
mod collections;
mod escapes;
mod expr;
mod grapheme;
mod invalid;
mod parser;
mod scan;
mod template;
mod token;

use crate::diag::{Diagnostic, Range};
use token::Span;

/// Every diagnostic `hclsyntax.ParseConfig` reports for `src` read as `filename`, in order.
/// Without the `hclsyntax-diagnostics` feature (the npm package, to stay within its size
/// budget) nothing: hcl-edit's verdict and generic syntax errors stand alone.
pub fn diagnostics(src: &[u8], filename: &str) -> Vec<Diagnostic> {
    if !cfg!(feature = "hclsyntax-diagnostics") {
        return Vec::new();
    }
    let (tokens, data, _) = scan::scan(src);
    let mut diags = invalid::check(&tokens, data, filename);
    diags.extend(parser::parse(&tokens, data, filename));
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
