//! The merged module value and the index that finds a top-level object by its address.

use crate::collections::SortedMap;
use crate::config::model::{Block, Item};

/// A module after loading all primary files and merging every override file into them.
///
/// `blocks` holds the top-level blocks of the primary files in load order, edited in place by
/// the merge (plus blocks an override may add: a default provider configuration, a `terraform`
/// block for new settings). Each block appears once; nothing from an override file is kept as
/// a separate block unless Terraform would add it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    /// Top-level blocks in render order.
    pub blocks: Vec<Block>,
    /// The duplicates `blocks` does not keep: Terraform decodes every block of a file before
    /// it finds the duplicates, so their decoding problems are still reported.
    pub shadowed: Vec<Block>,
}

impl Module {
    /// Top-level blocks of type `kind`.
    pub fn blocks_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks.iter().filter(move |b| b.kind == kind)
    }
}

/// The lookup key of a top-level block: how an override block finds its base.
pub fn block_key(b: &Block) -> Option<String> {
    match b.kind.as_str() {
        "resource" | "data" | "ephemeral" | "action" => {
            Some(format!("{}.{}", b.kind, b.labels.join(".")))
        }
        "variable" | "output" | "module" | "check" => {
            Some(format!("{}.{}", b.kind, b.labels.first()?))
        }
        "provider" => {
            let name = b.labels.first()?;
            Some(match provider_alias(b) {
                Some(alias) => format!("provider.{name}.{alias}"),
                None => format!("provider.{name}"),
            })
        }
        _ => None,
    }
}

/// The literal `alias` of a provider block, if it has one.
pub fn provider_alias(b: &Block) -> Option<String> {
    b.body.attribute("alias").and_then(|a| a.literal_str())
}

/// Where each addressable object lives in `Module::blocks`.
#[derive(Debug, Default)]
pub struct Index {
    /// `block_key` → index into `Module::blocks`.
    pub blocks: SortedMap<String, usize>,
    /// Local value name → (block index, item index).
    pub locals: SortedMap<String, (usize, usize)>,
}

impl Index {
    /// Indexes every block; for keys Terraform keeps the first of, the first wins, else the last.
    pub fn build(module: &Module) -> Index {
        let mut ix = Index::default();
        for (i, b) in module.blocks.iter().enumerate() {
            ix.add(i, b);
        }
        ix
    }

    /// Adds block `i`.
    pub fn add(&mut self, i: usize, b: &Block) {
        if b.kind == "locals" {
            for (j, item) in b.body.items.iter().enumerate() {
                if let Item::Attribute(a) = item {
                    self.locals.insert(a.name.clone(), (i, j));
                }
            }
            return;
        }
        if let Some(key) = block_key(b) {
            let later_replaces = matches!(b.kind.as_str(), "variable" | "output" | "module");
            if later_replaces {
                self.blocks.insert(key, i);
            } else {
                self.blocks.entry(key).or_insert(i);
            }
        }
    }
}
