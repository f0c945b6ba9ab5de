//! What Terraform's test-file decoder refuses while `init` and `providers` load a module
//! (`loadTestFile` and the decoders it calls): the file, `test`, `run`, `plan_options`, run
//! `module`, override and mock-provider block schemas, and the rules on names, duplicates,
//! keywords and the experimental-only `backend` blocks and `skip_cleanup`. Test files'
//! `variable` and `provider` blocks are the module's own decoders, so their rules are
//! [`crate::config::load`]'s.
//!
//! Native syntax only: a `.tftest.json` file is read for its runs as before.

use crate::collections::SortedMap;

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::Decorated;

use super::cty::Ty;
use super::names::BAD_IDENTIFIER;
use super::static_eval::decode;
use super::{content, decode_rules};
use crate::config::model::{Attribute, Block, Body, Value};
use crate::config::requirements::unnormalized_provider_name;
use crate::config::schema::{schema, BodySchema, CHECK_RULE, NO_LABELS};
use crate::config::source_addr::{parse_source_addr, SourceAddr};
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::hcl_syntax::valid_identifier;

const NAME: &[&str] = &["name"];
const TYPE: &[&str] = &["type"];

/// The file's body once `test` blocks are taken out (`testFileSchema`).
const FILE: BodySchema = schema(
    &[],
    &[
        ("run", NAME),
        ("provider", NAME),
        ("mock_provider", NAME),
        ("variable", NAME),
        ("variables", NO_LABELS),
        ("override_resource", NO_LABELS),
        ("override_data", NO_LABELS),
        ("override_module", NO_LABELS),
    ],
);
const TEST: BodySchema = schema(&[("parallel", false), ("skip_cleanup", false)], &[]);
const RUN: BodySchema = schema(
    &[
        ("command", false),
        ("providers", false),
        ("expect_failures", false),
        ("state_key", false),
        ("parallel", false),
        ("skip_cleanup", false),
    ],
    &[
        ("plan_options", NO_LABELS),
        ("assert", NO_LABELS),
        ("variables", NO_LABELS),
        ("module", NO_LABELS),
        ("override_resource", NO_LABELS),
        ("override_data", NO_LABELS),
        ("override_module", NO_LABELS),
        ("backend", NAME),
    ],
);
const PLAN_OPTIONS: BodySchema = schema(
    &[
        ("mode", false),
        ("refresh", false),
        ("replace", false),
        ("target", false),
    ],
    &[],
);
const RUN_MODULE: BodySchema = schema(&[("source", false), ("version", false)], &[]);
const OVERRIDE_RESOURCE: BodySchema = schema(
    &[
        ("target", false),
        ("override_during", false),
        ("values", false),
    ],
    &[],
);
const OVERRIDE_MODULE: BodySchema = schema(
    &[
        ("target", false),
        ("override_during", false),
        ("outputs", false),
    ],
    &[],
);
const MOCK_PROVIDER: BodySchema = schema(
    &[
        ("alias", false),
        ("source", false),
        ("override_during", false),
    ],
    &[
        ("mock_resource", TYPE),
        ("mock_data", TYPE),
        ("override_resource", NO_LABELS),
        ("override_data", NO_LABELS),
    ],
);
/// A mock data file's body (`mockDataSchema`).
const MOCK_DATA: BodySchema = schema(
    &[],
    &[
        ("mock_resource", TYPE),
        ("mock_data", TYPE),
        ("override_resource", NO_LABELS),
        ("override_data", NO_LABELS),
    ],
);
const MOCK_RESOURCE: BodySchema = schema(&[("defaults", false), ("override_during", false)], &[]);

