//! Hashing a `Blob` (a picked or dropped `File`, or an embedded sample) by reading its
//! `ReadableStream` chunk by chunk into the core's streaming `ZipHasher`: memory stays
//! bounded by one chunk and the hasher's limits, whatever the file size.

use js_sys::{Reflect, Uint8Array};
use tflock_core::api::hash::{self, ZipHasher, ZipHashes};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStreamDefaultReader};

/// Largest piece copied out of the JavaScript heap at once.
const PIECE: u32 = 256 * 1024;

/// How a blob was hashed.
pub struct Hashed {
    /// The hashes.
    pub hashes: ZipHashes,
    /// True when the stream could not be reconciled with the central directory and the
    /// whole file was read again for random access (as the CLI falls back).
    pub random_access: bool,
}

fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Streams `blob` through a [`ZipHasher`], calling `progress(bytes_fed)` after each chunk.
pub async fn hash_blob(blob: &Blob, progress: impl Fn(f64)) -> Result<Hashed, String> {
    let reader: ReadableStreamDefaultReader = blob.stream().get_reader().unchecked_into();
    let mut hasher = ZipHasher::new();
    let mut buf = Vec::new();
    let streamed = loop {
        let next = JsFuture::from(reader.read()).await.map_err(js_error)?;
        if Reflect::get(&next, &"done".into())
            .map_err(js_error)?
            .as_bool()
            .unwrap_or(false)
        {
            break Ok(());
        }
        let chunk = Uint8Array::new(&Reflect::get(&next, &"value".into()).map_err(js_error)?);
        let mut at = 0;
        let mut failed = None;
        while at < chunk.length() {
            let end = (at + PIECE).min(chunk.length());
            buf.resize((end - at) as usize, 0);
            chunk.subarray(at, end).copy_to(&mut buf);
            if let Err(e) = hasher.update(&buf) {
                failed = Some(e);
                break;
            }
            at = end;
        }
        if let Some(e) = failed {
            let _ = reader.cancel();
            break Err(e);
        }
        progress(hasher.bytes_seen() as f64);
    };
    let result = streamed.and_then(|()| hasher.finish());
    match result {
        Ok(hashes) => Ok(Hashed {
            hashes,
            random_access: false,
        }),
        Err(e) if e.needs_random_access() => {
            let bytes = JsFuture::from(blob.array_buffer())
                .await
                .map_err(js_error)?;
            let bytes = Uint8Array::new(&bytes).to_vec();
            progress(bytes.len() as f64);
            let hashes = hash::hash_zip(&bytes).map_err(|e| e.to_string())?;
            Ok(Hashed {
                hashes,
                random_access: true,
            })
        }
        Err(e) => Err(e.to_string()),
    }
}

/// A `Blob` holding `bytes` (for the embedded samples).
pub fn blob_of(bytes: &[u8]) -> Result<Blob, String> {
    let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
    Blob::new_with_u8_array_sequence(&parts).map_err(js_error)
}
