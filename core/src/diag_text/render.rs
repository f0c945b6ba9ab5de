//! Diagnostics as Terraform's CLI prints them (`command/format.DiagnosticPlain` and
//! `format.Diagnostic`): the severity and summary, the location line with its context and
//! the source snippet, then the detail word-wrapped to the terminal's width.

use super::snippet::{locate, Located};
use super::wrap::wrap;
use crate::collections::SortedMap;
use crate::diag::{Diagnostic, Diagnostics, Severity};

/// The text of the files diagnostics point into, by the file name their ranges carry (as
/// the host loaded them).
pub type Sources = SortedMap<String, Vec<u8>>;

/// How to print: Terraform's plain format (`-no-color`) or its coloured one, at a width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// The coloured format, with its left rule (`╷`, `│`, `╵`) and ANSI codes.
    pub color: bool,
    /// The terminal's columns (Terraform's default is 78); details wrap to fit.
    pub width: usize,
}

impl Style {
    /// The plain format at `width` columns.
    pub fn plain(width: usize) -> Style {
        Style {
            color: false,
            width,
        }
    }
}

/// The columns Terraform assumes when its output is no terminal.
pub const DEFAULT_WIDTH: usize = 78;

/// What Terraform's text views print for `diags` ([`Diagnostics::for_text_view`], each
/// rendered by [`render`]), concatenated.
pub fn render_all(diags: &Diagnostics, sources: &Sources, style: Style) -> String {
    diags
        .for_text_view()
        .iter()
        .map(|d| render(d, sources, style))
        .collect()
}

/// One diagnostic as Terraform prints it: the plain format starts with a blank line, the
/// coloured one with its rule; both end with a line break.
pub fn render(d: &Diagnostic, sources: &Sources, style: Style) -> String {
    let located = d.range.as_ref().map(|r| {
        let src = sources.get(&r.filename).map(Vec::as_slice);
        locate(r, d.context.as_ref(), src)
    });
    if style.color {
        colored(d, located.as_ref(), style.width)
    } else {
        plain(d, located.as_ref(), style.width)
    }
}

fn plain(d: &Diagnostic, located: Option<&Located>, width: usize) -> String {
    let mut out = String::new();
    out.push_str(match d.severity {
        Severity::Error => "\nError: ",
        Severity::Warning => "\nWarning: ",
    });
    out.push_str(&d.summary);
    out.push_str("\n\n");
    write_location(&mut out, located, false);
    write_detail(&mut out, &d.detail, width, false);
    out
}

fn colored(d: &Diagnostic, located: Option<&Located>, width: usize) -> String {
    let (head, rule) = match d.severity {
        Severity::Error => ("[bold][red]Error: [reset]", "red"),
        Severity::Warning => ("[bold][yellow]Warning: [reset]", "yellow"),
    };
    let mut out = colorize(head, true);
    // `Color("[bold]%s[reset]\n\n")`: its closing reset lands after the blank line.
    out.push_str(&format!("\x1b[1m{}\x1b[0m\n\n\x1b[0m", d.summary));
    write_location(&mut out, located, true);
    // Room for the left rule ("│ ") and one column more.
    write_detail(&mut out, &d.detail, width.saturating_sub(2), true);
    let line_rule = colorize(&format!("[{rule}]│[reset] "), true);
    let mut ruled = colorize(&format!("[{rule}]╷[reset]"), true);
    ruled.push('\n');
    for line in scan_lines(&out) {
        let prefix = if line.is_empty() {
            line_rule.trim()
        } else {
            &line_rule
        };
        ruled.push_str(prefix);
        ruled.push_str(line);
        ruled.push('\n');
    }
    ruled.push_str(&colorize(&format!("[{rule}]╵[reset]"), true));
    ruled.push('\n');
    ruled
}

/// `bufio.ScanLines`: lines without their break or a carriage return before it, and no
/// empty line after a final break.
fn scan_lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let empty = text.is_empty();
    body.split('\n')
        .filter(move |_| !empty)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// The location line and the snippet (or the note that the code is not available), then a