/// Checks a native test file's body as Terraform's decoder does. Returns which `run` blocks
/// (by position among the body's `run` blocks) Terraform keeps: a run its decoder refused is
/// dropped (its module is not installed), and so is every run when the file's `test` block
/// is refused. Also returns the mock data directories of the `mock_provider` blocks
/// Terraform keeps, which it reads once the configuration is built.
pub fn check_test_file(body: &Body, flavor: Flavor, diags: &mut Diagnostics) -> CheckedTestFile {
    let runs = body.blocks_of("run").count();
    if flavor != Flavor::Terraform {
        return CheckedTestFile {
            runs: vec![true; runs],
            mock_sources: Vec::new(),
        };
    }
    if !test_block(body, diags) {
        return CheckedTestFile {
            runs: vec![false; runs],
            mock_sources: Vec::new(),
        };
    }
    let mut kept = Vec::with_capacity(runs);
    let mut mock_sources = Vec::new();
    let mut file = FileState {
        flavor,
        ..FileState::default()
    };
    file_arguments(body, &FILE, diags);
    for b in body.blocks() {
        if b.kind == "test" {
            continue;
        }
        let Some((_, labels)) = FILE.blocks.iter().find(|(t, _)| *t == b.kind) else {
            diags.push(content::unsupported_block(b, &FILE));
            continue;
        };
        if !content::labels_fit(b, labels, diags) {
            if b.kind == "run" {
                kept.push(false);
            }
            continue;
        }
        match b.kind.as_str() {
            "run" => kept.push(run(b, &mut file, diags)),
            "variable" => variable(b, &mut file, flavor, diags),
            "variables" => file_variables(b, &mut file, diags),
            "provider" => provider(b, &mut file, flavor, diags),
            "mock_provider" => {
                if mock_provider(b, &mut file, diags) {
                    let source = b.body.attribute("source").and_then(Attribute::literal_str);
                    if let Some(dir) = source.filter(|s| !s.is_empty()) {
                        mock_sources.push((dir, b.origin.decl.clone()));
                    }
                }
            }
            _ => {
                if let Some((kind, target, range)) = override_block(b, diags) {
                    duplicate_override(&mut file.overrides, &b.kind, kind, target, range, diags);
                }
            }
        }
    }
    CheckedTestFile {
        runs: kept,
        mock_sources,
    }
}

/// What [`check_test_file`] found worth keeping.
pub struct CheckedTestFile {
    /// For each `run` block in order, whether Terraform keeps it.
    pub runs: Vec<bool>,
    /// `(source, block header)` of each kept `mock_provider` block naming a mock data
    /// directory, in file order.
    pub mock_sources: Vec<(String, Range)>,
}

/// What the file's blocks so far have declared.
#[derive(Default)]
struct FileState {
    /// Whose wording the warnings take.
    flavor: Flavor,
    runs: SortedMap<String, Range>,
    /// Earlier runs in order: (name, state key, is an apply run).
    earlier: Vec<(String, String, bool)>,
    /// State key → the run whose backend block loads it.
    backends: SortedMap<String, String>,
    /// State key → the latest run that set `skip_cleanup`.
    skip_cleanups: SortedMap<String, String>,
    variable_blocks: SortedMap<String, Range>,
    /// The `variables` block's header range and its arguments (name → value range).
    variables: Option<(Range, SortedMap<String, Range>)>,
    providers: SortedMap<String, Range>,
    overrides: SortedMap<String, Range>,
}

/// `test` blocks (`decodeFileConfigBlock`): one at most, then its own schema.
fn test_block(body: &Body, diags: &mut Diagnostics) -> bool {
    let mut tests = body.blocks_of("test");
    let Some(first) = tests.next() else {
        return true;
    };
    let mut ok = true;
    for other in tests {
        ok = false;
        diags.push(
            Diagnostic::error(
                "Multiple \"test\" blocks",
                format!(
                    "This test file already has a \"test\" block defined at {}.",
                    first.origin.decl
                ),
            )
            .with_range(other.origin.decl.clone()),
        );
    }
    if !ok || !content::labels_fit(first, NO_LABELS, diags) {
        return false;
    }
    let before = errors(diags);
    strict_content(first, &TEST, diags);
    if let Some((found, _)) = first
        .body
        .attribute("parallel")
        .and_then(|a| decode(a, &Ty::Bool))
    {
        diags.extend(found);
    }
    if let Some(a) = first.body.attribute("skip_cleanup") {
        diags.push(experimental_skip_cleanup(a));
        if let Some((found, _)) = decode(a, &Ty::Bool) {
            diags.extend(found);
        }
    }
    errors(diags) == before
}

fn experimental_skip_cleanup(a: &Attribute) -> Diagnostic {
    Diagnostic::error(
        "Invalid attribute",
        "The skip_cleanup attribute is only available in experimental builds of Terraform.",
    )
    .with_range(a.name_range())
}

