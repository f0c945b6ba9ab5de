//! What Terraform's configuration schema says about block types: how many labels each takes
//! and which nested names are blocks (which JSON syntax needs to tell blocks from arguments).

use crate::flavor::Flavor;

/// The label names of a top-level block type, or `None` if the type is not allowed at top level.
pub fn top_level_labels(kind: &str, flavor: Flavor) -> Option<&'static [&'static str]> {
    Some(match kind {
        "terraform" | "locals" | "moved" | "import" | "removed" => &[],
        "provider" | "variable" | "output" | "module" | "check" => &["name"],
        "resource" | "data" | "ephemeral" => &["type", "name"],
        "action" if flavor == Flavor::Terraform => &["type", "name"],
        _ => return None,
    })
}

/// The label count of nested block type `child` inside a block of type `parent`, if Terraform
/// knows `child` as a block there. Anything else in a JSON body is an argument.
pub fn nested_block_labels(parent: &str, child: &str) -> Option<usize> {
    match (parent, child) {
        ("terraform", "required_providers" | "cloud" | "encryption") => Some(0),
        ("terraform", "backend" | "provider_meta" | "state_store") => Some(1),
        ("variable", "validation") => Some(0),
        ("output", "precondition") => Some(0),
        ("resource" | "data" | "ephemeral" | "removed", "lifecycle" | "connection") => Some(0),
        ("resource" | "removed", "provisioner") => Some(1),
        ("resource" | "data" | "ephemeral" | "provider" | "module", "dynamic") => Some(1),
        ("lifecycle", "precondition" | "postcondition") => Some(0),
        ("provisioner", "connection") => Some(0),
        ("dynamic", "content") => Some(0),
        ("check", "data") => Some(2),
        ("check", "assert") => Some(0),
        _ => None,
    }
}
