//! `setSha256`: a SHA-256 supplied by the JavaScript host, used by every hasher once set.
//!
//! SHA-256 is most of the time of hashing a provider zip, and wasm cannot reach the CPU's
//! SHA extensions. Node's `crypto.createHash("sha256")` can, so the package's Node entry
//! point installs it; browsers and workerd have no synchronous streaming digest and keep
//! the core's own. Results are identical either way (`setSha256` checks a test vector).

use crate::error::{error, message_of, JsResult};
use std::cell::RefCell;
use tflock_core::api::hash::{CoreSha256, FileDigest, Sha256Engine, Sha256Provider};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// An incremental digest object, as Node's `crypto.Hash`.
    type HostDigest;

    // `&[u8]` reaches JavaScript as a view of wasm memory, not a copy.
    #[wasm_bindgen(method, catch)]
    fn update(this: &HostDigest, data: &[u8]) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn digest(this: &HostDigest) -> Result<Vec<u8>, JsValue>;
}

thread_local! {
    /// The factory `setSha256` installed, if any.
    static FACTORY: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// The first failure of a host digest since the last check: the hashes are then wrong
    /// and the caller must throw instead of returning them.
    static FAILURE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// `setSha256(factory)`: every hasher afterwards runs SHA-256 on `factory()` objects with
/// `update(bytes)` and `digest()`; `null` goes back to the built-in wasm SHA-256.
#[wasm_bindgen(js_name = setSha256)]
pub fn set_sha256(
    #[wasm_bindgen(unchecked_param_type = "(() => Sha256Digest) | null | undefined")]
    factory: JsValue,
) -> JsResult<()> {
    if factory.is_null() || factory.is_undefined() {
        FACTORY.with(|f| f.replace(None));
        return Ok(());
    }
    let factory: js_sys::Function = factory.dyn_into().map_err(|_| {
        error(
            "Invalid argument",
            "setSha256 takes a function returning { update(bytes), digest() }, or null",
        )
    })?;
    check_vector(&factory)?;
    FACTORY.with(|f| f.replace(Some(factory)));
    Ok(())
}

/// FIPS 180-2's "abc" example: a factory that gets it wrong is refused up front.
fn check_vector(factory: &js_sys::Function) -> JsResult<()> {
    const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    let mut engine = HostEngine::start(factory).map_err(|e| bad_factory(&e))?;
    engine.update(b"abc");
    let digest = engine.finish_checked().map_err(|e| bad_factory(&e))?;
    if hex::encode(digest) != ABC {
        return Err(bad_factory("its SHA-256 of \"abc\" is wrong"));
    }
    Ok(())
}

fn bad_factory(why: &str) -> JsValue {
    error("Invalid argument", format!("setSha256: {why}"))
}

/// The SHA-256 the hashers use now: the host's if `setSha256` installed one.
#[derive(Clone, Default)]
pub struct WasmSha256 {
    host: Option<js_sys::Function>,
}

impl WasmSha256 {
    /// The provider in effect.
    pub fn current() -> WasmSha256 {
        WasmSha256 {
            host: FACTORY.with(|f| f.borrow().clone()),
        }
    }
}

/// Clears and returns the failure of a host digest since the last call.
pub fn take_failure() -> Option<String> {
    FAILURE.with(|f| f.borrow_mut().take())
}

fn record_failure(why: String) {
    FAILURE.with(|f| {
        f.borrow_mut()
            .get_or_insert_with(|| format!("the host SHA-256 failed: {why}"));
    });
}

impl Sha256Provider for WasmSha256 {
    type Engine = WasmEngine;

    fn start(&self) -> WasmEngine {
        match &self.host {
            None => WasmEngine::Core(CoreSha256.start()),
            Some(factory) => match HostEngine::start(factory) {
                Ok(h) => WasmEngine::Host(h),
                Err(why) => {
                    record_failure(why);
                    WasmEngine::Core(CoreSha256.start())
                }
            },
        }
    }
}

/// One SHA-256 computation, in wasm or in the host.
pub enum WasmEngine {
    /// The core's own.
    Core(<CoreSha256 as Sha256Provider>::Engine),
    /// A host digest object.
    Host(HostEngine),
}

impl Sha256Engine for WasmEngine {
    fn update(&mut self, data: &[u8]) {
        match self {
            WasmEngine::Core(c) => c.update(data),
            WasmEngine::Host(h) => h.update(data),
        }
    }

    fn finish(self) -> FileDigest {
        match self {
            WasmEngine::Core(c) => c.finish(),
            WasmEngine::Host(h) => h.finish_checked().unwrap_or_else(|why| {
                record_failure(why);
                [0; 32]
            }),
        }
    }
}

/// A host digest object and whether it has failed.
pub struct HostEngine {
    digest: HostDigest,
    failed: bool,
}

impl HostEngine {
    fn start(factory: &js_sys::Function) -> Result<HostEngine, String> {
        let made = factory
            .call0(&JsValue::UNDEFINED)
            .map_err(|e| describe(&e))?;
        if !made.is_object() {
            return Err("the factory did not return an object".to_string());
        }
        Ok(HostEngine {
            digest: made.unchecked_into(),
            failed: false,
        })
    }

    fn update(&mut self, data: &[u8]) {
        if self.failed {
            return;
        }
        if let Err(e) = self.digest.update(data) {
            self.failed = true;
            record_failure(describe(&e));
        }
    }

    fn finish_checked(self) -> Result<FileDigest, String> {
        if self.failed {
            return Err("update failed".to_string());
        }
        let bytes = self.digest.digest().map_err(|e| describe(&e))?;
        <FileDigest>::try_from(bytes.as_slice())
            .map_err(|_| format!("digest() returned {} bytes, not 32", bytes.len()))
    }
}

fn describe(e: &JsValue) -> String {
    message_of(e, "it threw")
}