/// HCL's `Content`: unknown arguments and block types, missing required arguments, labels.
/// Returns the nested blocks the schema knows (with fitting labels).
fn strict_content<'b>(b: &'b Block, s: &BodySchema, diags: &mut Diagnostics) -> Vec<&'b Block> {
    content::check_required(b, s, false, diags);
    let mut known = Vec::new();
    for nested in b.body.blocks() {
        match s.blocks.iter().find(|(t, _)| *t == nested.kind) {
            Some((_, labels)) => {
                if content::labels_fit(nested, labels, diags) {
                    known.push(nested);
                }
            }
            None => diags.push(content::unsupported_block(nested, s)),
        }
    }
    for a in b.body.attributes() {
        if !s.attrs.iter().any(|(n, _)| *n == a.name) {
            diags.push(content::unsupported_argument(a, b, s));
        }
    }
    known
}

/// `decodeTestRunBlock` and the file-level checks on each run; true when the decoder itself
/// found no error (the file-level duplicate checks do not drop a run).
fn run(b: &Block, file: &mut FileState, diags: &mut Diagnostics) -> bool {
    let errors_before = errors(diags);
    let name = b.labels[0].clone();
    let name_range = b
        .label_ranges
        .first()
        .cloned()
        .unwrap_or_else(|| b.origin.decl.clone());
    let known = strict_content(b, &RUN, diags);
    if !valid_identifier(&name) {
        diags.push(
            Diagnostic::error("Invalid run block name", BAD_IDENTIFIER)
                .with_range(name_range.clone()),
        );
    }
    let mut plan_options: Option<&Block> = None;
    let mut variables: Option<&Block> = None;
    let mut module: Option<&Block> = None;
    let mut backend: Option<&Block> = None;
    let mut overrides: SortedMap<String, Range> = SortedMap::new();
    for nested in known {
        match nested.kind.as_str() {
            "assert" => {
                strict_content(nested, &CHECK_RULE, diags);
                constant_condition(nested, diags);
            }
            // A plan_options or module block the decoder refused is not the run's, so a
            // later one is no duplicate of it.
            "plan_options" => match plan_options {
                Some(first) => diags.push(multiple("plan_options", "run", first, nested)),
                None => {
                    let before = errors(diags);
                    plan_options_block(nested, file.flavor, diags);
                    if errors(diags) == before {
                        plan_options = Some(nested);
                    }
                }
            },
            "variables" => match variables {
                Some(first) => diags.push(multiple("variables", "run", first, nested)),
                None => {
                    variables = Some(nested);
                    just_attributes(nested, diags);
                }
            },
            "module" => {
                if let Some(first) = module {
                    diags.push(multiple("module", "run", first, nested));
                }
                let before = errors(diags);
                run_module(nested, diags);
                if errors(diags) == before {
                    module = Some(nested);
                }
            }
            "backend" => {
                diags.push(
                    Diagnostic::error(
                        "Invalid block",
                        "The backend block is only available within run blocks in experimental builds of Terraform.",
                    )
                    .with_range(nested.origin.decl.clone()),
                );
                if nested.labels[0] == "remote" {
                    diags.push(
                        Diagnostic::error(
                            "Invalid backend block",
                            format!("The \"remote\" backend type cannot be used in the backend block in run {name:?} at {}. Only state storage backends can be used in a test run.", nested.origin.decl),
                        )
                        .with_range(nested.origin.decl.clone()),
                    );
                    continue;
                }
                if let Some(first) = backend {
                    diags.push(
                        Diagnostic::error(
                            "Duplicate backend blocks",
                            format!(
                                "A backend block has already been defined inside the run {name:?} at {}.",
                                first.origin.decl
                            ),
                        )
                        .with_range(nested.origin.decl.clone()),
                    );
                    continue;
                }
                backend = Some(nested);
            }
            _ => {
                if let Some((kind, target, range)) = override_block(nested, diags) {
                    duplicate_override(&mut overrides, &nested.kind, kind, target, range, diags);
                }
            }
        }
    }
    let apply = match b.body.attribute("command") {
        None => true,
        Some(a) => match keyword(a).as_deref() {
            Some("apply") => true,
            Some("plan") => false,
            _ => {
                diags.push(
                    Diagnostic::error(
                        "Invalid \"command\" keyword",
                        "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
                    )
                    .with_range(a.expr_range.clone()),
                );
                // The run keeps its zero value: apply.
                true
            }
        },
    };
    if let Some(a) = b.body.attribute("expect_failures") {
        super::static_refs::static_references(a, file.flavor, diags);
    }
    // `gohcl.DecodeExpression` with no context, as for a module's constant arguments.
    for (name, ty) in [("state_key", Ty::String), ("parallel", Ty::Bool)] {
        if let Some((found, _)) = b.body.attribute(name).and_then(|a| decode(a, &ty)) {
            diags.extend(found);
        }
    }
    if let (false, Some(be)) = (apply, backend) {
        diags.push(
            Diagnostic::error(
                "Invalid backend block",
                "A backend block can only be used in the first apply run block for a given internal state file. It cannot be included in a block to run a plan command.",
            )
            .with_range(be.origin.decl.clone()),
        );
    }
    let skip_cleanup = b.body.attribute("skip_cleanup");
    if let Some(a) = skip_cleanup {
        diags.push(experimental_skip_cleanup(a));
        if let Some((found, _)) = decode(a, &Ty::Bool) {
            diags.extend(found);
        }
        if backend.is_some() && bool_value(a) == Some(false) {
            diags.push(
                Diagnostic::error(
                    "Cannot use `skip_cleanup=false` in a run block that contains a backend block",
                    "Backend blocks are used in tests to allow reuse of long-lived resources. Due to this, cleanup behavior is implicitly skipped and backend blocks are incompatible with setting `skip_cleanup=false`",
                )
                .with_range(a.name_range()),
            );
        }
    }
    let decoded = errors(diags) == errors_before;

    // The checks `loadTestFile` makes across runs.
    let state_key = match (b.body.attribute("state_key"), module) {
        (Some(a), _) => a.literal_str().unwrap_or_default(),
        (None, Some(m)) => m
            .body
            .attribute("source")
            .and_then(Attribute::literal_str)
            .unwrap_or_default(),
        (None, None) => String::new(),
    };
    match file.runs.get(&name) {
        Some(first) => diags.push(
            Diagnostic::error(
                "Duplicate \"run\" block names",
                format!("This test file already has a run named {name} block defined at {first}."),
            )
            .with_range(name_range),
        ),
        None => {
            file.runs.insert(name.clone(), b.origin.decl.clone());
        }
    }
    // A backend implies skipping cleanup, but the run's own `skip_cleanup` is decoded after
    // its blocks and overrides that (a value that does not decode leaves it as it was).
    let skips = skip_cleanup
        .and_then(bool_value)
        .unwrap_or(backend.is_some());
    if let (true, Some(a)) = (skips, skip_cleanup) {
        let detail = match (file.backends.get(&state_key), file.skip_cleanups.get(&state_key)) {
            (Some(with_backend), _) => Some(format!("The run {name:?} has a skip_cleanup attribute set, but shares state with an earlier run {with_backend:?} that has a backend defined. The later run takes precedence, but the backend will still be used to manage this state.")),
            (None, Some(earlier)) => Some(format!("The run {name:?} has a skip_cleanup attribute set, but shares state with an earlier run {earlier:?} that also has skip_cleanup set. The later run takes precedence, and this attribute is ignored for the earlier run.")),
            (None, None) => None,
        };
        if let Some(detail) = detail {
            diags.push(
                Diagnostic::warning("Duplicate \"skip_cleanup\" block", detail)
                    .with_range(a.name_range()),
            );
        }
        if !file.backends.contains_key(&state_key) {
            file.skip_cleanups.insert(state_key.clone(), name.clone());
        }
    }
    if let Some(be) = backend {
        if let Some(existing) = file.backends.get(&state_key) {
            diags.push(
                Diagnostic::error(
                    "Duplicate backend blocks",
                    format!("The run {name:?} already uses an internal state file that's loaded by a backend in the run {existing:?}. Please ensure that a backend block is only in the first apply run block for a given internal state file."),
                )
                .with_range(be.origin.decl.clone()),
            );
            if decoded {
                file.earlier.push((name, state_key, apply));
            }
            return decoded;
        }
        file.backends.insert(state_key.clone(), name.clone());
        if let Some((previous, ..)) = file
            .earlier
            .iter()
            .find(|(_, key, was_apply)| *key == state_key && *was_apply)
        {
            diags.push(
                Diagnostic::error(
                    "Invalid backend block",
                    format!("The run {name:?} cannot load in state using a backend block, because internal state has already been created by an apply command in run {previous:?}. Backend blocks can only be present in the first apply command for a given internal state."),
                )
                .with_range(be.origin.decl.clone()),
            );
        }
    }
    // Only runs the decoder accepted join the file's runs, which later backends look back on.
    if decoded {
        file.earlier.push((name, state_key, apply));
    }
    decoded
}

