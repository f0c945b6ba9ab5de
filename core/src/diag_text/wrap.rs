//! Word wrapping as go-wordwrap v1.0.1's `WrapString` (the version Terraform vendors) does
//! it, quirks included: it breaks only at white space, never inside a word, counts a tab
//! or any other character as one column, keeps white space before an explicit line break
//! when it fits, and does not break at a no-break space.

/// `WrapString(s, lim)`: `s` with line breaks put in so that lines stay within `lim`
/// characters where the words allow.
pub fn wrap(s: &str, lim: usize) -> String {
    let mut out = String::with_capacity(s.len());
    // Columns already written on the current line.
    let mut current = 0usize;
    let mut word = String::new();
    let mut space = String::new();
    let (mut word_len, mut space_len) = (0usize, 0usize);
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space_len <= lim {
                    out.push_str(&space);
                }
            } else {
                out.push_str(&space);
                out.push_str(&word);
                word.clear();
                word_len = 0;
            }
            space.clear();
            space_len = 0;
            out.push('\n');
            current = 0;
        } else if c.is_whitespace() && c != '\u{A0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                out.push_str(&space);
                out.push_str(&word);
                space.clear();
                word.clear();
                space_len = 0;
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + word_len + space_len > lim && word_len < lim {
                out.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= lim {
            out.push_str(&space);
        }
    } else {
        out.push_str(&space);
        out.push_str(&word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    /// go-wordwrap v1.0.1's own test table (`wordwrap_test.go`).
    #[test]
    fn wraps_as_go_wordwrap_does() {
        let cases: &[(&str, &str, usize)] = &[
            ("foo", "foo", 4),
            ("foobarbaz", "foobarbaz", 4),
            ("foo bar baz", "foo\nbar\nbaz", 4),
            ("foo bars bazzes", "foo\nbars\nbazzes", 4),
            ("fo sop", "fo\nsop", 4),
            ("foo bar\u{A0}baz", "foo\nbar\u{A0}baz", 10),
            ("foo\nb\t r\n baz", "foo\nb\t r\n baz", 4),
            ("foo    \nb   ar   ", "foo\nb\nar", 4),
            ("foo bar baz\n", "foo\nbar\nbaz\n", 4),
            ("\nfoo bar\n\n\nbaz\n", "\nfoo\nbar\n\n\nbaz\n", 4),
            (
                " This is a list: \n\n\t* foo\n\t* bar\n\n\n\t* baz  \nBAM    ",
                " This\nis a\nlist: \n\n\t* foo\n\t* bar\n\n\n\t* baz\nBAM",
                6,
            ),
            (
                "\u{2584} \u{2584} \u{2584} \u{2584} ",
                "\u{2584} \u{2584}\n\u{2584} \u{2584} ",
                4,
            ),
        ];
        for (input, want, lim) in cases {
            assert_eq!(wrap(input, *lim), *want, "{input:?} at {lim}");
        }
    }

    #[test]
    fn a_long_word_goes_to_a_line_of_its_own_unbroken() {
        assert_eq!(wrap("abcdefgh", 4), "abcdefgh");
        assert_eq!(wrap("ab abcdefgh", 4), "ab\nabcdefgh");
        assert_eq!(wrap("a bbbbbbbb c", 4), "a\nbbbbbbbb\nc");
    }

    #[test]
    fn terraform_details_wrap_at_seventy_seven_columns() {
        let detail = "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.";
        assert_eq!(
            wrap(detail, 77),
            "Quoted strings may not be split over multiple lines. To produce a multi-line\nstring, either use the \\n escape to represent a newline character or use the\n\"heredoc\" multi-line template syntax."
        );
    }
}
