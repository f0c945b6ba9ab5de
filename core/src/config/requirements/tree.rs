//! A root module and the local child modules it calls (`source = "./..."`), loaded from the
//! directories the host hands in, so requirements can be gathered across the whole tree.

use super::core_version::{check_required_version, CoreVersionCheck};
use super::module_source::{call_args, module_source, CallArgs, Inputs as ScopeInputs, Scope};
use super::module_version::{check_version, installed_version_refused, tofu_version_set};
use super::{add_module, ProviderRequirements};
use crate::collections::SortedMap;
use crate::config::mock_data::{mock_data_diagnostics, mock_dir_key};
use crate::config::modules_manifest::{
    directory_unreadable, is_local_source, not_installed, source_changed, source_has_changed,
    ModuleManifest,
};
use crate::config::source_addr::{parse_source_addr, parse_source_addr_as};
use crate::config::test_files::{is_test_file, parse_test_file, TestFile, DEFAULT_TEST_DIR};
use crate::config::{load_module, LoadOptions, LoadedModule};
use crate::diag::Diagnostic;
use crate::flavor::Flavor;

/// One module in the tree.
#[derive(Debug, Clone)]
pub struct ModuleTree {
    /// Module path: empty for the root, else `module.a.module.b`.
    pub path: String,
    /// Directory, relative to the root (`""` for the root, `modules/vpc`).
    pub dir: String,
    /// The loaded, merged module.
    pub loaded: LoadedModule,
    /// What following this module's calls and test runs found (a call `init` cannot
    /// follow, an unreadable directory, a test file's syntax); the module's own loading
    /// diagnostics stay in `loaded`, which is what merging its files reports.
    pub calls: crate::diag::Diagnostics,
    /// The module manifest key `init` records it under (`""`, `a.b`, `test.main.setup.a`).
    pub key: String,
    /// The `source` of the call that loaded it, as written (`""` for the root).
    pub source: String,
    /// Whether a test run calls it or one of its ancestors.
    pub under_test: bool,
    /// Its `required_version` arguments checked against the options' core version.
    pub required_version: CoreVersionCheck,
    /// Whether decoding its `required_providers` and `provider` references fails (`Invalid
    /// provider local name`): part of loading a module's files in Terraform, though tflock
    /// reports it with the requirements.
    pub requirements_fail: bool,
    /// Terraform's checks across the whole tree (module call arguments against the
    /// modules' variables; passed provider configurations, proxy blocks, aliases): held by
    /// the root, empty below it.
    pub provider_checks: crate::diag::Diagnostics,
    /// What reading the root's test files' mock data directories found: held by the root,
    /// empty below it.
    pub mock_data: crate::diag::Diagnostics,
    /// Each module call whose source `init` could evaluate, as (name, source), in call
    /// order: the root's read its input values, which later passes have no other way to see.
    pub call_sources: Vec<(String, String)>,
    /// Local child modules in call order.
    pub children: Vec<ModuleTree>,
    /// The root's test files (`*.tftest.hcl` beside it and in `tests/`) with the modules
    /// their runs call; empty below the root, as Terraform reads tests only there.
    pub tests: Vec<TestTree>,
    /// What parsing its files reported (the root's test files' too), also among its other
    /// diagnostics: a file parsed again comes from hclparse's cache without them.
    pub syntax: crate::diag::Diagnostics,
    /// The root's test files' own diagnostics (parsing and decoding), also in `calls`:
    /// part of what `init`'s early load of the root reports.
    pub test_file_diagnostics: crate::diag::Diagnostics,
    /// Whose rules the tree was loaded with.
    pub flavor: Flavor,
}

impl ModuleTree {
    /// Every diagnostic of every module in the tree (test runs' modules included), in
    /// loading order, as `terraform init` reports them: a module whose `required_version`
    /// refuses the core version reports only that (and the problems of its calls, which
    /// the installer still follows from the root), and when nothing else in the tree is an
    /// error, those refusals are all that is reported.
    pub fn diagnostics(&self) -> crate::diag::Diagnostics {
        let mut parsed = crate::collections::SortedSet::new();
        if !(self.flavor == Flavor::Terraform && is_root(self) && self.installs_modules()) {
            return self.loaded_report(&mut parsed);
        }
        // `init` loads the root alone first (its test files too) and then runs the module
        // installer, which loads it again from the parser's cache: the installer's
        // problems end `init`, and only when it found no error does the early load's
        // report follow (after the installer's warnings).
        parsed.extend(
            self.syntax
                .iter()
                .filter_map(|d| Some(d.range.as_ref()?.filename.clone())),
        );
        let installer = self.loaded_report(&mut parsed);
        let mut early = self.loaded.diagnostics.clone();
        early.extend(self.test_file_diagnostics.iter().cloned());
        if installer.has_errors() || !early.has_errors() {
            return installer;
        }
        let mut both = installer;
        both.extend(early);
        both
    }

