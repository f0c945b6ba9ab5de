//! Expressions (`parseTernaryConditional` down to `parseExpressionTerm`): operators,
//! traversals, function calls and numbers. Only ranges are kept of what is parsed.

use super::parser::{opposite, Diags, Expr, Parser, ZERO};
use super::token::{Kind, Token};

/// `binaryOps`: operator levels from loosest to tightest.
const BINARY_OPS: &[&[Kind]] = &[
    &[Kind::Or],
    &[Kind::And],
    &[Kind::EqualOp, Kind::NotEqual],
    &[
        Kind::GreaterThan,
        Kind::GreaterThanEq,
        Kind::LessThan,
        Kind::LessThanEq,
    ],
    &[Kind::Plus, Kind::Minus],
    &[Kind::Star, Kind::Slash, Kind::Percent],
];

impl Parser<'_> {
    pub fn parse_expression(&mut self) -> (Expr, Diags) {
        let at = self.next_range();
        self.nested(Self::parse_conditional, at)
    }

    pub(super) fn parse_conditional(&mut self) -> (Expr, Diags) {
        let start_range = self.next_range();
        let (cond, mut diags) = self.parse_binary_ops(BINARY_OPS);
        if self.recovery && !diags.is_empty() {
            return (cond, diags);
        }
        if self.peek().kind != Kind::Question {
            return (cond, diags);
        }
        self.read();
        let (_, true_diags) = self.parse_expression();
        let failed = !true_diags.is_empty();
        diags.extend(true_diags);
        if self.recovery && failed {
            self.operand_cut = Some((self.depth(), cond));
            return (cond, diags);
        }
        let colon = self.peek();
        if colon.kind != Kind::Colon {
            diags.push(self.diag_in(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                colon.span,
                start_range,
                colon.span,
            ));
            // hclsyntax returns the condition and reads on, in recovery mode or not:
            // hcl-edit is shown it without the `?` and its result.
            self.blanks
                .push((cond.end.byte, self.prev_range().end.byte));
            self.represented_errors += 1;
            self.first_error_cut |= !self.recovery;
            return (cond, diags);
        }
        self.read();
        let (false_expr, false_diags) = self.parse_expression();
        let failed = !false_diags.is_empty();
        diags.extend(false_diags);
        if self.recovery && failed {
            self.operand_cut = Some((self.depth(), cond));
            return (cond, diags);
        }
        (start_range.to(false_expr), diags)
    }

    pub(super) fn parse_binary_ops(&mut self, ops: &[&[Kind]]) -> (Expr, Diags) {
        let Some((this_level, remaining)) = ops.split_first() else {
            return self.parse_expression_with_traversals();
        };
        let (mut lhs, mut diags) = self.parse_binary_ops(remaining);
        if self.recovery && !diags.is_empty() {
            return (lhs, diags);
        }
        let mut rhs: Option<Expr> = None;
        loop {
            let next = self.peek();
            if !this_level.contains(&next.kind) {
                break;
            }
            if let Some(r) = rhs {
                lhs = lhs.to(r);
            }
            self.read();
            let (r, rhs_diags) = self.parse_binary_ops(remaining);
            rhs = Some(r);
            let failed = !rhs_diags.is_empty();
            diags.extend(rhs_diags);
            if self.recovery && failed {
                self.operand_cut = Some((self.depth(), lhs));
                return (lhs, diags);
            }
        }
        match rhs {
            Some(r) => (lhs.to(r), diags),
            None => (lhs, diags),
        }
    }

    pub(super) fn parse_expression_with_traversals(&mut self) -> (Expr, Diags) {
        let at = self.next_range();
        self.nested(Self::parse_term_and_traversals, at)
    }

    pub(super) fn parse_term_and_traversals(&mut self) -> (Expr, Diags) {
        let (term, mut diags) = self.parse_expression_term();
        let (ret, more) = self.parse_expression_traversals(term);
        diags.extend(more);
        (ret, diags)
    }

    pub(super) fn parse_expression_traversals(&mut self, from: Expr) -> (Expr, Diags) {
        let mut diags = Diags::new();
        let mut ret = from;
        'traversal: loop {
            let next = self.peek();
            match next.kind {
                Kind::Dot => {
                    let dot = self.read();
                    let attr_tok = self.peek();
                    match attr_tok.kind {
                        Kind::Ident => {
                            let t = self.read();
                            ret = ret.to(dot.span.to(t.span));
                        }
                        Kind::NumberLit => {
                            let num = self.read();
                            let text = self.bytes(&num);
                            if let Some(i) = text.iter().position(|&b| b == b'.') {
                                diags.push(self.diag(
                                    "Invalid legacy index syntax",
                                    format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{}][{}].", String::from_utf8_lossy(&text[..i]), String::from_utf8_lossy(&text[i + 1..])),
                                    num.span,
                                ));
                            } else {
                                diags.extend(self.number_diags(&num));
                            }
                            ret = ret.to(dot.span.to(num.span));
                        }
                        Kind::Star => {
                            let marker = self.read();
                            let mut last_range = marker.span;
                            while self.peek().kind == Kind::Dot {
                                self.read();
                                if self.peek().kind == Kind::NumberLit {
                                    let num = self.read();
                                    let text = self.bytes(&num);
                                    if let Some(i) = text.iter().position(|&b| b == b'.') {
                                        diags.push(self.diag(
                                            "Invalid legacy index syntax",
                                            format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{}][{}].", String::from_utf8_lossy(&text[..i]), String::from_utf8_lossy(&text[i + 1..])),
                                            attr_tok.span,
                                        ));
                                    } else {
                                        diags.extend(self.number_diags(&num));
                                    }
                                    last_range = num.span;
                                    continue;
                                }
                                if self.peek().kind != Kind::Ident {
                                    if !self.recovery {
                                        if self.peek().kind == Kind::Star {
                                            diags.push(self.diag(
                                                "Nested splat expression not allowed",
                                                "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                                                self.peek().span,
                                            ));
                                        } else {
                                            diags.push(self.diag(
                                                "Invalid attribute name",
                                                "An attribute name is required after a dot.",
                                                attr_tok.span,
                                            ));
                                        }
                                    }
                                    // hclsyntax keeps the traversal before the splat
                                    // and goes on from the bad name: read as unknown,
                                    // as a nameless dot is.
                                    self.keep_placeholder(from, None);
                                    self.recovery = true;
                                    self.recoveries += 1;
                                    continue 'traversal;
                                }
                                last_range = self.read().span;
                            }
                            ret = from.to(last_range);
                        }
                        _ => {
                            diags.push(self.diag(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attr_tok.span,
                            ));
                            // hclsyntax skips nothing: the traversal so far becomes a
                            // placeholder of unknown value, and the loop goes on from the
                            // token after the dot.
                            ret = from.to(dot.span);
                            self.keep_placeholder(ret, Some(diags.clone()));
                            self.syntax_error_from.get_or_insert(from.start.byte);
                            self.recovery = true;
                            self.recoveries += 1;
                        }
                    }
                }
                Kind::OBrack => {
                    let open = self.read();
                    if self.peek().kind == Kind::Star {
                        self.read();
                        let mut close = self.read();
                        if close.kind != Kind::CBrack && !self.recovery {
                            // Go keeps a pointer to `close`, which recovery then overwrites:
                            // the subject is where recovery stopped.
                            close = self.recover(Kind::CBrack);
                            diags.push(self.diag(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                close.span,
                            ));
                        }
                        let item = open.span.to(close.span);
                        let (trav, nested) = self.parse_expression_traversals(item);
                        diags.extend(nested);
                        ret = from.to(trav);
                    } else {
                        self.push_newlines(false);
                        let (_, key_diags) = self.parse_expression();
                        let failed = !key_diags.is_empty();
                        diags.extend(key_diags);
                        let close = if self.recovery && failed {
                            self.recover(Kind::CBrack)
                        } else {
                            let close = self.read();
                            if close.kind != Kind::CBrack && !self.recovery {
                                // As above: the subject is where recovery stopped.
                                let close = self.recover(Kind::CBrack);
                                diags.push(self.diag(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    close.span,
                                ));
                                close
                            } else {
                                close
                            }
                        };
                        self.pop_newlines();
                        ret = ret.to(open.span.to(close.span));
                    }
                }
                _ => break,
            }
        }
        (ret, diags)
    }

    pub(super) fn number_diags(&self, tok: &Token) -> Diags {
        if valid_number(self.bytes(tok)) {
            return Diags::new();
        }
        vec![self.diag(
            "Invalid number literal",
            "Failed to recognize the value of this number literal.",
            tok.span,
        )]
    }

    pub(super) fn parse_expression_term(&mut self) -> (Expr, Diags) {
        let start = self.peek();
        match start.kind {
            Kind::OParen => {
                let o_paren = self.read();
                self.push_newlines(false);
                let (inner, mut diags) = self.parse_expression();
                if !diags.is_empty() {
                    let skipped = self.peek().from;
                    let close = self.recover(Kind::CParen);
                    self.drop_until(skipped, close, Kind::CParen);
                    self.pop_newlines();
                    return (inner, diags);
                }
                let close = self.peek();
                if close.kind != Kind::CParen {
                    diags.push(self.diag_in(
                        "Unbalanced parentheses",
                        "Expected a closing parenthesis to terminate the expression.",
                        close.span,
                        o_paren.span,
                        close.span,
                    ));
                    self.recovery = true;
                    self.recoveries += 1; // a placeholder in the tree: not shown
                }
                let c_paren = self.read();
                self.pop_newlines();
                (o_paren.span.to(c_paren.span), diags)
            }
            Kind::NumberLit => {
                let tok = self.read();
                (tok.span, self.number_diags(&tok))
            }
            Kind::Ident => {
                let tok = self.read();
                if matches!(self.peek().kind, Kind::OParen | Kind::DoubleColon) {
                    return self.finish_function_call(tok);
                }
                (tok.span, Diags::new())
            }
            Kind::OQuote | Kind::OHeredoc => {
                let open = self.read();
                let closer = opposite(open.kind);
                let (diags, to_eof) = super::template::parse_template_inner(self, closer);
                // A placeholder in an interpolation (`"${data.x.%d.id}"`) makes the whole
                // template's value unknown, and the sequence's recovery stops at its own
                // end, so the template is kept when it closes.
                let closed = self.token(self.read_index().saturating_sub(1)).kind == closer;
                let inner_placeholder = closed && self.unknown_from > Some(open.from);
                // A template the file ends in is kept with its argument, whether it was
                // reported (before the file's first error) or not, and whatever its parts.
                if to_eof || inner_placeholder {
                    // Evaluating the template evaluates its parts: an inner placeholder's
                    // diagnostics again; a template the file ends in is not modelled.
                    if !inner_placeholder {
                        self.evaluated = None;
                    }
                    self.unknown_from = Some(open.from);
                }
                let close_range = self.prev_range();
                (open.span.to(close_range), diags)
            }
            Kind::Minus | Kind::Bang => {
                let tok = self.read();
                let (operand, diags) = self.parse_expression_with_traversals();
                (tok.span.to(operand), diags)
            }
            Kind::OBrack => self.parse_tuple_cons(),
            Kind::OBrace => self.parse_object_cons(),
            _ => {
                let mut diags = Diags::new();
                if !self.recovery {
                    diags.push(if start.kind == Kind::Eof {
                        self.diag(
                            "Missing expression",
                            "Expected the start of an expression, but found the end of the file.",
                            start.span,
                        )
                    } else {
                        self.diag(
                            "Invalid expression",
                            "Expected the start of an expression, but found an invalid expression token.",
                            start.span,
                        )
                    });
                }
                // In recovery mode nothing is reported, so an operator may follow (`%t` is
                // the placeholder `%` the name `t`): the value is unknown all the same.
                let at = start.span.start;
                let taken = super::token::Span { start: at, end: at };
                self.keep_placeholder(taken, Some(Diags::new()));
                self.recovery = true;
                self.recoveries += 1;
                (start.span, diags)
            }
        }
    }

    pub(super) fn finish_function_call(&mut self, name: Token) -> (Expr, Diags) {
        let mut open = self.read();
        // A namespaced name (`provider::aws::arn_parse`): every `::` must be followed by a
        // name, and the last name by the parenthesis.
        while open.kind == Kind::DoubleColon {
            let part = self.read();
            if part.kind != Kind::Ident {
                let d = self.diag_in(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name in this scope.",
                    part.span,
                    name.span,
                    part.span,
                );
                self.recover_over(Kind::OParen);
                return (name.span.to(part.span), vec![d]);
            }
            open = self.read();
        }
        if open.kind != Kind::OParen {
            let d = self.diag_in(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the function call.",
                open.span,
                name.span,
                open.span,
            );
            self.recover_over(Kind::OParen);
            return (name.span.to(open.span), vec![d]);
        }
        let mut diags = Diags::new();
        let mut close = ZERO;
        self.push_newlines(false);
        loop {
            if self.peek().kind == Kind::CParen {
                close = self.read().span;
                break;
            }
            let (_, arg_diags) = self.parse_expression();
            let failed = !arg_diags.is_empty();
            diags.extend(arg_diags);
            if self.recovery && failed {
                let skipped = self.peek().from;
                let recovered = self.recover(Kind::CParen);
                self.drop_until(skipped, recovered, Kind::CParen);
                if recovered.kind == Kind::CParen {
                    close = recovered.span;
                }
                break;
            }
            let sep = self.read();
            if sep.kind == Kind::CParen {
                close = sep.span;
                break;
            }
            if sep.kind == Kind::Ellipsis {
                if self.peek().kind != Kind::CParen {
                    if !self.recovery {
                        diags.push(self.diag_in(
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                            sep.span,
                            name.span,
                            sep.span,
                        ));
                    }
                    close = self.recover(Kind::CParen).span;
                } else {
                    close = self.read().span;
                }
                break;
            }
            if sep.kind != Kind::Comma {
                let first_error = !self.recovery;
                if sep.kind == Kind::Eof {
                    diags.push(self.diag(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        name.span.to(open.span),
                    ));
                } else {
                    diags.push(self.diag_in(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sep.span,
                        name.span,
                        sep.span,
                    ));
                }
                let recovered = self.recover(Kind::CParen);
                self.drop_until(sep.from, recovered, Kind::CParen);
                // hclsyntax keeps the arguments before the missing comma.
                if recovered.kind == Kind::CParen {
                    self.blanks.push((sep.from, recovered.from));
                    self.represented += 1;
                    self.represented_errors += 1;
                    self.first_error_cut |= first_error;
                }
                close = recovered.span;
                break;
            }
            if self.peek().kind == Kind::CParen {
                close = self.read().span;
                break;
            }
        }
        self.pop_newlines();
        (name.span.to(close), diags)
    }
}

/// Whether `cty.ParseNumberVal` (Go's `big.Float` parsing) accepts a scanned number literal.
fn valid_number(text: &[u8]) -> bool {
    // The scanner only produces digits, dots and exponents: Go rejects a second dot, a dot
    // after the exponent, and a second exponent.
    let mut dots = 0;
    let mut exp = false;
    for &b in text {
        match b {
            b'.' if exp => return false,
            b'.' => {
                dots += 1;
                if dots > 1 {
                    return false;
                }
            }
            b'e' | b'E' => {
                if exp {
                    return false;
                }
                exp = true;
            }
            _ => {}
        }
    }
    true
}
