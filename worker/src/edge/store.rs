//! R2 access: documents read with their ETag and replaced only by compare-and-swap, leases
//! taken by conditional create, and the operator's object listing.

use std::cell::RefCell;
use std::collections::HashMap;

use tflock_core::edge::hot::HotDocuments;
use tflock_core::edge::keys;
use tflock_core::protocol::mirror_docs::MirrorDocError;
use worker::{Bucket, Conditional, HttpMetadata, Include, Request, Response, Result};

use super::{respond, Mirror};

/// An object read whole, with what a conditional write needs.
#[derive(Clone)]
pub(crate) struct Stored {
    pub bytes: Vec<u8>,
    /// The R2 etag (unquoted), for `onlyIf`.
    pub etag: String,
    /// The quoted HTTP etag, for `ETag` / `If-None-Match`.
    pub http_etag: String,
    pub custom: HashMap<String, String>,
}

/// Compare-and-swap attempts before giving up (each lost race means someone else wrote).
/// Every round of racing writers lets at least one through, and the jittered backoff below
/// spreads them out, so this is far above what twenty uploads of one release at once need.
const CAS_TRIES: u32 = 32;
/// The longest pause between two attempts.
const CAS_BACKOFF_MAX_MS: f64 = 64.0;

thread_local! {
    /// Documents this isolate read in the last moment (core's `edge::hot` rules).
    static HOT: RefCell<HotDocuments<Stored>> = RefCell::new(HotDocuments::default());
}

/// Reads the document at `key`, from this isolate's memory when it was read a moment ago.
pub(crate) async fn read_document(bucket: &Bucket, key: &str, now: f64) -> Result<Option<Stored>> {
    if let Some(kept) = HOT.with(|h| h.borrow_mut().get(key, now)) {
        return Ok(Some(kept));
    }
    let stored = read(bucket, key).await?;
    if let Some(s) = &stored {
        HOT.with(|h| h.borrow_mut().put(key, now, s.bytes.len(), s.clone()));
    }
    Ok(stored)
}

/// Reads `key` whole.
pub(crate) async fn read(bucket: &Bucket, key: &str) -> Result<Option<Stored>> {
    let Some(object) = bucket.get(key).execute().await? else {
        return Ok(None);
    };
    let etag = object.etag();
    let http_etag = object.http_etag();
    let custom = object.custom_metadata().unwrap_or_default();
    let bytes = match object.body() {
        Some(body) => body.bytes().await?,
        None => Vec::new(),
    };
    Ok(Some(Stored {
        bytes,
        etag,
        http_etag,
        custom,
    }))
}

/// Writes `bytes` to `key` only if the object still has `expected` etag (`None`: only if
/// it does not exist). False when someone else wrote first.
pub(crate) async fn swap(
    bucket: &Bucket,
    key: &str,
    expected: Option<&str>,
    bytes: Vec<u8>,
    content_type: &str,
    custom: HashMap<String, String>,
) -> Result<bool> {
    let condition = match expected {
        Some(etag) => Conditional {
            etag_matches: Some(etag.to_string()),
            ..Conditional::default()
        },
        None => Conditional {
            etag_does_not_match: Some("*".to_string()),
            ..Conditional::default()
        },
    };
    HOT.with(|h| h.borrow_mut().forget(key));
    let written = bucket
        .put(key, bytes)
        .http_metadata(content_type_meta(content_type))
        .custom_metadata(custom)
        .only_if(condition)
        .execute()
        .await?;
    Ok(written.is_some())
}