    /// Whether `terraform init` reports this tree's problems as its module installer found
    /// them (so without the "problems during initialisation" preamble): it installs
    /// modules, and the installer found an error or the early load of the root did not.
    pub fn init_reports_installer(&self) -> bool {
        if !self.installs_modules() {
            return false;
        }
        if self.flavor != Flavor::Terraform {
            return true;
        }
        let mut parsed = crate::collections::SortedSet::new();
        parsed.extend(
            self.syntax
                .iter()
                .filter_map(|d| Some(d.range.as_ref()?.filename.clone())),
        );
        let early_fails =
            self.loaded.diagnostics.has_errors() || self.test_file_diagnostics.has_errors();
        self.loaded_report(&mut parsed).has_errors() || !early_fails
    }

    /// The tree's diagnostics in loading order, a file's syntax errors only when `parsed`
    /// does not hold it yet (see [`Self::diagnostics`]).
    fn loaded_report(
        &self,
        parsed: &mut crate::collections::SortedSet<String>,
    ) -> crate::diag::Diagnostics {
        let mut refused = crate::diag::Diagnostics::new();
        let mut others_fail = false;
        let mut all = crate::diag::Diagnostics::new();
        self.visit(&mut |m| {
            if m.required_version.refused.is_empty() {
                let own =
                    super::parse_cache::without_cached(m.own_diagnostics(), &m.syntax, parsed);
                others_fail |= own
                    .iter()
                    .any(|d| d.severity == crate::diag::Severity::Error);
                all.extend(own);
            } else {
                refused.extend(m.required_version.refused.iter().cloned());
                all.extend(m.required_version.refused.iter().cloned());
                // The installer still installs the root's calls and reports their
                // problems (a refused child's calls are never followed).
                let calls = super::parse_cache::without_cached(m.calls.clone(), &m.syntax, parsed);
                others_fail |= calls.has_errors();
                all.extend(calls);
                // Building the tests' configuration reads their mock data all the same.
                others_fail |= m.mock_data.has_errors();
                all.extend(m.mock_data.iter().cloned());
            }
        });
        if refused.is_empty() || others_fail {
            all
        } else {
            refused
        }
    }

    /// What Terraform's `providers`, `providers lock` and `providers mirror` report instead
    /// of anything else when the root module's own files (test files aside) do not load:
    /// they load the root module alone first (`resolveConstVariables`) and stop at its
    /// errors, with its warnings, before any module call or test file is followed.
    /// `None` when that load has no error (and for OpenTofu, whose commands are not known
    /// to do this).
    pub fn root_load_errors(&self, flavor: Flavor) -> Option<crate::diag::Diagnostics> {
        if flavor != Flavor::Terraform || !is_root(self) {
            return None;
        }
        let mut d = self.loaded.diagnostics.clone();
        d.extend(self.required_version.invalid.iter().cloned());
        let decoded = super::requirements(&self.loaded.module, "", flavor).diagnostics;
        d.extend(
            decoded
                .iter()
                .filter(|x| !super::found_installing_providers(x))
                .cloned(),
        );
        d.has_errors().then_some(d)
    }

    /// Whether `terraform init` installs modules for this root: it calls a module, or a
    /// test file's `run` does. Its module installer then loads the whole tree and reports
    /// what it finds (the root's own problems too) before any other step.
    pub fn installs_modules(&self) -> bool {
        let calls = self.loaded.module.blocks_of("module").next().is_some();
        let runs = self
            .tests
            .iter()
            .flat_map(|t| &t.file.runs)
            .any(|r| r.module.is_some());
        calls || runs
    }

    /// This module's diagnostics alone: loading, `required_version` syntax, its calls.
    fn own_diagnostics(&self) -> crate::diag::Diagnostics {
        let mut d = self.loaded.diagnostics.clone();
        if !self.reports_warnings() {
            d.0.retain(|x| x.is_error());
        }
        d.extend(self.required_version.invalid.iter().cloned());
        d.extend(self.calls.iter().cloned());
        d.extend(self.provider_checks.iter().cloned());
        d.extend(self.mock_data.iter().cloned());
        d
    }

    /// Whether `terraform init`, `get` and `providers` report the warnings of this module's
    /// files. The root's always; a module a `module` block calls is installed by a graph
    /// node that drops what loading it said unless that holds an error (then all of it is
    /// reported, warnings too); a test run's module and those below it are built without
    /// the graph, which keeps every diagnostic.
    fn reports_warnings(&self) -> bool {
        is_root(self)
            || self.under_test
            || self.loaded.diagnostics.has_errors()
            || self.required_version.invalid.has_errors()
    }

    /// Whether Terraform's installer attached this module to its caller's configuration:
    /// loading its own files (`required_version` syntax included) found no error.
    pub(crate) fn installed(&self) -> bool {
        !self.loaded.diagnostics.has_errors()
            && !self.required_version.invalid.has_errors()
            && !self.requirements_fail
    }

    /// Adds Terraform's `Failed to read file` to the loading diagnostics of every module
    /// read from directory `dir` (relative to the root) for each of `names`: configuration
    /// files its listing holds but that cannot be read (a symbolic link to nothing). The
    /// parser reports each and loads the module's other files.
    pub fn note_unreadable_files(&mut self, dir: &str, names: &[String]) {
        if self.dir == dir {
            for name in names {
                self.loaded.diagnostics.push(unreadable_file(name));
            }
        }
        let runs = self.tests.iter_mut().flat_map(|t| t.runs.iter_mut());
        for c in self.children.iter_mut().chain(runs.map(|(_, r)| r)) {
            c.note_unreadable_files(dir, names);
        }
    }