/// blank line; nothing for a diagnostic without a range.
fn write_location(out: &mut String, located: Option<&Located>, color: bool) {
    let Some(located) = located else {
        return;
    };
    let r = &located.range;
    let Some(snippet) = &located.snippet else {
        out.push_str(&format!(
            "  on {} line {}:\n  (source code not available)\n\n",
            r.filename, r.start.line
        ));
        return;
    };
    let context = match &snippet.context {
        Some(c) => format!(", in {c}"),
        None => String::new(),
    };
    out.push_str(&format!(
        "  on {} line {}{context}:\n",
        r.filename, r.start.line
    ));
    let code = &snippet.code;
    let start = snippet.highlight_start.min(code.len());
    let mut end = snippet.highlight_end;
    if end < start {
        end = (start + 1).min(code.len());
    }
    let end = end.min(code.len());
    // Offsets count bytes; one inside a character (a carriage return dropped before it
    // moved the text) cuts where Go's byte slicing would, as lossily.
    let bytes = code.as_bytes();
    let cut = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (before, highlight, after) = (
        cut(&bytes[..start]),
        cut(&bytes[start..end]),
        cut(&bytes[end..]),
    );
    let shown = if color {
        format!("{before}\x1b[4m{highlight}\x1b[0m{after}\x1b[0m")
    } else {
        format!("{before}{highlight}{after}")
    };
    for (i, line) in shown.split('\n').enumerate() {
        out.push_str(&format!("{:4}: {line}\n", snippet.start_line + i));
    }
    out.push('\n');
}

/// The detail, each line wrapped to `width - 1` columns unless it starts with a space
/// (preformatted), or unwrapped when there is no room.
fn write_detail(out: &mut String, detail: &str, width: usize, color: bool) {
    if detail.is_empty() {
        return;
    }
    if width <= 1 {
        out.push_str(detail);
        out.push('\n');
        return;
    }
    for line in detail.split('\n') {
        if line.starts_with(' ') {
            out.push_str(line);
        } else {
            out.push_str(&wrap(&colorize(line, color), width - 1));
        }
        out.push('\n');
    }
}

/// `colorstring.Colorize.Color`: each `[name]` of a known colour or attribute becomes its
/// ANSI code (or nothing when `enabled` is false, as with `-no-color`), anything else in
/// brackets stays; an enabled text with a code ends with a reset (Terraform's views set
/// `Reset`).
pub fn colorize(text: &str, enabled: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut colored = false;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'[' {
            i += 1;
            continue;
        }
        let name_len = bytes[i + 1..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            .count();
        let close = i + 1 + name_len;
        if name_len == 0 || bytes.get(close) != Some(&b']') {
            i += 1;
            continue;
        }
        out.push_str(&text[copied..i]);
        let name = &text[i + 1..close];
        match ansi_code(name) {
            Some(code) => {
                colored = true;
                if enabled {
                    out.push_str(&format!("\x1b[{code}m"));
                }
            }
            None => out.push_str(&text[i..=close]),
        }
        i = close + 1;
        copied = i;
    }
    out.push_str(&text[copied..]);
    if colored && enabled {
        out.push_str("\x1b[0m");
    }
    out
}

