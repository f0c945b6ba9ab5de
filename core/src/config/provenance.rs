//! Where each part of the merged module came from, as data: per top-level block and per
//! argument or nested block inside it, the file and range. The playground highlights with it.

use crate::config::model::{Block, Item};
use crate::config::module::Module;
use crate::diag::Range;
use serde::Serialize;

/// One provenance record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// The top-level block's address, e.g. `resource.aws_instance.web` or `terraform`.
    pub block: String,
    /// The path inside the block (`ami`, `lifecycle`, `required_providers.aws`), empty for the block itself.
    pub path: String,
    /// The file it came from.
    pub file: String,
    /// Its declaration range in that file.
    pub range: Range,
    /// Its 1-based first and last line in [`crate::config::render_merged`]'s text, from
    /// [`provenance_with_lines`]: top-level blocks and the items of blocks a merge touched are
    /// drawn as pieces of their own; the items of an untouched block lie within its lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_lines: Option<(usize, usize)>,
}

/// All provenance records of `module`, in render order.
pub fn provenance(module: &Module) -> Vec<Provenance> {
    let mut out = Vec::new();
    for b in &module.blocks {
        let addr = std::iter::once(b.kind.clone())
            .chain(b.labels.iter().cloned())
            .collect::<Vec<_>>()
            .join(".");
        out.push(Provenance {
            block: addr.clone(),
            path: String::new(),
            file: b.origin.file.clone(),
            range: b.origin.decl.clone(),
            merged_lines: None,
        });
        walk(&addr, "", b, &mut out);
    }
    out
}

/// [`provenance`] with each record's lines in the merged text, where it has its own (what
/// `tflock merge --json` prints and the playground marks every line with). A separate
/// function so builds that never show the merged text by line (the npm package) do not carry
/// the line counting.
pub fn provenance_with_lines(module: &Module) -> Vec<Provenance> {
    // Records and spans both come block by block in render order, each top-level block's
    // first (the only ones with an empty path). Matching within one block keeps blocks that
    // share an address apart (a provider and its aliased copy, several `locals`); within a
    // block, pieces that share a path and file take their spans in turn.
    type Group =
        crate::collections::SortedMap<(String, String), std::collections::VecDeque<(usize, usize)>>;
    let mut groups: Vec<Group> = Vec::new();
    for s in crate::config::render::render_spans(module) {
        if s.path.is_empty() {
            groups.push(Group::new());
        }
        if let Some(g) = groups.last_mut() {
            g.entry((s.path, s.file)).or_default().push_back(s.lines);
        }
    }
    let mut out = provenance(module);
    let mut group = None::<usize>;
    for p in out.iter_mut() {
        if p.path.is_empty() {
            group = Some(group.map_or(0, |g| g + 1));
        }
        p.merged_lines = group
            .and_then(|g| groups.get_mut(g))
            .and_then(|g| g.get_mut(&(p.path.clone(), p.file.clone())))
            .and_then(|q| q.pop_front());
    }
    out
}

fn walk(addr: &str, prefix: &str, b: &Block, out: &mut Vec<Provenance>) {
    for item in &b.body.items {
        match item {
            Item::Attribute(a) => out.push(Provenance {
                block: addr.to_string(),
                path: format!("{prefix}{}", a.name),
                file: a.origin.file.clone(),
                range: a.origin.decl.clone(),
                merged_lines: None,
            }),
            Item::Block(nb) => {
                let name = std::iter::once(nb.kind.clone())
                    .chain(nb.labels.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(".");
                let path = format!("{prefix}{name}");
                out.push(Provenance {
                    block: addr.to_string(),
                    path: path.clone(),
                    file: nb.origin.file.clone(),
                    range: nb.origin.decl.clone(),
                    merged_lines: None,
                });
                // Nested content of a block from one file comes from that file; only recurse
                // into blocks a merge edited (lifecycle, terraform settings).
                if nb.touched {
                    walk(addr, &format!("{path}."), nb, out);
                }
            }
        }
    }
}
