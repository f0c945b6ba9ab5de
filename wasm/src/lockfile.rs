//! `parseLock`, `formatLock`, `diffLock`, `mergeLock` and `lockCoverage`.
//!
//! A lock crosses the boundary as `{ flavor, providers: [{ provider, version, constraints,
//! hashes }] }`; every function taking a lock also takes the file's text.

use crate::convert::{array, entries, get, opt_flavor, opt_string, string, strings, to_js};
use crate::error::{diagnostic_error, error, invalid_argument, JsResult};
use crate::views::sorted;
use serde::Serialize;
use tflock_core::api::coverage::KnownHashes;
use tflock_core::api::hash::PackageHash;
use tflock_core::api::lock_file::{
    diff_locks, header_flavor, load_locks, merge_locks, render_merge, write_locks, LoadOptions,
    Locks, LOCK_FILE_NAME,
};
use tflock_core::api::version::{Constraints, Version};
use tflock_core::api::{Platform, Provider};
use tflock_core::{Diagnostics, Flavor};
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProviderLockJs {
    provider: String,
    version: String,
    constraints: String,
    hashes: Vec<String>,
}

/// A lock set as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LockJs {
    flavor: Flavor,
    providers: Vec<ProviderLockJs>,
}

/// `locks` as a [`LockJs`].
pub fn lock_js(locks: &Locks, flavor: Flavor) -> LockJs {
    LockJs {
        flavor,
        providers: locks
            .providers()
            .map(|l| ProviderLockJs {
                provider: l.addr().to_string(),
                version: l.version().to_string(),
                constraints: l.constraints_string(),
                hashes: l.hashes().iter().map(ToString::to_string).collect(),
            })
            .collect(),
    }
}

/// Loads `text` as the core does; flavour from the options, else from the header.
fn load(text: &str, options: &JsValue) -> JsResult<(Locks, Diagnostics, Flavor)> {
    let flavor = opt_flavor(options)?.unwrap_or_else(|| header_flavor(text));
    let filename = opt_string(options, "filename")?.unwrap_or_else(|| LOCK_FILE_NAME.into());
    let (locks, diags) = load_locks(text, &LoadOptions::new(filename, flavor));
    Ok((locks, diags, flavor))
}

/// `parseLock(text, { filename?, flavor? })`: `{ lock, diagnostics }`, never throws for
/// bad content. When a diagnostic is an error, `lock` is `null`: the core's result of a
/// refused text leaves entries out (a duplicate provider block, a block that failed
/// validation), and the CLI refuses to use it, so no caller can format, diff or merge it as
/// if it were the file.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = parseLock, unchecked_return_type = "ParsedLock")]
pub fn parse_lock(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "ParseLockOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let (locks, diags, flavor) = load(text, &options)?;
    #[derive(Serialize)]
    struct Parsed {
        lock: Option<LockJs>,
        diagnostics: Vec<crate::config::DiagnosticJs>,
    }
    to_js(&Parsed {
        lock: (!diags.has_errors()).then(|| lock_js(&locks, flavor)),
        diagnostics: crate::config::diagnostics(&diags),
    })
}

/// A lock argument: the text of a lock file (its first error diagnostic is thrown) or a
/// lock object as `parseLock` returns it (invalid fields are thrown, and so is a provider
/// listed twice, which a lock file cannot hold: Terraform's `Duplicate provider lock`).
pub fn lock_arg(v: &JsValue, flavor: Option<Flavor>) -> JsResult<(Locks, Flavor)> {
    if let Some(text) = v.as_string() {
        let opts = JsValue::UNDEFINED;
        let (locks, diags, header) = load(&text, &opts)?;
        if let Some(d) = diags.iter().find(|d| d.is_error()) {
            return Err(diagnostic_error(d));
        }
        return Ok((locks, flavor.unwrap_or(header)));
    }
    let flavor = match flavor {
        Some(f) => f,
        None => match opt_string(v, "flavor")? {
            Some(s) => Flavor::parse(&s).map_err(|e| invalid_argument(e.to_string()))?,
            None => Flavor::default(),
        },
    };
    let mut locks = Locks::new();
    for (i, p) in array(&get(v, "providers"), "lock.providers")?
        .into_iter()
        .enumerate()
    {
        let addr = string(&p, "provider")?;
        let provider = Provider::parse(&addr, flavor)
            .map_err(|e| error("Invalid provider source address", format!("{addr:?}: {e}")))?;
        if locks.provider(&provider).is_some() {
            return Err(error(
                "Duplicate provider lock",
                format!(
                    "This lock already declared a lock for provider {provider} before providers[{i}]."
                ),
            ));
        }
        let ver = string(&p, "version")?;
        let version = Version::parse_flavored(&ver, flavor)
            .map_err(|e| error("Invalid provider version number", format!("{ver:?}: {e}")))?;
        let constraints = match opt_string(&p, "constraints")? {
            Some(c) if !c.trim().is_empty() => Some(
                Constraints::parse(&c, flavor)
                    .map_err(|e| error("Invalid version constraint", e.message()))?,
            ),
            _ => None,
        };
        let hashes = match get(&p, "hashes") {
            h if h.is_undefined() || h.is_null() => Vec::new(),
            h => strings(&h, "hashes")?,
        };
        let hashes = hashes
            .iter()
            .map(|h| {
                PackageHash::parse(h)
                    .map_err(|_| error("Invalid provider hash string", format!("{h:?}")))
            })
            .collect::<JsResult<Vec<_>>>()?;
        locks.set_provider(provider, version, constraints, hashes);
    }
    Ok((locks, flavor))
}