/// Applies `change` to the JSON document at `key` by compare-and-swap until it sticks.
/// `change` gets the current bytes and returns the new ones, or `None` for "no change".
pub(crate) async fn update(
    bucket: &Bucket,
    key: &str,
    now: f64,
    change: impl Fn(Option<&[u8]>) -> std::result::Result<Option<Vec<u8>>, MirrorDocError>,
) -> Result<()> {
    for attempt in 0..CAS_TRIES {
        if attempt > 0 {
            // Racing writers retrying in lockstep would collide again: wait a random part of
            // a window that doubles with each lost race.
            let window = CAS_BACKOFF_MAX_MS.min(f64::from(1u32 << attempt.min(6)));
            let ms = (worker::js_sys::Math::random() * window) as u64;
            worker::Delay::from(std::time::Duration::from_millis(ms)).await;
        }
        let current = read(bucket, key).await?;
        let Some(next) = change(current.as_ref().map(|s| s.bytes.as_slice()))
            .map_err(|e| worker::Error::RustError(format!("{key}: {e}")))?
        else {
            return Ok(());
        };
        let mut custom = current
            .as_ref()
            .map(|s| s.custom.clone())
            .unwrap_or_default();
        custom.insert("filled-at".to_string(), now.to_string());
        let expected = current.as_ref().map(|s| s.etag.as_str());
        if swap(bucket, key, expected, next, "application/json", custom).await? {
            return Ok(());
        }
    }
    Err(worker::Error::RustError(format!(
        "{key}: too many concurrent updates"
    )))
}

/// Takes the lease on `archive_key`: true when this request now owns it (it was free, or
/// it was taken more than `lease_ms` ago: `core::edge::uploads::lease_ms`).
pub(crate) async fn take_lease(
    bucket: &Bucket,
    archive_key: &str,
    now: f64,
    lease_ms: f64,
) -> Result<bool> {
    let key = keys::lease(archive_key);
    let mine = HashMap::from([("taken-at".to_string(), now.to_string())]);
    if swap(bucket, &key, None, Vec::new(), "text/plain", mine.clone()).await? {
        return Ok(true);
    }
    let Some(held) = read(bucket, &key).await? else {
        return swap(bucket, &key, None, Vec::new(), "text/plain", mine).await;
    };
    let taken: f64 = held
        .custom
        .get("taken-at")
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN);
    if tflock_core::edge::http::expired(taken, now, lease_ms) {
        return swap(
            bucket,
            &key,
            Some(&held.etag),
            Vec::new(),
            "text/plain",
            mine,
        )
        .await;
    }
    Ok(false)
}

/// Whether an object exists at `key`.
pub(crate) async fn exists(bucket: &Bucket, key: &str) -> Result<bool> {
    Ok(bucket.head(key).await?.is_some())
}

/// Whether a lease on `archive_key` is held.
pub(crate) async fn lease_held(bucket: &Bucket, archive_key: &str) -> Result<bool> {
    Ok(bucket.head(keys::lease(archive_key)).await?.is_some())
}

/// Gives the lease back.
pub(crate) async fn release_lease(bucket: &Bucket, archive_key: &str) -> Result<()> {
    bucket.delete(keys::lease(archive_key)).await
}

pub(crate) fn content_type_meta(value: &str) -> HttpMetadata {
    HttpMetadata {
        content_type: Some(value.to_string()),
        ..HttpMetadata::default()
    }
}

/// `GET /_admin/objects?prefix=P`: keys, sizes and metadata (the operator's token).
pub(crate) async fn objects(mirror: &Mirror, req: &Request) -> Result<Response> {
    let auth = req.headers().get("authorization")?.unwrap_or_default();
    if !mirror.config.upload_allowed("", &auth) {
        return respond::error(401, "Unauthorized");
    }
    let url = req.url()?;
    let prefix = url
        .query_pairs()
        .find(|(k, _)| k == "prefix")
        .map(|(_, v)| v.to_string())
        .unwrap_or_default();
    let bucket = mirror.bucket()?;
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut list = bucket
            .list()
            .prefix(prefix.clone())
            .include(vec![Include::CustomMetadata]);
        if let Some(c) = &cursor {
            list = list.cursor(c.clone());
        }
        let page = list.execute().await?;
        for o in page.objects() {
            out.push(serde_json::json!({
                "key": o.key(),
                "size": o.size(),
                "metadata": o.custom_metadata().unwrap_or_default(),
            }));
        }
        match (page.truncated(), page.cursor()) {
            (true, Some(c)) => cursor = Some(c),
            _ => break,
        }
    }
    respond::json(200, &serde_json::json!({ "objects": out }))
}
