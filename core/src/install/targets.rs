//! `providers lock [PROVIDER...]`: restricting the run to the providers named.

use super::options::Requirements;
use crate::addrs::Provider;
use crate::{Diagnostic, Diagnostics, Flavor};

/// Keeps only the requirements named in `args` (all of them when `args` is empty),
/// reporting unparsable names and names the configuration does not require.
pub fn restrict_to_arguments(
    requirements: &Requirements,
    args: &[String],
    flavor: Flavor,
) -> (Requirements, Diagnostics) {
    let mut diags = Diagnostics::new();
    if args.is_empty() {
        return (requirements.clone(), diags);
    }
    let mut wanted = Vec::new();
    for raw in args {
        match Provider::parse(raw, flavor) {
            Err(e) => diags.push(e.to_diagnostic()),
            Ok(addr) => {
                if !requirements.contains_key(&addr) {
                    diags.push(Diagnostic::error(
                        "Invalid provider argument",
                        format!(
                            "The provider {addr} is not required by the current configuration."
                        ),
                    ));
                }
                wanted.push(addr);
            }
        }
    }
    let kept = requirements
        .iter()
        .filter(|(addr, _)| wanted.contains(addr))
        .map(|(a, c)| (a.clone(), c.clone()))
        .collect();
    (kept, diags)
}
