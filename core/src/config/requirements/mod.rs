//! Provider requirements of a module (and of a tree of local modules): which providers the
//! configuration needs, the version constraints on each, and where every constraint and
//! mention came from, following Terraform's `addProviderRequirements`.

mod call_arguments;
mod core_version;
mod decode;
mod init_locals;
mod module_source;
mod module_version;
mod parse_cache;
mod provider_validation;
pub mod reference;
mod render;
mod shadowed;
mod test_providers;
mod tree;

pub use core_version::{check_required_version, CoreVersionCheck};
pub(crate) use decode::entry_errors;
pub use decode::{local_providers, LocalProvider};
pub use provider_validation::validate_provider_configs;
pub use render::render_tree;
pub use tree::{
    in_dir, join as tree_join, load_tree, load_tree_with_manifest, load_tree_with_root,
    tree_requirements, unread_dirs, unreadable_file, ModuleTree, TestTree, UnreadableDir,
};

use crate::addrs::{parse_provider_part, Provider};
use crate::collections::SortedMap;
use crate::config::model::{Attribute, Block, Value};
use crate::config::module::Module;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax::valid_identifier;
use crate::version::{parse_config_constraint, Constraints};
use serde::Serialize;

/// Whether `terraform init` meets `d` only when it gathers the configuration's provider
/// requirements to install them (`Config.ProviderRequirements`), a step after loading:
/// an import block's `provider` its target resource does not share, and a version constraint that
/// passed decoding but not go-versions' grammar. Loading's problems end `init` before that
/// step, and these come without the configuration preamble.
pub fn found_installing_providers(d: &Diagnostic) -> bool {
    // An import into a module with a `provider` is refused while decoding the block; one
    // beside its target resource only when the requirements are gathered.
    (d.summary == "Invalid import provider argument"
        && d.detail.contains("in the target resource block"))
        || (d.summary == "Invalid version constraint"
            && d.detail
                .starts_with("Incorrect version constraint syntax: "))
}

/// What kind of declaration a requirement came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    /// An entry of `terraform { required_providers { ... } }`.
    RequiredProviders,
    /// A legacy `version` argument in a `provider` block.
    ProviderBlockVersion,
    /// A `provider` block without a version.
    ProviderBlock,
    /// A resource, data, ephemeral or action block (implied, no constraint).
    Resource,
}

/// One place that mentions a provider, with its constraint text when it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementOrigin {
    /// Module path: empty for the root, else `module.a.module.b`.
    pub module: String,
    /// The local name used there.
    pub local_name: String,
    /// What declared it.
    pub kind: OriginKind,
    /// The constraint string as written (`None` when the declaration has no version).
    pub constraint: Option<String>,
    /// Where it was declared.
    pub range: Range,
}

/// Everything known about one provider.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderRequirement {
    /// The provider address.
    pub provider: String,
    /// All constraints intersected, canonical form (empty = any version).
    pub constraints: String,
    /// True for built-in providers (`terraform.io/builtin/*`), which are never installed.
    pub builtin: bool,
    /// Each mention, in discovery order.
    pub origins: Vec<RequirementOrigin>,
    #[serde(skip)]
    /// The parsed, intersected constraints.
    pub parsed: Constraints,
}

/// The requirements of a module or module tree, keyed by provider address (sorted as
/// Terraform sorts providers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderRequirements {
    /// Per provider.
    pub providers: SortedMap<Provider, ProviderRequirement>,
    /// Problems found while collecting.
    pub diagnostics: Diagnostics,
}

impl ProviderRequirements {
    fn entry(&mut self, p: &Provider, flavor: Flavor) -> &mut ProviderRequirement {
        self.providers
            .entry(p.clone())
            .or_insert_with(|| ProviderRequirement {
                provider: p.to_string(),
                constraints: String::new(),
                builtin: p.is_builtin_for(flavor),
                origins: Vec::new(),
                parsed: Constraints::any(),
            })
    }

    fn mention(&mut self, p: &Provider, flavor: Flavor, origin: RequirementOrigin) {
        self.entry(p, flavor).origins.push(origin);
    }

    fn constrain(
        &mut self,
        p: &Provider,
        flavor: Flavor,
        c: &Constraints,
        origin: RequirementOrigin,
    ) {
        let e = self.entry(p, flavor);
        e.parsed = e.parsed.intersect(c);
        e.constraints = e.parsed.canonical();
        e.origins.push(origin);
    }
}

/// The requirements of one module, its constraints tagged with module path `module_path`.
pub fn requirements(module: &Module, module_path: &str, flavor: Flavor) -> ProviderRequirements {
    let mut reqs = ProviderRequirements::default();
    add_module(&mut reqs, module, module_path, flavor);
    reqs
}

