//! `PUT` of an archive, with a token: streamed into a multipart upload while hashed, checked
//! against the origin record when its host is pulled through, and published by the same
//! path a pull takes. A published archive never changes (same bytes again: 200, other
//! bytes: 409). The staging and publishing run in the background (`background.rs`), so an
//! uploader that goes away still has its lease released and its upload aborted.

use std::time::Duration;

use futures_util::{Stream, StreamExt};
use tflock_core::edge::keys;
use tflock_core::edge::publish::{Sidecar, Writer};
use tflock_core::edge::route::Upload;
use tflock_core::edge::wait::Waiting;
use tflock_core::edge::EdgeErrorKind;
use worker::{Bucket, Delay, Request, Response, Result};

use super::background::outlive_client;
use super::documents::{self, now};
use super::publish::publish;
use super::stage::{pace, stage, Beside};
use super::{respond, sha, store, Mirror};

/// `PUT` of an archive.
pub(crate) async fn receive(mirror: &Mirror, req: &mut Request, a: &Upload) -> Result<Response> {
    if !mirror.config.uploads_enabled() {
        return respond::error(403, "Uploads are disabled: set the UPLOAD_TOKEN secret.");
    }
    let auth = req.headers().get("authorization")?.unwrap_or_default();
    let namespace = a.dir.split('/').nth(1).unwrap_or_default();
    if !mirror
        .config
        .upload_allowed_in(&a.hostname, namespace, &auth)
    {
        return respond::error(401, "Unauthorized");
    }
    let declared: Option<u64> = req
        .headers()
        .get("content-length")?
        .and_then(|l| l.parse().ok());
    let limit = mirror.config.limits.archive_bytes;
    if declared.is_some_and(|l| l > limit) {
        return respond::error(413, &format!("An archive may have at most {limit} bytes."));
    }
    let bucket = mirror.bucket()?;
    let pull = mirror.config.check_pull(&a.hostname);
    if let Err(e) = &pull {
        if !mirror.config.is_private(&a.hostname) {
            // Neither checked against an origin nor declared upload-only: nothing vouches
            // for what would be stored.
            return respond::error(
                e.status(),
                &format!(
                    "{} Uploads go only to pulled-through hosts or to TFLOCK_PRIVATE_HOSTS.",
                    e.message
                ),
            );
        }
    }
    let record = if pull.is_ok() {
        match documents::record(mirror, &bucket, &a.dir, &a.version).await {
            Ok(r) => Some(r),
            Err(e) => {
                return respond::error(
                    if e.kind == EdgeErrorKind::NotFound {
                        409
                    } else {
                        e.status()
                    },
                    &format!(
                        "The upload cannot be checked against the origin: {}",
                        e.message
                    ),
                )
            }
        }
    } else {
        None
    };
    let body = req.stream()?;
    let lease = match store::exists(&bucket, &a.key).await.unwrap_or(false) {
        true => None,
        false => store::take_lease(&bucket, &a.key, now()).await?,
    };
    let Some(mut lease) = lease else {
        return compare_with_stored(&bucket, a, body).await;
    };
    let (m, a) = (mirror.clone(), a.clone());
    let stored = outlive_client(mirror, async move {
        let result = async {
            let beside = Beside {
                lease: &mut lease,
                tap: None,
                unattended_ms: None, // its body is its client's: it ends when the client leaves
                declared: None,
            };
            let staged = stage(&bucket, &a.key, body, None, limit, beside).await;
            let (hashes, pending) = match staged {
                Ok(staged) => staged,
                Err(e) if e.kind == EdgeErrorKind::Refused => {
                    return Err((422, format!("Cannot hash provider package: {e}")))
                }
                Err(e) => return Err((e.status(), e.message)),
            };
            let published = publish(
                &m,
                &a,
                record.as_ref(),
                &a.platform,
                &hashes,
                pending,
                Writer::Upload,
            );
            match published.await {
                Ok(_) => Ok(serde_json::json!({
                    "key": a.key,
                    "h1": hashes.h1.to_string(),
                    "zh": hashes.zh.to_string(),
                })),
                Err(e) if e.kind == EdgeErrorKind::Refused => Err((409, e.message)),
                Err(e) => Err((e.status(), e.message)),
            }
        }
        .await;
        lease.release(&bucket).await;
        result
    })
    .await;
    match stored {
        Some(Ok(body)) => respond::json(201, &body),
        Some(Err((status, message))) => respond::error(status, &message),
        None => respond::error(500, "the upload was dropped by the runtime; retry"),
    }
}

/// An upload of a key that exists or is being written: hash it (keeping nothing), wait for
/// the other writer with the core's backoff, and compare.
async fn compare_with_stored<S>(bucket: &Bucket, a: &Upload, mut body: S) -> Result<Response>
where
    S: Stream<Item = Result<Vec<u8>>> + Unpin,
{
    let mut hasher = sha::zip_hasher();
    let mut streamed = 0;
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        if hasher.update(&chunk).is_err() {
            break;
        }
        pace(&mut streamed, chunk.len()).await;
    }
    let mine = hasher
        .finish()
        .ok()
        .filter(|_| sha::check().is_ok())
        .map(|h| h.zh.to_string());
    let mut waiting = Waiting::new(now());
    loop {
        if let Some(s) = store::read(bucket, &keys::hashes(&a.key)).await? {
            let theirs = Sidecar::from_json(&s.bytes);
            return match theirs {
                Some(t) if mine.as_deref() == Some(t.zh.as_str()) => respond::json(
                    200,
                    &serde_json::json!({ "key": a.key, "h1": t.h1, "zh": t.zh }),
                ),
                t => respond::error(
                    409,
                    &format!(
                        "{} is already published with other bytes ({}); published archives never change.",
                        a.key,
                        t.map_or("?".to_string(), |t| t.zh)
                    ),
                ),
            };
        }
        let busy = store::lease_held(bucket, &a.key).await?;
        if !busy && !store::exists(bucket, &a.key).await.unwrap_or(false) {
            return respond::error(
                409,
                &format!("A concurrent upload of {} did not complete; retry.", a.key),
            );
        }
        let Some(pause) = waiting.next(now(), worker::js_sys::Math::random()) else {
            return respond::error(
                409,
                &format!("A concurrent upload of {} is still running.", a.key),
            );
        };
        Delay::from(Duration::from_millis(pause)).await;
    }
}
