//! Core's values under the JS API's camelCase names. Core serializes them snake_case for
//! the CLI's `--json`; these borrowing views derive the JavaScript names with serde instead
//! of renaming keys at run time. Each view destructures its core value without `..`, so a
//! field added in core fails to compile here until JavaScript gets it too. Objects reach
//! JavaScript through a `serde_json::Value` ([`sorted`]), whose map sorts keys: the order
//! the package's objects have always had.

use crate::error::{error, JsResult};
use serde::Serialize;
use tflock_core::api::hash::PackageHash;
use tflock_core::api::lock_file::LockDiff;
use tflock_core::api::module::{OriginKind, Provenance, ProviderRequirement, RequirementOrigin};
use tflock_core::api::{AuthView, HashProvenance, OutcomeView, ProviderView};
use tflock_core::Range;

/// `v` as a JSON value: objects with their keys sorted.
///
/// Written as JSON text and read back rather than `serde_json::to_value`: [`to_js`] writes
/// every output as text already, so each view's `Serialize` is instantiated once, for the
/// writer, instead of a second time for serde_json's `Value` serializer.
///
/// [`to_js`]: crate::convert::to_js
pub fn sorted<T: Serialize + ?Sized>(v: &T) -> JsResult<serde_json::Value> {
    serde_json::to_string(v)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|e| error("Internal error", e.to_string()))
}

/// One provenance record (`mergedLines`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceJs<'a> {
    block: &'a str,
    path: &'a str,
    file: &'a str,
    range: &'a Range,
    #[serde(skip_serializing_if = "Option::is_none")]
    merged_lines: Option<(usize, usize)>,
}

impl<'a> ProvenanceJs<'a> {
    /// The view of `p`.
    pub fn new(p: &'a Provenance) -> ProvenanceJs<'a> {
        let Provenance {
            block,
            path,
            file,
            range,
            merged_lines,
        } = p;
        ProvenanceJs {
            block,
            path,
            file,
            range,
            merged_lines: *merged_lines,
        }
    }
}

/// One provider's requirements with their origins (`localName`).
#[derive(Serialize)]
pub struct ProviderRequirementJs<'a> {
    provider: &'a str,
    constraints: &'a str,
    builtin: bool,
    origins: Vec<RequirementOriginJs<'a>>,
}

impl<'a> ProviderRequirementJs<'a> {
    /// The view of `r` (its parsed constraints stay in Rust, as in core's serialization).
    pub fn new(r: &'a ProviderRequirement) -> ProviderRequirementJs<'a> {
        let ProviderRequirement {
            provider,
            constraints,
            builtin,
            origins,
            parsed: _,
        } = r;
        ProviderRequirementJs {
            provider,
            constraints,
            builtin: *builtin,
            origins: origins.iter().map(RequirementOriginJs::new).collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequirementOriginJs<'a> {
    module: &'a str,
    local_name: &'a str,
    kind: OriginKind,
    constraint: &'a Option<String>,
    range: &'a Range,
}

impl<'a> RequirementOriginJs<'a> {
    fn new(o: &'a RequirementOrigin) -> RequirementOriginJs<'a> {
        let RequirementOrigin {
            module,
            local_name,
            kind,
            constraint,
            range,
        } = o;
        RequirementOriginJs {
            module,
            local_name,
            kind: *kind,
            constraint,
            range,
        }
    }
}

/// A finished run (`lockText`, `writeLock`, the providers' hash provenance), without its
/// diagnostics.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeJs<'a> {
    lock_text: &'a str,
    write_lock: bool,
    changes: &'a LockDiff,
    messages: &'a [String],
    providers: Vec<ProviderViewJs<'a>>,
}

impl<'a> OutcomeJs<'a> {
    /// The view of `v`.
    pub fn new(v: &'a OutcomeView) -> OutcomeJs<'a> {
        let OutcomeView {
            lock_text,
            write_lock,
            changes,
            // The bindings' own diagnostics (with `file`) take their place (`outcome_js`).
            diagnostics: _,
            messages,
            providers,
        } = v;
        OutcomeJs {
            lock_text,
            write_lock: *write_lock,
            changes,
            messages,
            providers: providers.iter().map(ProviderViewJs::new).collect(),
        }
    }
}

#[derive(Serialize)]
struct ProviderViewJs<'a> {
    provider: &'a str,
    version: &'a Option<String>,
    auth: &'a [AuthView],
    hashes: Vec<HashProvenanceJs<'a>>,
}

impl<'a> ProviderViewJs<'a> {
    fn new(p: &'a ProviderView) -> ProviderViewJs<'a> {
        let ProviderView {
            provider,
            version,
            auth,
            hashes,
        } = p;
        ProviderViewJs {
            provider,
            version,
            auth,
            hashes: hashes.iter().map(HashProvenanceJs::new).collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HashProvenanceJs<'a> {
    hash: &'a PackageHash,
    platforms: &'a [String],
    signed_by: &'a Option<String>,
    computed_locally: bool,
    reported_by_registry: bool,
    reported_by_mirror: bool,
    from_previous_lock: bool,
    from_metadata: bool,
}

impl<'a> HashProvenanceJs<'a> {
    fn new(h: &'a HashProvenance) -> HashProvenanceJs<'a> {
        let HashProvenance {
            hash,
            platforms,
            signed_by,
            computed_locally,
            reported_by_registry,
            reported_by_mirror,
            from_previous_lock,
            from_metadata,
        } = h;
        HashProvenanceJs {
            hash,
            platforms,
            signed_by,
            computed_locally: *computed_locally,
            reported_by_registry: *reported_by_registry,
            reported_by_mirror: *reported_by_mirror,
            from_previous_lock: *from_previous_lock,
            from_metadata: *from_metadata,
        }
    }
}
