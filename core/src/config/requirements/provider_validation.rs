//! The checks Terraform makes on a whole configuration tree's provider configurations when it
//! builds it (`validateProviderConfigs`, run by `terraform get` and `init`): configurations
//! passed to modules through `providers` that the child does not declare or that are of
//! another type, modules with their own configurations called with `count`, `for_each` or
//! `depends_on`, aliases a child requires but is not given, and the empty "proxy" provider
//! blocks of 0.12-era modules. Go map order makes Terraform's order of these vary; here
//! they follow the modules and declarations in file order.

use super::core_version::shown_source;
use super::reference::{check_providers_map, quoted_traversal, ProviderRef};
use super::tree::ModuleTree;
use super::{local_providers, LocalProvider};
use crate::addrs::{parse_provider_part, Provider};
use crate::config::model::{Block, Value};
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;

/// A small name → value table in insertion order: a module declares a handful of names, so
/// a list is enough and keeps the wasm build small (no map code per value type).
struct Names<K, V>(Vec<(K, V)>);

impl<K: AsRef<str>, V> Names<K, V> {
    fn new() -> Self {
        Names(Vec::new())
    }
    fn get(&self, name: &str) -> Option<&V> {
        self.0
            .iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v)
    }
    fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
    /// Sets `name`, replacing an earlier value.
    fn insert(&mut self, name: K, value: V) {
        match self.0.iter_mut().find(|(k, _)| k.as_ref() == name.as_ref()) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
    }
    /// Sets `name` unless it is set.
    fn insert_new(&mut self, name: K, value: V) {
        if !self.contains_key(name.as_ref()) {
            self.0.push((name, value));
        }
    }
    fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Every diagnostic of Terraform's provider configuration checks over `root`'s tree;
/// the modules below those in `stopped` (whose calls' arguments failed), and those that
/// failed to load with everything below them, are not part of the configuration
/// Terraform builds.
pub fn validate_provider_configs(
    root: &ModuleTree,
    stopped: &[String],
    flavor: Flavor,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let facts = Facts::of(&root.loaded.module, flavor);
    let walk = Walk { stopped, flavor };
    walk.check(root, &facts, None, None, &mut diags);
    test_run_modules(root, stopped, flavor, &mut diags);
    diags
}

/// Terraform's `validateProviderConfigsForTests` for the runs that call a module: that
/// module's tree is checked as a configuration of its own, its paths rebased so it is the
/// root module. Terraform checks it through a made-up call passing the test file's matching
/// providers; the checks of that call (what it passes, the configuration aliases it must
/// pass) are not reproduced: only the module's own and its descendants'.
fn test_run_modules(
    root: &ModuleTree,
    stopped: &[String],
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    for test in &root.tests {
        for (_, tree) in &test.runs {
            let base = tree.path.clone();
            let rebase = |p: &str| -> Option<String> {
                let rest = p.strip_prefix(base.as_str())?;
                match rest.strip_prefix('.') {
                    Some(below) => Some(below.to_string()),
                    None => rest.is_empty().then(String::new),
                }
            };
            let mut rebased = tree.clone();
            rebased.visit_mut(&mut |m| {
                if let Some(p) = rebase(&m.path) {
                    m.path = p;
                }
            });
            let stopped: Vec<String> = stopped.iter().filter_map(|p| rebase(p)).collect();
            let walk = Walk {
                stopped: &stopped,
                flavor,
            };
            let facts = Facts::of(&rebased.loaded.module, flavor);
            walk.check(&rebased, &facts, None, None, diags);
        }
    }
}

/// What stays the same through the recursion.
struct Walk<'a> {
    stopped: &'a [String],
    flavor: Flavor,
}

/// What the checks need to know about one module.
struct Facts {
    /// `name` or `name.alias` → (header range, whether it configures anything).
    configs: Vec<(String, Range, bool)>,
    /// The `required_providers` entries in order.
    required: Vec<LocalProvider>,
    /// Local name → provider, as Terraform resolves a module's names (`resolveProviderTypes`):
    /// required providers, then provider blocks' names as `hashicorp/<name>`.
    types: Names<String, Provider>,
    /// The types the calling module's other children give local names (see `check`).
    sibling_types: Names<String, Provider>,
    /// Managed and data resources without a `provider` argument: (type, address, header).
    implied: Vec<(String, String, Range)>,
    /// Module calls: name → (header range, what forbids configurations below it, providers).
    calls: Vec<CallFacts>,
}

