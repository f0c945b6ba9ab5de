//! Templates (`parser_template.go`): the parts of a quoted or heredoc template, then the
//! balance of its `%{ if }`/`%{ for }` directives, reported in that order.

use super::parser::{Diags, Parser};
use super::token::{Kind, Span};
use crate::gotext::suggest::name_suggestion as levenshtein_suggestion;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EndCtrl {
    EndIf,
    Else,
    EndFor,
}

impl EndCtrl {
    fn name(self) -> &'static str {
        match self {
            EndCtrl::EndIf => "endif",
            EndCtrl::Else => "else",
            EndCtrl::EndFor => "endfor",
        }
    }
}

/// A template part, with the range the structure check may quote.
#[derive(Debug, Clone, Copy)]
enum Part {
    Literal,
    Interp,
    If(Span),
    For(Span),
    EndCtrl(EndCtrl, Span),
    End(Span),
}

/// `parseTemplateInner` after the opening quote or heredoc marker, up to `end`; and whether
/// the file ended inside the template (an unclosed heredoc).
pub(crate) fn parse_template_inner(p: &mut Parser<'_>, end: Kind) -> (Diags, bool) {
    let (parts, mut diags) = parse_parts(p, end);
    let to_eof = p.token(p.read_index().saturating_sub(1)).kind == Kind::Eof;
    let mut tp = Structure {
        parts: &parts,
        pos: 0,
        p,
    };
    diags.extend(tp.root());
    (diags, to_eof)
}

fn parse_parts(p: &mut Parser<'_>, end: Kind) -> (Vec<Part>, Diags) {
    let mut parts = Vec::new();
    let mut diags = Diags::new();
    let start_range = p.next_range();
    let end_range;
    loop {
        let next = p.read();
        if next.kind == end {
            end_range = next.span;
            break;
        }
        match next.kind {
            Kind::StringLit | Kind::QuotedLit => {
                diags.extend(p.escape_diags(&next));
                parts.push(Part::Literal);
            }
            Kind::TemplateInterp => {
                p.push_newlines(false);
                let (_, expr_diags) = p.parse_expression();
                diags.extend(expr_diags);
                let close = p.peek();
                if close.kind != Kind::TemplateSeqEnd {
                    if !p.recovery {
                        diags.push(match close.kind {
                            Kind::Eof => p.diag(
                                "Unclosed template interpolation sequence",
                                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                                start_range,
                            ),
                            Kind::Colon => p.diag(
                                "Extra characters after interpolation expression",
                                "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                                close.span,
                            ),
                            Kind::CQuote | Kind::OQuote if end == Kind::CQuote => p.diag(
                                "Unclosed template interpolation sequence",
                                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                                start_range,
                            ),
                            _ => p.diag(
                                "Extra characters after interpolation expression",
                                "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                                close.span,
                            ),
                        });
                    }
                    let end = p.recover(Kind::TemplateSeqEnd);
                    p.drop_until(close.from, end, Kind::TemplateSeqEnd);
                } else {
                    p.read();
                }
                p.pop_newlines();
                parts.push(Part::Interp);
            }
            Kind::TemplateControl => {
                p.push_newlines(false);
                let kw = p.peek();
                if kw.kind != Kind::Ident {
                    if !p.recovery {
                        diags.push(p.diag(
                            "Invalid template directive",
                            "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                            kw.span,
                        ));
                    }
                    p.recover(Kind::TemplateSeqEnd);
                    p.pop_newlines();
                    continue;
                }
                p.read();
                let word = p.bytes(&kw);
                match word {
                    b"if" => {
                        let (_, d) = p.parse_expression();
                        diags.extend(d);
                        parts.push(Part::If(next.span.to(p.next_range())));
                    }
                    b"else" | b"endif" | b"endfor" => {
                        let which = match word {
                            b"else" => EndCtrl::Else,
                            b"endif" => EndCtrl::EndIf,
                            _ => EndCtrl::EndFor,
                        };
                        parts.push(Part::EndCtrl(which, next.span.to(p.next_range())));
                    }
                    b"for" => {
                        if let Some(d) = for_directive_names(p) {
                            diags.extend(d);
                            p.recover(Kind::TemplateSeqEnd);
                            p.pop_newlines();
                            continue;
                        }
                        let (_, d) = p.parse_expression();
                        diags.extend(d);
                        parts.push(Part::For(next.span.to(p.next_range())));
                    }
                    _ => {
                        if !p.recovery {
                            let given = String::from_utf8_lossy(word).into_owned();
                            let suggestion = levenshtein_suggestion(
                                &given,
                                &["if", "for", "else", "endif", "endfor"],
                            )
                            .map(|s| format!(" Did you mean \"{s}\"?"))
                            .unwrap_or_default();
                            diags.push(p.diag(
                                "Invalid template control keyword",
                                format!(
                                    "{} is not a valid template control keyword.{suggestion}",
                                    crate::gotext::quote_bytes(word)
                                ),
                                kw.span,
                            ));
                        }
                        p.recover(Kind::TemplateSeqEnd);
                        p.pop_newlines();
                        continue;
                    }
                }
                let close = p.peek();
                if close.kind != Kind::TemplateSeqEnd {
                    if !p.recovery {
                        diags.push(p.diag(
                            &format!("Extra characters in {} marker", String::from_utf8_lossy(word)),
                            "Expected a closing brace to end the sequence, but found extra characters.",
                            close.span,
                        ));
                    }
                    p.recover(Kind::TemplateSeqEnd);
                } else {
                    p.read();
                }
                p.pop_newlines();
            }
            _ => {
                if !p.recovery {
                    diags.push(p.diag(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        next.span,
                    ));
                }
                let final_tok = p.recover(end);
                if next.kind == Kind::QuotedNewline {
                    p.label_breaks.push((next.from, final_tok.to));
                }
                end_range = final_tok.span;
                break;
            }
        }
    }
    if parts.is_empty() {
        parts.push(Part::Literal);
    }
    parts.push(Part::End(end_range));
    (parts, diags)
}