    /// Calls `f` on this module and every module below it (test runs' included), in
    /// loading order.
    fn visit<'a>(&'a self, f: &mut impl FnMut(&'a ModuleTree)) {
        f(self);
        let runs = self
            .tests
            .iter()
            .flat_map(|t| t.runs.iter().map(|(_, r)| r));
        for c in self.children.iter().chain(runs) {
            c.visit(f);
        }
    }

    /// This module and the modules below it that it calls (not its test runs' modules),
    /// parents first, mutably.
    pub(crate) fn visit_mut(&mut self, f: &mut impl FnMut(&mut ModuleTree)) {
        f(self);
        for c in &mut self.children {
            c.visit_mut(f);
        }
    }
}

/// Terraform's parser error for a file of a module directory that cannot be read.
pub fn unreadable_file(name: &str) -> Diagnostic {
    Diagnostic::error(
        "Failed to read file",
        format!("The file {name:?} could not be read."),
    )
}

/// One test file and, for each `run` whose module could be loaded, that module's tree
/// (path `module.test.module.<file>.module.<run>`, manifest key `test.<file>.<run>`).
#[derive(Debug, Clone)]
pub struct TestTree {
    /// The test file.
    pub file: TestFile,
    /// `(run name, module tree)` for the runs that call a module, in file order.
    pub runs: Vec<(String, ModuleTree)>,
}

// The longest file name Linux and macOS accept (`NAME_MAX`). Terraform's module installer
// removes `.terraform/modules/<key>` before installing a module it has no record of, local
// ones too, and a longer key fails there: so a loop of module calls (a → b → a) ends with
// that error once the key outgrows it, and the tree can be no deeper than 128 calls.
const MAX_KEY_BYTES: usize = 255;

/// Why a host could not read a module directory it was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnreadableDir {
    /// The path does not resolve (missing, a dangling or looping link).
    Unresolved {
        /// The operating system's error as Go words it (`no such file or directory`).
        error: String,
        /// The first part of the path that does not resolve, where Go's
        /// `filepath.EvalSymlinks` stops (`a` of `a/b` when `a` is missing); `None` for
        /// the whole path.
        at: Option<String>,
    },
    /// The path resolves but is not a directory that can be read.
    NotReadable,
}

/// What a host hands in to load a tree: the directories it read (directory → its files,
/// keyed by path relative to the working directory, `../x` for one beside it), the ones it
/// could not read with why, and the module manifest of a previous `init`.
struct Inputs<'a, N, B> {
    dirs: &'a SortedMap<String, Vec<(N, B)>>,
    unreadable: Option<&'a SortedMap<String, UnreadableDir>>,
    manifest: Option<&'a ModuleManifest>,
    opts: &'a LoadOptions,
}

/// Loads `root` from `dirs` (directory → its files) and every local module it calls; a
/// called directory `dirs` lacks is a warning (the host did not provide it).
pub fn load_tree<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    root: &str,
    opts: &LoadOptions,
) -> ModuleTree {
    let inputs = Inputs {
        dirs,
        unreadable: None,
        manifest: None,
        opts,
    };
    whole_tree(load_at(&inputs, root, Place::root(), None), &inputs)
}

/// [`load_tree`] with the root directory already loaded (e.g. by
/// [`crate::config::load_module_with_changes`], which the playground needs anyway), so the
/// root is not loaded twice; `loaded` must be `dirs[root]` loaded with `opts`.
pub fn load_tree_with_root<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    root: &str,
    loaded: LoadedModule,
    opts: &LoadOptions,
) -> ModuleTree {
    let inputs = Inputs {
        dirs,
        unreadable: None,
        manifest: None,
        opts,
    };
    whole_tree(load_at(&inputs, root, Place::root(), Some(loaded)), &inputs)
}

/// [`load_tree`], also following module calls with non-local sources to the directories a
/// previous `init` installed them in (`manifest`, from `.terraform/modules/modules.json`);
/// a call the manifest does not list is an error (`Module not installed`). `dirs` is keyed
/// by paths relative to the working directory, which `root` is. A local directory in
/// `unreadable` (the host tried to read it and could not: missing, not a directory, no
/// permission) is Terraform's error, as `terraform init` reports it.
pub fn load_tree_with_manifest<N: AsRef<str>, B: AsRef<[u8]>>(
    dirs: &SortedMap<String, Vec<(N, B)>>,
    unreadable: &SortedMap<String, UnreadableDir>,
    root: &str,
    manifest: &ModuleManifest,
    opts: &LoadOptions,
) -> ModuleTree {
    let inputs = Inputs {
        dirs,
        unreadable: Some(unreadable),
        manifest: Some(manifest),
        opts,
    };
    whole_tree(load_at(&inputs, root, Place::root(), None), &inputs)
}