fn errors(diags: &Diagnostics) -> usize {
    diags.iter().filter(|d| d.is_error()).count()
}

/// `decodeCheckRuleBlock`: an assertion must refer to something.
fn constant_condition(rule: &Block, diags: &mut Diagnostics) {
    let Some(condition) = rule.body.attribute("condition") else {
        return;
    };
    if crate::config::variables::references(&condition.value).is_empty() {
        diags.push(
            Diagnostic::error(
                format!("Invalid {} expression", rule.kind),
                "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
            )
            .with_range(condition.expr_range.clone()),
        );
    }
}

/// `Multiple "<kind>" blocks` for a second block the `parent` may hold once.
fn multiple(kind: &str, parent: &str, first: &Block, second: &Block) -> Diagnostic {
    Diagnostic::error(
        format!("Multiple {kind:?} blocks"),
        format!(
            "This {parent} block already has a {kind} block defined at {}.",
            first.origin.decl
        ),
    )
    .with_range(second.origin.decl.clone())
}

fn plan_options_block(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    strict_content(b, &PLAN_OPTIONS, diags);
    let refresh_only = match b.body.attribute("mode") {
        None => false,
        Some(a) => match keyword(a).as_deref() {
            Some("refresh-only") => true,
            Some("normal") => false,
            _ => {
                diags.push(
                    Diagnostic::error(
                        "Invalid \"mode\" keyword",
                        "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only",
                    )
                    .with_range(a.expr_range.clone()),
                );
                false
            }
        },
    };
    // `gohcl.DecodeExpression` with no context, then `DecodeDependsOn`'s static references.
    if let Some((found, _)) = b
        .body
        .attribute("refresh")
        .and_then(|a| decode(a, &Ty::Bool))
    {
        diags.extend(found);
    }
    for name in ["replace", "target"] {
        if let Some(a) = b.body.attribute(name) {
            super::static_refs::static_references(a, flavor, diags);
        }
    }
    if let Some(a) = b.body.attribute("refresh") {
        if refresh_only && bool_value(a) == Some(false) {
            diags.push(
                Diagnostic::error(
                    "Incompatible plan options",
                    "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.",
                )
                .with_range(a.origin.decl.clone()),
            );
        }
    }
}