struct CallFacts {
    name: String,
    decl: Range,
    no_config: Option<Range>,
    passed: Vec<(ProviderRef, ProviderRef)>,
}

impl Facts {
    fn of(module: &Module, flavor: Flavor) -> Facts {
        let (locals, _) = local_providers(module, flavor);
        // Terraform walks these in Go map order; declaration order is one of its orders.
        let required: Vec<LocalProvider> = module
            .blocks_of("terraform")
            .flat_map(|t| t.body.blocks_of("required_providers"))
            .flat_map(|rp| rp.body.attributes())
            .filter_map(|a| locals.get(&a.name).cloned())
            .collect();
        let mut types: Names<String, Provider> = Names(
            required
                .iter()
                .map(|lp| (lp.name.clone(), lp.provider.clone()))
                .collect(),
        );
        let mut configs = Vec::new();
        for b in module.blocks_of("provider") {
            let Some(name) = b.labels.first() else {
                continue;
            };
            if parse_provider_part(name).ok().as_deref() != Some(name.as_str()) {
                continue; // Terraform drops a block whose name is not normalized
            }
            if !types.contains_key(name) {
                types.insert(name.clone(), Provider::default_for(name, flavor));
            }
            let key = match b.body.attribute("alias").and_then(|a| a.literal_str()) {
                Some(alias) => format!("{name}.{alias}"),
                None => name.clone(),
            };
            configs.push((key, b.origin.decl.clone(), configures(b)));
        }
        let mut implied = Vec::new();
        let data_in_checks = module
            .blocks_of("check")
            .flat_map(|c| c.body.blocks_of("data"));
        for b in module
            .blocks_of("resource")
            .chain(module.blocks_of("data"))
            .chain(data_in_checks)
        {
            if b.body.attribute("provider").is_none() {
                let ty = b.labels.first().cloned().unwrap_or_default();
                let name = b.labels.get(1).cloned().unwrap_or_default();
                let addr = match b.kind.as_str() {
                    "data" => format!("data.{ty}.{name}"),
                    _ => format!("{ty}.{name}"),
                };
                implied.push((ty, addr, b.origin.decl.clone()));
            }
        }
        let calls = module.blocks_of("module").map(call_facts).collect();
        Facts {
            configs,
            required,
            types,
            sibling_types: Names::new(),
            implied,
            calls,
        }
    }
}

/// Whether a provider block configures anything: a valid `version`, or an argument or
/// block outside the provider block's own schema (an empty block is a "proxy").
fn configures(b: &Block) -> bool {
    let version = b
        .body
        .attribute("version")
        .and_then(|a| a.literal_str())
        .is_some_and(|v| crate::version::check_config_syntax(&v));
    let own_attr = [
        "alias",
        "version",
        "count",
        "depends_on",
        "for_each",
        "source",
    ];
    let own_block = ["lifecycle", "locals"];
    version
        || b.body
            .attributes()
            .any(|a| !own_attr.contains(&a.name.as_str()))
        || b.body.blocks().any(|x| {
            !own_block.contains(&x.kind.as_str()) && (x.kind != "_" || !x.body.items.is_empty())
        })
}

fn call_facts(b: &Block) -> CallFacts {
    let no_config = ["count", "for_each"]
        .iter()
        .find_map(|n| b.body.attribute(n).map(|a| a.expr_range.clone()))
        .or_else(|| b.body.attribute("depends_on").and_then(first_dependency));
    let mut ignored = Diagnostics::new();
    let passed = b
        .body
        .attribute("providers")
        .map(|a| check_providers_map(a, &mut ignored))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(child, parent)| Some((child?, parent?)))
        .collect();
    CallFacts {
        name: b.labels.first().cloned().unwrap_or_default(),
        decl: b.origin.decl.clone(),
        no_config,
        passed,
    }
}

