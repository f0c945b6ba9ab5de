//! hclparse's file cache as Terraform's loaders meet it: one parser serves a whole command,
//! and a file it parsed before comes back from the cache without the diagnostics parsing
//! it gave. So a file's syntax errors are reported the first time it is loaded only: a
//! module two calls load reports them once, and `terraform init`'s module installer, which
//! loads the root again after the early load did, reports the root's decoding problems
//! but not its (or its test files') syntax errors.

use crate::collections::SortedSet;
use crate::config::load::parse_syntax;
use crate::diag::{Diagnostic, Diagnostics};

/// What parsing each of `files` (name, bytes) reports, decoding aside: hclsyntax's and
/// HCL JSON's diagnostics, which a cached file no longer carries.
pub(crate) fn syntax_diagnostics<'a>(
    files: impl Iterator<Item = (&'a str, &'a [u8])>,
) -> Diagnostics {
    let mut out = Diagnostics::new();
    for (name, bytes) in files {
        parse_syntax(name, bytes, &mut out);
    }
    out
}

/// `own` without the syntax diagnostics (`syntax`) of the files `parsed` already holds;
/// those files are then parsed.
pub(crate) fn without_cached(
    mut own: Diagnostics,
    syntax: &Diagnostics,
    parsed: &mut SortedSet<String>,
) -> Diagnostics {
    let file = |d: &Diagnostic| d.range.as_ref().map(|r| r.filename.clone());
    let cached: Vec<&Diagnostic> = syntax
        .iter()
        .filter(|d| file(d).is_some_and(|f| parsed.contains(&f)))
        .collect();
    // One copy each: a placeholder hclsyntax kept reports its parse errors again when
    // decoding evaluates it, and that copy is the decoder's, not the cached parse's.
    for d in cached {
        if let Some(at) = own.0.iter().position(|o| o == d) {
            own.0.remove(at);
        }
    }
    parsed.extend(syntax.iter().filter_map(file));
    own
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_syntax_errors_are_reported_once() {
        let syntax = syntax_diagnostics([("m/a.tf", &b"x {\n"[..])].into_iter());
        assert!(syntax.has_errors());
        let mut decoded = syntax.clone();
        decoded.push(Diagnostic::error("Unsupported block type", "d"));
        let mut parsed = SortedSet::new();
        let first = without_cached(decoded.clone(), &syntax, &mut parsed);
        assert_eq!(first, decoded);
        let again = without_cached(decoded, &syntax, &mut parsed);
        assert_eq!(again.0.len(), 1);
        assert_eq!(again.0[0].summary, "Unsupported block type");
    }
}
