//! `parseConstraints`, `canonicalConstraints` and `selectVersion`.

use crate::convert::{flavor, strings, to_js};
use crate::error::{error, JsResult};
use serde::Serialize;
use tflock_core::api::version::{select_explained, Constraints, Explained, Version};
use tflock_core::Flavor;
use wasm_bindgen::prelude::*;

/// Parses with the flavour's go-versions rules; the thrown error carries Terraform's
/// summary (`Invalid version constraint`) and go-versions' message as `detail`.
fn parse(s: &str, flavor: Flavor) -> JsResult<Constraints> {
    Constraints::parse(s, flavor).map_err(|e| error("Invalid version constraint", e.message()))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ParsedJs {
    canonical: String,
    selections: Vec<String>,
}

/// `parseConstraints(text, { flavor? })`: the canonical form and each selection's canonical
/// text, in written order.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = parseConstraints, unchecked_return_type = "ParsedConstraints")]
pub fn parse_constraints(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "FlavorOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let c = parse(text, flavor(&options)?)?;
    to_js(&ParsedJs {
        canonical: c.canonical(),
        selections: c.selections.iter().map(|s| s.canonical()).collect(),
    })
}

/// `canonicalConstraints(text, { flavor? })`: Terraform's `VersionConstraintsString`.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = canonicalConstraints)]
pub fn canonical_constraints(
    text: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "FlavorOptions")] options: Option<JsValue>,
) -> JsResult<String> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    Ok(parse(text, flavor(&options)?)?.canonical())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RejectedJs {
    version: String,
    reasons: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SelectedJs {
    version: Option<String>,
    constraints: String,
    explanation: String,
    rejected: Vec<RejectedJs>,
    invalid_versions: Vec<String>,
}

/// `selectVersion(constraints, versions, { flavor? })`: the newest acceptable version as
/// Terraform picks it (`null` when none), why each newer one was passed over, and the
/// input strings that are not versions (skipped, as the installer skips them).
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = selectVersion, unchecked_return_type = "Selected")]
pub fn select_version(
    constraints: &str,
    #[wasm_bindgen(unchecked_param_type = "string[]")] versions: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "FlavorOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let flavor = flavor(&options)?;
    let c = parse(constraints, flavor)?;
    let mut available = Vec::new();
    let mut invalid_versions = Vec::new();
    for v in strings(&versions, "versions")? {
        match Version::parse_flavored(&v, flavor) {
            Ok(parsed) => available.push(parsed),
            Err(_) => invalid_versions.push(v),
        }
    }
    let ex = select_explained(&[(c, None)], &available);
    to_js(&SelectedJs {
        version: ex.chosen.as_ref().map(Version::to_string),
        constraints: ex.constraints.clone(),
        explanation: explanation(&ex),
        rejected: ex
            .rejected
            .iter()
            .map(|r| RejectedJs {
                version: r.version.to_string(),
                reasons: r.reasons.iter().map(ToString::to_string).collect(),
            })
            .collect(),
        invalid_versions,
    })
}

/// One line for the outcome (Terraform's "no available releases" text when nothing
/// matched), then one line per newer candidate with the core's reasons.
fn explanation(ex: &Explained) -> String {
    let mut out = match ex.result() {
        Ok(v) => format!("selected {v}"),
        Err(e) => e.to_string(),
    };
    for r in &ex.rejected {
        let reasons: Vec<String> = r.reasons.iter().map(ToString::to_string).collect();
        out.push_str(&format!("\n{}: {}", r.version, reasons.join("; ")));
    }
    out
}
