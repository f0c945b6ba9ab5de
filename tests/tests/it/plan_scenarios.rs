//! Install-planner scenarios written as data under `tests/fixtures/plan/<case>/`.
//!
//! Each case has `requirements.txt` (`<source> [<constraint>]` lines, one requirement each;
//! lines for the same provider are combined), an optional `previous.lock.hcl`,
//! `scenario.json` (flavour, mode, platforms, readonly, source, fake registry contents and
//! knobs, packages already installed), and the expectations: `expected.lock.hcl` (the bytes
//! `write_locks` produces for the outcome's lock), `expected.messages.txt` (the messages,
//! one after another, each followed by a newline) and `expected.diagnostics.txt` (each
//! diagnostic as the CLI renders it, separated by `---` lines; absent = none).
//!
//! Hash values depend on the generated zips, so expected files name them with
//! placeholders the harness fills in from values computed independently of
//! `tflock_core::hash`: `${h1 <provider> <version> <platform>}`,
//! `${zh <provider> <version> <platform>}`, `${key_id}` (the registry's test key) and
//! `${stranger_key_id}`. Because the placeholders hide the values, the harness sorts each
//! expected `hashes` list; the order of the produced lists is checked separately (strictly
//! ascending, as Terraform's `NewProviderLock` sorts and de-duplicates).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use tflock_core::addrs::{Platform, Provider};
use tflock_core::install::{Mode, PlanOptions, Planner, Requirements};
use tflock_core::lockfile::{load_locks, write_locks, LoadOptions, Locks};
use tflock_core::version::Constraints;
use tflock_core::Flavor;
use tflock_tests::fake_registry::{FakeHost, FakeRegistry, Knobs, PackageId, SourceKind};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    flavor: String,
    mode: Mode,
    #[serde(default = "default_platforms")]
    platforms: Vec<String>,
    #[serde(default)]
    readonly: bool,
    #[serde(default)]
    source: SourceKind,
    #[serde(default)]
    trust_all_hashes: bool,
    /// provider → version → platforms.
    registry: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    knobs: Knobs,
    /// `"<provider> <version> <platform>"` already unpacked in `.terraform/providers`.
    #[serde(default)]
    installed: Vec<String>,
    /// `"<provider> <version> <platform>"` in the global plugin cache.
    #[serde(default)]
    cached: Vec<String>,
    /// A global plugin cache directory is configured.
    #[serde(default)]
    plugin_cache: bool,
    /// `plugin_cache_may_break_dependency_lock_file = true`.
    #[serde(default)]
    plugin_cache_may_break_lock: bool,
    /// Whether the host should write the lock file.
    expect_write: bool,
    /// Free text: what the case shows and where the expectation comes from.
    #[allow(dead_code)]
    about: String,
}

fn default_platforms() -> Vec<String> {
    vec!["linux_amd64".to_string()]
}

fn package_id(s: &str, flavor: Flavor) -> PackageId {
    let parts: Vec<&str> = s.split_whitespace().collect();
    assert_eq!(parts.len(), 3, "package selector {s:?}");
    PackageId {
        provider: Provider::parse(parts[0], flavor).expect("provider"),
        version: parts[1].to_string(),
        platform: parts[2].to_string(),
    }
}

/// Fills `${...}` placeholders.
fn substitute(text: &str, reg: &FakeRegistry, flavor: Flavor) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("unclosed placeholder") + start;
        let inner = &rest[start + 2..end];
        let value = match inner.split_once(' ') {
            Some(("h1", sel)) => reg.expected_h1(&package_id(sel, flavor)),
            Some(("zh", sel)) => reg.expected_zh(&package_id(sel, flavor)),
            Some(("served_zh", sel)) => reg.served_zh(&package_id(sel, flavor)),
            None if inner == "*" => WILDCARD.to_string(),
            None if inner == "key_id" => reg.key.key_id.clone(),
            None if inner == "stranger_key_id" => reg.stranger.key_id.clone(),
            _ => panic!("unknown placeholder {inner:?}"),
        };
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// What `${*}` becomes: matches any text (used only where the text comes from the OpenPGP
/// library rather than from Terraform, e.g. the reason a signature does not verify).
const WILDCARD: &str = "\u{0}*\u{0}";