/// The checks Terraform makes once the whole tree is loaded.
fn whole_tree<N: AsRef<str>, B: AsRef<[u8]>>(
    mut tree: ModuleTree,
    inputs: &Inputs<'_, N, B>,
) -> ModuleTree {
    let opts = inputs.opts;
    // `terraform init` checks the arguments of every call into a module its installer
    // attached (`ModuleTree::installed`), beside errors anywhere else in the tree.
    if lacks_const_value(&tree.loaded.module, opts) {
        return tree;
    }
    let clean = !loads_with_errors(&tree);
    // The module installer (a module call or a test run's module) finishes the tree it
    // built whatever it found; without one, `init` goes on only from a root that loaded
    // without an error.
    let finished = clean || tree.installs_modules();
    // Mock data directories are read last.
    let mock = if finished {
        mock_data(&tree, inputs)
    } else {
        crate::diag::Diagnostics::new()
    };
    let (mut checks, stopped) = if finished {
        super::call_arguments::check_call_arguments(&tree, opts.flavor)
    } else {
        (crate::diag::Diagnostics::new(), Vec::new())
    };
    // A call whose arguments fail stops the installer below it: the modules that module
    // calls are never loaded (Terraform flavour; OpenTofu's installer is not a graph).
    if opts.flavor == Flavor::Terraform {
        drop_below(&mut tree, &stopped);
    }
    // Provider configurations are validated on the tree the installer built
    // (`FinalizeConfig`, after the init graph), errors or not: a module that failed to
    // load is not in it, nor is anything below it (`ModuleTree::installed`). A module
    // refusing the core version stops `init` first.
    let refused = {
        let mut any = false;
        tree.visit(&mut |m| any |= !m.required_version.refused.is_empty());
        any
    };
    if finished && !refused {
        checks.extend(super::validate_provider_configs(
            &tree,
            &stopped,
            opts.flavor,
        ));
    }
    if clean {
        checks.extend(super::test_providers::validate_test_providers(
            &tree,
            opts.flavor,
        ));
    }
    tree.provider_checks = checks;
    tree.mock_data = mock;
    tree
}

/// Forgets the modules below those at `paths`.
fn drop_below(tree: &mut ModuleTree, paths: &[String]) {
    if paths.contains(&tree.path) {
        tree.children.clear();
        return;
    }
    for child in &mut tree.children {
        drop_below(child, paths);
    }
}

/// Whether loading `tree` (this module and those below it) reports an error, decoding
/// `required_providers` and `provider` references included (see
/// [`ModuleTree::requirements_fail`]).
fn loads_with_errors(tree: &ModuleTree) -> bool {
    let mut failed = tree.diagnostics().has_errors();
    tree.visit(&mut |m| failed |= m.requirements_fail);
    failed
}

/// What reading the root's test files' mock data directories reports: those the host read
/// or could not read (`load_tree`'s hosts, which read nothing on request, are not asked).
fn mock_data<N: AsRef<str>, B: AsRef<[u8]>>(
    tree: &ModuleTree,
    inputs: &Inputs<'_, N, B>,
) -> crate::diag::Diagnostics {
    let mut diags = crate::diag::Diagnostics::new();
    let mut parsed = Vec::new();
    for mock in tree.tests.iter().flat_map(|t| &t.file.mock_sources) {
        let key = mock_dir_key(&tree.dir, &mock.dir);
        let files = inputs.dirs.get(&key).map(Vec::as_slice);
        if files.is_some() || inputs.unreadable.is_some_and(|u| u.contains_key(&key)) {
            diags.extend(mock_data_diagnostics(mock, &key, files, &mut parsed));
        }
    }
    diags
}

/// Whether the root module `root` declares a required `const` variable that `opts` gives
/// no value (Terraform's `ParseConstVariableValues`, before any module is installed).
fn lacks_const_value(root: &crate::config::Module, opts: &LoadOptions) -> bool {
    opts.flavor == Flavor::Terraform
        && crate::config::input_values::consts_without_value(root, &opts.values)
            .next()
            .is_some()
}

/// The directories of the module calls in `tree` (local ones joined onto their caller's
/// directory, others where `manifest` says `init` installed them) that `dirs` does not hold
/// and `unreadable` does not name: what a host reading a disk should read next.
pub fn unread_dirs<N: AsRef<str>, B: AsRef<[u8]>>(
    tree: &ModuleTree,
    dirs: &SortedMap<String, Vec<(N, B)>>,
    unreadable: &SortedMap<String, UnreadableDir>,
    manifest: &ModuleManifest,
) -> Vec<String> {
    let mut out = Vec::new();
    collect_unread(tree, dirs, unreadable, manifest, &mut out);
    out
}

