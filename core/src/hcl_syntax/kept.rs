//! What hclsyntax keeps of a value built around a placeholder (`[x.%s]`, `{ k = %s }`,
//! `f(x.%d)`), shown as text hcl-edit reads, so the value can be evaluated as Terraform
//! evaluates hclsyntax's tree: the items kept, each placeholder in its place.

use super::parser::Parser;
use super::scan;
use crate::diag::Diagnostic;

/// A value hclsyntax kept around placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptValue {
    /// The value's text as written.
    pub text: String,
    /// The text hcl-edit reads: what hclsyntax dropped blanked, each placeholder a `0`.
    pub shown: String,
    /// Offsets in `shown` of the `0`s inserted for placeholders that took no text.
    pub inserted: Vec<usize>,
    /// Where in `shown` each placeholder's `0` is, its range there (the token after an
    /// inserted `0` included: hclsyntax's placeholder has that token's range), and what
    /// evaluating it reports (`None`: not modelled).
    pub placeholders: Vec<(std::ops::Range<usize>, Option<Vec<Diagnostic>>)>,
}

impl KeptValue {
    /// The offset in [`KeptValue::text`] of offset `at` of [`KeptValue::shown`].
    pub fn written_at(&self, at: usize) -> usize {
        at - self.inserted.iter().filter(|&&i| i < at).count()
    }
}

/// What hclsyntax keeps of the value that starts at byte `at` of file `src` (named
/// `filename`), read outside recovery mode when `read_first`.
pub fn kept_value(src: &[u8], filename: &str, at: usize, read_first: bool) -> Option<KeptValue> {
    if !cfg!(feature = "hclsyntax-diagnostics") {
        return None;
    }
    let (tokens, data, _) = scan::scan(src);
    if data.len() != src.len() {
        return None;
    }
    let first = tokens.iter().position(|t| t.from == at)?;
    let mut p = Parser::new(&tokens, data, filename);
    p.start_at(first);
    p.recovery = !read_first;
    p.kept = Some(Vec::new());
    let (expr, _) = p.parse_expression();
    let end = expr.end.byte;
    let mut bytes = data.get(at..end)?.to_vec();
    let text = String::from_utf8(bytes.clone()).ok()?;
    for &(from, to) in &p.blanks {
        if from >= at && to <= end {
            bytes[from - at..to - at].fill(b' ');
        }
    }
    let blanked = |i: usize| p.blanks.iter().any(|&(f, t)| f < i && i < t);
    let mut logged = p.kept.take().unwrap_or_default();
    logged.sort_by_key(|(s, _)| (s.start.byte, std::cmp::Reverse(s.end.byte)));
    // An outer placeholder (a `for` expression's) stands for the ones inside it.
    let mut outer: Vec<(usize, usize, Option<Vec<Diagnostic>>)> = Vec::new();
    for (span, evaluated) in logged {
        let (from, to) = (span.start.byte, span.end.byte);
        if from < at || to > end || blanked(from) {
            continue;
        }
        if outer
            .last()
            .is_some_and(|&(f, t, _)| f <= from && to <= t && f < t)
        {
            continue;
        }
        outer.push((from, to, evaluated));
    }
    let mut shown = Vec::with_capacity(bytes.len() + outer.len());
    let (mut inserted, mut placeholders) = (Vec::new(), Vec::new());
    let mut next = 0;
    for (from, to, evaluated) in outer {
        let (from, to) = (from - at, to - at);
        shown.extend_from_slice(bytes.get(next..from)?);
        let here = shown.len();
        if from == to {
            let token = tokens.iter().find(|t| t.from == from + at);
            let width = token.map_or(0, |t| t.to - t.from);
            placeholders.push((here..here + 1 + width, evaluated));
            inserted.push(here);
            shown.push(b'0');
        } else {
            placeholders.push((here..here + to - from, evaluated));
            shown.push(b'0');
            shown.extend(bytes[from + 1..to].iter().map(|_| b' '));
        }
        next = to;
    }
    shown.extend_from_slice(bytes.get(next..)?);
    Some(KeptValue {
        text,
        shown: String::from_utf8(shown).ok()?,
        inserted,
        placeholders,
    })
}

#[cfg(test)]
mod tests {
    use super::kept_value;

    fn shown(src: &str, read_first: bool) -> String {
        let at = src.find('=').unwrap() + 2;
        kept_value(src.as_bytes(), "f.tf", at, read_first)
            .map(|k| k.shown)
            .unwrap_or_default()
    }

    #[test]
    fn dropped_tokens_are_blanked_and_placeholders_shown_as_zero() {
        assert_eq!(shown("a = [x.%s.id, 1]\n", true), "[0         ]");
        assert_eq!(shown("a = [%s, b]\n", false), "[0%s, b]");
        assert_eq!(shown("a = f(%[1]s)\n", false), "f(0%[1] )");
        assert_eq!(shown("a = [%s, b]\n", true), "[0     ]");
        assert_eq!(
            shown("a = { k = x.%d, n = 1 }\n", true),
            "{ k = 0           }"
        );
        assert_eq!(shown("a = f(\"${x.%d}\", 1)\n", true), "f(\"${0   }\"   )");
    }
}
