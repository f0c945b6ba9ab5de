//! `loadModule`, `checkLock` and the diagnostic shape every function returns.

use crate::convert::{array, bytes, entries, flavor, get, opt_flavor, opt_string, to_js};
use crate::error::{invalid_argument, JsResult};
use crate::views::{sorted, ProvenanceJs, ProviderRequirementJs};
use serde::Serialize;
use tflock_core::api::check::check_lock;
use tflock_core::api::lock_file::{
    header_flavor, load_locks, LoadOptions as LockLoadOptions, LOCK_FILE_NAME,
};
use tflock_core::api::module::{
    load_tree, provenance, render_merged, tree_requirements, LoadOptions, ModuleTree,
};
use tflock_core::api::SortedMap;
use tflock_core::{Diagnostic, Diagnostics, Flavor, Range, Severity};
use wasm_bindgen::prelude::*;

/// A diagnostic as JavaScript sees it: the core's fields plus `file` (the range's file name).
#[derive(Serialize)]
pub struct DiagnosticJs {
    severity: Severity,
    summary: String,
    detail: String,
    file: Option<String>,
    range: Option<Range>,
    /// HCL's wider range for the source snippet, where the diagnostic has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<Range>,
}

impl From<&Diagnostic> for DiagnosticJs {
    fn from(d: &Diagnostic) -> Self {
        DiagnosticJs {
            severity: d.severity,
            summary: d.summary.clone(),
            detail: d.detail.clone(),
            file: d.range.as_ref().map(|r| r.filename.clone()),
            range: d.range.clone(),
            context: d.context.clone(),
        }
    }
}

/// All of `diags`, in order.
pub fn diagnostics(diags: &Diagnostics) -> Vec<DiagnosticJs> {
    diags.iter().map(DiagnosticJs::from).collect()
}

/// `renderDiagnostics(diagnostics, files?, options?)`: the text the native CLI prints for
/// them on stderr off a terminal, which is Terraform's `-no-color` view: its display order,
/// each with its location, the source lines of `files` (as `files` arguments elsewhere,
/// named as the diagnostics' ranges name them; a file not given shows "(source code not
/// available)") and the detail wrapped to `options.width` columns (78). Takes the
/// diagnostics every function returns; `file` is ignored.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = renderDiagnostics)]
pub fn render_diagnostics(
    #[wasm_bindgen(unchecked_param_type = "Diagnostic[]")] diagnostics: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{ name: string; content: string | Uint8Array }[] | Record<string, string | Uint8Array>"
    )]
    files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ width?: number }")] options: JsValue,
) -> JsResult<String> {
    let text = js_sys::JSON::stringify(&diagnostics)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| invalid_argument("diagnostics: not an array of diagnostics"))?;
    let list: Vec<Diagnostic> =
        serde_json::from_str(&text).map_err(|e| invalid_argument(format!("diagnostics: {e}")))?;
    let mut sources = tflock_core::api::Sources::new();
    if !(files.is_undefined() || files.is_null()) {
        for (name, content) in files_arg(&files)? {
            sources.insert(name, content);
        }
    }
    let width = match get(&options, "width").as_f64() {
        Some(w) if w >= 0.0 => w as usize,
        _ => tflock_core::api::DEFAULT_WIDTH,
    };
    let style = tflock_core::api::Style::plain(width);
    Ok(tflock_core::api::render_all(
        &Diagnostics(list),
        &sources,
        style,
    ))
}

/// Files as `[{ name, content }]` (also `path` for `name`) or `{ [name]: content }`;
/// content is a string or bytes.
fn files_arg(files: &JsValue) -> JsResult<Vec<(String, Vec<u8>)>> {
    if js_sys::Array::is_array(files) {
        return array(files, "files")?
            .into_iter()
            .map(|f| {
                let name = match opt_string(&f, "name")? {
                    Some(n) => n,
                    None => opt_string(&f, "path")?.ok_or_else(|| {
                        invalid_argument("each file needs a \"name\" (or \"path\")")
                    })?,
                };
                Ok((name, bytes(&get(&f, "content"), "content")?))
            })
            .collect();
    }
    entries(files, "files")?
        .into_iter()
        .map(|(name, content)| Ok((name, bytes(&content, "file content")?)))
        .collect()
}

