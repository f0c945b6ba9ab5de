//! Bodies (`ParseBody`, `parseBodyItem`, attributes, blocks and their labels): where a
//! configuration file's own structure goes wrong.

use super::parser::{Diags, KeptItem, Parser};
use super::token::{Kind, Span, Token};
use crate::collections::SortedMap;

impl<'a> Parser<'a> {
    pub(super) fn parse_body(&mut self, end: Kind) -> Diags {
        let mut diags = Diags::new();
        // Sorted, not hashed: a HashMap instantiation costs the npm package kilobytes.
        let mut attrs: SortedMap<&'a [u8], Span> = SortedMap::new();
        let start_range = self.prev_range();
        loop {
            let next = self.peek();
            if next.kind == end {
                self.read();
                break;
            }
            match next.kind {
                Kind::Newline => {
                    self.read();
                }
                Kind::Ident => {
                    let (item, item_diags) = self.parse_body_item();
                    diags.extend(item_diags);
                    if let Some(Item::Attribute {
                        name,
                        name_range,
                        end,
                    }) = item
                    {
                        match attrs.get(name) {
                            Some(existing) => {
                                // The first definition counts: a placeholder kept for this
                                // one is dropped.
                                self.kept_items.retain(|k| k.at() != name_range.start.byte);
                                // HCL keeps the first definition and the body stays whole, so
                                // Terraform decodes it on: hcl-edit must not see the second.
                                self.blanks.push((name_range.start.byte, end));
                                let detail = format!(
                                    "The argument {} was already set at {}. Each argument may be set only once.",
                                    crate::gotext::quote_bytes(name),
                                    self.range_string(*existing)
                                );
                                diags.push(self.diag("Attribute redefined", detail, name_range));
                            }
                            None => {
                                attrs.insert(name, name_range);
                            }
                        }
                    }
                }
                _ => {
                    let bad = self.read();
                    let reported = !self.recovery;
                    if reported {
                        diags.push(match bad.kind {
                            Kind::OQuote => self.diag(
                                "Invalid argument name",
                                "Argument names must not be quoted.",
                                bad.span,
                            ),
                            Kind::Eof if end == Kind::CBrace => self.diag(
                                "Unclosed configuration block",
                                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                start_range,
                            ),
                            Kind::Eof => self.diag(
                                "Unclosed configuration body",
                                "Found end of file before the end of this configuration body.",
                                start_range,
                            ),
                            _ => self.diag(
                                "Argument or block definition required",
                                "An argument or block definition is required here.",
                                bad.span,
                            ),
                        });
                    }
                    let close = self.recover(end);
                    self.cut_body(bad, close, end, reported);
                    break;
                }
            }
        }
        diags
    }

    /// A body met `bad` where an item or its end belongs (a stray `}`, a quoted name, the
    /// end of the file) and skipped to `close`: hclsyntax keeps the items before it, so
    /// hcl-edit is shown the skipped tokens blanked, and a block the file ends in closed
    /// (see [`Parser::closers`]). `reported` says whether this reported an error.
    fn cut_body(&mut self, bad: Token, close: Token, end: Kind, reported: bool) {
        self.blanks.push((bad.from, close.from));
        if end == Kind::CBrace && close.kind != Kind::CBrace {
            self.closers.push_str("\n}");
        }
        self.represented += 1;
        self.represented_errors += usize::from(reported);
        self.first_error_cut |= reported;
    }

    fn parse_body_item(&mut self) -> (Option<Item<'a>>, Diags) {
        let ident = self.read();
        if ident.kind != Kind::Ident {
            self.recover_after_body_item();
            let d = self.diag(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                ident.span,
            );
            return (None, vec![d]);
        }
        let next = self.peek();
        match next.kind {
            Kind::Equal => self.finish_attribute(ident, false),
            Kind::OQuote | Kind::OBrace | Kind::Ident => {
                let diags = self.nested(|p| ((), p.finish_block(ident)), ()).1;
                (None, diags)
            }
            _ => {
                let first_error = !self.recovery;
                self.skip_item(ident, first_error, true);
                let d = self.diag(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                );
                (None, vec![d])
            }
        }
    }

