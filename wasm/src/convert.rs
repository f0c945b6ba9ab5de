//! Generic conversions between JavaScript values and Rust data (no domain logic).

use crate::error::{invalid_argument, JsResult};
use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::Serialize;
use tflock_core::Flavor;
use wasm_bindgen::{JsCast, JsValue};

/// Serializes `v` to a plain JavaScript value: maps become objects, `None` becomes `null`.
///
/// Through JSON text and `JSON.parse` rather than serde-wasm-bindgen's serializer, which
/// instantiated every output type's `Serialize` once more next to serde_json's uses, and
/// kept a `HashMap` of interned strings: 2.3 KB gzipped (wasm/npm/README.md, "Size"). The
/// outputs hold strings, booleans, integers below 2^53 and nested objects and arrays, which
/// both give alike.
pub fn to_js<T: Serialize + ?Sized>(v: &T) -> JsResult<JsValue> {
    let text = serde_json::to_string(v)
        .map_err(|e| crate::error::error("Internal error", e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| crate::error::error("Internal error", "JSON.parse"))
}

/// Property `key` of `obj` (`undefined` when `obj` is not an object or lacks it).
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string property, `None` when absent, `null` or `undefined`.
pub fn opt_string(obj: &JsValue, key: &str) -> JsResult<Option<String>> {
    let v = get(obj, key);
    if v.is_null() || v.is_undefined() {
        return Ok(None);
    }
    v.as_string()
        .map(Some)
        .ok_or_else(|| invalid_argument(format!("\"{key}\" must be a string")))
}

/// A required string property.
pub fn string(obj: &JsValue, key: &str) -> JsResult<String> {
    opt_string(obj, key)?.ok_or_else(|| invalid_argument(format!("\"{key}\" is required")))
}

/// Bytes from a `Uint8Array`, an `ArrayBuffer` or a string (UTF-8 encoded).
pub fn bytes(v: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    if let Some(s) = v.as_string() {
        return Ok(s.into_bytes());
    }
    if let Some(a) = v.dyn_ref::<Uint8Array>() {
        return Ok(a.to_vec());
    }
    if let Some(b) = v.dyn_ref::<js_sys::ArrayBuffer>() {
        return Ok(Uint8Array::new(b).to_vec());
    }
    Err(invalid_argument(format!(
        "{what} must be a Uint8Array, an ArrayBuffer or a string"
    )))
}

/// The elements of a JavaScript array.
pub fn array(v: &JsValue, what: &str) -> JsResult<Vec<JsValue>> {
    if !Array::is_array(v) {
        return Err(invalid_argument(format!("{what} must be an array")));
    }
    Ok(Array::from(v).iter().collect())
}

/// An array of strings.
pub fn strings(v: &JsValue, what: &str) -> JsResult<Vec<String>> {
    array(v, what)?
        .into_iter()
        .map(|s| {
            s.as_string()
                .ok_or_else(|| invalid_argument(format!("{what} must contain only strings")))
        })
        .collect()
}

/// The `[key, value]` pairs of a plain object, in insertion order.
pub fn entries(v: &JsValue, what: &str) -> JsResult<Vec<(String, JsValue)>> {
    if !v.is_object() || Array::is_array(v) {
        return Err(invalid_argument(format!("{what} must be an object")));
    }
    Object::entries(v.unchecked_ref())
        .iter()
        .map(|pair| {
            let pair = Array::from(&pair);
            let key = pair.get(0).as_string().unwrap_or_default();
            Ok((key, pair.get(1)))
        })
        .collect()
}

/// The `flavor` option (`"terraform"`, `"opentofu"`/`"tofu"`), `None` when not given.
pub fn opt_flavor(options: &JsValue) -> JsResult<Option<Flavor>> {
    match opt_string(options, "flavor")? {
        None => Ok(None),
        Some(s) => Flavor::parse(&s)
            .map(Some)
            .map_err(|e| invalid_argument(e.to_string())),
    }
}

/// The `flavor` option, Terraform when not given.
pub fn flavor(options: &JsValue) -> JsResult<Flavor> {
    Ok(opt_flavor(options)?.unwrap_or_default())
}
