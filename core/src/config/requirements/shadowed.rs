//! The decoding problems of duplicate blocks the module does not keep
//! ([`Module::shadowed`]). Terraform decodes each block as it reads its file and finds
//! duplicates only when it assembles the module, so a dropped duplicate still reports what
//! its own decoding found: a quoted `provider` reference, a `providers` map's problems, a
//! provider block's name or version. It implies no provider.

use super::{provider_block_version, reference, unnormalized_provider_name, BlockVersion};
use crate::config::model::Block;
use crate::config::module::Module;
use crate::diag::Diagnostics;
use crate::flavor::Flavor;

/// Reports the decoding problems of `module`'s shadowed blocks.
pub(super) fn check(module: &Module, flavor: Flavor, diags: &mut Diagnostics) {
    for b in &module.shadowed {
        match b.kind.as_str() {
            "resource" | "data" | "ephemeral" => provider_ref(b, diags),
            "action" if flavor == Flavor::Terraform => provider_ref(b, diags),
            "check" => b
                .body
                .blocks_of("data")
                .for_each(|d| provider_ref(d, diags)),
            "module" => {
                if let Some(a) = b.body.attribute("providers") {
                    reference::check_providers_map(a, diags);
                }
            }
            "provider" => provider_block(b, flavor, diags),
            _ => {}
        }
    }
}

fn provider_ref(b: &Block, diags: &mut Diagnostics) {
    if let Some(a) = b.body.attribute("provider") {
        let _ = reference::attribute_ref(a, diags);
    }
}

fn provider_block(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    let Some(local) = b.labels.first() else {
        return;
    };
    if let Some(d) = unnormalized_provider_name(local, &b.origin.decl) {
        diags.push(d);
        return;
    }
    if let Some(BlockVersion::Refused(d)) = b
        .body
        .attribute("version")
        .map(|a| provider_block_version(a, flavor))
    {
        diags.push(d);
    }
}