    /// `recoverAfterBodyItem` after an item that went wrong from `ident` on: hclsyntax
    /// drops the item (or keeps a header-only block, see [`Parser::kept_items`]),
    /// so hcl-edit is shown it blanked through the end of its line. `first_error` says
    /// whether this was the first error, `reported` whether one was.
    fn skip_item(&mut self, ident: Token, first_error: bool, reported: bool) {
        let counted = self.represented;
        self.recover_after_body_item();
        let last = self.token(self.read_index().saturating_sub(1));
        self.blanks.push((ident.from, last.from.max(ident.from)));
        self.represented = counted + 1;
        self.represented_errors += usize::from(reported);
        self.first_error_cut |= first_error && reported;
    }

    /// `parseSingleAttrBody`. Where it fails hclsyntax keeps the block with an empty
    /// body, so hcl-edit is shown the item skipped blanked (see [`Parser::skip_item`]).
    fn parse_single_attr_body(&mut self) -> Diags {
        let ident = self.read();
        let first_error = !self.recovery;
        if ident.kind != Kind::Ident {
            self.skip_item(ident, first_error, true);
            return vec![self.diag(
                "Argument or block definition required",
                "An argument or block definition is required here.",
                ident.span,
            )];
        }
        let next = self.peek();
        match next.kind {
            Kind::Equal => self.finish_attribute(ident, true).1,
            Kind::OQuote | Kind::OBrace | Kind::Ident => {
                self.skip_item(ident, first_error, true);
                let name = String::from_utf8_lossy(self.bytes(&ident)).into_owned();
                vec![self.diag(
                    "Argument definition required",
                    format!("A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.", crate::gotext::quote(&name)),
                    ident.span.to(next.span),
                )]
            }
            _ => {
                self.skip_item(ident, first_error, true);
                vec![self.diag(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span,
                )]
            }
        }
    }