/// `formatLock(lock, { flavor? })`: the canonical file text (providers and hashes sorted,
/// hashes de-duplicated), as `tflock lockfile fmt` writes it.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = formatLock)]
pub fn format_lock(
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] lock: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "FlavorOptions")] options: Option<JsValue>,
) -> JsResult<String> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let (locks, flavor) = lock_arg(&lock, opt_flavor(&options)?)?;
    Ok(write_locks(&locks.normalized(), flavor))
}

/// `diffLock(before, after)`: the reviewer's view (`tflock lockfile diff --json`).
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = diffLock, unchecked_return_type = "LockDiff")]
pub fn diff_lock(
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] after: JsValue,
) -> JsResult<JsValue> {
    let (before, _) = lock_arg(&before, None)?;
    let (after, _) = lock_arg(&after, None)?;
    to_js(&sorted(&diff_locks(&before, &after))?)
}

/// `mergeLock(base, ours, theirs, { flavor? })`: the three-way merge a git merge driver
/// performs: the text (with conflict markers when needed), the merged lock and conflicts.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = mergeLock, unchecked_return_type = "MergedLock")]
pub fn merge_lock(
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] base: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] ours: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] theirs: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "FlavorOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let given = opt_flavor(&options)?;
    let (base, _) = lock_arg(&base, given)?;
    let (ours, flavor) = lock_arg(&ours, given)?;
    let (theirs, _) = lock_arg(&theirs, given)?;
    let result = merge_locks(&base, &ours, &theirs);
    #[derive(Serialize)]
    struct Merged {
        text: String,
        clean: bool,
        lock: LockJs,
        conflicts: serde_json::Value,
    }
    let conflicts = crate::views::sorted(&result.conflicts)?;
    to_js(&Merged {
        text: render_merge(&result, flavor),
        clean: result.is_clean(),
        lock: lock_js(&result.locks, flavor),
        conflicts,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CoverageJs {
    complete: bool,
    providers: Vec<ProviderCoverageJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProviderCoverageJs {
    provider: String,
    version: String,
    covered: Vec<String>,
    missing: Vec<String>,
    hash_platforms: Vec<HashPlatformsJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HashPlatformsJs {
    hash: String,
    platforms: Vec<String>,
}

/// `lockCoverage(lock, known, platforms)`: per locked provider, which of `platforms`
/// (`os_arch`) its recorded hashes cover, given `known` hashes per provider and platform
/// (`{ "registry.terraform.io/hashicorp/aws": { "linux_amd64": ["h1:…", "zh:…"] } }`).
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = lockCoverage, unchecked_return_type = "Coverage")]
pub fn lock_coverage(
    #[wasm_bindgen(unchecked_param_type = "Lock | string")] lock: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, Record<string, string[]>>")]
    known: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] platforms: JsValue,
) -> JsResult<JsValue> {
    let (locks, flavor) = lock_arg(&lock, None)?;
    let mut table = KnownHashes::new();
    for (addr, per_platform) in entries(&known, "known")? {
        let provider = Provider::parse(&addr, flavor)
            .map_err(|e| error("Invalid provider source address", format!("{addr:?}: {e}")))?;
        let row = table.entry(provider).or_default();
        for (platform, hashes) in entries(&per_platform, "known hashes")? {
            let platform = Platform::parse(&platform)
                .map_err(|e| error("Invalid target platform", e.to_string()))?;
            let list = strings(&hashes, "known hashes")?
                .iter()
                .map(|h| {
                    PackageHash::parse(h)
                        .map_err(|_| error("Invalid provider hash string", format!("{h:?}")))
                })
                .collect::<JsResult<Vec<_>>>()?;
            row.entry(platform).or_default().extend(list);
        }
    }
    let wanted = strings(&platforms, "platforms")?
        .iter()
        .map(|p| Platform::parse(p).map_err(|e| error("Invalid target platform", e.to_string())))
        .collect::<JsResult<Vec<_>>>()?;
    let c = tflock_core::api::coverage::lock_coverage(&locks, &table, &wanted);
    to_js(&CoverageJs {
        complete: c.complete(),
        providers: c
            .providers
            .iter()
            .map(|p| ProviderCoverageJs {
                provider: p.provider.to_string(),
                version: p.version.to_string(),
                covered: p.covered.clone(),
                missing: p.missing.clone(),
                hash_platforms: p
                    .hash_platforms
                    .iter()
                    .map(|(h, ps)| HashPlatformsJs {
                        hash: h.to_string(),
                        platforms: ps.clone(),
                    })
                    .collect(),
            })
            .collect(),
    })
}
