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
        block_records(b, &mut out);
    }
    out
}

/// The records of one top-level block: the block's own, then its items'.
fn block_records(b: &Block, out: &mut Vec<Provenance>) {
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
    walk(&addr, "", b, out);
}

/// [`provenance`] with each record's lines in the merged text, where it has its own (what
/// `tflock merge --json` prints and the playground marks every line with). A separate
/// function so builds that never show the merged text by line (the npm package) do not carry
/// the line counting.
pub fn provenance_with_lines(module: &Module) -> Vec<Provenance> {
    let spans = crate::config::render::render_spans(module);
    let mut out = Vec::new();
    let mut next = 0;
    for (i, b) in module.blocks.iter().enumerate() {
        // Only this block's spans (they come block by block): blocks that share an address
        // (a provider and its aliased copy, several `locals`) keep their own lines. Within
        // the block, pieces that share a path and file take their spans in turn.
        let start = next;
        while spans.get(next).is_some_and(|s| s.top == i) {
            next += 1;
        }
        let mut own: Vec<Option<&crate::config::render::Span>> =
            spans[start..next].iter().map(Some).collect();
        let first = out.len();
        block_records(b, &mut out);
        for p in out[first..].iter_mut() {
            let found = own.iter_mut().find(|s| {
                s.is_some_and(|s| s.path == p.path && s.file == p.file && s.block == p.block)
            });
            p.merged_lines = found.and_then(Option::take).map(|s| s.lines);
        }
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
