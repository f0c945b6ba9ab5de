//! Syntax older Terraform required and Terraform 1.15 still reads, with the deprecation
//! warnings it gives while decoding each file: `version` in a `provider` block (0.13) and
//! references or keywords in quotes (0.11).

use crate::config::model::{Block, Body};
use crate::config::requirements::reference::{quoted_keyword, quoted_list_elements};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;

/// The deprecation warnings of one top-level block of a configuration file.
pub fn check_block(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    match b.kind.as_str() {
        "provider" => provider_version(b, flavor, diags),
        "resource" => {
            depends_on(&b.body, flavor, diags);
            for lc in b.body.blocks_of("lifecycle") {
                if let Some(a) = lc.body.attribute("ignore_changes") {
                    // `["*"]` is an error Terraform reports on its own, not a reference.
                    quoted_list_elements(a, flavor, |t| t == "*", diags);
                }
            }
            for p in b.body.blocks_of("provisioner") {
                for name in ["when", "on_failure"] {
                    if let Some(a) = p.body.attribute(name) {
                        quoted_keyword(a, flavor, diags);
                    }
                }
            }
        }
        "data" | "ephemeral" | "module" | "output" => depends_on(&b.body, flavor, diags),
        "check" => {
            for d in b.body.blocks_of("data") {
                depends_on(&d.body, flavor, diags);
            }
        }
        _ => {}
    }
}

fn depends_on(body: &Body, flavor: Flavor, diags: &mut Diagnostics) {
    if let Some(a) = body.attribute("depends_on") {
        quoted_list_elements(a, flavor, |_| false, diags);
    }
}

fn provider_version(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    let Some(a) = b.body.attribute("version") else {
        return;
    };
    let product = match flavor {
        Flavor::Terraform => "Terraform",
        Flavor::OpenTofu => "OpenTofu",
    };
    diags.push(
        Diagnostic::warning(
            "Version constraints inside provider configuration blocks are deprecated",
            format!("{product} 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of {product}. To silence this warning, move the provider version constraint into the required_providers block."),
        )
        .with_range(a.expr_range.clone()),
    );
}
