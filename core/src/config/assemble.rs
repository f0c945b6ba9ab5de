//! Loading the primary files into one module (Terraform's `NewModule`/`appendFile`), with the
//! duplicate-definition errors Terraform reports, per flavour.

use crate::collections::SortedMap;
use crate::config::load::ParsedFile;
use crate::config::model::{Block, Item};
use crate::config::module::{block_key, provider_alias, Module};
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;

/// The state-storage blocks found so far (first of each kind wins).
#[derive(Debug, Default)]
pub struct Backends {
    /// The first `backend` block's header range.
    pub backend: Option<Range>,
    /// The first `cloud` block's header range.
    pub cloud: Option<Range>,
}

/// Appends every primary file in order and reports duplicates.
pub fn append_primaries(files: Vec<ParsedFile>, flavor: Flavor, diags: &mut Diagnostics) -> Module {
    let mut module = Module::default();
    let mut seen: SortedMap<String, (usize, Range)> = SortedMap::new();
    let mut locals: SortedMap<String, Range> = SortedMap::new();
    let mut imports: SortedMap<String, Range> = SortedMap::new();
    let mut provider_metas: SortedMap<String, Range> = SortedMap::new();
    let mut backends = Backends::default();
    check_required_providers(&files, diags);

    for file in files {
        for item in file.body.items {
            let Item::Block(b) = item else { continue };
            match b.kind.as_str() {
                "terraform" => {
                    terraform_block(&b, flavor, &mut backends, &mut provider_metas, diags);
                    module.blocks.push(b);
                }
                "locals" => {
                    for a in b.body.attributes() {
                        if let Some(prev) = locals.get(&a.name) {
                            diags.push(
                                Diagnostic::error(
                                    "Duplicate local value definition",
                                    format!("A local value named {:?} was already defined at {prev}. Local value names must be unique within a module.", a.name),
                                )
                                .with_range(a.origin.decl.clone()),
                            );
                        }
                        locals.insert(a.name.clone(), a.origin.decl.clone());
                    }
                    module.blocks.push(b);
                }
                "import" => {
                    let to_attr = b.body.attribute("to");
                    if let Some((to, attr)) = to_attr.and_then(|a| Some((import_target(a)?, a))) {
                        if let Some(prev) = imports.get(&to) {
                            // Terraform points at the `to` expression (`i.To.Range()`).
                            diags.push(
                                Diagnostic::error(
                                    format!("Duplicate import configuration for {to:?}"),
                                    format!("An import block for the resource {to:?} was already declared at {prev}. A resource can have only one import block."),
                                )
                                .with_range(attr.expr_range.clone()),
                            );
                        } else {
                            imports.insert(to, b.origin.decl.clone());
                        }
                    }
                    module.blocks.push(b);
                }
                // Terraform drops a provider block whose name it refuses before it looks
                // for duplicates; tflock keeps it for rendering, and requirements skips it.
                "provider" if refused_provider_name(&b) => module.blocks.push(b),
                _ => match block_key(&b) {
                    Some(key) => match seen.get(&key) {
                        Some((idx, prev)) => {
                            diags.push(duplicate(&b, prev, flavor));
                            if matches!(b.kind.as_str(), "variable" | "output" | "module") {
                                // Terraform keeps the later declaration of these.
                                let idx = *idx;
                                seen.insert(key, (idx, b.origin.decl.clone()));
                                let earlier = std::mem::replace(&mut module.blocks[idx], b);
                                module.shadowed.push(earlier);
                            } else {
                                module.shadowed.push(b);
                            }
                        }
                        None => {
                            seen.insert(key, (module.blocks.len(), b.origin.decl.clone()));
                            module.blocks.push(b);
                        }
                    },
                    None => module.blocks.push(b.clone()),
                },
            }
        }
        conflict_check(&backends, flavor, diags);
    }
    module
}

fn refused_provider_name(b: &Block) -> bool {
    b.labels.first().is_some_and(|name| {
        crate::config::requirements::unnormalized_provider_name(name, &b.origin.decl).is_some()
    })
}

/// A static `to` address of an import block (its traversal text).
fn import_target(a: &crate::config::model::Attribute) -> Option<String> {
    match &a.value {
        crate::config::model::Value::Unknown(_) => None,
        crate::config::model::Value::Native { expr, src } => {
            expr.as_traversal().map(|_| src.trim().to_string())
        }
        crate::config::model::Value::Json(n) => n.as_str().map(str::to_string),
    }
}

/// Only one `required_providers` block per module, across all primary files.
fn check_required_providers(files: &[ParsedFile], diags: &mut Diagnostics) {
    let mut first: Option<Range> = None;
    for file in files {
        for tf in file.body.blocks_of("terraform") {
            for rp in tf.body.blocks_of("required_providers") {
                match &first {
                    Some(prev) => diags.push(
                        Diagnostic::error(
                            "Duplicate required providers configuration",
                            format!("A module may have only one required providers configuration. The required providers were previously configured at {prev}."),
                        )
                        .with_range(rp.origin.decl.clone()),
                    ),
                    None => first = Some(rp.origin.decl.clone()),
                }
            }
        }
    }
}

