//! Errors thrown to JavaScript: `Error` objects with the diagnostic's fields attached.

use js_sys::{Object, Reflect};
use tflock_core::{Diagnostic, Severity};
use wasm_bindgen::{JsCast, JsValue};

/// The thrown value of every failing binding.
pub type JsResult<T> = Result<T, JsValue>;

/// A JavaScript `Error` whose `message` is `summary` (and `: detail` when there is one),
/// with `severity`, `summary`, `detail`, `file` and `range` properties copied from `d`.
pub fn diagnostic_error(d: &Diagnostic) -> JsValue {
    let message = if d.detail.is_empty() {
        d.summary.clone()
    } else {
        format!("{}: {}", d.summary, d.detail)
    };
    let err = js_sys::Error::new(&message);
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let file = d.range.as_ref().map(|r| r.filename.clone());
    let range = crate::convert::to_js(&d.range).unwrap_or(JsValue::NULL);
    let obj: &Object = err.unchecked_ref();
    set(obj, "severity", &JsValue::from_str(severity));
    set(obj, "summary", &JsValue::from_str(&d.summary));
    set(obj, "detail", &JsValue::from_str(&d.detail));
    set(
        obj,
        "file",
        &file.map_or(JsValue::NULL, |f| JsValue::from_str(&f)),
    );
    set(obj, "range", &range);
    err.into()
}

/// An error diagnostic without a location, thrown as [`diagnostic_error`].
pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> JsValue {
    diagnostic_error(&Diagnostic::error(summary, detail))
}

/// A bad argument from the caller (wrong type or shape).
pub fn invalid_argument(detail: impl Into<String>) -> JsValue {
    error("Invalid argument", detail)
}

/// Sets one property; `Reflect::set` on a fresh `Error` cannot fail.
pub fn set(obj: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

/// The message of a thrown JavaScript value: an `Error`'s `message`, a string, else `fallback`.
pub fn message_of(v: &JsValue, fallback: &str) -> String {
    v.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| v.as_string())
        .unwrap_or_else(|| fallback.to_string())
}
