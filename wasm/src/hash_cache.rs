//! `cache: { get(key), put(key, hashes) }`: the CLI's verified hash cache with storage the
//! caller chooses (a JSON file, a KV store, a `Map`). Keys, entries and which packages may
//! be written are core's rules (`tflock_core::api::hash_cache::{cache_key, CachedHashes,
//! verified}`), the ones the CLI's `~/.cache/tflock/zh` follows; this file only calls the
//! two functions, each of which may return a promise (a file, IndexedDB, a KV store).

use crate::convert::get;
use crate::error::{error, set, JsResult};
use js_sys::{Function, Object, Promise};
use std::cell::RefCell;
use tflock_core::api::hash::PackageHash;
use tflock_core::api::hash_cache::{cache_key, verified, CachedHashes};
use tflock_core::api::{FetchedPackage, Outcome};
use tflock_core::api::{Platform, Provider};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The caller's cache, and the packages downloaded during this run.
pub struct JsCache {
    cache: Option<(JsValue, Function, Function)>,
    // Filled by the requests in flight, which share the cache.
    downloaded: RefCell<Vec<(Provider, Platform, FetchedPackage)>>,
}

impl JsCache {
    /// The `cache` option, when given (it must have `get` and `put` functions).
    pub fn from_options(options: &JsValue) -> JsResult<JsCache> {
        let cache = get(options, "cache");
        let cache = if cache.is_undefined() || cache.is_null() {
            None
        } else {
            let method = |name: &str| {
                get(&cache, name).dyn_into::<Function>().map_err(|_| {
                    error(
                        "Invalid argument",
                        format!("\"cache.{name}\" must be a function"),
                    )
                })
            };
            Some((cache.clone(), method("get")?, method("put")?))
        };
        Ok(JsCache {
            cache,
            downloaded: RefCell::default(),
        })
    }

    /// No cache (the playground's runs).
    pub fn none() -> JsCache {
        JsCache {
            cache: None,
            downloaded: RefCell::default(),
        }
    }

    /// The package the cache has for a download whose source announced `zh`. `get` may
    /// answer with a value or a promise of one; a throwing, rejecting or malformed `get` is
    /// a miss.
    pub async fn lookup(&self, zh: &PackageHash) -> Option<FetchedPackage> {
        let (this, get_fn, _) = self.cache.as_ref()?;
        let found = get_fn
            .call1(this, &JsValue::from_str(&cache_key(zh)?))
            .ok()?;
        let found = JsFuture::from(Promise::resolve(&found)).await.ok()?;
        let entry = CachedHashes {
            h1: get(&found, "h1").as_string()?,
            h1_archive: get(&found, "h1Archive").as_string()?,
            size: get(&found, "size").as_f64()? as u64,
        };
        entry.package(zh)
    }

    /// Remembers a package this run downloaded, to offer it to the cache once verified.
    pub fn note(&self, provider: &Provider, platform: &Platform, package: &FetchedPackage) {
        if self.cache.is_some() {
            self.downloaded.borrow_mut().push((
                provider.clone(),
                platform.clone(),
                package.clone(),
            ));
        }
    }

    /// `put`s every downloaded package the run authenticated. What `put` returns is not
    /// awaited: storing is the caller's business.
    pub fn store(&self, outcome: &Outcome) {
        let Some((this, _, put_fn)) = &self.cache else {
            return;
        };
        for (provider, platform, package) in self.downloaded.borrow().iter() {
            let FetchedPackage::Archive { hashes, .. } = package else {
                continue;
            };
            let (Some(key), Some(entry)) = (cache_key(&hashes.zh), CachedHashes::of(package))
            else {
                continue;
            };
            if !verified(outcome, provider, platform) {
                continue;
            }
            let hashes = Object::new();
            set(&hashes, "h1", &JsValue::from_str(&entry.h1));
            set(&hashes, "h1Archive", &JsValue::from_str(&entry.h1_archive));
            set(&hashes, "size", &JsValue::from_f64(entry.size as f64));
            let _ = put_fn.call2(this, &JsValue::from_str(&key), &hashes);
        }
    }
}
