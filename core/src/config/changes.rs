//! What each override file changed, as data: for every override file in merge order, each
//! top-level block, argument or nested block it replaced, added or removed, where the override
//! wrote it and the text it replaced.
//!
//! The records are taken by comparing the blocks an override file can reach before and after
//! `merge_file` runs, so the merge itself stays exactly as it is; only those blocks are copied.

use crate::config::merge::merge_file;
use crate::config::model::{Attribute, Block, Body, Item, Value};
use crate::config::module::{block_key, Index, Module};
use crate::config::render::{json_expr, render_block};
use crate::diag::{Diagnostics, Range};
use crate::flavor::Flavor;
use serde::Serialize;

/// What a change did to the merged module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// The override's item took the place of an existing one.
    Replaced,
    /// The override's item is new in the module.
    Added,
    /// An existing item is gone (e.g. `for_each` dropped for the override's `count`).
    Removed,
}

/// The item a change replaced or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Previous {
    /// The file it came from (a primary file or an earlier override file).
    pub file: String,
    /// Its declaration range there.
    pub range: Range,
    /// Its source text: an argument's value expression, or a nested block as written.
    pub text: String,
}

/// One change an override file made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The top-level block's address, as in `Provenance::block` (`resource.aws_instance.web`).
    pub block: String,
    /// The path inside the block (`ami`, `lifecycle.ignore_changes`), empty for the block itself.
    pub path: String,
    /// Replaced, added or removed.
    pub kind: ChangeKind,
    /// Where the override file wrote the new item (`None` for a removal).
    pub range: Option<Range>,
    /// What was there before (`None` for an addition).
    pub previous: Option<Previous>,
    /// The 1-based first and last line of the item in the merged module text, when this file's
    /// item is what the merged module finally holds (a later override may replace it again).
    pub merged_lines: Option<(usize, usize)>,
}

/// Everything one override file changed, in the order it applied them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OverrideChanges {
    /// The override file's name.
    pub file: String,
    /// Its changes: `terraform` settings, then local values, then the other blocks in the
    /// file's order (within a block: its items in merged order, then removals).
    pub changes: Vec<Change>,
}

/// Copies of the blocks one override file can reach, taken before it merges.
pub(crate) struct Snapshot {
    /// `(address, block key, block before the merge)`; `None` when no base existed.
    blocks: Vec<(String, Option<String>, Option<Block>)>,
    /// All `terraform` blocks' items, concatenated (overrides edit them as one): `Some(None)`
    /// when the file has `terraform` blocks and the module had none.
    terraform: Option<Option<Block>>,
    /// Local values the file overrides: name → attribute before.
    locals: Vec<(String, Option<Attribute>)>,
}

