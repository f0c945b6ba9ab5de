//! R2 access: documents read with their ETag and replaced only by compare-and-swap, leases
//! taken by conditional create, and the operator's object listing.

use std::cell::RefCell;
use std::collections::HashMap;

use tflock_core::api::mirror::MirrorDocError;
use tflock_core::edge::held::{Held, Release};
use tflock_core::edge::hot::HotDocuments;
use tflock_core::edge::http::expired;
use tflock_core::edge::keys;
use tflock_core::edge::uploads::{renew_due, LEASE_MS};
use worker::{Bucket, Conditional, HttpMetadata, Include, Request, Response, Result};

use super::{owed, respond, Mirror};

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

/// A lease this isolate holds on an archive key; [`Lease::keep`] renews it while its
/// writer streams (`core::edge::uploads`: it expires [`LEASE_MS`] after its last renewal).
pub(crate) struct Lease {
    archive_key: String,
    renewed_at: f64,
    /// Given back by [`Lease::release`]; owed if the lease is dropped unreleased.
    held: Held,
}

impl Lease {
    /// Renews the lease when it is due. A failed renewal is only logged: the worst case is
    /// a second writer of the same archive, which the publication claim makes harmless.
    pub async fn keep(&mut self, bucket: &Bucket, now: f64) {
        super::pulls::heard(&self.archive_key); // its isolate's requests keep joining it
        if !renew_due(self.renewed_at, now) {
            return;
        }
        self.renewed_at = now;
        let mine = HashMap::from([(TAKEN_AT.to_string(), now.to_string())]);
        let renewed = bucket
            .put(keys::lease(&self.archive_key), Vec::new())
            .custom_metadata(mine)
            .execute()
            .await;
        if let Err(e) = renewed {
            worker::console_warn!("renewing the lease on {} failed: {e}", self.archive_key);
        }
    }

    /// Gives the lease back.
    pub async fn release(self, bucket: &Bucket) {
        owed::give_back(bucket, self.held.settle()).await;
    }
}

/// The lease's custom metadata field: when it was taken or last renewed.
const TAKEN_AT: &str = "taken-at";

/// Takes the lease on `archive_key`: `Some` when this request now owns it (it was free, or
/// its owner has not renewed it for [`LEASE_MS`]).
pub(crate) async fn take_lease(
    bucket: &Bucket,
    archive_key: &str,
    now: f64,
) -> Result<Option<Lease>> {
    let key = keys::lease(archive_key);
    let mine = HashMap::from([(TAKEN_AT.to_string(), now.to_string())]);
    let taken = if swap(bucket, &key, None, Vec::new(), "text/plain", mine.clone()).await? {
        true
    } else {
        match read(bucket, &key).await? {
            None => swap(bucket, &key, None, Vec::new(), "text/plain", mine).await?,
            Some(held) => {
                let at: f64 = held
                    .custom
                    .get(TAKEN_AT)
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(f64::NAN);
                expired(at, now, LEASE_MS)
                    && swap(
                        bucket,
                        &key,
                        Some(&held.etag),
                        Vec::new(),
                        "text/plain",
                        mine,
                    )
                    .await?
            }
        }
    };
    Ok(taken.then(|| Lease {
        archive_key: archive_key.to_string(),
        renewed_at: now,
        held: owed::hold(Release::Lease {
            archive_key: archive_key.to_string(),
        }),
    }))
}

/// Whether an object exists at `key`.
pub(crate) async fn exists(bucket: &Bucket, key: &str) -> Result<bool> {
    Ok(bucket.head(key).await?.is_some())
}

/// Whether a lease on `archive_key` is held.
pub(crate) async fn lease_held(bucket: &Bucket, archive_key: &str) -> Result<bool> {
    Ok(bucket.head(keys::lease(archive_key)).await?.is_some())
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