    fn finish_attribute(&mut self, ident: Token, single_line: bool) -> (Option<Item<'a>>, Diags) {
        self.read(); // the equals sign
        let value = self.peek();
        let builds = self.builds_a_value(value);
        let first_error = !self.recovery;
        let (read_before, recoveries_before) = (self.read_index(), self.recoveries);
        // A placeholder argument stands for whatever was recovered and reported inside it.
        let shown_before = (self.represented, self.represented_errors);
        self.unknown_from = None;
        self.evaluated = None;
        self.syntax_error_from = None;
        self.placeholder_dropped = false;
        self.operand_cut = None;
        let (expr, mut diags) = self.parse_expression();
        let expr_end = self.prev_range().end.byte;
        // Nothing read: the value is hclsyntax's placeholder of unknown value, and the
        // argument is kept with it. So it is when the whole value is an expression
        // hclsyntax keeps after its error (see [`Parser::unknown_from`]).
        let nothing_read = self.read_index() == read_before && self.recovery;
        // hclsyntax keeps the argument whatever its value's errors; it is read as unknown
        // when the value starts with a placeholder, whatever follows it (after the first
        // error nothing is reported, so `<y>` reads the placeholder `<`, then `y >` and one
        // at the line's end). One inside a constructor, call or template (`[x.%d.id]`,
        // `{ a = x.%d }`, `f(x.%d)`) ends it, and hclsyntax keeps the value built so far
        // around the placeholder: read as unknown too, which is what Terraform makes of it
        // except where it decodes the value while loading (`depends_on`: see
        // `static_refs`). One after an operator (`1 + x.%d`) leaves the left operand,
        // a value Terraform decodes.
        let kept_whole = self.recovery && self.unknown_from == Some(value.from);
        // Only when the value's recovery stopped at its own closer: one that ran on (to
        // the end of the file, say) leaves a value cut short elsewhere, which Terraform
        // may decode (`required_providers` entries).
        let closed = builds
            .is_some_and(|closer| self.token(self.read_index().saturating_sub(1)).kind == closer);
        let kept_inside = self.recovery
            && closed
            && !self.placeholder_dropped
            && self.unknown_from.is_some_and(|at| at > value.from);
        let placeholder = nothing_read || kept_whole || kept_inside;
        let value_span = if nothing_read { value.span } else { expr };
        // A silent placeholder token read on as something else: an arithmetic operator
        // whose left operand it is, or a form not modelled.
        // A constructor or call around the placeholder evaluates to a tuple, an object or
        // the call's result, not to the placeholder's unknown value: not modelled.
        let mut evaluated = if nothing_read {
            Some(Diags::new())
        } else if kept_whole {
            self.evaluated.clone()
        } else {
            None
        };
        let mut operation = None;
        if kept_whole && !nothing_read && evaluated.as_ref().is_some_and(Vec::is_empty) {
            let operator = match value.kind {
                Kind::Star => Some('*'),
                Kind::Slash => Some('/'),
                Kind::Percent => Some('%'),
                _ => None,
            };
            let rhs = self.token(read_before + 1).span.to(self.prev_range());
            operation = operator.map(|op| (op, value.span, rhs));
            if operation.is_none() {
                evaluated = None;
            }
        }
        if placeholder && !single_line {
            self.recover_after_body_item();
            let last = self.token(self.read_index().saturating_sub(1));
            self.blanks.push((ident.from, last.from.max(ident.from)));
            self.represented = shown_before.0 + (self.recoveries - recoveries_before);
            self.represented_errors = shown_before.1 + diags.len();
            self.first_error_cut |= first_error && !diags.is_empty();
            self.kept_items.push(KeptItem::Unknown {
                name: String::from_utf8_lossy(self.bytes(&ident)).into_owned(),
                name_span: ident.span,
                value_span,
                end: expr_end,
                evaluated,
                operation,
                read_first: first_error,
            });
        } else if self.recovery && !diags.is_empty() {
            // hclsyntax keeps the operand before an operator whose right operand failed
            // (or a conditional's condition) as the value, when that is the value's own
            // operator: hcl-edit is shown the argument without the rest of its item.
            let value_depth = self.depth() + 1;
            let cut = !single_line && self.operand_cut == Some((value_depth, expr));
            // Or the value's own recoveries are all shown (a call cut at a missing
            // separator) and what follows it is dropped.
            let shown = !single_line
                && self.represented - shown_before.0 == self.recoveries - recoveries_before;
            self.recover_after_body_item();
            if shown && !cut {
                let last = self.token(self.read_index().saturating_sub(1));
                self.blanks
                    .push((expr.end.byte, last.from.max(expr.end.byte)));
                self.represented = shown_before.0 + (self.recoveries - recoveries_before);
            }
            if cut {
                let last = self.token(self.read_index().saturating_sub(1));
                self.blanks
                    .push((expr.end.byte, last.from.max(expr.end.byte)));
                self.represented = shown_before.0 + (self.recoveries - recoveries_before);
                self.represented_errors = shown_before.1 + diags.len();
                self.first_error_cut |= first_error;
            }
        } else if !single_line {
            let end = self.peek();
            if end.kind != Kind::Newline && end.kind != Kind::Eof {
                let reported = !self.recovery;
                if reported {
                    let (summary, detail) = if end.kind == Kind::Comma {
                        ("Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.")
                    } else {
                        (
                            "Missing newline after argument",
                            "An argument definition must end with a newline.",
                        )
                    };
                    diags.push(self.diag_in(summary, detail, end.span, ident.span, end.span));
                }
                self.recover_after_body_item();
                self.cut_rest_of_item(end, reported);
            } else {
                self.read();
            }
        }
        let item = Item::Attribute {
            name: self.bytes(&ident),
            name_range: ident.span,
            end: expr_end,
        };
        (Some(item), diags)
    }