/// The range of a `depends_on` list's first reference (inside its quotes when quoted);
/// `None` for an empty list, which Terraform does not count.
fn first_dependency(a: &crate::config::model::Attribute) -> Option<Range> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => {
            let first = expr.as_array()?.iter().next()?;
            use hcl_edit::Span;
            let span = first.span()?;
            let delta = span.start.saturating_sub(a.expr_range.start.byte);
            let len = span.end.saturating_sub(span.start);
            let mut r = a.expr_range.clone();
            r.start.byte += delta;
            r.start.column += delta;
            r.end = r.start;
            r.end.byte += len;
            r.end.column += len;
            if quoted_traversal(first).is_some() {
                r.start.byte += 1;
                r.start.column += 1;
                r.end.byte -= 1;
                r.end.column -= 1;
            }
            Some(r)
        }
        Value::Json(n) => n
            .as_array()
            .filter(|l| !l.is_empty())
            .map(|_| a.expr_range.clone()),
    }
}

/// The product named in the texts.
fn product(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Terraform => "Terraform",
        Flavor::OpenTofu => "OpenTofu",
    }
}

fn key(r: &ProviderRef) -> String {
    match &r.alias {
        Some(a) => format!("{}.{a}", r.name),
        None => r.name.clone(),
    }
}

/// Where a module is, for messages: its path, `the root module` for the root.
fn module_text(path: &str) -> String {
    if path.is_empty() {
        "the root module".to_string()
    } else {
        path.to_string()
    }
}

/// The parent's path for messages: `the root module` also when the parent is the root.
fn parent_text(path: &str) -> String {
    match path.rfind(".module.") {
        Some(i) => path[..i].to_string(),
        None => "the root module".to_string(),
    }
}

impl Walk<'_> {
    /// One module's checks, after its children's. `parent` is its call and the calling
    /// module's facts; `no_config` the range of a `count`, `for_each` or `depends_on` on
    /// its call or an ancestor's.
    fn check(
        &self,
        tree: &ModuleTree,
        facts: &Facts,
        parent: Option<(&CallFacts, &Facts)>,
        no_config: Option<&Range>,
        diags: &mut Diagnostics,
    ) {
        let flavor = self.flavor;
        let mut kids: Vec<(&ModuleTree, &CallFacts, Facts)> = Vec::new();
        let children = if self.stopped.contains(&tree.path) {
            &[][..]
        } else {
            &tree.children[..]
        };
        for child in children.iter().filter(|c| c.installed()) {
            let name = child.path.rsplit("module.").next().unwrap_or_default();
            if let Some(call) = facts.calls.iter().find(|c| c.name == name) {
                kids.push((child, call, Facts::of(&child.loaded.module, flavor)));
            }
        }
        // Terraform types the names a call passes into (`InChild`) from every child of
        // this module in turn, so a name the target leaves undeclared takes a sibling's.
        for i in 0..kids.len() {
            let mut from_siblings = Names::new();
            for (j, kid) in kids.iter().enumerate() {
                if j != i {
                    for (name, p) in kid.2.types.iter() {
                        from_siblings.insert_new(name.clone(), p.clone());
                    }
                }
            }
            kids[i].2.sibling_types = from_siblings;
        }
        for (child, call, child_facts) in &kids {
            let below = call.no_config.as_ref().or(no_config);
            self.check(child, child_facts, Some((call, facts)), below, diags);
        }
        module_checks(tree, facts, parent, no_config, flavor, diags);
    }
}

