//! `index.json` and `<version>.json`: served from R2 while fresh, filled from the origin on
//! a miss or when stale (a stale copy is served, marked, when the origin fails), origin
//! "not found" answers remembered briefly.

use std::cell::RefCell;

use tflock_core::api::mirror::carry_h1;
use tflock_core::api::version::Version;
use tflock_core::api::Provider;
use tflock_core::edge::fill::{Fill, Filled};
use tflock_core::edge::keys;
use tflock_core::edge::misses::Misses;
use tflock_core::edge::publish::check_republished;
use tflock_core::edge::record::OriginRecord;
use tflock_core::edge::serve::{self, Answer};
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use worker::{Bucket, Request, Response, Result};

use super::background::outlive_client;
use super::origin::{run_fill, take_slot};
use super::store::{self, Stored};
use super::{fills, respond, Mirror};
use tflock_core::edge::route::Document;

thread_local! {
    /// Origin "not found" answers this isolate remembers (core's `edge::misses`: bounded,
    /// and never written to the bucket).
    static MISSES: RefCell<Misses> = RefCell::new(Misses::default());
}

/// Serves a document: what to answer is the core's (`core::edge::serve`); this reads the
/// bucket, runs the fill and renders.
pub(crate) async fn serve(mirror: &Mirror, req: &Request, doc: &Document) -> Result<Response> {
    let bucket = mirror.bucket()?;
    let now = now();
    let stored = store::read_document(&bucket, &doc.key, now).await?;
    let miss = match stored {
        Some(_) => None,
        None => MISSES.with(|m| m.borrow_mut().get(&doc.key, now)),
    };
    let pull = mirror.config.check_pull(&doc.hostname);
    let mut answer = serve::document(stored.as_ref().map(filled_at), pull, miss.as_deref(), now);
    if answer == Answer::Fill {
        answer = match take_slot(mirror) {
            None => serve::busy(stored.is_some()),
            Some(slot) => {
                // The fill holds a slot: it runs to its end whether or not the client stays.
                let (m, b, d) = (mirror.clone(), bucket.clone(), doc.clone());
                let filled = outlive_client(mirror, async move {
                    let filled = fill(&m, &b, &d, now).await;
                    drop(slot);
                    filled
                });
                let filled = filled
                    .await
                    .unwrap_or_else(|| Err(internal("the fill was dropped by the runtime; retry")));
                serve::after_fill(stored.is_some(), filled)
            }
        };
    }
    match answer {
        Answer::Stored | Answer::Stale(_) => {
            let Some(s) = stored else {
                return respond::error(500, "no stored copy to serve");
            };
            let why = match &answer {
                Answer::Stale(why) => Some(why.as_str()),
                _ => None,
            };
            mirror.trace(|t| t.cache = if why.is_some() { "stale" } else { "hit" });
            respond::document(req, s.bytes, &s.http_etag, why)
        }
        Answer::Filled => {
            mirror.trace(|t| t.cache = "miss");
            match store::read(&bucket, &doc.key).await? {
                Some(s) => respond::document(req, s.bytes, &s.http_etag, None),
                None => respond::error(502, "the filled document vanished; retry"),
            }
        }
        Answer::NotFound { message, remember } => {
            if remember {
                MISSES.with(|m| m.borrow_mut().put(&doc.key, now, &message));
            } else {
                mirror.trace(|t| t.cache = "hit");
            }
            respond::error(404, &message)
        }
        Answer::TooBusy => respond::too_busy(),
        Answer::Error(e) => respond::error(e.status(), &e.message),
        Answer::Fill => respond::error(500, "a fill was decided twice"),
    }
}

/// Fills `doc` from the origin.
async fn fill(
    mirror: &Mirror,
    bucket: &Bucket,
    doc: &Document,
    now: f64,
) -> std::result::Result<(), EdgeError> {
    let provider = provider_of(&doc.dir)?;
    match &doc.version {
        None => {
            let Filled::Index { doc: bytes, .. } =
                run_fill(mirror, Fill::index(&mirror.config, provider)).await?
            else {
                return Err(internal("an index fill returned something else"));
            };
            store::update(bucket, &doc.key, now, |_| Ok(Some(bytes.clone())))
                .await
                .map_err(|e| internal(&e.to_string()))
        }
        Some(version) => fill_version(mirror, bucket, &doc.dir, version, now)
            .await
            .map(|_| ()),
    }
}