/// `decodeTestRunModuleBlock`: a source is required, parsed as a `module` block's is (a
/// registry address when a `version` is set), and only local and registry sources may be
/// tested. The refusals are at the whole `source` attribute.
fn run_module(b: &Block, diags: &mut Diagnostics) {
    strict_content(b, &RUN_MODULE, diags);
    let Some(source) = b.body.attribute("source") else {
        diags.push(
            Diagnostic::error(
                "Missing \"source\" attribute for module block",
                "You must specify a source attribute when executing alternate modules during test executions.",
            )
            .with_range(b.origin.decl.clone()),
        );
        return;
    };
    let Some(raw) = source.literal_str() else {
        return;
    };
    let registry_only = b.body.attribute("version").is_some();
    match parse_source_addr(&raw, registry_only) {
        Err(e) => diags.push(e.diagnostic(registry_only, source.origin.decl.clone())),
        Ok(SourceAddr::Remote { .. }) => diags.push(
            Diagnostic::error(
                "Invalid module source address",
                "Only local or registry module sources are currently supported from within test run blocks.",
            )
            .with_range(source.origin.decl.clone()),
        ),
        Ok(SourceAddr::Local(_) | SourceAddr::Registry(_)) => {}
    }
}

/// HCL's `JustAttributes`: blocks are refused.
fn just_attributes(b: &Block, diags: &mut Diagnostics) {
    if let Some(first) = b.body.blocks().next() {
        diags.push(
            Diagnostic::error(
                format!("Unexpected {:?} block", first.kind),
                "Blocks are not allowed here.",
            )
            .with_range(first.kind_range()),
        );
    }
}

/// A file-level `variable` block: the module's decoder, then the file's duplicate rules.
fn variable(b: &Block, file: &mut FileState, flavor: Flavor, diags: &mut Diagnostics) {
    let before = errors(diags);
    content::check_block(b, flavor, false, diags);
    decode_rules::check_block(b, flavor, false, diags);
    if errors(diags) != before {
        return;
    }
    let name = b.labels[0].clone();
    if let Some(existing) = file.variable_blocks.get(&name) {
        diags.push(duplicate_variable(&name, existing, b.origin.decl.clone()));
        return;
    }
    file.variable_blocks
        .insert(name.clone(), b.origin.decl.clone());
    if let Some(existing) = file.variables.as_ref().and_then(|(_, v)| v.get(&name)) {
        diags.push(duplicate_variable(&name, existing, b.origin.decl.clone()));
    }
}

