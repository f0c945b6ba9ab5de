//! The top-level blocks of a native file written before its first syntax error. hclsyntax
//! reads everything before that error as it reads a valid file, so those blocks are in the
//! body Terraform decodes whatever its recovery makes of the rest. When tflock cannot show
//! hcl-edit that recovery, it decodes these blocks alone rather than none of the file.

use crate::diag::Diagnostic;
use crate::hcl_syntax::token_dump;

/// The byte offset just after the last top-level block of `src` (file `name`) that ends,
/// with its line, before the first error of `syntax` (hclsyntax's diagnostics of the same
/// text); `None` when there is no such block or an error has no position.
pub(super) fn certain_prefix(name: &str, src: &str, syntax: &[Diagnostic]) -> Option<usize> {
    let mut first_error = usize::MAX;
    for d in syntax.iter().filter(|d| d.is_error()) {
        first_error = first_error.min(d.range.as_ref()?.start.byte);
    }
    let tokens = token_dump(src.as_bytes(), name);
    let mut depth = 0usize;
    let mut cut = None;
    for (i, (kind, _, range)) in tokens.iter().enumerate() {
        if range.end.byte > first_error {
            break;
        }
        match kind.as_str() {
            "TokenOBrace" | "TokenTemplateInterp" | "TokenTemplateControl" => depth += 1,
            "TokenCBrace" | "TokenTemplateSeqEnd" => {
                depth = depth.checked_sub(1)?;
                // A block ends with its line: the newline must come before the error too.
                let ends_line = tokens.get(i + 1).is_some_and(|(next, _, r)| {
                    matches!(next.as_str(), "TokenNewline" | "TokenEOF")
                        && r.end.byte <= first_error
                });
                if depth == 0 && ends_line {
                    cut = Some(range.end.byte);
                }
            }
            _ => {}
        }
    }
    cut
}

/// `src` with everything from `cut` on blanked (line breaks kept), for hcl-edit to read the
/// blocks before it at their own offsets.
pub(super) fn blank_from(src: &str, cut: usize) -> String {
    let mut bytes = src.as_bytes().to_vec();
    for b in bytes.iter_mut().skip(cut) {
        if *b != b'\n' {
            *b = b' ';
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(src: &str) -> Option<usize> {
        let syntax = crate::hcl_syntax::diagnostics(src.as_bytes(), "f.tf");
        certain_prefix("f.tf", src, &syntax)
    }

    #[test]
    fn cuts_after_the_last_block_closed_before_the_error() {
        let src = "a {\n  x = \"${1}\"\n}\nb {\n  y = {{\n}\n";
        assert_eq!(cut(src), Some(src.find("}\nb").unwrap() + 1));
        assert_eq!(cut("b {\n  y = {{\n}\n"), None);
        assert_eq!(cut("a {}\n"), Some(4));
    }
}
