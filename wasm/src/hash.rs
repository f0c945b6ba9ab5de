//! `hashZip`, `hashFiles` and the streaming `ZipHasher`.

use crate::convert::{array, bytes, get, string, to_js};
use crate::error::{error, set, JsResult};
use crate::host_sha256::{take_failure, WasmSha256};
use serde::Serialize;
use tflock_core::api::hash::{self, HashError, ZipHashes, ZipLimits};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `ZipHashes` as JavaScript sees them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ZipHashesJs {
    h1: String,
    zh: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    h1_archive: Option<String>,
}

/// `h1Archive` only when it differs from `h1` (the zip has directory entries), as the CLI
/// prints it.
fn zip_hashes(z: &ZipHashes) -> JsResult<JsValue> {
    to_js(&ZipHashesJs {
        h1: z.h1.to_string(),
        zh: z.zh.to_string(),
        h1_archive: (z.h1_archive != z.h1).then(|| z.h1_archive.to_string()),
    })
}

/// A hashing failure as a thrown `Error`; `needsRandomAccess` tells a streaming caller to
/// retry with [`hash_zip`] on the whole archive.
fn hash_error(e: &HashError) -> JsValue {
    let err = error("Cannot hash provider package", e.to_string());
    set(
        err.unchecked_ref(),
        "needsRandomAccess",
        &JsValue::from_bool(e.needs_random_access()),
    );
    err
}

/// A result of hashing, unless a host SHA-256 (`setSha256`) failed along the way.
pub fn checked<T>(r: Result<T, HashError>) -> JsResult<T> {
    if let Some(why) = take_failure() {
        return Err(error("Cannot hash provider package", why));
    }
    r.map_err(|e| hash_error(&e))
}

/// `hashZip(bytes)`: the `h1:` (lock-file form), `zh:` and, when different, the
/// archive-form `h1:` of a provider zip held in memory.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = hashZip, unchecked_return_type = "ZipHashes")]
pub fn hash_zip(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] zip: JsValue,
) -> JsResult<JsValue> {
    let zip = bytes(&zip, "the zip")?;
    let z = hash::hash_zip_with(&zip, &ZipLimits::default(), &WasmSha256::current());
    zip_hashes(&checked(z)?)
}

/// `hashFiles([{ path, bytes }])`: the `h1:` of an unpacked package given as files.
#[cfg(feature = "api")]
#[wasm_bindgen(js_name = hashFiles, unchecked_return_type = "{ h1: string }")]
pub fn hash_files(
    #[wasm_bindgen(unchecked_param_type = "HashFile[]")] files: JsValue,
) -> JsResult<JsValue> {
    let mut owned = Vec::new();
    for f in array(&files, "files")? {
        let path = string(&f, "path")?;
        let content = bytes(&get(&f, "bytes"), "bytes")?;
        owned.push((path, content));
    }
    let h1 = hash::hash_files(owned.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
        .map_err(|e| hash_error(&e))?;
    #[derive(Serialize)]
    struct H1 {
        h1: String,
    }
    to_js(&H1 { h1: h1.to_string() })
}

/// Hashes a zip fed in chunks (e.g. a `ReadableStream`) with bounded memory.
#[cfg(feature = "api")]
#[wasm_bindgen]
pub struct ZipHasher {
    inner: Option<hash::ZipHasher<WasmSha256>>,
}

#[cfg(feature = "api")]
impl Default for ZipHasher {
    fn default() -> Self {
        ZipHasher::new()
    }
}

#[cfg(feature = "api")]
#[wasm_bindgen]
impl ZipHasher {
    /// A hasher with the core's default limits.
    #[wasm_bindgen(constructor)]
    pub fn new() -> ZipHasher {
        ZipHasher {
            inner: Some(hash::ZipHasher::with_sha256(
                ZipLimits::default(),
                WasmSha256::current(),
            )),
        }
    }

    /// Feeds the next chunk of the archive.
    pub fn update(&mut self, chunk: &[u8]) -> JsResult<()> {
        let inner = self.inner.as_mut().ok_or_else(finished)?;
        inner.update(chunk).map_err(|e| hash_error(&e))
    }

    /// Bytes fed so far.
    #[wasm_bindgen(getter, js_name = bytesSeen)]
    pub fn bytes_seen(&self) -> f64 {
        self.inner.as_ref().map_or(0.0, |h| h.bytes_seen() as f64)
    }

    /// Ends the stream and returns the hashes; the hasher cannot be used afterwards.
    #[wasm_bindgen(unchecked_return_type = "ZipHashes")]
    pub fn finish(&mut self) -> JsResult<JsValue> {
        let inner = self.inner.take().ok_or_else(finished)?;
        zip_hashes(&checked(inner.finish())?)
    }
}

fn finished() -> JsValue {
    error(
        "Invalid argument",
        "this ZipHasher has already finished; create a new one",
    )
}