    /// Whether a value starting at `value` is a collection constructor, a template or a
    /// function call (what hclsyntax keeps, cut short, around a placeholder inside it):
    /// the token that closes it.
    fn builds_a_value(&self, value: Token) -> Option<Kind> {
        match value.kind {
            Kind::OBrack | Kind::OBrace | Kind::OQuote | Kind::OHeredoc => {
                Some(super::parser::opposite(value.kind))
            }
            Kind::Ident => matches!(
                self.token(self.next_index() + 1).kind,
                Kind::OParen | Kind::DoubleColon
            )
            .then_some(Kind::CParen),
            _ => None,
        }
    }

    fn finish_block(&mut self, ident: Token) -> Diags {
        let mut diags = Diags::new();
        let o_brace;
        // The labels as hclsyntax keeps them; `None` once one cannot be derived here.
        let mut labels: Option<Vec<(String, Span)>> = Some(Vec::new());
        // The labels as a diagnostic's context names the block by.
        let mut named: Vec<String> = Vec::new();
        loop {
            let tok = self.peek();
            match tok.kind {
                Kind::OBrace => {
                    o_brace = self.read();
                    break;
                }
                Kind::OQuote => {
                    let (label_diags, label, end) = self.parse_quoted_string_literal();
                    diags.extend(label_diags);
                    let span = tok.span.to(end);
                    named.push(label.clone().unwrap_or_else(|| {
                        // Spans count a byte-order mark, token offsets do not.
                        let bom = tok.span.start.byte - tok.from;
                        let to = (end.start.byte - bom).clamp(tok.to, self.data.len());
                        String::from_utf8_lossy(&super::escapes::unescape(&self.data[tok.to..to]))
                            .into_owned()
                    }));
                    labels = labels.zip(label).map(|(mut all, l)| {
                        all.push((l, span));
                        all
                    });
                }
                Kind::Ident => {
                    let label = self.read();
                    let text = String::from_utf8_lossy(self.bytes(&label)).into_owned();
                    named.push(text.clone());
                    if let Some(all) = labels.as_mut() {
                        all.push((text, label.span));
                    }
                }
                _ => {
                    let errors_before = diags.len();
                    let first_error = !self.recovery;
                    match tok.kind {
                        Kind::Equal => diags.push(self.diag_in(
                            "Invalid block definition",
                            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                            tok.span,
                            ident.span,
                            tok.span,
                        )),
                        Kind::Newline => diags.push(self.diag_in(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                            tok.span,
                            ident.span,
                            tok.span,
                        )),
                        _ if !self.recovery => diags.push(self.diag_in(
                            "Invalid block definition",
                            "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                            tok.span,
                            ident.span,
                            tok.span,
                        )),
                        _ => {}
                    }
                    // hclsyntax keeps the block with an empty body, which Terraform
                    // decodes: hcl-edit is shown the header blanked, and the block is
                    // added to the model after it (when its labels are known).
                    let reported = diags.len() > errors_before;
                    self.note_top_block(ident, named, ident.span.end.byte);
                    match labels {
                        Some(labels) => {
                            self.skip_item(ident, first_error, reported);
                            self.kept_items.push(KeptItem::Block {
                                kind: String::from_utf8_lossy(self.bytes(&ident)).into_owned(),
                                kind_span: ident.span,
                                labels,
                            });
                        }
                        _ => self.recover_after_body_item(),
                    }
                    return diags;
                }
            }
        }
        let body_diags = match self.peek().kind {
            Kind::Newline | Kind::Eof | Kind::CBrace => self.parse_body(Kind::CBrace),
            _ => {
                let body_diags = self.parse_single_attr_body();
                let next = self.peek();
                match next.kind {
                    Kind::CBrace => {
                        self.read();
                    }
                    Kind::Comma => {
                        let first_error = !self.recovery;
                        diags.push(self.diag(
                            "Invalid single-argument block definition",
                            "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                            next.span,
                        ));
                        self.cut_single_attr_body(next, first_error, true);
                    }
                    Kind::Newline => {
                        let first_error = !self.recovery;
                        diags.push(self.diag(
                            "Invalid single-argument block definition",
                            "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                            next.span,
                        ));
                        self.cut_single_attr_body(next, first_error, true);
                    }
                    _ => {
                        let reported = !self.recovery;
                        if reported {
                            if next.kind == Kind::Eof {
                                diags.push(self.diag_in(
                                    "Unclosed configuration block",
                                    "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                    o_brace.span,
                                    ident.span,
                                    o_brace.span,
                                ));
                            } else {
                                diags.push(self.diag(
                                    "Invalid single-argument block definition",
                                    "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                                    next.span,
                                ));
                            }
                        }
                        self.cut_single_attr_body(next, reported, reported);
                    }
                }
                body_diags
            }
        };
        diags.extend(body_diags);
        let close_end = self.prev_range().end.byte;
        self.note_top_block(ident, named, close_end);
        let eol = self.peek();
        if eol.kind == Kind::Newline || eol.kind == Kind::Eof {
            self.read();
        } else {
            let reported = !self.recovery;
            if reported {
                diags.push(self.diag_in(
                    "Missing newline after block definition",
                    "A block definition must end with a newline.",
                    eol.span,
                    ident.span,
                    eol.span,
                ));
            }
            self.recover_after_body_item();
            self.cut_rest_of_item(eol, reported);
        }
        diags
    }

