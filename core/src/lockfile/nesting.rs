//! A guard in front of the HCL parser: hcl-edit 0.10 backtracks exponentially on deeply
//! nested unclosed brackets (an 844-byte fuzz input took seconds), while a lock file never
//! nests more than a block and a list. Files nesting deeper than [`MAX_NESTING`] are refused
//! before parsing.

/// The deepest bracket nesting accepted (a lock file written by Terraform uses 2).
pub const MAX_NESTING: usize = 8;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Inside `{`, `[`, `(` or a template interpolation.
    Bracket,
    /// Inside a quoted string.
    Str,
}

/// The byte offset where bracket nesting first exceeds [`MAX_NESTING`], if it does.
/// Brackets inside quoted strings and comments do not count; template interpolations do.
pub(crate) fn too_deep_at(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut stack: Vec<Mode> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let in_string = stack.last() == Some(&Mode::Str);
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                // `$${` and `%%{` are escapes for a literal `${` / `%{`, not interpolations.
                b'$' | b'%' if b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&b'{') => i += 2,
                b'"' | b'\n' => {
                    stack.pop();
                }
                b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                    stack.push(Mode::Bracket);
                    depth += 1;
                    i += 1;
                }
                _ => {}
            }
        } else {
            match c {
                b'"' => stack.push(Mode::Str),
                b'#' => i = line_end(b, i),
                b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i = text[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 1)
                }
                b'{' | b'[' | b'(' => {
                    stack.push(Mode::Bracket);
                    depth += 1;
                }
                b'}' | b']' | b')' if stack.pop().is_some() => {
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
        }
        if depth > MAX_NESTING {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn line_end(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_template_markers_are_not_interpolations() {
        let text = "x = [\"$${{{{{{{{{{\", \"%%{{{{{{{{{{\"]\n";
        assert_eq!(too_deep_at(text), None);
    }

    #[test]
    fn counts_brackets_outside_strings_and_comments() {
        assert_eq!(
            too_deep_at("provider \"x\" {\n  hashes = [\"{{{{{{{{{{\"]\n}\n"),
            None
        );
        assert_eq!(too_deep_at("# {{{{{{{{{{{{\n/* [[[[[[[[[[[ */\n"), None);
        let deep = "a = ".to_string() + &"{".repeat(MAX_NESTING + 1);
        assert_eq!(too_deep_at(&deep), Some(4 + MAX_NESTING));
        let interp = "a = \"${\"${\"${\"${\"${\"${\"${\"${\"${x}\"}\"}\"}\"}\"}\"}\"}\"}\"";
        assert!(too_deep_at(interp).is_some());
        assert_eq!(
            too_deep_at("a = [[[[[[[[1]]]]]]]]\nb = [[[[[[[[1]]]]]]]]\n"),
            None
        );
    }
}
