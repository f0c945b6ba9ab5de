//! Collection constructors (`parseTupleCons`, `parseObjectCons`) and `for` expressions.

use super::parser::{Diags, Expr, Parser};
use super::token::{Kind, Token};

/// One object constructor item, for finding repeated keys.
struct ObjectItem {
    /// The key's tokens, as indexes `from..to`.
    key: (usize, usize),
    /// The item's bytes, from its key through its separator.
    bytes: (usize, usize),
}

/// The parser's state where an object item starts, for what it shows of the item if
/// hclsyntax drops it.
struct ItemStart {
    /// Whether the item starts outside recovery mode.
    first_error: bool,
    recoveries: usize,
    represented: usize,
    represented_errors: usize,
}

impl Parser<'_> {
    pub(super) fn parse_tuple_cons(&mut self) -> (Expr, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let result = self.tuple_items(open);
        self.pop_newlines();
        result
    }

    pub(super) fn tuple_items(&mut self, open: Token) -> (Expr, Diags) {
        if self.is_keyword(&self.peek(), "for") {
            return self.finish_for_expr(open);
        }
        let mut diags = Diags::new();
        let close;
        loop {
            if self.peek().kind == Kind::CBrack {
                close = self.read();
                break;
            }
            let item = self.peek().from;
            // Whether this item holds a placeholder, the argument's own kept aside.
            let outermost = self.items_holding.is_some() && open.from == 0;
            let outer = outermost.then(|| (self.unknown_from.take(), self.evaluated.take()));
            let shown_before = (self.recoveries, self.represented, self.represented_errors);
            let (item_expr, expr_diags) = self.parse_expression();
            if let Some((unknown_from, evaluated)) = outer {
                if self.unknown_from.is_some() {
                    self.items_holding.get_or_insert_default().push(item_expr);
                }
                if unknown_from.is_some() {
                    (self.unknown_from, self.evaluated) = (unknown_from, evaluated);
                }
            }
            let failed = !expr_diags.is_empty();
            let reported = expr_diags.len();
            diags.extend(expr_diags);
            if self.recovery && failed {
                self.tuple_cuts.push((item, item_expr));
                let item_end = self.prev_range().end.byte;
                // Every recovery and error inside the item is one the blanks show (an
                // object that dropped its failing item): hclsyntax keeps the tuple through
                // that item, and hcl-edit is shown it without the rest.
                let shown = self.recoveries - shown_before.0 == self.represented - shown_before.1
                    && self.represented_errors - shown_before.2 == reported;
                let skipped = self.peek().from;
                close = self.recover(Kind::CBrack);
                self.drop_until(skipped, close, Kind::CBrack);
                if shown && close.kind == Kind::CBrack {
                    self.blanks.push((item_end, close.from));
                    self.represented += 1;
                }
                break;
            }
            let next = self.peek();
            if next.kind == Kind::CBrack {
                close = self.read();
                break;
            }
            if next.kind != Kind::Comma {
                let first_error = !self.recovery;
                if first_error {
                    diags.push(if next.kind == Kind::Eof {
                        self.diag(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.span,
                        )
                    } else {
                        self.diag_in(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.span,
                            open.span,
                            next.span,
                        )
                    });
                }
                if self.items_holding.is_some() && open.from == 0 {
                    self.separator_cut = Some(next.from);
                }
                close = self.recover(Kind::CBrack);
                // hclsyntax keeps the items through the one before the missing comma.
                if close.kind == Kind::CBrack {
                    self.blanks.push((next.from, close.from));
                    self.represented += 1;
                    self.represented_errors += usize::from(first_error);
                    self.first_error_cut |= first_error;
                }
                break;
            }
            self.read();
        }
        (open.span.to(close.span), diags)
    }

    pub(super) fn parse_object_cons(&mut self) -> (Expr, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.is_keyword(&self.peek(), "for");
        self.pop_newlines();
        if is_for {
            return self.finish_for_expr(open);
        }
        self.push_newlines(true);
        let result = self.object_items(open);
        self.pop_newlines();
        result
    }

    pub(super) fn object_items(&mut self, open: Token) -> (Expr, Diags) {
        let mut diags = Diags::new();
        // Each complete item: its key's tokens, and its bytes through its separator.
        let mut items: Vec<ObjectItem> = Vec::new();
        let close;
        loop {
            let next = self.peek();
            if next.kind == Kind::Newline {
                self.read();
                continue;
            }
            if next.kind == Kind::CBrace {
                close = self.read();
                break;
            }
            let key_start = self.next_index();
            let item = ItemStart {
                first_error: !self.recovery,
                recoveries: self.recoveries,
                represented: self.represented,
                represented_errors: self.represented_errors,
            };
            let (_, key_diags) = self.parse_expression();
            let key_end = self.read_index();
            let failed = !key_diags.is_empty();
            let reported = key_diags.len();
            diags.extend(key_diags);
            if self.recovery && failed {
                close = self.recover(Kind::CBrace);
                self.cut_failing_item(key_start, close, &item, reported);
                break;
            }
            let next = self.peek();
            if next.kind != Kind::Equal && next.kind != Kind::Colon {
                let first_error = !self.recovery;
                if first_error {
                    diags.push(match next.kind {
                        Kind::Newline | Kind::Comma => self.diag_in(
                            "Missing attribute value",
                            "Expected an attribute value, introduced by an equals sign (\"=\").",
                            next.span,
                            open.span,
                            next.span,
                        ),
                        Kind::Ident => self.diag_in(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                            next.span,
                            open.span,
                            next.span,
                        ),
                        Kind::Eof => self.diag(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span,
                        ),
                        _ => self.diag_in(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            next.span,
                            open.span,
                            next.span,
                        ),
                    });
                }
                close = self.recover(Kind::CBrace);
                // hclsyntax keeps the items before this key: hcl-edit is shown the object
                // without the rest.
                if close.kind == Kind::CBrace {
                    self.blanks.push((self.token(key_start).from, close.from));
                    self.forget_kept_from(self.token(key_start).from);
                    self.represented += 1;
                    self.represented_errors += usize::from(first_error);
                    self.first_error_cut |= first_error;
                }
                break;
            }
            self.read();
            let value = self.peek().from;
            let (_, value_diags) = self.parse_expression();
            let failed = !value_diags.is_empty();
            let reported = value_diags.len();
            diags.extend(value_diags);
            if self.recovery && failed {
                let skipped = self.peek().from;
                close = self.recover(Kind::CBrace);
                // hclsyntax keeps the failing item only when its value is the placeholder
                // of a traversal whose dot has no name (`ExprSyntaxError`).
                if self.syntax_error_from != Some(value) {
                    self.cut_failing_item(key_start, close, &item, reported);
                } else {
                    self.drop_until(skipped, close, Kind::CBrace);
                }
                break;
            }
            let next = self.peek();
            if next.kind == Kind::CBrace {
                // The last item is never blanked: it is the last of its key.
                let at = self.token(key_start).from;
                items.push(ObjectItem {
                    key: (key_start, key_end),
                    bytes: (at, at),
                });
                close = self.read();
                break;
            }
            if next.kind != Kind::Comma && next.kind != Kind::Newline {
                let first_error = !self.recovery;
                if first_error {
                    diags.push(if next.kind == Kind::Eof {
                        self.diag(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span,
                        )
                    } else {
                        self.diag_in(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            next.span,
                            open.span,
                            next.span,
                        )
                    });
                }
                close = self.recover(Kind::CBrace);
                // hclsyntax keeps the items through the one before the missing separator.
                if close.kind == Kind::CBrace {
                    self.blanks.push((next.from, close.from));
                    self.represented += 1;
                    self.represented_errors += usize::from(first_error);
                    self.first_error_cut |= first_error;
                }
                break;
            }
            let sep = self.read();
            items.push(ObjectItem {
                key: (key_start, key_end),
                bytes: (self.token(key_start).from, sep.to),
            });
        }
        if diags.is_empty() {
            self.blank_repeated_keys(&items);
        }
        (open.span.to(close.span), diags)
    }

    /// An object item (from token `key_start` on) failed, and hclsyntax keeps the object
    /// without it, skipped through `close`: hcl-edit is shown the object without it, the
    /// value holds no placeholder (see [`Parser::placeholder_dropped`]), and the item's
    /// recoveries and its `reported` errors are shown, once whatever was cut inside it.
    fn cut_failing_item(
        &mut self,
        key_start: usize,
        close: Token,
        item: &ItemStart,
        reported: usize,
    ) {
        self.placeholder_dropped = true;
        if close.kind != Kind::CBrace {
            return;
        }
        self.blanks.push((self.token(key_start).from, close.from));
        self.forget_kept_from(self.token(key_start).from);
        self.represented = item.represented + (self.recoveries - item.recoveries);
        self.represented_errors = item.represented_errors + reported;
        self.first_error_cut |= item.first_error && reported > 0;
    }

    /// In [`super::kept::kept_value`]'s reading, forgets the placeholders of an object item
    /// from byte `at` on that hclsyntax drops (a failing key's stands where the blank starts).
    fn forget_kept_from(&mut self, at: usize) {
        if let Some(kept) = self.kept.as_mut() {
            kept.retain(|(span, _)| span.start.byte < at);
        }
    }

    /// Blanks every item whose key a later item of the same object repeats. hclsyntax keeps
    /// them all and the last one wins when the object is built; hcl-edit refuses the object,
    /// so it is shown only the winners. Keys are compared as token sequences, which is how
    /// hcl-edit compares them (by structure, ignoring layout and comments).
    fn blank_repeated_keys(&mut self, items: &[ObjectItem]) {
        if items.len() < 2 {
            return;
        }
        let mut keyed: Vec<(Vec<u8>, usize)> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (self.key_signature(item.key), i))
            .collect();
        // Stable: items with one key stay in source order, so all but the last are blanked.
        crate::collections::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0));
        for pair in keyed.windows(2) {
            if pair[0].0 == pair[1].0 {
                self.blanks.push(items[pair[0].1].bytes);
            }
        }
    }

    /// A key's tokens (kind and bytes, without newlines and comments) as one byte string.
    fn key_signature(&self, (from, to): (usize, usize)) -> Vec<u8> {
        let mut out = Vec::new();
        for i in from..to {
            let tok = self.token(i);
            if matches!(tok.kind, Kind::Newline | Kind::Comment) {
                continue;
            }
            let bytes = self.bytes(&tok);
            out.push(tok.kind as u8);
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        out
    }

    pub(super) fn finish_for_expr(&mut self, open: Token) -> (Expr, Diags) {
        self.push_newlines(false);
        let result = self.for_expr(open);
        self.pop_newlines();
        result
    }

    pub(super) fn for_error(
        &mut self,
        open: Token,
        close_kind: Kind,
        mut diags: Diags,
        detail: Option<&str>,
    ) -> (Expr, Diags) {
        if let Some(detail) = detail {
            if !self.recovery {
                let at = self.peek().span;
                diags.push(self.diag_in("Invalid 'for' expression", detail, at, open.span, at));
            }
        }
        let close = self.recover(close_kind);
        // hclsyntax keeps a placeholder of unknown value from the bracket through the
        // token its recovery stopped at.
        if let Some(kept) = self.kept.as_mut() {
            kept.push((open.span.to(close.span), Some(Diags::new())));
        }
        // It stands for the placeholders inside it, whose errors evaluating it does not
        // report again.
        if self.unknown_from.is_none_or(|at| at > open.from) {
            self.unknown_from = Some(open.from);
            self.evaluated = Some(Diags::new());
        }
        (open.span.to(close.span), diags)
    }

    pub(super) fn for_expr(&mut self, open: Token) -> (Expr, Diags) {
        self.read(); // "for"
        let make_obj = open.kind == Kind::OBrace;
        let close_kind = if make_obj { Kind::CBrace } else { Kind::CBrack };
        let mut diags = Diags::new();
        if self.peek().kind != Kind::Ident {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires variable name after 'for'."),
            );
        }
        self.read();
        if self.peek().kind == Kind::Comma {
            self.read();
            if self.peek().kind != Kind::Ident {
                return self.for_error(
                    open,
                    close_kind,
                    diags,
                    Some("For expression requires value variable name after comma."),
                );
            }
            self.read();
        }
        if !self.is_keyword(&self.peek(), "in") {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires the 'in' keyword after its name declarations."),
            );
        }
        self.read();
        let (_, coll_diags) = self.parse_expression();
        let failed = !coll_diags.is_empty();
        diags.extend(coll_diags);
        if self.recovery && failed {
            return self.for_error(open, close_kind, diags, None);
        }
        if self.peek().kind != Kind::Colon {
            return self.for_error(
                open,
                close_kind,
                diags,
                Some("For expression requires a colon after the collection expression."),
            );
        }
        self.read();
        let (mut val_expr, mut val_diags) = self.parse_expression();
        let mut key: Option<(Expr, Diags)> = None;
        if self.peek().kind == Kind::FatArrow {
            self.read();
            key = Some((val_expr, val_diags));
            (val_expr, val_diags) = self.parse_expression();
        }
        let key_failed = key.as_ref().is_some_and(|(_, d)| !d.is_empty());
        let val_failed = !val_diags.is_empty();
        let key_expr = key.map(|(e, d)| {
            diags.extend(d);
            e
        });
        diags.extend(val_diags);
        if self.recovery && (key_failed || val_failed) {
            return self.for_error(open, close_kind, diags, None);
        }
        let mut ellipsis = None;
        if self.peek().kind == Kind::Ellipsis {
            ellipsis = Some(self.read());
        }
        if self.is_keyword(&self.peek(), "if") {
            self.read();
            let (_, cond_diags) = self.parse_expression();
            let failed = !cond_diags.is_empty();
            diags.extend(cond_diags);
            if self.recovery && failed {
                return self.for_error(open, close_kind, diags, None);
            }
        }
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            if !self.recovery {
                let at = self.peek().span;
                diags.push(self.diag_in(
                    "Invalid 'for' expression",
                    "Extra characters after the end of the 'for' expression.",
                    at,
                    open.span,
                    at,
                ));
            }
            self.recover(close_kind)
        };
        if !make_obj {
            if let Some(key) = key_expr {
                diags.push(self.diag_in(
                    "Invalid 'for' expression",
                    "Key expression is not valid when building a tuple.",
                    key,
                    open.span,
                    close.span,
                ));
            }
            if let Some(e) = ellipsis {
                diags.push(self.diag_in(
                    "Invalid 'for' expression",
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    e.span,
                    open.span,
                    close.span,
                ));
            }
        } else if key_expr.is_none() {
            diags.push(self.diag_in(
                "Invalid 'for' expression",
                "Key expression is required when building an object.",
                val_expr,
                open.span,
                close.span,
            ));
        }
        (open.span.to(close.span), diags)
    }
}