fn duplicate_variable(name: &str, existing: &Range, at: Range) -> Diagnostic {
    Diagnostic::error(
        "Duplicate \"variable\" block names",
        format!("This test file already has a variable named {name} defined at {existing}."),
    )
    .with_range(at)
}

/// The file's `variables` block: one at most, any arguments, none named by a `variable`.
fn file_variables(b: &Block, file: &mut FileState, diags: &mut Diagnostics) {
    if let Some((first, _)) = &file.variables {
        diags.push(
            Diagnostic::error(
                "Multiple \"variables\" blocks",
                format!("This test file already has a variables block defined at {first}."),
            )
            .with_range(b.origin.decl.clone()),
        );
        return;
    }
    just_attributes(b, diags);
    let mut names = SortedMap::new();
    for a in b.body.attributes() {
        // Later `variable` blocks name the value's range; this block's own check names the
        // whole argument.
        names.insert(a.name.clone(), a.expr_range.clone());
        if let Some(existing) = file.variable_blocks.get(&a.name) {
            diags.push(duplicate_variable(
                &a.name,
                &a.origin.decl,
                existing.clone(),
            ));
        }
    }
    file.variables = Some((b.origin.decl.clone(), names));
}

/// A file-level `provider` block: the module's decoder, then one per name and alias.
fn provider(b: &Block, file: &mut FileState, flavor: Flavor, diags: &mut Diagnostics) {
    if let Some(d) = unnormalized_provider_name(&b.labels[0], &b.origin.decl) {
        diags.push(d);
    }
    content::check_block(b, flavor, false, diags);
    decode_rules::check_block(b, flavor, false, diags);
    let alias = b.body.attribute("alias").and_then(Attribute::literal_str);
    duplicate_provider(b, alias, file, diags);
}

fn duplicate_provider(
    b: &Block,
    alias: Option<String>,
    file: &mut FileState,
    diags: &mut Diagnostics,
) -> bool {
    let key = match alias {
        Some(alias) => format!("{}.{alias}", b.labels[0]),
        None => b.labels[0].clone(),
    };
    let name_range = b
        .label_ranges
        .first()
        .cloned()
        .unwrap_or_else(|| b.origin.decl.clone());
    match file.providers.get(&key) {
        Some(previous) => {
            diags.push(
                Diagnostic::error(
                    "Duplicate provider block",
                    format!("A provider for {key} is already defined at {previous}."),
                )
                .with_range(b.origin.decl.clone()),
            );
            false
        }
        None => {
            file.providers.insert(key, name_range);
            true
        }
    }
}

/// `decodeMockProviderBlock`: its arguments, then its mock data body. True when the file
/// keeps the mock provider (a valid name, no earlier provider with its name and alias).
fn mock_provider(b: &Block, file: &mut FileState, diags: &mut Diagnostics) -> bool {
    let known = strict_content(b, &MOCK_PROVIDER, diags);
    // A name Terraform's provider-name check refuses makes it drop the block.
    if let Some(d) = unnormalized_provider_name(&b.labels[0], &b.origin.decl) {
        diags.push(d);
        return false;
    }
    let alias = b.body.attribute("alias");
    super::decode_rules::provider_alias(b, diags);
    if let Some(a) = b.body.attribute("override_during") {
        override_during(a, diags);
    }
    mock_data_blocks(&known, diags);
    duplicate_provider(b, alias.and_then(Attribute::literal_str), file, diags)
}

/// What a mock data body declares (`decodeMockDataBody`): its `mock_resource` and
/// `mock_data` blocks by (block type, resource type) and its overrides by target, each with
/// the range Terraform names it by in a duplicate's message (the block header) and the range
/// such a duplicate is reported at.
#[derive(Debug, Default)]
pub(crate) struct MockDataBlocks {
    /// (`mock_resource` or `mock_data`, resource type) → (header range, type label range).
    pub resources: SortedMap<(String, String), (Range, Range)>,
    /// Override target → the override block's header range.
    pub overrides: SortedMap<String, Range>,
}