/// The module tree of the root's `files` and the `modules` option's directories.
fn tree_arg(files: &JsValue, options: &JsValue, flavor: Flavor) -> JsResult<ModuleTree> {
    let mut dirs = SortedMap::new();
    dirs.insert(String::new(), files_arg(files)?);
    let modules = get(options, "modules");
    if !(modules.is_undefined() || modules.is_null()) {
        for (dir, files) in entries(&modules, "modules")? {
            dirs.insert(dir.trim_matches('/').to_string(), files_arg(&files)?);
        }
    }
    Ok(load_tree(&dirs, "", &LoadOptions::new(flavor)))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FileSetJs {
    primary: Vec<String>,
    overrides: Vec<String>,
    shadowed: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LoadedJs {
    merged: String,
    files: FileSetJs,
    diagnostics: Vec<DiagnosticJs>,
    provenance: serde_json::Value,
    requirements: RequirementsJs,
}

#[derive(Serialize)]
struct RequirementsJs {
    providers: serde_json::Value,
    diagnostics: Vec<DiagnosticJs>,
}

/// `loadModule(files, { flavor?, modules? })`: one directory's configuration with its
/// override files merged: the merged HCL text, where each part came from, Terraform's
/// diagnostics and the provider requirements with their origins. `modules` maps the
/// directories of local child modules (relative to the root, e.g. `modules/vpc`) to their
/// files, so requirements span the tree; calls to directories not given are reported as
/// warnings. Bad configuration is reported as diagnostics, never thrown.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = loadModule, unchecked_return_type = "LoadedModule")]
pub fn load_module(
    #[wasm_bindgen(unchecked_param_type = "ModuleFiles")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "LoadModuleOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let flavor = flavor(&options)?;
    let tree = tree_arg(&files, &options, flavor)?;
    let loaded = &tree.loaded;
    let reqs = tree_requirements(&tree, flavor);
    // As `tflock providers`: the root module's own load errors alone stop it first.
    let req_diags = tree.root_load_errors(flavor).unwrap_or_else(|| {
        let mut d = tree.diagnostics();
        d.extend(reqs.diagnostics.iter().cloned());
        d
    });
    let list: Vec<_> = reqs
        .providers
        .values()
        .map(ProviderRequirementJs::new)
        .collect();
    let records = provenance(&loaded.module);
    let out = LoadedJs {
        merged: render_merged(loaded),
        files: FileSetJs {
            primary: loaded.files.primary.clone(),
            overrides: loaded.files.overrides.clone(),
            shadowed: loaded.files.shadowed.clone(),
        },
        diagnostics: diagnostics(&loaded.diagnostics),
        provenance: sorted(&records.iter().map(ProvenanceJs::new).collect::<Vec<_>>())?,
        requirements: RequirementsJs {
            providers: sorted(&list)?,
            diagnostics: diagnostics(&req_diags),
        },
    };
    to_js(&out)
}

#[derive(Serialize)]
struct CheckedProviderJs {
    provider: String,
    status: &'static str,
    locked: Option<String>,
}

#[derive(Serialize)]
struct LockCheckJs {
    consistent: bool,
    providers: Vec<CheckedProviderJs>,
    diagnostics: Vec<DiagnosticJs>,
}

/// `checkLock(files, lockText, { flavor?, modules? })`: whether the lock satisfies the
/// configuration, offline (core's `check_lock`, as `tflock lockfile check --config`):
/// each provider's verdict and Terraform's diagnostics, after the lock's and the
/// configuration's own. Bad input is reported as diagnostics, never thrown.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = checkLock, unchecked_return_type = "LockCheck")]
pub fn check_lock_js(
    #[wasm_bindgen(unchecked_param_type = "ModuleFiles")] files: JsValue,
    lock_text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "LoadModuleOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let flavor = opt_flavor(&options)?.unwrap_or_else(|| header_flavor(lock_text));
    let (locks, mut diags) = load_locks(lock_text, &LockLoadOptions::new(LOCK_FILE_NAME, flavor));
    let tree = tree_arg(&files, &options, flavor)?;
    let reqs = tree_requirements(&tree, flavor);
    diags.extend(tree.diagnostics());
    diags.extend(reqs.diagnostics.iter().cloned());
    let required = reqs.providers.iter().map(|(p, r)| (p, &r.parsed));
    let check = check_lock(required, &locks, flavor);
    diags.extend(check.diagnostics(flavor));
    let out = LockCheckJs {
        consistent: check.is_consistent() && !diags.has_errors(),
        providers: check
            .providers
            .iter()
            .map(|p| CheckedProviderJs {
                provider: p.provider.to_string(),
                status: p.status.name(),
                locked: p.locked.as_ref().map(ToString::to_string),
            })
            .collect(),
        diagnostics: diagnostics(&diags),
    };
    to_js(&out)
}