/// The address `Provenance` uses for a top-level block.
pub(crate) fn address(b: &Block) -> String {
    std::iter::once(b.kind.as_str())
        .chain(b.labels.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(".")
}

/// Copies what `over` can change in `module`.
pub(crate) fn snapshot(module: &Module, ix: &Index, over: &Body) -> Snapshot {
    let mut s = Snapshot {
        blocks: Vec::new(),
        terraform: None,
        locals: Vec::new(),
    };
    for b in over.blocks() {
        match b.kind.as_str() {
            "terraform" if s.terraform.is_none() => s.terraform = Some(terraform_view(module)),
            "locals" => {
                for a in b.body.attributes() {
                    let before = ix.locals.get(&a.name).and_then(|&(bi, ii)| {
                        match module.blocks.get(bi)?.body.items.get(ii)? {
                            Item::Attribute(x) => Some(x.clone()),
                            Item::Block(_) => None,
                        }
                    });
                    s.locals.push((a.name.clone(), before));
                }
            }
            _ => {
                let Some(key) = block_key(b) else { continue };
                if s.blocks.iter().any(|(_, k, _)| k.as_ref() == Some(&key)) {
                    continue;
                }
                let before = ix
                    .blocks
                    .get(&key)
                    .and_then(|&i| module.blocks.get(i))
                    .cloned();
                s.blocks.push((address(b), Some(key), before));
            }
        }
    }
    s
}

/// The module's `terraform` blocks seen as one block (header of the first).
fn terraform_view(module: &Module) -> Option<Block> {
    let mut view: Option<Block> = None;
    for b in module.blocks_of("terraform") {
        match &mut view {
            None => view = Some(b.clone()),
            Some(v) => v.body.items.extend(b.body.items.iter().cloned()),
        }
    }
    view
}

/// Compares the snapshot with the module after `file` merged.
pub(crate) fn compare(before: Snapshot, module: &Module, ix: &Index, file: &str) -> Vec<Change> {
    let mut out = Vec::new();
    if let (Some(tb), Some(after)) = (&before.terraform, terraform_view(module)) {
        let d = Diff {
            file,
            block: "terraform",
        };
        if tb.is_none() && after.origin.file == file {
            d.push_added(&mut out, "", &after);
        }
        d.body(
            &mut out,
            "",
            tb.as_ref().map(|b| &b.body),
            &after.body,
            "terraform",
        );
    }
    for (name, old) in before.locals {
        let Some(&(bi, ii)) = ix.locals.get(&name) else {
            continue;
        };
        let Some(Item::Attribute(new)) = module.blocks.get(bi).and_then(|b| b.body.items.get(ii))
        else {
            continue;
        };
        if new.origin.file == file {
            let d = Diff {
                file,
                block: "locals",
            };
            d.attribute(&mut out, "", new, old.as_ref(), "locals");
        }
    }
    for (addr, key, old) in before.blocks {
        let Some(key) = key else { continue };
        let found = ix
            .blocks
            .get(&key)
            .and_then(|&i| module.blocks.get(i))
            .filter(|b| block_key(b).as_deref() == Some(key.as_str()))
            .or_else(|| {
                module
                    .blocks
                    .iter()
                    .find(|b| block_key(b).as_deref() == Some(key.as_str()))
            });
        let Some(after) = found else { continue };
        let d = Diff { file, block: &addr };
        match &old {
            None if after.origin.file == file => {
                d.push_added(&mut out, "", after);
                d.body(&mut out, "", None, &after.body, &after.kind);
            }
            None => {}
            Some(old) => d.body(&mut out, "", Some(&old.body), &after.body, &after.kind),
        }
    }
    out
}

/// Compares one block's items before and after one override file.
struct Diff<'a> {
    file: &'a str,
    block: &'a str,
}