/// Checks the blocks of a mock data body (a `mock_provider` block's, or a `*.tfmock.hcl`
/// file's once its own schema kept them) as `decodeMockDataBody` does: each block's schema,
/// `override_during`, targets, and duplicates within the body.
pub(crate) fn mock_data_blocks(known: &[&Block], diags: &mut Diagnostics) -> MockDataBlocks {
    let mut found = MockDataBlocks::default();
    for nested in known {
        match nested.kind.as_str() {
            "mock_resource" | "mock_data" => {
                strict_content(nested, &MOCK_RESOURCE, diags);
                if let Some(a) = nested.body.attribute("override_during") {
                    override_during(a, diags);
                }
                let ty = nested.labels[0].clone();
                let key = (nested.kind.clone(), ty.clone());
                let type_range = nested
                    .label_ranges
                    .first()
                    .cloned()
                    .unwrap_or_else(|| nested.origin.decl.clone());
                match found.resources.get(&key) {
                    Some((previous, _)) => diags.push(
                        Diagnostic::error(
                            format!("Duplicate {} block", nested.kind),
                            format!(
                                "A {} block for {ty} has already been defined at {previous}.",
                                nested.kind
                            ),
                        )
                        .with_range(type_range),
                    ),
                    None => {
                        found
                            .resources
                            .insert(key, (nested.origin.decl.clone(), type_range));
                    }
                }
            }
            _ => {
                if let Some((kind, target, range)) = override_block(nested, diags) {
                    duplicate_override(
                        &mut found.overrides,
                        &nested.kind,
                        kind,
                        target,
                        range,
                        diags,
                    );
                }
            }
        }
    }
    found
}

/// A file body's arguments, none of which a test or mock data file's schema has: HCL's
/// `Unsupported argument`, hinting at a block when the schema has one of that name.
fn file_arguments(body: &Body, schema: &BodySchema, diags: &mut Diagnostics) {
    for a in body.attributes() {
        let hint = if schema.blocks.iter().any(|(t, _)| *t == a.name) {
            format!(" Did you mean to define a block of type {:?}?", a.name)
        } else {
            String::new()
        };
        diags.push(
            Diagnostic::error(
                "Unsupported argument",
                format!("An argument named {:?} is not expected here.{hint}", a.name),
            )
            .with_range(a.name_range()),
        );
    }
}

/// A `*.tfmock.hcl` file's body (`LoadMockDataFile`): only mock and override blocks, then
/// each as a `mock_provider` block's.
pub(crate) fn mock_data_file(body: &Body, diags: &mut Diagnostics) -> MockDataBlocks {
    file_arguments(body, &MOCK_DATA, diags);
    let mut known = Vec::new();
    for b in body.blocks() {
        match MOCK_DATA.blocks.iter().find(|(t, _)| *t == b.kind) {
            Some((_, labels)) => {
                if content::labels_fit(b, labels, diags) {
                    known.push(b);
                }
            }
            None => diags.push(content::unsupported_block(b, &MOCK_DATA)),
        }
    }
    mock_data_blocks(&known, diags)
}

fn override_during(a: &Attribute, diags: &mut Diagnostics) {
    if !matches!(keyword(a).as_deref(), Some("plan" | "apply")) {
        diags.push(
            Diagnostic::error(
                "Invalid override_during value",
                "The override_during attribute must be a value of plan or apply.",
            )
            .with_range(a.origin.decl.clone()),
        );
    }
}

/// What an override targets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TargetKind {
    Module,
    Managed,
    Data,
}

/// `decodeOverride*Block`: its schema, a target, and a target of the right kind. Returns the
/// target (kind, address as Terraform prints it) and the block's range when it is usable.
fn override_block(b: &Block, diags: &mut Diagnostics) -> Option<(TargetKind, String, Range)> {
    let (s, wanted, what) = match b.kind.as_str() {
        "override_resource" => (&OVERRIDE_RESOURCE, TargetKind::Managed, "resources"),
        "override_data" => (&OVERRIDE_RESOURCE, TargetKind::Data, "data sources"),
        _ => (&OVERRIDE_MODULE, TargetKind::Module, "modules"),
    };
    strict_content(b, s, diags);
    if let Some(a) = b.body.attribute("override_during") {
        override_during(a, diags);
    }
    let Some(target) = b.body.attribute("target") else {
        diags.push(
            Diagnostic::error(
                "Missing target attribute",
                format!("{} blocks must specify a target address.", b.kind),
            )
            .with_range(b.origin.decl.clone()),
        );
        return None;
    };
    let (kind, address) = parse_target(target)?;
    if kind != wanted {
        diags.push(
            Diagnostic::error(
                "Invalid override target",
                format!(
                    "You can only target {what} from {} blocks, not {address}.",
                    b.kind
                ),
            )
            .with_range(target.origin.decl.clone()),
        );
        return None;
    }
    Some((kind, address, b.origin.decl.clone()))
}