/// Adds one module's requirements to `reqs`.
pub fn add_module(
    reqs: &mut ProviderRequirements,
    module: &Module,
    module_path: &str,
    flavor: Flavor,
) {
    let (locals, diags) = local_providers(module, flavor);
    reqs.diagnostics.extend(diags);
    let origin = |local: &str, kind, constraint: Option<String>, range: &Range| RequirementOrigin {
        module: module_path.to_string(),
        local_name: local.to_string(),
        kind,
        constraint,
        range: range.clone(),
    };
    // required_providers entries first, as Terraform does.
    for lp in locals.values() {
        match &lp.version {
            Some((text, range)) => match parse_config_constraint(text, flavor) {
                Ok(c) => reqs.constrain(
                    &lp.provider,
                    flavor,
                    &c,
                    origin(
                        &lp.name,
                        OriginKind::RequiredProviders,
                        Some(text.clone()),
                        range,
                    ),
                ),
                Err(e) => {
                    reqs.diagnostics
                        .push(Diagnostic::error(e.summary, e.detail).with_range(range.clone()));
                    reqs.mention(
                        &lp.provider,
                        flavor,
                        origin(
                            &lp.name,
                            OriginKind::RequiredProviders,
                            Some(text.clone()),
                            range,
                        ),
                    );
                }
            },
            None => reqs.mention(
                &lp.provider,
                flavor,
                origin(&lp.name, OriginKind::RequiredProviders, None, &lp.range),
            ),
        }
    }
    let fqn_for = |local: &str| -> Provider {
        locals.get(local).map_or_else(
            || Provider::implied(local, flavor),
            |lp| lp.provider.clone(),
        )
    };
    // Provider block names are decoded before the blocks that refer to them.
    for b in module.blocks_of("provider") {
        if let Some(d) = b
            .labels
            .first()
            .and_then(|local| unnormalized_provider_name(local, &b.origin.decl))
        {
            reqs.diagnostics.push(d);
        }
    }
    // Resources, data sources (also those inside check blocks), ephemeral resources and
    // actions each imply their provider: the one named by their `provider` argument, else the
    // one their type's prefix names.
    let mut resources: Vec<&Block> = Vec::new();
    for kind in ["resource", "data", "ephemeral", "action"] {
        if kind == "action" && flavor == Flavor::OpenTofu {
            continue;
        }
        resources.extend(module.blocks_of(kind));
        if kind == "data" {
            resources.extend(
                module
                    .blocks_of("check")
                    .flat_map(|c| c.body.blocks_of("data")),
            );
        }
    }
    for b in resources {
        let reference = b
            .body
            .attribute("provider")
            .and_then(|a| reference::attribute_ref(a, &mut reqs.diagnostics));
        let local = match reference {
            Some(r) => r.name,
            // A type whose prefix is no provider name implies no provider; Terraform says so
            // (for resources and data sources) only once the whole tree has loaded cleanly,
            // in `validate_provider_configs`.
            None => match implied_local_name(b) {
                Some(local) => local,
                None => continue,
            },
        };
        reqs.mention(
            &fqn_for(&local),
            flavor,
            origin(&local, OriginKind::Resource, None, &b.origin.decl),
        );
    }
    add_imports(reqs, module, &|local| fqn_for(local), &origin, flavor);
    for call in module.blocks_of("module") {
        if let Some(a) = call.body.attribute("providers") {
            reference::check_providers_map(a, &mut reqs.diagnostics);
        }
    }
    for b in module.blocks_of("provider") {
        let Some(local) = b.labels.first() else {
            continue;
        };
        // Terraform refuses a provider block whose name is not normalized (reported above)
        // and drops it.
        if unnormalized_provider_name(local, &b.origin.decl).is_some() {
            continue;
        }
        let fqn = fqn_for(local);
        let block_origin = || origin(local, OriginKind::ProviderBlock, None, &b.origin.decl);
        let Some(a) = b.body.attribute("version") else {
            reqs.mention(&fqn, flavor, block_origin());
            continue;
        };
        match provider_block_version(a, flavor) {
            BlockVersion::Valid(c, text) => reqs.constrain(
                &fqn,
                flavor,
                &c,
                origin(
                    local,
                    OriginKind::ProviderBlockVersion,
                    Some(text),
                    &a.origin.decl,
                ),
            ),
            BlockVersion::Refused(d) => {
                reqs.diagnostics.push(d);
                reqs.mention(&fqn, flavor, block_origin());
            }
            BlockVersion::Unknown => reqs.mention(&fqn, flavor, block_origin()),
        }
    }
    shadowed::check(module, flavor, &mut reqs.diagnostics);
}

/// What a provider block's `version` argument decodes to.
enum BlockVersion {
    /// The constraint and its text.
    Valid(Constraints, String),
    /// The error decoding it gives.
    Refused(Diagnostic),
    /// hclsyntax's placeholder after a syntax error: an unknown value, which
    /// `decodeVersionConstraint` passes over in silence.
    Unknown,
}

fn provider_block_version(a: &Attribute, flavor: Flavor) -> BlockVersion {
    match a.literal_str() {
        Some(text) => match parse_config_constraint(&text, flavor) {
            Ok(c) => BlockVersion::Valid(c, text),
            Err(e) => BlockVersion::Refused(
                Diagnostic::error(e.summary, e.detail).with_range(a.expr_range.clone()),
            ),
        },
        None if matches!(a.value, Value::Unknown(_)) => BlockVersion::Unknown,
        None => BlockVersion::Refused(
            Diagnostic::error(
                "Invalid version constraint",
                "A string value is required for version.",
            )
            .with_range(a.expr_range.clone()),
        ),
    }
}