fn collect_unread<N: AsRef<str>, B: AsRef<[u8]>>(
    tree: &ModuleTree,
    dirs: &SortedMap<String, Vec<(N, B)>>,
    unreadable: &SortedMap<String, UnreadableDir>,
    manifest: &ModuleManifest,
    out: &mut Vec<String>,
) {
    let mut want = |dir: String| {
        if !dirs.contains_key(&dir) && !unreadable.contains_key(&dir) && !out.contains(&dir) {
            out.push(dir);
        }
    };
    let called = |key: String, source: &str, from: &str| {
        if is_local_source(source) {
            Some(join(from, source))
        } else {
            manifest.get(&key).map(|r| r.dir.clone())
        }
    };
    for (name, source) in &tree.call_sources {
        if let Some(dir) = called(child_key(&tree.key, name), source, &tree.dir) {
            want(dir);
        }
    }
    if is_root(tree) {
        want(join(&tree.dir, DEFAULT_TEST_DIR));
        for mock in tree.tests.iter().flat_map(|t| &t.file.mock_sources) {
            want(mock_dir_key(&tree.dir, &mock.dir));
        }
    }
    for test in &tree.tests {
        for run in &test.file.runs {
            let Some(m) = &run.module else { continue };
            if let Some(dir) = called(test.file.manifest_key(&run.name), &m.source, &tree.dir) {
                want(dir);
            }
        }
    }
    let runs = tree
        .tests
        .iter()
        .flat_map(|t| t.runs.iter().map(|(_, r)| r));
    for child in tree.children.iter().chain(runs) {
        collect_unread(child, dirs, unreadable, manifest, out);
    }
}

/// The root of a whole configuration.
fn is_root(tree: &ModuleTree) -> bool {
    tree.path.is_empty() && tree.key.is_empty()
}

fn child_key(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// `(name, source, declaration range)` of every module call whose source `init` can
/// evaluate; the others' "Unknown module source" errors go to `diags`. `legacy`: the
/// module is below a test run (`configs.BuildConfig` follows its calls, not the init graph).
fn module_calls<'m>(
    scope: &Scope<'m>,
    legacy: bool,
    incomplete: &[String],
    diags: &mut crate::diag::Diagnostics,
) -> Vec<(
    String,
    String,
    crate::diag::Range,
    &'m crate::config::model::Block,
)> {
    let mut calls = Vec::new();
    // Terraform's init graph evaluates the locals the calls read before it installs them.
    let locals = (!legacy && scope.flavor == Flavor::Terraform)
        .then(|| super::init_locals::InitLocals::evaluate(scope.module, incomplete, diags));
    for b in scope.module.blocks_of("module") {
        let Some(name) = b.labels.first() else {
            continue;
        };
        if locals.as_ref().is_some_and(|l| l.skips(b)) {
            continue;
        }
        if legacy {
            if let Some(call) = legacy_call(b, scope, diags) {
                calls.push(call);
            }
            continue;
        }
        // Terraform evaluates the version first; a call it cannot install is not followed.
        let versioned = match scope.flavor {
            Flavor::Terraform => match check_version(b, scope) {
                Ok(v) => v.is_some(),
                Err(d) => {
                    diags.extend(d);
                    continue;
                }
            },
            Flavor::OpenTofu => tofu_version_set(b),
        };
        match module_source(b, scope) {
            Ok(Some(source)) => {
                // The installer parses the address before anything is looked up (without a
                // manifest too); a refused one is not installed. OpenTofu parses it when it
                // decodes the call (`decodeStaticSource`) and installs nothing for it either.
                let refused = b.body.attribute("source").and_then(|a| {
                    parse_source_addr_as(&source, versioned, scope.flavor)
                        .err()
                        .map(|e| e.diagnostic_as(scope.flavor, versioned, a.expr_range.clone()))
                });
                match refused {
                    Some(d) => diags.push(d),
                    None => calls.push((name.clone(), source, b.origin.decl.clone(), b)),
                }
            }
            Ok(None) => {}
            Err(d) => diags.extend(d),
        }
    }
    calls
}

/// A call below a test run's module, as `configs.BuildConfig`'s `buildChildModules`
/// decodes it (`legacySourceHelper`, then `legacyVersionHelper`): any `version` argument,
/// `null` too, asks for a registry address, and the version is decoded as a string with
/// no evaluation context. `None` when the call is not followed.
fn legacy_call<'m>(
    b: &'m crate::config::model::Block,
    scope: &Scope<'m>,
    diags: &mut crate::diag::Diagnostics,
) -> Option<(
    String,
    String,
    crate::diag::Range,
    &'m crate::config::model::Block,
)> {
    let name = b.labels.first()?;
    let version = b.body.attribute("version");
    let source = match module_source(b, scope) {
        Ok(Some(source)) => source,
        Ok(None) => return None,
        Err(d) => {
            diags.extend(d);
            return None;
        }
    };
    let at = b.body.attribute("source")?.expr_range.clone();
    if let Err(e) = parse_source_addr(&source, version.is_some()) {
        diags.push(e.diagnostic(version.is_some(), at));
        return None;
    }
    if let Some(a) = version {
        let ty = crate::config::load::cty::Ty::String;
        let Some((found, decoded)) = crate::config::load::static_eval::decode(a, &ty) else {
            return Some((name.clone(), source, b.origin.decl.clone(), b));
        };
        let failed = found.iter().any(Diagnostic::is_error);
        diags.extend(found);
        if failed {
            return None;
        }
        let text = match decoded {
            Some(
                crate::config::load::cty::Val::String(s) | crate::config::load::cty::Val::Number(s),
            ) => s,
            Some(crate::config::load::cty::Val::Bool(v)) => v.to_string(),
            _ => return Some((name.clone(), source, b.origin.decl.clone(), b)),
        };
        if !crate::version::check_config_syntax(&text) {
            diags.push(
                Diagnostic::error(
                    "Invalid version constraint",
                    "This string does not use correct version constraint syntax.",
                )
                .with_range(a.expr_range.clone()),
            );
            return None;
        }
    }
    Some((name.clone(), source, b.origin.decl.clone(), b))
}