/// The checks of one module (its children's are done).
fn module_checks(
    tree: &ModuleTree,
    facts: &Facts,
    parent: Option<(&CallFacts, &Facts)>,
    no_config: Option<&Range>,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    let path = tree.path.as_str();
    let configured: Names<&str, &Range> = Names(
        facts
            .configs
            .iter()
            .filter(|c| c.2)
            .map(|c| (c.0.as_str(), &c.1))
            .collect(),
    );
    let empty: Vec<(&str, &Range)> = facts
        .configs
        .iter()
        .filter(|c| !c.2)
        .map(|c| (c.0.as_str(), &c.1))
        .collect();
    let mut local_names: Names<&str, &Provider> = Names::new();
    let mut config_aliases: Vec<(String, &Provider)> = Vec::new();
    duplicate_requirements(facts, flavor, &mut local_names, &mut config_aliases, diags);
    implied_duplicates(facts, &local_names, flavor, diags);

    let passed_in: Vec<(String, &ProviderRef, &ProviderRef)> = parent
        .map(|(call, _)| {
            call.passed
                .iter()
                .map(|(child, par)| (key(child), child, par))
                .collect()
        })
        .unwrap_or_default();
    let is_passed = |name: &str| passed_in.iter().any(|(k, _, _)| k == name);

    undefined_in_calls(
        facts,
        path,
        &configured,
        &local_names,
        parent,
        flavor,
        diags,
    );

    let Some((call, parent_facts)) = parent else {
        return;
    };
    if let (false, Some(range)) = (configured.is_empty(), no_config) {
        let (summary, args) = match flavor {
            Flavor::Terraform => (
                "Module is incompatible with count, for_each, and depends_on",
                "count, for_each, or depends_on",
            ),
            Flavor::OpenTofu => (
                "Module is incompatible with count, for_each, enabled and depends_on",
                "count, for_each, enabled or depends_on",
            ),
        };
        diags.push(
            Diagnostic::error(
                summary,
                format!("The module at {path} is a legacy module which contains its own local provider configurations, and so calls to it may not use the {args} arguments.\n\nIf you also control the module {:?}, consider updating this module to instead expect provider configurations to be passed by its caller.", shown_source(&tree.source)),
            )
            .with_range(range.clone()),
        );
    }
    for (name, child, _) in &passed_in {
        if configured.contains_key(name.as_str()) {
            diags.push(
                Diagnostic::error(
                    "Cannot override provider configuration",
                    format!("The configuration of {path} has its own local configuration for {name}, and so it cannot accept an overridden configuration provided by {}.", parent_text(path)),
                )
                .with_range(child.name_range.clone()),
            );
        }
    }
    for (name, provider) in &config_aliases {
        if configured.contains_key(name.as_str()) || is_passed(name) {
            continue;
        }
        diags.push(
            Diagnostic::error(
                "Missing required provider configuration",
                format!("The child module requires an additional configuration for provider {}, with the local name {name:?}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {name} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.", provider.for_display(flavor)),
            )
            .with_range(call.decl.clone()),
        );
    }
    for (name, child, par) in &passed_in {
        let ctx = Passing {
            name,
            child,
            parent: par,
            path,
            facts,
            parent_facts,
            local_names: &local_names,
            config_aliases: &config_aliases,
            empty: &empty,
            flavor,
        };
        ctx.check(diags);
    }
    redundant_empty_blocks(&empty, &local_names, path, flavor, diags);
}

/// The three `Duplicate required provider` warnings about `required_providers` itself,
/// filling `local_names` and `config_aliases` as Terraform does while it goes.
fn duplicate_requirements<'f>(
    facts: &'f Facts,
    flavor: Flavor,
    local_names: &mut Names<&'f str, &'f Provider>,
    config_aliases: &mut Vec<(String, &'f Provider)>,
    diags: &mut Diagnostics,
) {
    let mut local_types: Vec<&Provider> = Vec::new();
    for req in &facts.required {
        if local_types.contains(&&req.provider) {
            let prev = local_names
                .iter()
                .filter(|(_, p)| **p == &req.provider)
                .map(|(n, _)| *n)
                .next_back()
                .unwrap_or_default();
            diags.push(
                Diagnostic::warning(
                    "Duplicate required provider",
                    format!("Provider {} with the local name {:?} was previously required as {prev:?}. A provider can only be required once within required_providers.", req.provider.for_display(flavor), req.name),
                )
                .with_range(req.range.clone()),
            );
        } else if req.provider.hostname == flavor.default_registry_host()
            && req.provider.namespace == "hashicorp"
        {
            let implied = req.provider.r#type.as_str();
            let configured_by_block = facts
                .configs
                .iter()
                .any(|(k, _, _)| k.split('.').next() == Some(implied));
            if configured_by_block && req.name != implied {
                diags.push(
                    Diagnostic::warning(
                        "Duplicate required provider",
                        format!("Provider {} with the local name {:?} was implicitly required via a configuration block as {implied:?}. The provider configuration block name must match the name used in required_providers.", req.provider.for_display(flavor), req.name),
                    )
                    .with_range(req.range.clone()),
                );
            }
        }
        local_types.push(&req.provider);
        local_names.insert(req.name.as_str(), &req.provider);
        for alias in &req.aliases {
            if alias.contains('.') {
                config_aliases.push((alias.clone(), &req.provider));
            }
        }
    }
}