fn duplicate_override(
    seen: &mut SortedMap<String, Range>,
    block: &str,
    _kind: TargetKind,
    target: String,
    range: Range,
    diags: &mut Diagnostics,
) {
    match seen.get(&target) {
        Some(previous) => diags.push(
            Diagnostic::error(
                format!("Duplicate {block} block"),
                format!(
                    "An {block} block targeting {target} has already been defined at {previous}."
                ),
            )
            .with_range(range),
        ),
        None => {
            seen.insert(target, range);
        }
    }
}

/// A target traversal (`module.a[0].aws_instance.b`, `data.x.y`, `module.m`): its kind and
/// the address as Terraform prints it. `None` for anything else (left to Terraform's
/// address errors, which tflock does not reproduce).
fn parse_target(a: &Attribute) -> Option<(TargetKind, String)> {
    let Value::Native { expr, .. } = &a.value else {
        return None;
    };
    let (root, ops): (&str, &[Decorated<TraversalOperator>]) = match expr.as_ref() {
        Expression::Variable(v) => (v.as_str(), &[]),
        Expression::Traversal(t) => match &t.expr {
            Expression::Variable(v) => (v.as_str(), t.operators.as_slice()),
            _ => return None,
        },
        _ => return None,
    };
    let mut words: Vec<Step> = vec![Step::Name(root.to_string())];
    for op in ops {
        words.push(match op.value() {
            TraversalOperator::GetAttr(name) => Step::Name(name.as_str().to_string()),
            TraversalOperator::Index(e) => Step::Index(index_text(e)?),
            TraversalOperator::LegacyIndex(n) => Step::Index(n.value().to_string()),
            _ => return None,
        });
    }
    let mut out = Vec::new();
    let mut i = 0;
    while let (Some(Step::Name(m)), Some(Step::Name(name))) = (words.get(i), words.get(i + 1)) {
        if m != "module" {
            break;
        }
        let mut part = format!("module.{name}");
        i += 2;
        if let Some(Step::Index(key)) = words.get(i) {
            part.push_str(&format!("[{key}]"));
            i += 1;
        }
        out.push(part);
    }
    let rest = &words[i..];
    let (kind, resource) = match rest {
        [] if !out.is_empty() => return Some((TargetKind::Module, out.join("."))),
        [Step::Name(d), Step::Name(t), Step::Name(n), tail @ ..] if d == "data" => {
            (TargetKind::Data, (format!("data.{t}.{n}"), tail))
        }
        [Step::Name(t), Step::Name(n), tail @ ..] => {
            (TargetKind::Managed, (format!("{t}.{n}"), tail))
        }
        _ => return None,
    };
    let (mut text, tail) = resource;
    match tail {
        [] => {}
        [Step::Index(key)] => text.push_str(&format!("[{key}]")),
        _ => return None,
    }
    out.push(text);
    Some((kind, out.join(".")))
}

enum Step {
    Name(String),
    Index(String),
}

/// An index key as Terraform prints an instance key: a number, or a quoted string.
fn index_text(e: &Expression) -> Option<String> {
    match e {
        Expression::Number(n) => Some(n.value().to_string()),
        Expression::String(s) => Some(format!("{:?}", s.value().as_str())),
        _ => None,
    }
}

/// `hcl.ExprAsKeyword`: a bare name.
fn keyword(a: &Attribute) -> Option<String> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => match expr.as_ref() {
            Expression::Variable(v) => Some(v.as_str().to_string()),
            _ => None,
        },
        Value::Json(_) => None,
    }
}

/// A literal `true` or `false` (what `gohcl.DecodeExpression` into a bool reads without
/// variables); `None` for anything else.
fn bool_value(a: &Attribute) -> Option<bool> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => match expr.as_ref() {
            Expression::Bool(b) => Some(*b.value()),
            _ => None,
        },
        Value::Json(_) => None,
    }
}