fn child_path(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        format!("module.{name}")
    } else {
        format!("{parent}.module.{name}")
    }
}

fn load_at<N: AsRef<str>, B: AsRef<[u8]>>(
    inputs: &Inputs<'_, N, B>,
    dir: &str,
    at: Place,
    preloaded: Option<LoadedModule>,
) -> ModuleTree {
    let loaded = preloaded.unwrap_or_else(|| {
        // Named as Terraform names them in its messages: joined onto the module's
        // directory (`modules/vpc/main.tf`, `../mod/main.tf`).
        let files: Vec<(String, &[u8])> = inputs
            .dirs
            .get(dir)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|(n, b)| (in_dir(dir, n.as_ref()), b.as_ref()))
            .collect();
        load_module(&files, inputs.opts)
    });
    // Only a file with errors can have syntax errors to remember.
    let mut syntax = if loaded.diagnostics.has_errors() {
        let files = inputs.dirs.get(dir).map(Vec::as_slice).unwrap_or_default();
        let names: Vec<String> = files.iter().map(|(n, _)| in_dir(dir, n.as_ref())).collect();
        let config =
            |n: &String| loaded.files.primary.contains(n) || loaded.files.overrides.contains(n);
        super::parse_cache::syntax_diagnostics(
            names
                .iter()
                .zip(files)
                .filter(|(n, _)| config(n))
                .map(|(n, (_, b))| (n.as_str(), b.as_ref())),
        )
    } else {
        crate::diag::Diagnostics::new()
    };
    let mut calls = crate::diag::Diagnostics::default();
    // Terraform 1.15 refuses imports in the modules test runs call (and below them), not
    // in other child modules.
    if at.under_test {
        for import in loaded.module.blocks_of("import") {
            calls.push(
                Diagnostic::error(
                    "Invalid import configuration",
                    format!(
                        "An import block was detected in {:?}. Import blocks are only allowed in the root module.",
                        at.path
                    ),
                )
                .with_range(import.origin.decl.clone()),
            );
        }
    }
    let mut children = Vec::new();
    let is_root = at.path.is_empty() && at.key.is_empty();
    let scope = Scope {
        module: &loaded.module,
        inputs: match &at.args {
            _ if is_root => ScopeInputs::Root(&inputs.opts.values),
            Some(args) => ScopeInputs::Call(args),
            None => ScopeInputs::Defaults,
        },
        flavor: inputs.opts.flavor,
        dir,
    };
    // Terraform's module installer first reads the root's values of its `const`
    // variables; when a required one has none, it stops there: no module is installed and
    // no module source evaluated (`check_tree` reports the missing value).
    // Terraform checks the modules test runs call too (`module.test.module.<file>...`).
    let required_version = check_required_version(
        &loaded.module,
        &at.path,
        &at.source,
        inputs.opts.core_version,
    );
    // Terraform's installer attaches a called module only when its files loaded without
    // an error, and installs nothing below one it did not attach (`nodeInstallModule`
    // leaves its config unset); the root's calls are installed whatever it found, and a
    // test run's module is built by `configs.BuildConfig`, which follows its calls anyway.
    // Its `required_providers` entries are decoded while loading there, and a refused
    // `required_version` is an error of loading it too.
    let requirements_fail = {
        let mut reqs = ProviderRequirements::default();
        add_module(&mut reqs, &loaded.module, &at.path, inputs.opts.flavor);
        reqs.diagnostics.has_errors()
    };
    let detached = !is_root
        && !at.under_test
        && inputs.opts.flavor == Flavor::Terraform
        && (loaded.diagnostics.has_errors()
            || required_version.invalid.has_errors()
            || !required_version.refused.is_empty()
            || requirements_fail);
    let stopped = (is_root && lacks_const_value(&loaded.module, inputs.opts)) || detached;
    let found = if stopped {
        Vec::new()
    } else {
        let legacy = at.under_test && inputs.opts.flavor == Flavor::Terraform;
        module_calls(&scope, legacy, &loaded.incomplete, &mut calls)
    };
    let call_sources = found
        .iter()
        .map(|(name, source, _, _)| (name.clone(), source.clone()))
        .collect();
    type Followed = (
        String,
        String,
        crate::diag::Range,
        CallArgs,
        Option<(crate::diag::Range, Option<String>)>,
    );
    let followed: Vec<Followed> = found
        .into_iter()
        .map(|(name, source, range, block)| {
            let source_range = block.body.attribute("source").map(|a| a.expr_range.clone());
            let constraint = match scope.flavor {
                Flavor::Terraform => check_version(block, &scope).ok().flatten(),
                Flavor::OpenTofu => None,
            };
            let checked = source_range.map(|r| (r, constraint));
            (name, source, range, call_args(block, &scope), checked)
        })
        .collect();
    for (name, source, range, args, checked) in followed {
        let call = Call {
            name: &name,
            source: &source,
            range,
            checked,
            from: dir,
            at: Place {
                path: child_path(&at.path, &name),
                key: child_key(&at.key, &name),
                source: source.clone(),
                under_test: at.under_test,
                args: Some(args),
            },
        };
        if let Some(child) = follow(inputs, call, &mut calls) {
            children.push(child);
        }
    }
    let mut test_file_diagnostics = crate::diag::Diagnostics::new();
    let tests = if is_root && !stopped {
        load_tests(
            inputs,
            dir,
            &mut calls,
            &mut test_file_diagnostics,
            &mut syntax,
        )
    } else {
        Vec::new()
    };
    ModuleTree {
        path: at.path,
        dir: dir.to_string(),
        loaded,
        calls,
        key: at.key,
        source: at.source,
        under_test: at.under_test,
        required_version,
        requirements_fail,
        provider_checks: crate::diag::Diagnostics::new(),
        mock_data: crate::diag::Diagnostics::new(),
        call_sources,
        children,
        tests,
        syntax,
        test_file_diagnostics,
        flavor: inputs.opts.flavor,
    }
}

