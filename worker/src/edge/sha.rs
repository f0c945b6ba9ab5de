//! SHA-256 on the runtime's native digest: `node:crypto`'s `createHash` (workerd's
//! BoringSSL, with the `nodejs_compat` compatibility flag) instead of the core's `sha2` in
//! wasm, which cannot reach the CPU's SHA extensions. Hashing is most of a pull's own CPU
//! (two SHA-256 passes over every byte: `zh:` over the archive, `h1:` over its files); the
//! results are the same bytes either way (`cargo xtask worker-test` checks every listed
//! hash against the native CLI's `tflock hash`).

use tflock_core::api::hash::{FileDigest, Sha256Engine, Sha256Provider, ZipHasher, ZipLimits};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "node:crypto")]
extern "C" {
    /// A `node:crypto` `Hash`.
    type NodeHash;

    #[wasm_bindgen(js_name = createHash)]
    fn create_hash(algorithm: &str) -> NodeHash;

    // `&[u8]` reaches JavaScript as a view of wasm memory, not a copy.
    #[wasm_bindgen(method)]
    fn update(this: &NodeHash, data: &[u8]);

    #[wasm_bindgen(method)]
    fn digest(this: &NodeHash) -> Vec<u8>;
}

/// Starts `node:crypto` SHA-256 computations.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NativeSha256;

/// One `node:crypto` SHA-256 computation.
pub(crate) struct NativeEngine(NodeHash);

impl Sha256Provider for NativeSha256 {
    type Engine = NativeEngine;

    fn start(&self) -> NativeEngine {
        NativeEngine(create_hash("sha256"))
    }
}

impl Sha256Engine for NativeEngine {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    fn finish(self) -> FileDigest {
        let bytes = self.0.digest();
        <FileDigest>::try_from(bytes.as_slice()).unwrap_or_else(|_| {
            // A SHA-256 digest is 32 bytes; anything else is a broken runtime: the hashes
            // of this zip are then refused (`check`), never listed.
            BROKEN.with(|b| b.set(true));
            [0; 32]
        })
    }
}

thread_local! {
    /// Whether a digest came back malformed since the last [`check`].
    static BROKEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An error if a digest came back malformed since the last call (the hashes just computed
/// are then wrong).
pub(crate) fn check() -> Result<(), String> {
    match BROKEN.with(|b| b.replace(false)) {
        false => Ok(()),
        true => Err("node:crypto returned a SHA-256 digest that is not 32 bytes".to_string()),
    }
}

/// A streaming zip hasher on the native SHA-256.
pub(crate) fn zip_hasher() -> ZipHasher<NativeSha256> {
    ZipHasher::with_sha256(ZipLimits::default(), NativeSha256)
}