/// Fills `<version>.json` and the origin record of `dir` `version`, keeping `h1:` hashes
/// already learned, and queues the `h1:` of every platform still without one.
pub(crate) async fn fill_version(
    mirror: &Mirror,
    bucket: &Bucket,
    dir: &str,
    version: &str,
    now: f64,
) -> std::result::Result<OriginRecord, EdgeError> {
    let provider = provider_of(dir)?;
    let v = Version::parse(version)
        .map_err(|e| EdgeError::new(EdgeErrorKind::NotFound, format!("{version}: {e}")))?;
    let filled = run_fill(mirror, Fill::version(&mirror.config, provider, v)).await;
    let (doc, record) = match filled {
        Ok(Filled::Version { doc, record }) => {
            mirror.trace(|t| t.verification = format!("verified ({})", record.auth));
            (doc, record)
        }
        Ok(_) => return Err(internal("a version fill returned something else")),
        Err(e) => {
            if e.kind == EdgeErrorKind::Refused {
                mirror.trace(|t| t.verification = format!("refused: {}", e.message));
            }
            return Err(e);
        }
    };
    let key = keys::version(dir, version);
    let what = format!("{} {}", record.provider, record.version);
    let old = store::read(bucket, &key)
        .await
        .map_err(|e| internal(&e.to_string()))?;
    if let Err(e) = check_republished(&what, old.as_ref().map(|s| s.bytes.as_slice()), &doc) {
        return Err(republished(mirror, e));
    }
    bucket
        .put(keys::origin_record(dir, version), record.to_json())
        .http_metadata(store::content_type_meta("application/json"))
        .execute()
        .await
        .map_err(|e| internal(&e.to_string()))?;
    let missing = std::cell::RefCell::new(Vec::new());
    let refused = std::cell::RefCell::new(None);
    store::update(bucket, &key, now, |old| {
        // Checked again against what is there now: another writer may have refilled it.
        if let Err(e) = check_republished(&what, old, &doc) {
            *refused.borrow_mut() = Some(e);
            return Ok(None);
        }
        let (next, lacking) = carry_h1(old, &doc)?;
        *missing.borrow_mut() = lacking;
        Ok(Some(next))
    })
    .await
    .map_err(|e| internal(&e.to_string()))?;
    if let Some(e) = refused.into_inner() {
        return Err(republished(mirror, e));
    }
    fills::enqueue_h1(mirror, dir, version, &missing.into_inner()).await;
    Ok(record)
}

/// The origin record of `dir` `version`, filling the version if there is none yet (an
/// origin operation like any other: it takes a slot, and runs to its end whether or not the
/// client stays).
pub(crate) async fn record(
    mirror: &Mirror,
    bucket: &Bucket,
    dir: &str,
    version: &str,
) -> std::result::Result<OriginRecord, EdgeError> {
    let stored = store::read(bucket, &keys::origin_record(dir, version))
        .await
        .map_err(|e| internal(&e.to_string()))?;
    if let Some(s) = stored {
        if let Ok(record) = OriginRecord::from_json(&s.bytes) {
            return Ok(record);
        }
    }
    let Some(slot) = take_slot(mirror) else {
        return Err(serve::busy_error());
    };
    let (m, b) = (mirror.clone(), bucket.clone());
    let (d, v) = (dir.to_string(), version.to_string());
    let filled = outlive_client(mirror, async move {
        let filled = fill_version(&m, &b, &d, &v, now()).await;
        drop(slot);
        filled
    });
    filled
        .await
        .unwrap_or_else(|| Err(internal("the fill was dropped by the runtime; retry")))
}

/// Reports an origin that changed a published release: loudly, for the operator.
fn republished(mirror: &Mirror, e: EdgeError) -> EdgeError {
    worker::console_error!("{}", serde_json::json!({ "refused": e.message }));
    mirror.trace(|t| t.verification = format!("refused: {}", e.message));
    e
}

fn provider_of(dir: &str) -> std::result::Result<Provider, EdgeError> {
    let mut parts = dir.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(h), Some(n), Some(t)) => Ok(Provider::new(h, n, t)),
        _ => Err(internal(&format!("{dir} is not host/namespace/type"))),
    }
}

fn filled_at(s: &Stored) -> f64 {
    s.custom
        .get("filled-at")
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN)
}

pub(crate) fn now() -> f64 {
    worker::Date::now().as_millis() as f64
}

pub(crate) fn internal(message: &str) -> EdgeError {
    EdgeError::new(EdgeErrorKind::OriginFailed, message.to_string())
}