/// Where a module sits in the configuration: its path, its manifest key, and whether a
/// test run calls it or one of its ancestors.
struct Place {
    path: String,
    key: String,
    /// The call's `source` (`""` for the root).
    source: String,
    under_test: bool,
    /// The call's arguments, which the module's variables read (`None`: the root, whose
    /// values are the options', or a test run's module, whose variables keep defaults).
    args: Option<CallArgs>,
}

impl Place {
    fn root() -> Place {
        Place {
            path: String::new(),
            key: String::new(),
            source: String::new(),
            under_test: false,
            args: None,
        }
    }
}

/// A module call (a `module` block, or a test run's `module` block).
struct Call<'c> {
    name: &'c str,
    source: &'c str,
    range: crate::diag::Range,
    /// The `source` argument's value, where a changed source or version is reported, and
    /// the call's version constraint (`None` for a test run's module, which is not
    /// compared with what was installed).
    checked: Option<(crate::diag::Range, Option<String>)>,
    /// The directory local sources are relative to.
    from: &'c str,
    at: Place,
}

/// Loads the module `call` names, or says in `diags` why it cannot be followed.
fn follow<N: AsRef<str>, B: AsRef<[u8]>>(
    inputs: &Inputs<'_, N, B>,
    call: Call<'_>,
    diags: &mut crate::diag::Diagnostics,
) -> Option<ModuleTree> {
    let Inputs {
        dirs,
        unreadable,
        manifest,
        opts,
    } = *inputs;
    if call.at.key.len() > MAX_KEY_BYTES {
        diags.push(key_too_long(opts.flavor, &call.at.key));
        return None;
    }
    if !is_local_source(call.source) {
        let manifest = manifest?;
        return match manifest.get(&call.at.key) {
            None => {
                diags.push(not_installed(opts.flavor, call.range));
                None
            }
            Some(rec) if dirs.contains_key(&rec.dir) => {
                // Terraform's loader says so and still loads what was installed.
                if let Some((at, constraint)) = &call.checked {
                    if source_changed(opts.flavor, call.source, &rec.source) {
                        diags.push(source_has_changed(opts.flavor, at.clone()));
                    }
                    if let Some(c) = constraint {
                        diags.extend(installed_version_refused(
                            c,
                            rec.version.as_deref(),
                            opts.flavor,
                            at.clone(),
                        ));
                    }
                }
                Some(load_at(inputs, &rec.dir, call.at, None))
            }
            Some(rec) => {
                diags.push(directory_unreadable(&rec.dir, call.range));
                None
            }
        };
    }
    let child_dir = join(call.from, call.source);
    if dirs.contains_key(&child_dir) {
        return Some(load_at(inputs, &child_dir, call.at, None));
    }
    if let Some(why) = unreadable.and_then(|u| u.get(&child_dir)) {
        // The call's range already names its file from the working directory
        // (`child/main.tf`), as Terraform's `CallRange` does.
        let place = format!("{}:{}", call.range.filename, call.range.start.line);
        diags.extend(local_directory_unreadable(
            &child_dir, call.name, &place, why,
        ));
    } else {
        let shown = &call.at.path;
        diags.push(
            Diagnostic::warning(
                "Module directory not provided",
                format!(
                    "The files of {child_dir} ({shown}) were not provided, so its provider requirements are not included."
                ),
            )
            .with_range(call.range),
        );
    }
    None
}