    /// Keeps a block of the file's own body (see [`Parser::top_blocks`]), read from `ident`
    /// to byte `end`.
    fn note_top_block(&mut self, ident: Token, labels: Vec<String>, end: usize) {
        if self.depth == 1 {
            let kind = String::from_utf8_lossy(self.bytes(&ident)).into_owned();
            self.top_blocks.push(super::parser::TopBlock {
                kind,
                labels,
                span: ident.span.start.byte..end,
            });
        }
    }

    /// A single-line block's body went on after its argument, from `next`: hclsyntax skips
    /// to the closing brace and keeps the argument, so hcl-edit is shown the rest blanked;
    /// a recovery the file ends in closes the block there, on the argument's line (see
    /// [`Parser::closers`]).
    /// `first_error` says whether this was the first error, `reported` whether one was.
    fn cut_single_attr_body(&mut self, next: Token, first_error: bool, reported: bool) {
        // From the argument's end: a comment before `next` would hide a closer.
        let from = self.prev_range().end.byte.min(next.from);
        let close = self.recover(Kind::CBrace);
        self.blanks.push((from, close.from));
        if close.kind != Kind::CBrace {
            self.closers.push_str(" }");
        }
        self.represented += 1;
        self.represented_errors += usize::from(reported);
        self.first_error_cut |= first_error;
    }

    /// After `recover_after_body_item` skipped what follows a complete argument or block on
    /// its line, from `from` through the newline ending the item: hclsyntax keeps the item
    /// and drops the rest, so hcl-edit is shown the rest blanked (the newline stays).
    fn cut_rest_of_item(&mut self, from: Token, reported: bool) {
        let last = self.token(self.read_index().saturating_sub(1));
        if last.from < from.from {
            return;
        }
        self.blanks.push((from.from, last.from));
        self.represented += 1;
        self.represented_errors += usize::from(reported);
        self.first_error_cut |= reported;
    }