/// `want` (possibly with wildcards) matches `got`.
fn matches(want: &str, got: &str) -> bool {
    let parts: Vec<&str> = want.split(WILDCARD).collect();
    if parts.len() == 1 {
        return want == got;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !got.starts_with(first) || !got.ends_with(last) || got.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// Sorts the lines of every `hashes = [...]` list.
fn sort_hash_lists(text: &str) -> String {
    let mut out = Vec::new();
    let mut list: Option<Vec<&str>> = None;
    for line in text.split_inclusive('\n') {
        match &mut list {
            Some(items) if line.trim() == "]" => {
                items.sort();
                out.append(items);
                out.push(line);
                list = None;
            }
            Some(items) => items.push(line),
            None => {
                out.push(line);
                if line.trim() == "hashes = [" {
                    list = Some(Vec::new());
                }
            }
        }
    }
    out.concat()
}

fn read_opt(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

fn load_requirements(text: &str, flavor: Flavor) -> Requirements {
    let mut reqs = Requirements::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (source, constraint) = line.split_once(' ').unwrap_or((line, ""));
        let provider = Provider::parse(source, flavor).expect("requirement source");
        let c = if constraint.trim().is_empty() {
            Constraints::any()
        } else {
            Constraints::parse(constraint.trim(), flavor).expect("requirement constraint")
        };
        let entry = reqs.entry(provider).or_insert_with(Constraints::any);
        *entry = entry.intersect(&c);
    }
    reqs
}

fn check_sorted(locks: &Locks, case: &str) {
    for lock in locks.providers() {
        let hashes: Vec<&str> = lock.hashes().iter().map(|h| h.as_str()).collect();
        assert!(
            hashes.windows(2).all(|w| w[0] < w[1]),
            "{case}: hashes of {} are not strictly ascending: {hashes:?}",
            lock.addr()
        );
    }
}

/// Runs one case; returns a description of every mismatch.
fn run_case(dir: &Path) -> Vec<String> {
    let case = dir.file_name().unwrap().to_string_lossy().to_string();
    let scenario: Scenario = serde_json::from_str(
        &std::fs::read_to_string(dir.join("scenario.json")).expect("scenario.json"),
    )
    .unwrap_or_else(|e| panic!("{case}: scenario.json: {e}"));
    let flavor = Flavor::parse(&scenario.flavor).expect("flavor");

    let mut reg = FakeRegistry::new();
    for (source, versions) in &scenario.registry {
        let provider = Provider::parse(source, flavor).expect("registry provider");
        for (version, platforms) in versions {
            let ps: Vec<&str> = platforms.iter().map(String::as_str).collect();
            reg.publish(&provider, version, &ps);
        }
    }
    reg.knobs = scenario.knobs.clone();

    let requirements = load_requirements(
        &std::fs::read_to_string(dir.join("requirements.txt")).expect("requirements.txt"),
        flavor,
    );
    let previous = match read_opt(dir, "previous.lock.hcl") {
        None => Locks::new(),
        Some(text) => {
            // Written by Terraform, so its hash lists are sorted.
            let text = sort_hash_lists(&substitute(&text, &reg, flavor));
            let (locks, diags) =
                load_locks(&text, &LoadOptions::new(".terraform.lock.hcl", flavor));
            assert!(
                diags.is_empty(),
                "{case}: previous.lock.hcl: {:?}",
                diags.iter().collect::<Vec<_>>()
            );
            locks
        }
    };

    let platforms: Vec<Platform> = scenario
        .platforms
        .iter()
        .map(|p| Platform::parse(p).expect("platform"))
        .collect();
    let mut opts = PlanOptions::new(flavor, scenario.mode, platforms);
    opts.readonly = scenario.readonly;
    opts.plugin_cache = scenario.plugin_cache;
    opts.plugin_cache_may_break_lock = scenario.plugin_cache_may_break_lock;
    let planner = Planner::new(requirements, previous.clone(), opts);

    let mut host = FakeHost::new(&reg, flavor, scenario.source);
    host.trust_all_hashes = scenario.trust_all_hashes;
    host.installed = scenario
        .installed
        .iter()
        .map(|s| package_id(s, flavor))
        .collect();
    host.cached = scenario
        .cached
        .iter()
        .map(|s| package_id(s, flavor))
        .collect();
    let outcome = host.drive(planner);

    let mut problems = Vec::new();
    check_sorted(&outcome.new_lock, &case);

    let got_lock = write_locks(&outcome.new_lock, flavor);
    let want_lock = sort_hash_lists(&substitute(
        &std::fs::read_to_string(dir.join("expected.lock.hcl")).expect("expected.lock.hcl"),
        &reg,
        flavor,
    ));
    if got_lock != want_lock {
        problems.push(format!(
            "{case}: lock differs\n--- want\n{want_lock}--- got\n{got_lock}"
        ));
    }
    if outcome.write_lock != scenario.expect_write {
        problems.push(format!(
            "{case}: write_lock is {}, want {}",
            outcome.write_lock, scenario.expect_write
        ));
    }
    if !outcome.write_lock && !outcome.new_lock.equal(&previous) {
        problems.push(format!(
            "{case}: lock not written but differs from the previous one"
        ));
    }

    let got_messages: String = outcome.messages.iter().map(|m| format!("{m}\n")).collect();
    let want_messages = substitute(
        &read_opt(dir, "expected.messages.txt").unwrap_or_default(),
        &reg,
        flavor,
    );
    if !matches(&want_messages, &got_messages) {
        problems.push(format!(
            "{case}: messages differ\n--- want\n{want_messages}--- got\n{got_messages}"
        ));
    }

    let got_diags: String = outcome
        .diagnostics
        .iter()
        .map(|d| format!("{d}\n"))
        .collect::<Vec<_>>()
        .join("---\n");
    let want_diags = substitute(
        &read_opt(dir, "expected.diagnostics.txt").unwrap_or_default(),
        &reg,
        flavor,
    );
    if !matches(&want_diags, &got_diags) {
        problems.push(format!(
            "{case}: diagnostics differ\n--- want\n{want_diags}--- got\n{got_diags}"
        ));
    }
    if outcome.has_errors() && outcome.write_lock {
        problems.push(format!("{case}: a failed run must not write the lock file"));
    }
    problems
}

fn case_dirs() -> Vec<std::path::PathBuf> {
    let root = tflock_tests::fixtures("plan");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/fixtures/plan")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("scenario.json").exists())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn plan_scenarios() {
    let dirs = case_dirs();
    assert!(
        dirs.len() >= 40,
        "expected the scenario corpus, found {}",
        dirs.len()
    );
    let only = std::env::var("PLAN_CASE").ok();
    let mut failures = Vec::new();
    let mut ran = 0;
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        ran += 1;
        failures.extend(run_case(dir));
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} scenario checks failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