/// Resources whose type implies no valid provider name (an error), or a provider required
/// under another local name (a warning): Terraform's `checkImpliedProviderNames`.
fn implied_duplicates(
    facts: &Facts,
    local_names: &Names<&str, &Provider>,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    for (ty, addr, range) in &facts.implied {
        let local = Provider::local_name_for_resource_type(ty);
        let part = match parse_provider_part(local) {
            Ok(part) => part,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        "Invalid provider local name",
                        format!("{local:?} is an invalid implied provider local name: {e}"),
                    )
                    .with_range(range.clone()),
                );
                continue;
            }
        };
        if local_names.contains_key(local) {
            continue;
        }
        // The implied address is normalised (`AWS_instance` → `hashicorp/aws`), the local
        // name looked up above is not.
        let implied = Provider::implied(&part, flavor);
        for (prev, p) in local_names.iter() {
            if **p == implied {
                diags.push(
                    Diagnostic::warning(
                        "Duplicate required provider",
                        format!("Provider {:?} was implicitly required via resource {:?}, but listed in required_providers as {prev:?}. Either the local name in required_providers must match the resource name, or the {prev:?} provider must be assigned within the resource block.", implied.to_string(), addr),
                    )
                    .with_range(range.clone()),
                );
            }
        }
    }
}

/// The `Reference to undefined provider` and inherited `Missing required provider
/// configuration` warnings for configurations this module passes to its own calls.
fn undefined_in_calls(
    facts: &Facts,
    path: &str,
    configured: &Names<&str, &Range>,
    local_names: &Names<&str, &Provider>,
    parent: Option<(&CallFacts, &Facts)>,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    let module_text = module_text(path);
    let is_passed = |name: &str| {
        parent.is_some_and(|(call, _)| call.passed.iter().any(|(child, _)| key(child) == name))
    };
    for call in &facts.calls {
        for (_, par) in &call.passed {
            if par.alias.is_some() {
                continue;
            }
            let name = par.name.as_str();
            let conf = configured.contains_key(name);
            if !(conf || local_names.contains_key(name)) {
                let def = Provider::default_for(name, flavor).for_display(flavor);
                diags.push(
                    Diagnostic::warning(
                        "Reference to undefined provider",
                        format!("There is no explicit declaration for local provider name {name:?} in {module_text}, so {} is assuming you mean to pass a configuration for provider {def:?}.\n\nTo clarify your intent and silence this warning, add to {} a required_providers entry named {name:?} with source = {def:?}, or a different source address if appropriate.", product(flavor), parent_text(path)),
                    )
                    .with_range(par.name_range.clone()),
                );
                continue;
            }
            if let Some((own_call, _)) = parent {
                if !(conf || is_passed(name)) {
                    let def = Provider::default_for(name, flavor).for_display(flavor);
                    diags.push(
                        Diagnostic::warning(
                            "Missing required provider configuration",
                            format!("The configuration for {module_text} expects to inherit a configuration for provider {def} with local name {name:?}, but {} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for {name:?} to the \"providers\" argument in the module {:?} block.", parent_text(path), own_call.name),
                        )
                        .with_range(own_call.decl.clone()),
                    );
                }
            }
        }
    }
}

/// One configuration a caller passes into this module.
struct Passing<'a> {
    name: &'a str,
    child: &'a ProviderRef,
    parent: &'a ProviderRef,
    path: &'a str,
    facts: &'a Facts,
    parent_facts: &'a Facts,
    local_names: &'a Names<&'a str, &'a Provider>,
    config_aliases: &'a [(String, &'a Provider)],
    empty: &'a [(&'a str, &'a Range)],
    flavor: Flavor,
}