    /// `parseQuotedStringLiteral`, for block labels: the diagnostics, the label's text and
    /// where its range ends. A template sequence is an error, and hclsyntax keeps the label
    /// with `${ ... }` (or `%{ ... }`) in the sequence's place, which Terraform goes on to
    /// decode (`Invalid resource name`, ...): hcl-edit is shown the label with the sequence
    /// blanked, and [`Parser::labels`] has the kept text. A line break (the closing quote
    /// missing) ends the label there and skips to the next quote, which closes it; hcl-edit
    /// is shown the label closed at the line break, the skipped text blanked.
    fn parse_quoted_string_literal(&mut self) -> (Diags, Option<String>, Span) {
        let o_quote = self.read();
        let mut diags = Diags::new();
        let mut kept: Vec<u8> = Vec::new();
        // The template sequences cut out (`from..to`), and whether the label's text can be
        // derived (not after a token no label has).
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        let mut plain = true;
        let mut first_error = false;
        // Whether a sequence's recovery ran to the end of the file.
        let mut ran_out = false;
        let mut unterminated = false;
        let mut bad_escapes: Vec<(usize, usize)> = Vec::new();
        // The line break that ended the label, and the token recovery stopped at.
        let mut line_break: Option<(Token, Token)> = None;
        let mut end_range;
        loop {
            let tok = self.read();
            end_range = tok.span;
            match tok.kind {
                Kind::CQuote => break,
                Kind::QuotedLit => {
                    // A bad escape leaves the label whole (what it kept is in the text),
                    // and is blanked so hcl-edit reads the label.
                    let escapes = self.escape_diags(&tok);
                    first_error |= !escapes.is_empty() && !self.recovery;
                    for d in &escapes {
                        if let Some(r) = d.range.as_ref() {
                            bad_escapes.push((r.start.byte, r.end.byte));
                        }
                    }
                    diags.extend(escapes);
                    let text = self.bytes(&tok);
                    kept.extend(super::escapes::decode(text));
                }
                Kind::TemplateControl | Kind::TemplateInterp => {
                    let which = if tok.kind == Kind::TemplateControl {
                        "%"
                    } else {
                        "$"
                    };
                    first_error |= cuts.is_empty() && !self.recovery;
                    diags.push(self.diag_in(
                        "Invalid string literal",
                        format!("Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."),
                        tok.span,
                        o_quote.span,
                        tok.span,
                    ));
                    kept.extend_from_slice(which.as_bytes());
                    kept.extend_from_slice(b"{ ... }");
                    let end = self.recover(Kind::TemplateSeqEnd);
                    if end.kind == Kind::TemplateSeqEnd {
                        cuts.push((tok.from, end.to));
                    } else {
                        // The file ends in the sequence: its recovery is the header's
                        // end, which `finish_block` hides from hcl-edit.
                        ran_out = true;
                    }
                }
                Kind::Eof => {
                    // The label is kept as read so far, and the block with it.
                    first_error |= !self.recovery;
                    unterminated = true;
                    diags.push(self.diag_in(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        tok.span,
                        o_quote.span,
                        tok.span,
                    ));
                    break;
                }
                _ => {
                    first_error |= !self.recovery;
                    diags.push(self.diag_in(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        tok.span,
                        o_quote.span,
                        tok.span,
                    ));
                    let close = self.recover(Kind::CQuote);
                    if tok.kind == Kind::QuotedNewline {
                        line_break = Some((tok, close));
                    } else {
                        plain = false;
                    }
                    break;
                }
            }
        }
        let label = if plain {
            String::from_utf8(kept).ok()
        } else {
            None
        };
        // Each sequence and line break is an error and a recovery; the end of the file and
        // each bad escape are errors that need none.
        let recoveries = cuts.len() + usize::from(ran_out) + usize::from(line_break.is_some());
        let errors = recoveries + usize::from(unterminated) + bad_escapes.len();
        if let Some(label) = label.as_ref().filter(|_| errors > 0) {
            self.represented += recoveries;
            self.represented_errors += errors;
            self.first_error_cut |= first_error;
            self.blanks.extend(cuts);
            self.blanks.extend(bad_escapes);
            if let Some((newline, close)) = line_break {
                self.label_breaks.push((newline.from, close.to));
                // The file ending in the label ends the block's header: nothing of it
                // is shown to hcl-edit (see `finish_block`).
                if close.kind == Kind::CQuote {
                    self.blanks.push((newline.from, newline.to - 1));
                    self.blanks.push((newline.to, close.to));
                    self.quotes.push(newline.to - 1);
                }
            }
            self.labels.push((o_quote.from, label.clone()));
        }
        (diags, label, end_range)
    }
}

/// A body item the parser returns: only attributes matter (for "Attribute redefined").
enum Item<'a> {
    /// `end` is the byte offset where the value expression ends.
    Attribute {
        name: &'a [u8],
        name_range: Span,
        end: usize,
    },
}
