//! `updateProvider(lockText, options)` (wasm/npm/update.js): a dependency bot's bump of one
//! provider, planned by `tflock_core::api::update::ProviderUpdate` and run as the `lock()` call
//! the JS function makes, whose one requirement is the provider. Not a second exported async
//! function: that cost 0.7 KB gzipped of the module (its own promise glue).

use crate::convert::opt_string;
use crate::error::{error, JsResult};
use tflock_core::api::lock_file::Locks;
use tflock_core::api::update::ProviderUpdate;
use tflock_core::api::version::Version;
use tflock_core::api::Requirements;
use tflock_core::Flavor;
use wasm_bindgen::JsValue;

/// The option that marks `updateProvider()`'s `lock()` call, with the version (update.js).
const UPDATE_TO: &str = "__updateTo";

/// Whether this `lock()` call was made by `updateProvider()`.
pub fn is_update(options: &JsValue) -> bool {
    !crate::convert::get(options, UPDATE_TO).is_undefined()
}

/// For a `lock()` call made by `updateProvider()`: the bump of the one
/// required provider, with the planner's requirements and starting lock replaced by the
/// bump's.
pub fn planned(
    options: &JsValue,
    reqs: &mut Requirements,
    locks: &mut Locks,
    flavor: Flavor,
) -> JsResult<Option<ProviderUpdate>> {
    let Some(raw) = opt_string(options, UPDATE_TO)? else {
        return Ok(None);
    };
    let Some((provider, constraints)) = reqs.iter().next() else {
        return Ok(None);
    };
    let version = Version::parse_flavored(&raw, flavor)
        .map_err(|e| error("Invalid provider version", format!("{raw:?}: {e}")))?;
    let constraints = (!constraints.is_empty()).then(|| constraints.clone());
    let update = ProviderUpdate::new(locks, provider, &version, constraints);
    reqs.clone_from(&update.requirements);
    locks.clone_from(&update.previous);
    Ok(Some(update))
}