impl Passing<'_> {
    fn check(&self, diags: &mut Diagnostics) {
        let flavor = self.flavor;
        let mut child_ty = self
            .facts
            .types
            .get(&self.child.name)
            .or_else(|| self.facts.sibling_types.get(&self.child.name))
            .cloned()
            .unwrap_or_else(|| Provider::default_for(&self.child.name, flavor));
        let local = self.local_names.get(self.name);
        if let Some(p) = local {
            child_ty = (*p).clone();
        }
        let alias = self.config_aliases.iter().find(|(k, _)| k == self.name);
        if let Some((_, p)) = alias {
            child_ty = (*p).clone();
        }
        let empty = self.empty.iter().any(|(k, _)| *k == self.name);
        let module_text = module_text(self.path);
        let parent_text = parent_text(self.path);
        let shown = child_ty.for_display(flavor);
        if local.is_none() && alias.is_none() && !empty {
            let default = child_ty.hostname == flavor.default_registry_host()
                && child_ty.namespace == "hashicorp";
            let d = if default {
                Diagnostic::warning(
                    "Reference to undefined provider",
                    format!("There is no explicit declaration for local provider name {:?} in {module_text}, so {} is assuming you mean to pass a configuration for {shown:?}.\n\nIf you also control the child module, add a required_providers entry named {:?} with the source address {shown:?}.", self.name, product(flavor), self.name),
                )
            } else {
                Diagnostic::error(
                    "Reference to undefined provider",
                    format!("The child module does not declare any provider requirement with the local name {:?}.\n\nIf you also control the child module, you can add a required_providers entry named {:?} with the source address {shown:?} to accept this provider configuration.", self.name, self.name),
                )
            };
            diags.push(d.with_range(self.child.name_range.clone()));
        }
        let mut parent_ty = self
            .parent_facts
            .types
            .get(&self.parent.name)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(&self.parent.name, flavor));
        // Terraform looks the caller's requirements up by the child's key (a quirk kept).
        if let Some(req) = self
            .parent_facts
            .required
            .iter()
            .find(|r| r.name == self.name)
        {
            parent_ty = req.provider.clone();
        }
        if parent_ty == child_ty {
            return;
        }
        let other = self
            .local_names
            .iter()
            .find(|(_, p)| ***p == parent_ty)
            .map(|(n, _)| *n);
        let d = match other {
            Some(other) => Diagnostic::error(
                "Provider type mismatch",
                format!("The assigned configuration is for provider {:?}, but local name {:?} in {parent_text} represents {shown:?}.\n\nTo pass this configuration to the child module, use the local name {other:?} instead.", parent_ty.for_display(flavor), self.child.name),
            )
            .with_range(self.child.name_range.clone()),
            None => {
                let child_key = key(self.child);
                Diagnostic::error(
                    "Provider type mismatch",
                    format!("The local name {:?} in {parent_text} represents provider {:?}, but {child_key:?} in {module_text} represents {shown:?}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {child_key:?} can be assigned only a configuration for {shown}, which is not required by {module_text}.", key(self.parent), parent_ty.for_display(flavor)),
                )
                .with_range(self.parent.name_range.clone())
            }
        };
        diags.push(d);
    }
}

/// One `Redundant empty provider block` warning per provider name with empty blocks.
fn redundant_empty_blocks(
    empty: &[(&str, &Range)],
    local_names: &Names<&str, &Provider>,
    path: &str,
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    // Per local name: its source, its configurations, their ranges and how many are aliased.
    type Suggestion<'a> = (&'a str, Provider, Vec<&'a str>, Vec<&'a Range>, usize);
    let mut by_name: Vec<Suggestion> = Vec::new();
    for (name, range) in empty {
        let local = name.split('.').next().unwrap_or(name);
        let source = local_names
            .get(name)
            .map_or_else(|| Provider::default_for(local, flavor), |p| (*p).clone());
        let at = match by_name.iter().position(|e| e.0 == local) {
            Some(i) => i,
            None => {
                by_name.push((local, source, Vec::new(), Vec::new(), 0));
                by_name.len() - 1
            }
        };
        let entry = &mut by_name[at];
        if local != *name {
            entry.4 += 1;
        }
        entry.2.push(name);
        entry.3.push(range);
    }
    for (name, source, mut configs, ranges, aliases) in by_name {
        let mut text = format!("Earlier versions of {} used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {name:?} blocks and then adding or updating an entry like the following to the required_providers block of {}:\n", product(flavor), module_text(path));
        text.push_str(&format!("    {name} = {{\n"));
        text.push_str(&format!(
            "      source = {:?}\n",
            source.for_display(flavor)
        ));
        if aliases > 0 {
            crate::collections::sort(&mut configs);
            text.push_str("      configuration_aliases = [\n");
            for c in configs {
                text.push_str(&format!("        {c},\n"));
            }
            text.push_str("      ]\n");
        }
        text.push_str("    }");
        // The range that sorts first as text, as Terraform picks it.
        let first = ranges.iter().min_by_key(|r| r.to_string());
        let mut d = Diagnostic::warning("Redundant empty provider block", text);
        if let Some(r) = first {
            d = d.with_range((*r).clone());
        }
        diags.push(d);
    }
}