/// colorstring's `DefaultColors`.
fn ansi_code(name: &str) -> Option<&'static str> {
    const CODES: &[(&str, &str)] = &[
        ("default", "39"),
        ("_default_", "49"),
        ("black", "30"),
        ("red", "31"),
        ("green", "32"),
        ("yellow", "33"),
        ("blue", "34"),
        ("magenta", "35"),
        ("cyan", "36"),
        ("light_gray", "37"),
        ("dark_gray", "90"),
        ("light_red", "91"),
        ("light_green", "92"),
        ("light_yellow", "93"),
        ("light_blue", "94"),
        ("light_magenta", "95"),
        ("light_cyan", "96"),
        ("white", "97"),
        ("_black_", "40"),
        ("_red_", "41"),
        ("_green_", "42"),
        ("_yellow_", "43"),
        ("_blue_", "44"),
        ("_magenta_", "45"),
        ("_cyan_", "46"),
        ("_light_gray_", "47"),
        ("_dark_gray_", "100"),
        ("_light_red_", "101"),
        ("_light_green_", "102"),
        ("_light_yellow_", "103"),
        ("_light_blue_", "104"),
        ("_light_magenta_", "105"),
        ("_light_cyan_", "106"),
        ("_white_", "107"),
        ("bold", "1"),
        ("dim", "2"),
        ("underline", "4"),
        ("blink_slow", "5"),
        ("blink_fast", "6"),
        ("invert", "7"),
        ("hidden", "8"),
        ("reset", "0"),
        ("reset_bold", "21"),
    ];
    CODES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Range;

    fn sources(name: &str, text: &str) -> Sources {
        let mut s = Sources::new();
        s.insert(name.to_string(), text.as_bytes().to_vec());
        s
    }

    const MULTI_LINE: &str = "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.";

    fn broken_string() -> (Diagnostic, Sources) {
        let src = "resource \"aws_instance\" \"x\" {\n  tags = {\n    Name = \"x\n  }\n}\n";
        let at = src.find("x\n").unwrap();
        let d = Diagnostic::error("Invalid multi-line string", MULTI_LINE)
            .with_range(Range::from_span("main.tf", src, at..at + 2));
        (d, sources("main.tf", src))
    }

    /// Terraform 1.15.5's `init -no-color` output for this file (its first diagnostic).
    #[test]
    fn plain_matches_terraforms_output() {
        let (d, sources) = broken_string();
        assert_eq!(
            render(&d, &sources, Style::plain(DEFAULT_WIDTH)),
            "\nError: Invalid multi-line string\n\n  on main.tf line 3, in resource \"aws_instance\" \"x\":\n   3:     Name = \"x\n   4:   }\n\nQuoted strings may not be split over multiple lines. To produce a multi-line\nstring, either use the \\n escape to represent a newline character or use the\n\"heredoc\" multi-line template syntax.\n"
        );
    }

    #[test]
    fn without_the_files_text_the_code_is_not_available() {
        let (d, _) = broken_string();
        assert_eq!(
            render(&d, &Sources::new(), Style::plain(0)),
            format!("\nError: Invalid multi-line string\n\n  on main.tf line 3:\n  (source code not available)\n\n{MULTI_LINE}\n")
        );
    }

    #[test]
    fn colored_has_the_rule_and_codes() {
        let (d, sources) = broken_string();
        let text = render(
            &d,
            &sources,
            Style {
                color: true,
                width: 40,
            },
        );
        let rule = "\x1b[31m│\x1b[0m \x1b[0m";
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "\x1b[31m╷\x1b[0m\x1b[0m");
        assert_eq!(
            lines[1],
            format!(
                "{rule}\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mInvalid multi-line string\x1b[0m"
            )
        );
        // The reset Colorize adds after the summary's "\n\n" starts the next line.
        assert_eq!(lines[2], rule);
        assert_eq!(
            lines[3],
            format!("{rule}\x1b[0m  on main.tf line 3, in resource \"aws_instance\" \"x\":")
        );
        assert_eq!(lines[4], format!("{rule}   3:     Name = \"\x1b[4mx"));
        assert_eq!(lines[5], format!("{rule}   4: \x1b[0m  }}\x1b[0m"));
        assert_eq!(lines[6], rule);
        // Details wrap at width - 3 columns.
        assert_eq!(
            lines[7],
            format!("{rule}Quoted strings may not be split over")
        );
        assert_eq!(lines.last(), Some(&"\x1b[31m╵\x1b[0m\x1b[0m"));
    }

    #[test]
    fn plain_details_drop_colour_tags_and_keep_indented_lines() {
        let d = Diagnostic::warning(
            "W",
            "a [bold]b[reset] [0] c\n  keep   this line as it is, however long it is",
        );
        assert_eq!(
            render(&d, &Sources::new(), Style::plain(8)),
            "\nWarning: W\n\na b [0]\nc\n  keep   this line as it is, however long it is\n"
        );
    }
}