fn terraform_block(
    b: &Block,
    flavor: Flavor,
    backends: &mut Backends,
    provider_metas: &mut SortedMap<String, Range>,
    diags: &mut Diagnostics,
) {
    for nb in b.body.blocks() {
        match nb.kind.as_str() {
            "backend" => match &backends.backend {
                Some(prev) => diags.push(
                    match flavor {
                        Flavor::Terraform => Diagnostic::error(
                            "Duplicate 'backend' configuration block",
                            format!("A module may have only one 'backend' configuration block. The backend was previously configured at {prev}."),
                        ),
                        Flavor::OpenTofu => Diagnostic::error(
                            "Duplicate backend configuration",
                            format!("A module may have only one backend configuration. The backend was previously configured at {prev}."),
                        ),
                    }
                    .with_range(nb.origin.decl.clone()),
                ),
                None => backends.backend = Some(nb.origin.decl.clone()),
            },
            "cloud" => match &backends.cloud {
                Some(prev) => diags.push(duplicate_cloud(prev, flavor).with_range(nb.origin.decl.clone())),
                None => backends.cloud = Some(nb.origin.decl.clone()),
            },
            "provider_meta" => {
                let name = nb.labels.first().cloned().unwrap_or_default();
                if let Some(prev) = provider_metas.get(&name) {
                    diags.push(
                        Diagnostic::error(
                            "Duplicate provider_meta block",
                            format!("A provider_meta block for provider {name:?} was already declared at {prev}. Providers may only have one provider_meta block per module."),
                        )
                        .with_range(nb.origin.decl.clone()),
                    );
                }
                provider_metas.insert(name, nb.origin.decl.clone());
            }
            _ => {}
        }
    }
}

/// The duplicate-`cloud` error (shared by primary and override files).
pub fn duplicate_cloud(prev: &Range, flavor: Flavor) -> Diagnostic {
    match flavor {
        Flavor::Terraform => Diagnostic::error(
            "Duplicate HCP Terraform configurations",
            format!("A module may have only one 'cloud' block configuring HCP Terraform or Terraform Enterprise. The 'cloud' block was previously configured at {prev}."),
        ),
        Flavor::OpenTofu => Diagnostic::error(
            "Duplicate cloud configurations",
            format!("A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at {prev}."),
        ),
    }
}

/// Terraform re-checks after every primary file, so the error repeats for each later file.
fn conflict_check(b: &Backends, flavor: Flavor, diags: &mut Diagnostics) {
    let (Some(cloud), Some(backend)) = (&b.cloud, &b.backend) else {
        return;
    };
    let d = match flavor {
        Flavor::Terraform => Diagnostic::error(
            "Conflicting 'cloud' and 'backend' configuration blocks are present",
            format!("A module may declare either one 'cloud' block OR one 'backend' block for configuring state storage. The 'cloud' block is configured at {cloud}; a 'backend' is configured at {backend}. Remove the 'backend' block to configure HCP Terraform or Terraform Enterprise."),
        ),
        Flavor::OpenTofu => Diagnostic::error(
            "Both a backend and a cloud configuration are present",
            format!("A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at {cloud}; a backend is configured at {backend}. Remove the backend block to configure a cloud backend."),
        ),
    };
    diags.push(d.with_range(backend.clone()));
}

fn duplicate(b: &Block, prev: &Range, flavor: Flavor) -> Diagnostic {
    let name = b.labels.last().cloned().unwrap_or_default();
    let ty = b.labels.first().cloned().unwrap_or_default();
    let (summary, detail) = match b.kind.as_str() {
        "provider" => {
            let detail = match provider_alias(b) {
                None => format!("A default (non-aliased) provider configuration for {ty:?} was already given at {prev}. If multiple configurations are required, set the \"alias\" argument for alternative configurations."),
                Some(alias) => format!("A provider configuration for {ty:?} with alias {alias:?} was already given at {prev}. Each configuration for the same provider must have a distinct alias."),
            };
            ("Duplicate provider configuration".to_string(), detail)
        }
        "variable" => (
            "Duplicate variable declaration".to_string(),
            format!("A variable named {name:?} was already declared at {prev}. Variable names must be unique within a module."),
        ),
        "output" => (
            "Duplicate output definition".to_string(),
            format!("An output named {name:?} was already defined at {prev}. Output names must be unique within a module."),
        ),
        "module" => (
            "Duplicate module call".to_string(),
            format!("A module call named {name:?} was already defined at {prev}. Module calls must have unique names within a module."),
        ),
        "resource" => (
            format!("Duplicate resource {ty:?} configuration"),
            format!("A {ty} resource named {name:?} was already declared at {prev}. Resource names must be unique per type in each module."),
        ),
        "data" => (
            format!("Duplicate data {ty:?} configuration"),
            format!("A {ty} data resource named {name:?} was already declared at {prev}. Resource names must be unique per type in each module."),
        ),
        "ephemeral" => (
            match flavor {
                Flavor::Terraform => format!("Duplicate ephemeral {ty:?} configuration"),
                Flavor::OpenTofu => format!("Duplicate ephemeral resource {ty:?} configuration"),
            },
            format!("A {ty} ephemeral resource named {name:?} was already declared at {prev}. Resource names must be unique per type in each module."),
        ),
        "check" => (
            format!("Duplicate check {name:?} configuration"),
            format!("A check block named {name:?} was already declared at {prev}. Check blocks must be unique within each module."),
        ),
        other => (
            format!("Duplicate {other} configuration"),
            format!("A {other} block was already declared at {prev}."),
        ),
    };
    Diagnostic::error(summary, detail).with_range(b.origin.decl.clone())
}
