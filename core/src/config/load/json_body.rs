//! JSON syntax (`.tf.json`): Terraform's rules for reading blocks out of JSON objects. Which
//! property names are blocks comes from the schema; a block's labels are nested object keys,
//! and an array at any level means several blocks.

use crate::collections::SortedMap;

/// Byte offsets into the file.
type Span = std::ops::Range<usize>;

use super::json::{Node, NodeKind, Property};
use crate::config::model::{Attribute, Block, Body, Item, JsonPlaces, Origin, Value};
use crate::config::schema;
use crate::diag::{Diagnostic, Diagnostics, LineIndex, Range};
use crate::flavor::Flavor;

/// Converts a parsed `.tf.json` document into the top-level body.
pub fn convert_file(
    name: &str,
    src: &str,
    root: Node,
    flavor: Flavor,
    override_file: bool,
    diags: &mut Diagnostics,
) -> Body {
    let cx = Cx {
        name,
        src,
        lines: LineIndex::new(src),
        flavor,
        override_file,
    };
    // A body may also be an array of objects, whose properties all count.
    let (parts, is_root) = match root.kind {
        NodeKind::Array(items) => (items, false),
        kind => (
            vec![Node {
                kind,
                span: root.span,
            }],
            true,
        ),
    };
    let mut body = Body::default();
    for part in parts {
        let start = part.start_span();
        let NodeKind::Object(props) = part.kind else {
            let detail = if is_root {
                "A JSON object is required here, setting the arguments for this block."
            } else {
                "A JSON object is required here, to define arguments and child blocks."
            };
            diags.push(
                Diagnostic::error("Incorrect JSON value type", detail).with_range(cx.range(start)),
            );
            continue;
        };
        convert_props(&cx, props, flavor, &mut body, diags);
    }
    body
}

fn convert_props(
    cx: &Cx<'_>,
    props: Vec<Property>,
    flavor: Flavor,
    body: &mut Body,
    diags: &mut Diagnostics,
) {
    for p in props {
        if p.key == "//" {
            continue;
        }
        match schema::top_level_labels(&p.key, flavor) {
            Some(labels) => {
                for b in cx.unpack(&[], &p.key, &p.key_span, p.value, labels, diags) {
                    body.items.push(Item::Block(b));
                }
            }
            None => diags.push(
                Diagnostic::error(
                    "Extraneous JSON object property",
                    format!("No argument or block type is named {:?}.", p.key),
                )
                .with_range(cx.range(p.key_span.clone()))
                .with_context(cx.range(p.key_span.start..p.value.span.end)),
            ),
        }
    }
}

struct Cx<'a> {
    name: &'a str,
    src: &'a str,
    lines: LineIndex,
    flavor: Flavor,
    /// An override file: Terraform refuses its `check` blocks without decoding them.
    override_file: bool,
}