impl Diff<'_> {
    fn push_added(&self, out: &mut Vec<Change>, path: &str, b: &Block) {
        out.push(Change {
            block: self.block.to_string(),
            path: path.to_string(),
            kind: ChangeKind::Added,
            range: Some(b.origin.decl.clone()),
            previous: None,
            merged_lines: None,
        });
    }

    fn body(
        &self,
        out: &mut Vec<Change>,
        prefix: &str,
        before: Option<&Body>,
        after: &Body,
        kind: &str,
    ) {
        let empty = Body::default();
        let before = before.unwrap_or(&empty);
        let mut seen_types: Vec<&str> = Vec::new();
        for item in &after.items {
            match item {
                Item::Attribute(a) if a.origin.file == self.file => {
                    self.attribute(out, prefix, a, before.attribute(&a.name), kind);
                }
                Item::Attribute(_) => {}
                Item::Block(nb) => {
                    let path = format!("{prefix}{}", nested_name(nb));
                    let ty = effective_type(nb);
                    let olds: Vec<&Block> = before
                        .blocks()
                        .filter(|b| effective_type(b) == ty)
                        .collect();
                    if nb.origin.file == self.file && nb.touched {
                        // A container the merge created for the override's entries
                        // (`required_providers`, `lifecycle`): the entries are the changes.
                        let old = olds.iter().find(|b| nested_name(b) == nested_name(nb));
                        if old.is_none() {
                            self.push_added(out, &path, nb);
                        }
                        self.body(
                            out,
                            &format!("{path}."),
                            old.map(|b| &b.body),
                            &nb.body,
                            &nb.kind,
                        );
                    } else if nb.origin.file == self.file {
                        // Nested blocks replace every base block of their type: the first
                        // override block of a type carries what the type held before.
                        let first = !seen_types.contains(&ty);
                        seen_types.push(ty);
                        let previous = match (first, olds.as_slice()) {
                            (true, [o, ..]) => Some(Previous {
                                file: o.origin.file.clone(),
                                range: o.origin.decl.clone(),
                                text: olds
                                    .iter()
                                    .map(|b| block_text(b, kind))
                                    .collect::<Vec<_>>()
                                    .join("\n"),
                            }),
                            _ => None,
                        };
                        out.push(Change {
                            block: self.block.to_string(),
                            path,
                            kind: if previous.is_some() {
                                ChangeKind::Replaced
                            } else {
                                ChangeKind::Added
                            },
                            range: Some(nb.origin.decl.clone()),
                            previous,
                            merged_lines: None,
                        });
                    } else if nb.touched {
                        let old = olds.iter().find(|b| nested_name(b) == nested_name(nb));
                        self.body(
                            out,
                            &format!("{path}."),
                            old.map(|b| &b.body),
                            &nb.body,
                            &nb.kind,
                        );
                    }
                }
            }
        }
        self.removed(out, prefix, before, after, kind);
    }

    fn attribute(
        &self,
        out: &mut Vec<Change>,
        prefix: &str,
        new: &Attribute,
        old: Option<&Attribute>,
        kind: &str,
    ) {
        out.push(Change {
            block: self.block.to_string(),
            path: format!("{prefix}{}", new.name),
            kind: if old.is_some() {
                ChangeKind::Replaced
            } else {
                ChangeKind::Added
            },
            range: Some(new.origin.decl.clone()),
            previous: old.map(|o| Previous {
                file: o.origin.file.clone(),
                range: o.origin.decl.clone(),
                text: value_text(o, kind),
            }),
            merged_lines: None,
        });
    }

    /// Items of `before` with no counterpart left in `after` (dropped `for_each`, a `backend`
    /// the override's `cloud` displaced); replaced block types were reported already.
    fn removed(
        &self,
        out: &mut Vec<Change>,
        prefix: &str,
        before: &Body,
        after: &Body,
        kind: &str,
    ) {
        for item in &before.items {
            let (path, previous) = match item {
                Item::Attribute(a) if after.attribute(&a.name).is_none() => (
                    a.name.clone(),
                    Previous {
                        file: a.origin.file.clone(),
                        range: a.origin.decl.clone(),
                        text: value_text(a, kind),
                    },
                ),
                Item::Block(b)
                    if !after
                        .blocks()
                        .any(|x| effective_type(x) == effective_type(b)) =>
                {
                    (
                        nested_name(b),
                        Previous {
                            file: b.origin.file.clone(),
                            range: b.origin.decl.clone(),
                            text: block_text(b, kind),
                        },
                    )
                }
                _ => continue,
            };
            out.push(Change {
                block: self.block.to_string(),
                path: format!("{prefix}{path}"),
                kind: ChangeKind::Removed,
                range: None,
                previous: Some(previous),
                merged_lines: None,
            });
        }
    }
}

/// A nested block's name in a path: its type and labels joined by dots, as `Provenance` does.
fn nested_name(b: &Block) -> String {
    address(b)
}

/// The type a nested block stands for in the merge: a `dynamic` block's label, else its own.
fn effective_type(b: &Block) -> &str {
    if b.kind == "dynamic" {
        b.labels.first().map_or("dynamic", String::as_str)
    } else {
        &b.kind
    }
}

/// An argument's value as native source text (JSON values printed the way the merge renders them).
fn value_text(a: &Attribute, kind: &str) -> String {
    match &a.value {
        Value::Unknown(_) => String::new(),
        Value::Native { src, .. } => src.clone(),
        Value::Json(n) => json_expr::render(n, "", json_expr::reading(kind, &a.name)),
    }
}

/// A nested block as the merged module would print it, without leading comments.
fn block_text(b: &Block, parent: &str) -> String {
    match &b.text {
        Some(t) if !b.touched => t.src.clone(),
        _ => render_block(b, "", parent).trim().to_string(),
    }
}

/// Merges `overrides` into `module` like `load_module` does and records what each file changed.
pub(crate) fn merge_recording(
    module: &mut Module,
    ix: &mut Index,
    overrides: &[crate::config::load::ParsedFile],
    flavor: Flavor,
    diags: &mut Diagnostics,
) -> Vec<OverrideChanges> {
    let mut out = Vec::with_capacity(overrides.len());
    for file in overrides {
        let before = snapshot(module, ix, &file.body);
        merge_file(module, ix, file, flavor, diags);
        out.push(OverrideChanges {
            file: file.name.clone(),
            changes: compare(before, module, ix, &file.name),
        });
    }
    out
}
