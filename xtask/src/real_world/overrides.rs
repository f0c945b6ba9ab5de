//! Override files made from real blocks, for `cargo xtask real-world --mutate N --mutation
//! override`: a random top-level block of a module's file, copied with some of its items
//! dropped and some values changed (a `terraform` block's provider requirements to other
//! sources and constraints), now and then under a label no block has. Both tools must
//! then agree on the module (`providers`) and on the merge (`tflock merge`'s output read by
//! Terraform).

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, Body, Structure};

use super::mutate::Rng;

/// Values an attribute may be given instead of its own.
const VALUES: &[&str] = &[
    "null",
    "\"x\"",
    "1",
    "true",
    "[]",
    "{}",
    "var.not_declared",
    "local.not_declared",
    "[\"a\", \"b\"]",
    "{ a = 1 }",
];
/// Provider sources a requirement may be changed to (`{}` is the local name).
const SOURCES: &[&str] = &[
    "hashicorp/{}",
    "registry.terraform.io/hashicorp/{}",
    "Hashicorp/{}",
    "example.com/acme/{}",
    "integrations/{}",
    "{}",
    "terraform.io/builtin/{}",
    "registry.opentofu.org/hashicorp/{}",
];
/// Version constraints a requirement may be changed to.
const CONSTRAINTS: &[&str] = &[
    ">= 1.0",
    "~> 2.0",
    "1.2.3",
    "!= 3.0.0",
    "> 1, < 5",
    "~> 1.0.0",
    "= 0.1.0-beta",
    ">=2.1",
    "",
    "~> 4",
];

/// An override file made from one top-level block of `text` (a valid native file), and
/// what was done; `None` when the file has no block or does not parse.
pub fn override_file(rng: &mut Rng, text: &str) -> Option<(String, String)> {
    let body = hcl_edit::parser::parse_body(text).ok()?;
    let blocks: Vec<&Block> = body.blocks().collect();
    if blocks.is_empty() {
        return None;
    }
    let block = *rng.pick(&blocks);
    let mut changed = block.clone();
    let mut what = vec![format!("from {}", header(block))];
    if block.has_ident("terraform") && rng.below(2) == 0 {
        requirements(rng, &mut changed, &mut what);
    } else if rng.below(7) == 0 {
        changed.body = Body::new();
        what.push("empty body".into());
    } else {
        thin(rng, &mut changed.body, &mut what);
    }
    if !changed.labels.is_empty() && rng.below(10) == 0 {
        let last = changed.labels.len() - 1;
        changed.labels[last] = hcl_edit::structure::BlockLabel::from("not_in_base");
        what.push("last label changed (no base block)".into());
    }
    let mut out = Body::new();
    out.push(changed);
    Some((out.to_string(), what.join("; ")))
}

fn header(block: &Block) -> String {
    let labels: Vec<String> = block
        .labels
        .iter()
        .map(|l| format!("{:?}", l.as_str()))
        .collect();
    format!("{} {}", block.ident.as_str(), labels.join(" "))
        .trim_end()
        .to_string()
}

/// Drops about half of the items (at least one stays) and gives some attributes other values.
fn thin(rng: &mut Rng, body: &mut Body, what: &mut Vec<String>) {
    let items: Vec<Structure> = body.iter().cloned().collect();
    if items.is_empty() {
        return;
    }
    let keep_one = rng.below(items.len());
    let mut kept = Body::new();
    for (i, item) in items.into_iter().enumerate() {
        if i != keep_one && rng.below(2) == 0 {
            what.push(format!("dropped {}", name_of(&item)));
            continue;
        }
        match item {
            Structure::Attribute(a) if rng.below(3) == 0 => {
                let value = *rng.pick(VALUES);
                what.push(format!("{} = {value}", a.key.as_str()));
                kept.push(Attribute::new(a.key.clone(), parse_value(value)));
            }
            other => kept.push(other),
        }
    }
    *body = kept;
}

fn name_of(item: &Structure) -> String {
    match item {
        Structure::Attribute(a) => a.key.as_str().to_string(),
        Structure::Block(b) => format!("block {}", b.ident.as_str()),
    }
}

/// A `terraform` block that only requires providers: each of the block's requirements (or
/// one new one) with another source and constraint.
fn requirements(rng: &mut Rng, block: &mut Block, what: &mut Vec<String>) {
    let mut names: Vec<String> = block
        .body
        .get_blocks("required_providers")
        .flat_map(|b| b.body.attributes().map(|a| a.key.as_str().to_string()))
        .collect();
    if names.is_empty() || rng.below(4) == 0 {
        names.push(["aws", "random", "null", "acme"][rng.below(4)].to_string());
    }
    let mut required = Block::new(hcl_edit::Ident::new("required_providers"));
    for name in names {
        let source = rng.pick(SOURCES).replace("{}", &name);
        let constraint = *rng.pick(CONSTRAINTS);
        let value = match rng.below(3) {
            0 => format!("{{ source = {source:?} }}"),
            1 => format!("{constraint:?}"),
            _ => format!("{{ source = {source:?}, version = {constraint:?} }}"),
        };
        what.push(format!("{name} = {value}"));
        required.body.push(Attribute::new(
            hcl_edit::Ident::new(name),
            parse_value(&value),
        ));
    }
    block.body = Body::new();
    block.body.push(required);
}

fn parse_value(text: &str) -> Expression {
    hcl_edit::parser::parse_expr(text).expect("the values above parse")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_files_are_valid_and_name_their_block() {
        let text = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"a_b\" \"c\" {\n  x = 1\n  y = [2]\n  lifecycle {\n    ignore_changes = [x]\n  }\n}\n";
        let mut seen_terraform = false;
        for seed in 0..40 {
            let (file, what) = override_file(&mut Rng::new(seed), text).expect("a block");
            assert!(
                hcl_edit::parser::parse_body(&file).is_ok(),
                "{what}:\n{file}"
            );
            seen_terraform |= file.starts_with("terraform");
            assert!(what.starts_with("from "), "{what}");
        }
        assert!(seen_terraform);
        assert!(override_file(&mut Rng::new(1), "x = 1\n").is_none());
    }
}
