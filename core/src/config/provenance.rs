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
        });
        walk(&addr, "", b, &mut out);
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