impl Cx<'_> {
    fn range(&self, span: std::ops::Range<usize>) -> Range {
        self.lines.range(self.name, self.src, span)
    }

    /// Unpacks the value of property `kind` into blocks of that type with the given label
    /// names. Values are moved, not cloned, so a file's JSON tree is not held twice.
    fn unpack(
        &self,
        parents: &[String],
        kind: &str,
        kind_span: &Span,
        value: Node,
        labels: &[&str],
        diags: &mut Diagnostics,
    ) -> Vec<Block> {
        let mut out = Vec::new();
        self.unpack_level(
            parents,
            kind,
            kind_span,
            value,
            labels,
            &mut Vec::new(),
            &mut out,
            diags,
        );
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn unpack_level(
        &self,
        parents: &[String],
        kind: &str,
        kind_span: &Span,
        v: Node,
        labels_left: &[&str],
        used: &mut Vec<(String, std::ops::Range<usize>)>,
        out: &mut Vec<Block>,
        diags: &mut Diagnostics,
    ) {
        let start = v.start_span();
        if let Some(label) = labels_left.first() {
            match v.kind {
                NodeKind::Object(props) => {
                    if props.is_empty() {
                        diags.push(
                            Diagnostic::error(
                                "Missing block label",
                                format!("At least one object property is required, whose name represents the {kind} block's {label}."),
                            )
                            .with_range(self.range(start.clone())),
                        );
                    }
                    for p in props {
                        used.push((p.key, p.key_span));
                        let rest = &labels_left[1..];
                        self.unpack_level(parents, kind, kind_span, p.value, rest, used, out, diags);
                        used.pop();
                    }
                }
                NodeKind::Array(items) => {
                    for item in items {
                        if item.as_object().is_none() {
                            diags.push(
                                Diagnostic::error(
                                    "Incorrect JSON value type",
                                    format!("A JSON object is required here, to specify {label} labels for this block."),
                                )
                                .with_range(self.range(item.start_span())),
                            );
                            continue;
                        }
                        self.unpack_level(parents, kind, kind_span, item, labels_left, used, out, diags);
                    }
                }
                _ => diags.push(
                    Diagnostic::error(
                        "Incorrect JSON value type",
                        format!("Either a JSON object or JSON array of objects is required here, to specify {label} labels for this block."),
                    )
                    .with_range(self.range(start)),
                ),
            }
            return;
        }
        match v.kind {
            NodeKind::Object(props) => {
                let v = Node {
                    kind: NodeKind::Object(props),
                    span: v.span,
                };
                out.push(self.block(parents, kind, kind_span, used.clone(), v, diags));
            }
            NodeKind::Array(items) => {
                for item in items {
                    if item.as_object().is_some() {
                        // HCL declares each block of an array at the array's bracket.
                        let mut b = self.block(parents, kind, kind_span, used.clone(), item, diags);
                        b.origin.decl = self.range(start.clone());
                        out.push(b);
                    } else {
                        diags.push(
                            Diagnostic::error(
                                "Incorrect JSON value type",
                                "A JSON object is required here, to define arguments and child blocks.",
                            )
                            .with_range(self.range(item.start_span())),
                        );
                    }
                }
            }
            _ => diags.push(
                Diagnostic::error(
                    "Incorrect JSON value type",
                    format!("Either a JSON object or a JSON array is required, representing the contents of one or more {kind:?} blocks."),
                )
                .with_range(self.range(start)),
            ),
        }
    }

    fn block(
        &self,
        parents: &[String],
        kind: &str,
        kind_span: &Span,
        labels: Vec<(String, std::ops::Range<usize>)>,
        v: Node,
        diags: &mut Diagnostics,
    ) -> Block {
        let start = v.start_span();
        Block {
            kind: kind.to_string(),
            label_ranges: labels.iter().map(|(_, s)| self.range(s.clone())).collect(),
            open_brace: self.range(start.clone()),
            json_places: Some(Box::new(JsonPlaces {
                kind: {
                    let r = self.range(kind_span.clone());
                    (r.start, r.end)
                },
                close_brace: self.range(v.span.end.saturating_sub(1)..v.span.end).start,
            })),
            labels: labels.into_iter().map(|(l, _)| l).collect(),
            body: self.body(&[parents, &[kind.to_string()]].concat(), v, diags),
            origin: Origin {
                file: self.name.to_string(),
                decl: self.range(start),
            },
            text: None,
            touched: false,
            base_arguments: None,
        }
    }

    /// The body of the block at `path` (block types from the top level down).
    fn body(&self, path: &[String], v: Node, diags: &mut Diagnostics) -> Body {
        let kind = path.last().map_or("", String::as_str);
        let path_strs: Vec<&str> = path.iter().map(String::as_str).collect();
        let mut body = Body::default();
        let NodeKind::Object(props) = v.kind else {
            return body;
        };
        // Where each argument was set (a scan of the body per argument was quadratic).
        let mut seen: SortedMap<String, Range> = SortedMap::new();
        for p in props {
            if p.key == "//" {
                continue;
            }
            if let Some(n) = schema::nested_block_labels(&path_strs, &p.key, self.flavor) {
                let names = ["type", "name"];
                for b in self.unpack(
                    path,
                    &p.key,
                    &p.key_span,
                    p.value,
                    &names[..n.min(2)],
                    diags,
                ) {
                    body.items.push(Item::Block(b));
                }
                continue;
            }
            // A check block's schema has blocks only: HCL refuses any other property (and
            // the property could not be written as a native argument anyway).
            if kind == "check" {
                if self.override_file && path.len() == 1 {
                    continue;
                }
                let hint = crate::gotext::suggest::name_suggestion(&p.key, &["data", "assert"])
                    .map(|c| format!(" Did you mean {c:?}?"))
                    .unwrap_or_default();
                diags.push(
                    Diagnostic::error(
                        "Extraneous JSON object property",
                        format!("No argument or block type is named {:?}.{hint}", p.key),
                    )
                    .with_range(self.range(p.key_span.clone()))
                    .with_context(self.range(p.key_span.start..p.value.span.end)),
                );
                continue;
            }
            if let Some(prev) = seen.get(&p.key) {
                diags.push(
                    Diagnostic::error(
                        "Duplicate argument",
                        format!("The argument {:?} was already set at {prev}.", p.key),
                    )
                    .with_range(self.range(p.key_span.clone()))
                    .with_context(self.range(p.key_span.start..p.value.span.end)),
                );
                continue;
            }
            let decl = self.range(p.key_span.start..p.value.span.end);
            seen.insert(p.key.clone(), decl.clone());
            let json_text = (kind == "required_providers").then(|| {
                self.src
                    .get(p.value.span.clone())
                    .unwrap_or_default()
                    .into()
            });
            body.items.push(Item::Attribute(Attribute {
                name: p.key,
                expr_range: self.range(p.value.span.clone()),
                value: Value::Json(p.value),
                origin: Origin {
                    file: self.name.to_string(),
                    decl,
                },
                text: None,
                json_text,
            }));
        }
        body
    }
}

/// A JSON document read as HCL's `JustAttributes` reads it (a variables file): every
/// property of the root object an attribute, `//` ignored, a repeated name refused.
pub fn attributes(name: &str, src: &str, root: Node, diags: &mut Diagnostics) -> Body {
    let lines = LineIndex::new(src);
    let range = |span: Span| lines.range(name, src, span);
    let mut body = Body::default();
    let start = root.start_span();
    let NodeKind::Object(props) = root.kind else {
        diags.push(
            Diagnostic::error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
            )
            .with_range(range(start)),
        );
        return body;
    };
    let mut seen: SortedMap<String, Range> = SortedMap::new();
    for p in props {
        if p.key == "//" {
            continue;
        }
        let decl = range(p.key_span.start..p.value.span.end);
        if let Some(existing) = seen.get(&p.key) {
            diags.push(
                Diagnostic::error(
                    "Duplicate attribute definition",
                    format!("The argument {:?} was already set at {existing}.", p.key),
                )
                .with_range(range(p.key_span.clone())),
            );
            continue;
        }
        seen.insert(p.key.clone(), decl.clone());
        body.items.push(Item::Attribute(Attribute {
            name: p.key,
            expr_range: range(p.value.span.clone()),
            value: Value::Json(p.value),
            origin: Origin {
                file: name.to_string(),
                decl,
            },
            text: None,
            json_text: None,
        }));
    }
    body
}