/// The root's test files (its own, then those in `tests/`) and the modules their runs call,
/// local sources relative to the root, as `terraform init` installs them.
fn load_tests<N: AsRef<str>, B: AsRef<[u8]>>(
    inputs: &Inputs<'_, N, B>,
    root: &str,
    diags: &mut crate::diag::Diagnostics,
    file_diags: &mut crate::diag::Diagnostics,
    syntax: &mut crate::diag::Diagnostics,
) -> Vec<TestTree> {
    let flavor = inputs.opts.flavor;
    let test_dir = join(root, DEFAULT_TEST_DIR);
    let mut found = Vec::new();
    for (dir, prefix) in [(root.to_string(), ""), (test_dir, "tests/")] {
        for (name, bytes) in inputs.dirs.get(&dir).map(Vec::as_slice).unwrap_or_default() {
            let name = name.as_ref();
            if is_test_file(name, flavor) {
                let shown = format!("{prefix}{name}");
                let mut own = crate::diag::Diagnostics::new();
                if let Some(file) = parse_test_file(&shown, bytes.as_ref(), flavor, &mut own) {
                    found.push(file);
                }
                if own.has_errors() {
                    syntax.extend(super::parse_cache::syntax_diagnostics(
                        [(shown.as_str(), bytes.as_ref())].into_iter(),
                    ));
                }
                diags.extend(own.iter().cloned());
                file_diags.extend(own);
            }
        }
    }
    found
        .into_iter()
        .map(|file| {
            let runs = file
                .runs
                .iter()
                .filter_map(|run| {
                    let m = run.module.as_ref()?;
                    let call = Call {
                        name: &run.name,
                        source: &m.source,
                        range: m.range.clone(),
                        checked: None,
                        from: root,
                        at: Place {
                            path: file.module_address(&run.name),
                            key: file.manifest_key(&run.name),
                            source: m.source.clone(),
                            under_test: true,
                            args: None,
                        },
                    };
                    let tree = follow(inputs, call, diags)?;
                    Some((run.name.clone(), tree))
                })
                .collect();
            TestTree { file, runs }
        })
        .collect()
}

/// Joins a local module source onto `base` and cleans `.`/`..` as Go's `path.Clean` does,
/// keeping the `..` that climb above the working directory (`../modules/vpc`, the layout of
/// every `examples/` directory): those modules are read like any other.
pub fn join(base: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in base.split('/').chain(rel.split(['/', '\\'])) {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// `terraform init`'s errors for a local module directory it cannot read (no source range):
/// resolving the path fails first and leaves the directory empty, so the second error names
/// none, as Terraform's does.
fn local_directory_unreadable(
    dir: &str,
    name: &str,
    call: &str,
    why: &UnreadableDir,
) -> Vec<Diagnostic> {
    let unreadable = |dir: &str| {
        Diagnostic::error(
            "Unreadable module directory",
            format!("The directory {dir} could not be read for module {name:?} at {call}."),
        )
    };
    match why {
        UnreadableDir::Unresolved { error, at } => vec![
            Diagnostic::error(
                "Unreadable module directory",
                format!(
                    "Unable to evaluate directory symlink: lstat {}: {error}",
                    at.as_deref().unwrap_or(dir)
                ),
            ),
            unreadable(""),
        ],
        UnreadableDir::NotReadable => vec![unreadable(dir)],
    }
}

/// The installer's error for a module whose manifest key is too long to be a file name: it
/// cannot remove `<data dir>/modules/<key>` (named with the default data directory).
fn key_too_long(flavor: Flavor, key: &str) -> Diagnostic {
    let path = format!(".terraform/modules/{key}");
    Diagnostic::error(
        "Failed to remove local module cache",
        format!(
            "{} tried to remove {path} in order to reinstall this module, but encountered an error: unlinkat {path}: file name too long",
            flavor.product()
        ),
    )
}

/// A file name of module directory `dir` as Terraform names it (joined onto the directory):
/// the name the tree's diagnostics give the file, by which a host hands its text to
/// [`crate::diag_text::render`].
pub fn in_dir(dir: &str, file: &str) -> String {
    if dir.is_empty() {
        file.to_string()
    } else {
        format!("{dir}/{file}")
    }
}

/// The requirements of every module in the tree, constraints intersected per provider.
pub fn tree_requirements(tree: &ModuleTree, flavor: Flavor) -> ProviderRequirements {
    let mut reqs = ProviderRequirements::default();
    walk(&mut reqs, tree, flavor);
    reqs
}

fn walk(reqs: &mut ProviderRequirements, t: &ModuleTree, flavor: Flavor) {
    let before = reqs.diagnostics.0.len();
    add_module(reqs, &t.loaded.module, &t.path, flavor);
    if !t.required_version.refused.is_empty() {
        // A module refusing the core version reports only that (`ModuleTree::diagnostics`):
        // Terraform drops what decoding its files said.
        reqs.diagnostics.0.truncate(before);
    } else if !t.reports_warnings() {
        // Decoding warnings of a called module's files (a quoted provider reference) are
        // reported as its loading warnings are (`ModuleTree::reports_warnings`).
        let added = reqs.diagnostics.0.split_off(before);
        reqs.diagnostics
            .0
            .extend(added.into_iter().filter(|d| d.is_error()));
    }
    let runs = t
        .tests
        .iter()
        .flat_map(|test| test.runs.iter().map(|(_, r)| r));
    for c in t.children.iter().chain(runs) {
        walk(reqs, c, flavor);
    }
}

#[cfg(test)]
mod source_tests;
