//! Provider requirements of a module (and of a tree of local modules): which providers the
//! configuration needs, the version constraints on each, and where every constraint and
//! mention came from, following Terraform's `addProviderRequirements`.

mod decode;
mod render;
mod tree;

pub use decode::{local_providers, LocalProvider};
pub use render::render_tree;
pub use tree::{
    join as tree_join, load_tree, load_tree_with_manifest, load_tree_with_root, tree_requirements,
    unread_dirs, ModuleTree, TestTree, UnreadableDir,
};

use crate::addrs::Provider;
use crate::collections::SortedMap;
use crate::config::model::{Block, Value};
use crate::config::module::Module;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::version::{parse_config_constraint, Constraints};
use serde::Serialize;

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
    for kind in ["resource", "data", "ephemeral", "action"] {
        if kind == "action" && flavor == Flavor::OpenTofu {
            continue;
        }
        for b in module.blocks_of(kind) {
            let local = resource_local_name(b);
            reqs.mention(
                &fqn_for(&local),
                flavor,
                origin(&local, OriginKind::Resource, None, &b.origin.decl),
            );
        }
    }
    for b in module.blocks_of("provider") {
        let Some(local) = b.labels.first() else {
            continue;
        };
        let fqn = fqn_for(local);
        match b.body.attribute("version") {
            Some(a) => match a.literal_str() {
                Some(text) => match parse_config_constraint(&text, flavor) {
                    Ok(c) => reqs.constrain(
                        &fqn,
                        flavor,
                        &c,
                        origin(
                            local,
                            OriginKind::ProviderBlockVersion,
                            Some(text.clone()),
                            &a.origin.decl,
                        ),
                    ),
                    Err(e) => {
                        reqs.diagnostics.push(
                            Diagnostic::error(e.summary, e.detail).with_range(a.expr_range.clone()),
                        );
                        reqs.mention(
                            &fqn,
                            flavor,
                            origin(local, OriginKind::ProviderBlock, None, &b.origin.decl),
                        );
                    }
                },
                None => {
                    reqs.diagnostics.push(
                        Diagnostic::error(
                            "Invalid version constraint",
                            "A string value is required for version.",
                        )
                        .with_range(a.expr_range.clone()),
                    );
                    reqs.mention(
                        &fqn,
                        flavor,
                        origin(local, OriginKind::ProviderBlock, None, &b.origin.decl),
                    );
                }
            },
            None => reqs.mention(
                &fqn,
                flavor,
                origin(local, OriginKind::ProviderBlock, None, &b.origin.decl),
            ),
        }
    }
}

/// The local provider name a resource uses: its `provider` argument's first name, else the
/// resource type's prefix.
pub fn resource_local_name(b: &Block) -> String {
    if let Some(a) = b.body.attribute("provider") {
        let text = match &a.value {
            Value::Native { src, .. } => src.trim().to_string(),
            Value::Json(n) => n.as_str().unwrap_or_default().trim().to_string(),
        };
        let text = text.trim_start_matches("${").trim_end_matches('}');
        if let Some(first) = text.split('.').next().filter(|s| !s.is_empty()) {
            return first.to_string();
        }
    }
    let ty = b.labels.first().map_or("", String::as_str);
    Provider::local_name_for_resource_type(ty).to_string()
}