/// The names of a `%{ for }` directive up to `in`; `Some` with the error when they are wrong.
fn for_directive_names(p: &mut Parser<'_>) -> Option<Diags> {
    let fail = |p: &mut Parser<'_>, detail: &str| {
        let mut d = Diags::new();
        if !p.recovery {
            let at = p.peek().span;
            d.push(p.diag("Invalid 'for' directive", detail, at));
        }
        Some(d)
    };
    if p.peek().kind != Kind::Ident {
        return fail(p, "For directive requires variable name after 'for'.");
    }
    p.read();
    if p.peek().kind == Kind::Comma {
        p.read();
        if p.peek().kind != Kind::Ident {
            return fail(p, "For directive requires value variable name after comma.");
        }
        p.read();
    }
    if !p.is_keyword(&p.peek(), "in") {
        return fail(p, "For directive requires 'in' keyword after names.");
    }
    p.read();
    None
}

/// `templateParser`: checks that directives are balanced.
struct Structure<'s, 'p, 'a> {
    parts: &'s [Part],
    pos: usize,
    p: &'p Parser<'a>,
}

impl Structure<'_, '_, '_> {
    fn peek(&self) -> Part {
        self.parts[self.pos]
    }

    fn read(&mut self) -> Part {
        let part = self.peek();
        if !matches!(part, Part::End(_)) {
            self.pos += 1;
        }
        part
    }

    fn root(&mut self) -> Diags {
        let mut diags = Diags::new();
        while !matches!(self.peek(), Part::End(_)) {
            diags.extend(self.expr());
        }
        diags
    }

    fn expr(&mut self) -> Diags {
        match self.peek() {
            Part::Literal | Part::Interp => {
                self.read();
                Diags::new()
            }
            Part::If(at) => self.directive(at, true),
            Part::For(at) => self.directive(at, false),
            Part::End(at) => {
                self.read();
                vec![self.p.diag(
                    "Unexpected end of template",
                    "The control directives within this template are unbalanced.",
                    at,
                )]
            }
            Part::EndCtrl(which, at) => {
                self.read();
                vec![self.p.diag(
                    &format!("Unexpected {} directive", which.name()),
                    "The control directives within this template are unbalanced.",
                    at,
                )]
            }
        }
    }

    /// `parseIf` (`is_if`) or `parseFor` from its opening directive at `open`.
    fn directive(&mut self, open: Span, is_if: bool) -> Diags {
        self.read();
        let mut diags = Diags::new();
        let mut in_else = false;
        let opened = self.p.range_string(open);
        loop {
            match self.peek() {
                Part::End(at) => {
                    let detail = if is_if {
                        format!("The if directive at {opened} is missing its corresponding endif directive.")
                    } else {
                        format!("The for directive at {opened} is missing its corresponding endfor directive.")
                    };
                    diags.push(self.p.diag("Unexpected end of template", detail, at));
                    return diags;
                }
                Part::EndCtrl(which, at) => {
                    self.read();
                    let unexpected = format!("Unexpected {} directive", which.name());
                    match (is_if, which) {
                        (true, EndCtrl::Else) if !in_else => {
                            in_else = true;
                            continue;
                        }
                        (true, EndCtrl::Else) => diags.push(self.p.diag(
                            &unexpected,
                            format!("Already in the else clause for the if started at {opened}."),
                            at,
                        )),
                        (true, EndCtrl::EndIf) | (false, EndCtrl::EndFor) => return diags,
                        (true, _) => diags.push(self.p.diag(
                            &unexpected,
                            format!("Expecting an endif directive for the if started at {opened}."),
                            at,
                        )),
                        (false, EndCtrl::Else) => diags.push(self.p.diag(
                            &unexpected,
                            "An else clause is not expected for a for directive.",
                            at,
                        )),
                        (false, _) => diags.push(self.p.diag(
                            &unexpected,
                            format!("Expecting an endfor directive corresponding to the for directive at {opened}."),
                            at,
                        )),
                    }
                    return diags;
                }
                _ => diags.extend(self.expr()),
            }
        }
    }
}