/// The local provider name a resource uses: its `provider` argument's name when that is a
/// valid reference, else the provider its type implies.
pub fn resource_local_name(b: &Block) -> String {
    let mut ignored = Diagnostics::new();
    if let Some(r) = b
        .body
        .attribute("provider")
        .and_then(|a| reference::attribute_ref(a, &mut ignored))
    {
        return r.name;
    }
    implied_local_name(b).unwrap_or_default()
}

/// The local name a resource's type implies: the text before its first `_`, normalized as
/// Terraform's `ParseProviderPart` does (`AWS_instance` means `aws`); `None` for a prefix
/// that is no provider name.
fn implied_local_name(b: &Block) -> Option<String> {
    let ty = b.labels.first().map_or("", String::as_str);
    parse_provider_part(Provider::local_name_for_resource_type(ty)).ok()
}

/// Terraform's `checkProviderNameNormalized` for a provider block's name, at its header.
pub(crate) fn unnormalized_provider_name(name: &str, range: &Range) -> Option<Diagnostic> {
    let detail = match parse_provider_part(name) {
        Err(e) => format!("{name} is an invalid provider local name: {e}"),
        Ok(n) if n != name => format!(
            "Provider names must be normalized. Replace {name:?} with {n:?} to fix this error."
        ),
        Ok(_) => return None,
    };
    Some(Diagnostic::error("Invalid provider local name", detail).with_range(range.clone()))
}

/// The static address an import block's `to` names: its module path (empty for this
/// module), resource mode keyword (`data` or none), type and name. Index keys are skipped, as
/// Terraform skips them to find the configuration resource.
fn import_target(a: &Attribute) -> Option<(bool, bool, String, String)> {
    let text = match &a.value {
        Value::Unknown(_) => return None,
        Value::Native { src, .. } => src.trim().to_string(),
        Value::Json(n) => n.as_str()?.trim().to_string(),
    };
    // Drop index steps (`["k"]`, `[each.key]`), keeping the dotted names.
    let mut names = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.checked_sub(1)?,
            c if depth == 0 => names.push(c),
            _ => {}
        }
    }
    let mut parts: Vec<&str> = names.split('.').map(str::trim).collect();
    let mut in_module = false;
    while parts.first() == Some(&"module") && parts.len() > 2 {
        in_module = true;
        parts.drain(..2);
    }
    let data = parts.first() == Some(&"data");
    if data {
        parts.remove(0);
    }
    match parts.as_slice() {
        [ty, name] if valid_identifier(ty) && valid_identifier(name) => {
            Some((in_module, data, (*ty).to_string(), (*name).to_string()))
        }
        _ => None,
    }
}

/// The origin constructor `add_module` uses.
type OriginOf<'a> = dyn Fn(&str, OriginKind, Option<String>, &Range) -> RequirementOrigin + 'a;

/// Import blocks that generate configuration (their target is in this module and no
/// resource block declares it) imply the provider of their `provider` argument or of the
/// target's type, as Terraform's `addProviderRequirements` does; where the resource block
/// exists, an import's `provider` argument must agree with the resource's.
fn add_imports(
    reqs: &mut ProviderRequirements,
    module: &Module,
    fqn_for: &dyn Fn(&str) -> Provider,
    origin: &OriginOf<'_>,
    flavor: Flavor,
) {
    const INVALID: &str = "Invalid import provider argument";
    for b in module.blocks_of("import") {
        let Some((in_module, data, ty, name)) = b.body.attribute("to").and_then(import_target)
        else {
            continue;
        };
        let provider_attr = b.body.attribute("provider");
        if in_module {
            if let Some(a) = provider_attr {
                reqs.diagnostics.push(
                    Diagnostic::error(INVALID, "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.")
                        .with_range(a.origin.decl.clone()),
                );
            }
            continue;
        }
        if data {
            continue;
        }
        let reference =
            provider_attr.and_then(|a| reference::attribute_ref(a, &mut reqs.diagnostics));
        let target = module
            .blocks_of("resource")
            .find(|r| r.labels.first() == Some(&ty) && r.labels.get(1) == Some(&name));
        if let Some(target) = target {
            if let (Some(a), Some(mine)) = (provider_attr, &reference) {
                let mut ignored = Diagnostics::new();
                let theirs = target
                    .body
                    .attribute("provider")
                    .and_then(|ta| reference::attribute_ref(ta, &mut ignored));
                if theirs.as_ref() != Some(mine) {
                    reqs.diagnostics.push(
                        Diagnostic::error(INVALID, "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration.")
                            .with_range(a.origin.decl.clone()),
                    );
                }
            }
            continue;
        }
        let local = match reference {
            Some(r) => r.name,
            None => match parse_provider_part(Provider::local_name_for_resource_type(&ty)) {
                Ok(l) => l,
                Err(_) => continue,
            },
        };
        reqs.mention(
            &fqn_for(&local),
            flavor,
            origin(&local, OriginKind::Resource, None, &b.origin.decl),
        );
    }
}
