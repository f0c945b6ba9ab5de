//! `terraform { required_version = "..." }`: the constraints a module puts on the Terraform
//! release that runs it, checked as `terraform init` checks them before anything else it
//! reports (Terraform 1.15 `Module.CheckCoreVersionRequirements`).

use super::decode::legacy_string;
use super::tree::join;
use crate::config::model::Attribute;
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics};
use crate::version::{check_config_syntax, check_core_version, CoreCheck, CoreVersion};

/// What a module's `required_version` arguments say about running under `core`.
#[derive(Debug, Clone, Default)]
pub struct CoreVersionCheck {
    /// Constraints that cannot be read (`Invalid version constraint`): ordinary loading
    /// errors, reported with the module's others.
    pub invalid: Diagnostics,
    /// `Unsupported Terraform Core version` and `Invalid required_version constraint`:
    /// when there are any, Terraform reports them instead of the module's other
    /// diagnostics, which may only reflect a language the module was not written for.
    pub refused: Diagnostics,
}

/// Checks every `required_version` of `module` (merged: an override file's list has
/// replaced the others): its syntax always (a loading error), and against `core` when
/// given (only `init` checks that); `path` and `source` name a child module (`module.a`,
/// its call's `source`), both empty for the root.
pub fn check_required_version(
    module: &Module,
    path: &str,
    source: &str,
    core: Option<CoreVersion>,
) -> CoreVersionCheck {
    let mut out = CoreVersionCheck::default();
    let attrs = module
        .blocks_of("terraform")
        .filter_map(|t| t.body.attribute("required_version"));
    for attr in attrs {
        let Some(constraint) = constraint_of(attr, &mut out.invalid) else {
            continue;
        };
        let Some(core) = core else {
            continue;
        };
        match check_core_version(&constraint, core) {
            CoreCheck::Met => {}
            CoreCheck::Prerelease(pieces) => {
                for piece in pieces {
                    out.refused.push(
                        Diagnostic::error(
                            "Invalid required_version constraint",
                            format!("Prerelease version constraints are not supported: {piece}. Remove the prerelease information from the constraint. Prerelease versions of terraform will match constraints using their version core only."),
                        )
                        .with_range(attr.origin.decl.clone()),
                    );
                }
            }
            CoreCheck::Unmet => {
                let who = if path.is_empty() {
                    "This configuration does not support".to_string()
                } else {
                    format!(
                        "Module {path} (from {}) does not support",
                        shown_source(source)
                    )
                };
                out.refused.push(
                    Diagnostic::error(
                        "Unsupported Terraform Core version",
                        format!("{who} Terraform version {core}. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."),
                    )
                    .with_range(attr.origin.decl.clone()),
                );
            }
        }
    }
    out
}

/// The constraint string, or `None` (with a diagnostic when Terraform gives one) when it
/// cannot be checked; null is an empty constraint set.
fn constraint_of(attr: &Attribute, invalid: &mut Diagnostics) -> Option<String> {
    let refuse = |detail: &str| {
        Diagnostic::error("Invalid version constraint", detail).with_range(attr.expr_range.clone())
    };
    // `Value(nil)` first: its errors end the decoding (an unknown value too: hclsyntax's
    // placeholder for a value that did not parse).
    let evaluated = crate::config::load::static_eval::attribute_value(attr);
    if let Some((v, found)) = &evaluated {
        if found.iter().any(Diagnostic::is_error)
            || matches!(v, crate::config::load::cty::Val::Unknown(_))
        {
            invalid.extend(found.iter().cloned());
            return None;
        }
    }
    if let crate::config::model::Value::Unknown(_) = &attr.value {
        // A tuple or object hclsyntax kept around a placeholder does not convert.
        let (v, _) = evaluated?;
        let string = crate::config::load::cty::Ty::String;
        if matches!(
            crate::config::load::cty::convert_plain(&v, &string),
            Err(Some(_))
        ) {
            invalid.push(refuse("A string value is required for required_version."));
        }
        return None;
    }
    match legacy_string(attr) {
        Some(Some(s)) if check_config_syntax(&s) => Some(s),
        Some(Some(_)) => {
            invalid.push(refuse(
                "This string does not use correct version constraint syntax.",
            ));
            None
        }
        Some(None) => None,
        None if attr.is_collection() => {
            invalid.push(refuse("A string value is required for required_version."));
            None
        }
        // References and calls: Terraform's own evaluation error, which tflock does not
        // reproduce; the constraint is not checked.
        None => None,
    }
}

/// A module source as Terraform prints it (`addrs.ModuleSource.String()`): local paths
/// cleaned with `./` kept in front, registry addresses with their host.
pub(super) fn shown_source(source: &str) -> String {
    if super::super::modules_manifest::is_local_source(source) {
        let clean = join("", source);
        let clean = if clean.is_empty() { "." } else { &clean };
        return if clean.starts_with("../") {
            clean.to_string()
        } else {
            format!("./{clean}")
        };
    }
    let (package, subdir) = match source.split_once("//") {
        Some((p, s)) if !p.contains(':') => (p, Some(s)),
        _ => (source, None),
    };
    let parts: Vec<&str> = package.split('/').collect();
    let registry_shaped = parts.len() == 3
        && !source.contains("::")
        && !parts[0].contains('.')
        && !parts[0].contains(':');
    if !registry_shaped {
        return source.to_string();
    }
    match subdir {
        Some(s) => format!("registry.terraform.io/{package}//{s}"),
        None => format!("registry.terraform.io/{package}"),
    }
}

#[cfg(test)]
mod tests {
    use super::shown_source;

    #[test]
    fn sources_are_shown_as_terraform_prints_them() {
        assert_eq!(shown_source("./child"), "./child");
        assert_eq!(shown_source("./a/../b//c"), "./b/c");
        assert_eq!(shown_source("../mod"), "../mod");
        assert_eq!(shown_source("./"), "./.");
        assert_eq!(
            shown_source("hashicorp/consul/aws"),
            "registry.terraform.io/hashicorp/consul/aws"
        );
        assert_eq!(
            shown_source("hashicorp/consul/aws//modules/x"),
            "registry.terraform.io/hashicorp/consul/aws//modules/x"
        );
        assert_eq!(
            shown_source("app.terraform.io/o/m/aws"),
            "app.terraform.io/o/m/aws"
        );
    }
}
