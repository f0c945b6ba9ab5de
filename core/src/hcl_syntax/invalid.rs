//! `checkInvalidTokens`: the scanner-level errors hclsyntax reports before any parse error,
//! with its limits on how often each kind is repeated.

use super::token::{Kind, Token};
use crate::diag::Diagnostic;

/// The invalid-token diagnostics for `tokens`, in token order.
pub(crate) fn check(tokens: &[Token], data: &[u8], filename: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let (mut bitwise, mut backtick, mut apostrophe) = (0, 0, 0);
    let (mut semicolon, mut bad_utf8) = (false, false);
    for tok in tokens {
        let mut report = |summary: &str, detail: &str| {
            diags.push(
                Diagnostic::error(summary, detail).with_range(super::range(filename, tok.span)),
            );
        };
        match tok.kind {
            Kind::BitwiseAnd | Kind::BitwiseOr | Kind::BitwiseXor | Kind::BitwiseNot
                if bitwise < 4 =>
            {
                {
                    let suggestion = match tok.kind {
                        Kind::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                        Kind::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                        Kind::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                        _ => "",
                    };
                    report(
                        "Unsupported operator",
                        &format!("Bitwise operators are not supported.{suggestion}"),
                    );
                    bitwise += 1;
                }
            }
            Kind::Backtick => {
                // Every other backtick: the opening one of a backtick-quoted string.
                if backtick % 2 == 0 {
                    report("Invalid character", "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".");
                }
                if backtick <= 2 {
                    backtick += 1;
                }
            }
            Kind::Apostrophe => {
                if apostrophe % 2 == 0 {
                    report(
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                    );
                }
                if apostrophe <= 2 {
                    apostrophe += 1;
                }
            }
            Kind::Semicolon if !semicolon => {
                report("Invalid character", "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.");
                semicolon = true;
            }
            Kind::BadUtf8 if !bad_utf8 => {
                report("Invalid character encoding", "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.");
                bad_utf8 = true;
            }
            Kind::QuotedNewline => report("Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."),
            Kind::Invalid => {
                let bytes = &data[tok.from..tok.to];
                if bytes == "“".as_bytes() || bytes == "”".as_bytes() {
                    report("Invalid character", "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".");
                } else {
                    report("Invalid character", "This character is not used within the language.");
                }
            }
            _ => {}
        }
    }
    diags
}
