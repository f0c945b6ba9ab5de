//! Archives: served from R2; on a miss pulled from the origin once (a lease makes
//! concurrent cold requests wait for one download), streamed into a multipart upload while
//! the core hashes it, and published only if the core accepts its hashes. Uploads take the
//! same path, with a token; a published archive never changes (same bytes again: 200,
//! different bytes: 409).

use std::collections::HashMap;
use std::time::Duration;

use futures_util::{Stream, StreamExt};
use tflock_core::edge::keys;
use tflock_core::edge::limits::BodyGuard;
use tflock_core::edge::parts::{PartSplitter, PART_SIZE};
use tflock_core::edge::publish::{settle, Claim, Sidecar, Writer};
use tflock_core::edge::record::OriginRecord;
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use tflock_core::hash::{ZipHasher, ZipHashes};
use tflock_core::protocol::mirror_docs;
use worker::{
    Bucket, ByteStream, Delay, MultipartUpload, Request, Response, Result, UploadedPart, Url,
};

use super::documents::{self, internal, now};
use super::origin::{self, busy, Slot};
use super::part_buffer::PartBuffer;
use super::{respond, store, trace, Mirror};
use tflock_core::edge::route::Upload;

/// How long a request waits for another one's pull or upload of the same archive.
const WAIT: Duration = Duration::from_secs(120);
/// Bytes streamed between two turns of the event loop. When the body's chunks are already
/// buffered, each read resolves as a microtask and the loop never gives the isolate back:
/// every other request to it (document hits) waited for the whole pull, then had its
/// connection dropped (`cargo xtask bench worker`, hits during the pull).
const YIELD_EVERY: usize = 1024 * 1024;

/// `GET`/`HEAD` of an archive.
pub(crate) async fn serve(mirror: &Mirror, req: &Request, a: &Upload) -> Result<Response> {
    let bucket = mirror.bucket()?;
    if let Some(r) = respond::archive(&bucket, req, &a.key).await? {
        trace(|t| t.cache = "hit");
        return Ok(r);
    }
    if let Err(e) = mirror.config.check_pull(&a.hostname) {
        return respond::error(e.status(), &e.message);
    }
    trace(|t| t.cache = "miss");
    if let Err(e) = pull(mirror, &bucket, a).await {
        if e.message == busy().message {
            return respond::too_busy();
        }
        return respond::error(e.status(), &e.message);
    }
    match respond::archive(&bucket, req, &a.key).await? {
        Some(r) => Ok(r),
        None => respond::error(502, "the pulled archive vanished; retry"),
    }
}

/// Makes sure the archive `a` is in R2, pulling it from the origin if no one else is.
pub(crate) async fn pull(
    mirror: &Mirror,
    bucket: &Bucket,
    a: &Upload,
) -> std::result::Result<(), EdgeError> {
    let record = documents::record(mirror, bucket, &a.dir, &a.version).await?;
    let Some((platform, origin_archive)) = record.platform_of(&a.filename) else {
        return Err(EdgeError::new(
            EdgeErrorKind::NotFound,
            format!(
                "the origin registry lists no {} for {} {}",
                a.filename, record.provider, record.version
            ),
        ));
    };
    let started = now();
    loop {
        if stored(bucket, &a.key).await? {
            return Ok(());
        }
        if store::take_lease(bucket, &a.key, now())
            .await
            .map_err(err)?
        {
            break;
        }
        if now() - started > WAIT.as_millis() as f64 {
            return Err(internal(
                "another request is still pulling this archive; retry",
            ));
        }
        Delay::from(Duration::from_millis(200)).await;
    }
    // This request owns the lease: one origin download, counted against the cap (requests
    // waiting for it are not).
    let result = match Slot::take() {
        Some(_slot) => download(mirror, bucket, a, &record, platform, &origin_archive.url).await,
        None => Err(busy()),
    };
    let _ = store::release_lease(bucket, &a.key).await;
    result
}

async fn stored(bucket: &Bucket, key: &str) -> std::result::Result<bool, EdgeError> {
    Ok(bucket.head(key).await.map_err(err)?.is_some())
}

async fn download(
    mirror: &Mirror,
    bucket: &Bucket,
    a: &Upload,
    record: &OriginRecord,
    platform: &str,
    url: &str,
) -> std::result::Result<(), EdgeError> {
    let what = format!("{} {} for {platform}", record.provider, record.version);
    let named = |e: EdgeError| EdgeError::new(e.kind, format!("{what}: {}", e.message));
    let t0 = now();
    let url = Url::parse(url).map_err(|e| {
        EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!("{what}: the origin's download URL {url:?}: {e}"),
        )
    })?;
    let mut opened = origin::open_archive(mirror, &url).await.map_err(named)?;
    if opened.resp.status_code() != 200 {
        opened.abort.abort();
        return Err(EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!(
                "{what}: the origin answered {} for {url}",
                opened.resp.status_code()
            ),
        ));
    }
    let guard = mirror.config.limits.archive(url.as_str(), t0);
    opened.check_declared(&guard).map_err(named)?;
    let body = opened.resp.stream().map_err(err)?;
    let limit = mirror.config.limits.archive_bytes;
    let staged = stage(bucket, &a.key, body, Some((guard, &opened.abort)), limit).await;
    trace(|t| t.origin_ms += (now() - t0) as u64);
    let (hashes, pending) = staged.map_err(|e| match e.kind {
        EdgeErrorKind::Refused => EdgeError::new(
            EdgeErrorKind::Refused,
            format!("{what}: cannot hash the archive: {}", e.message),
        ),
        _ => named(e),
    })?;
    publish(
        bucket,
        a,
        Some(record),
        platform,
        &hashes,
        pending,
        Writer::Origin,
    )
    .await
    .map(|_| ())
}

/// An archive written to R2 as parts but not yet visible.
struct Pending {
    upload: MultipartUpload,
    parts: Vec<UploadedPart>,
}

/// Streams `body` into a multipart upload of `key` in equal parts while hashing it, within
/// `guard` (an origin download) and at most `limit` bytes. Nothing becomes visible until
/// [`publish`]; on failure the upload is aborted here. A body that is no zip is `Refused`.
async fn stage(
    bucket: &Bucket,
    key: &str,
    body: ByteStream,
    guard: Option<(BodyGuard, &origin::Abort)>,
    limit: u64,
) -> std::result::Result<(ZipHashes, Pending), EdgeError> {
    let upload = bucket
        .create_multipart_upload(key.to_string())
        .http_metadata(store::content_type_meta("application/zip"))
        .execute()
        .await
        .map_err(err)?;
    match stream_parts(bucket, key, &upload, body, guard, limit).await {
        Ok((hashes, parts)) => Ok((hashes, Pending { upload, parts })),
        Err(e) => {
            let _ = upload.abort().await;
            Err(e)
        }
    }
}

async fn stream_parts(
    bucket: &Bucket,
    key: &str,
    upload: &MultipartUpload,
    mut body: ByteStream,
    mut guard: Option<(BodyGuard, &origin::Abort)>,
    limit: u64,
) -> std::result::Result<(ZipHashes, Vec<UploadedPart>), EdgeError> {
    let refused = |e: String| EdgeError::new(EdgeErrorKind::Refused, e);
    let mut hasher = ZipHasher::new();
    let mut splitter = PartSplitter::new(PART_SIZE);
    let mut part = PartBuffer::new(bucket, key, upload)
        .await
        .map_err(|e| internal(&e))?;
    let mut streamed = 0;
    loop {
        let chunk = match guard.as_mut() {
            Some((g, abort)) => match origin::next_chunk(&mut body, g, abort).await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(a) => return Err(a.error),
            },
            None => match body.next().await {
                Some(chunk) => chunk.map_err(err)?,
                None => break,
            },
        };
        hasher.update(&chunk).map_err(|e| refused(e.to_string()))?;
        for piece in splitter.cut(&chunk) {
            part.write(&piece).await.map_err(|e| internal(&e))?;
        }
        if splitter.total() > limit {
            return Err(refused(format!("the archive is larger than {limit} bytes")));
        }
        pace(&mut streamed, chunk.len()).await;
    }
    let hashes = hasher.finish().map_err(|e| refused(e.to_string()))?;
    if let Some(len) = splitter.finish() {
        part.upload(len).await.map_err(|e| internal(&e))?;
    }
    Ok((hashes, part.into_parts()))
}

/// Counts `n` more bytes streamed; every [`YIELD_EVERY`] bytes, yields to the event loop.
async fn pace(streamed: &mut usize, n: usize) {
    *streamed += n;
    if *streamed >= YIELD_EVERY {
        *streamed = 0;
        // A zero timer is a macrotask: requests waiting for the isolate go first.
        Delay::from(Duration::ZERO).await;
    }
}

/// Checks a staged archive against the origin record (if the host is pulled through),
/// claims its key (see `core::edge::publish`: the first writer's `zh:` is the only one that
/// may ever complete it), then makes it visible and lists its hashes. Aborts on refusal.
async fn publish(
    bucket: &Bucket,
    a: &Upload,
    record: Option<&OriginRecord>,
    platform: &str,
    hashes: &ZipHashes,
    pending: Pending,
    writer: Writer,
) -> std::result::Result<Vec<String>, EdgeError> {
    let listed = match record {
        Some(record) => match record.accept(platform, hashes) {
            Ok(listed) => {
                trace(|t| t.verification = format!("verified ({})", record.auth));
                listed
            }
            Err(e) => {
                trace(|t| t.verification = format!("refused: {}", e.message));
                let _ = pending.upload.abort().await;
                return Err(e);
            }
        },
        None => vec![hashes.h1.to_string(), hashes.zh.to_string()],
    };
    let mine = Sidecar {
        h1: hashes.h1.to_string(),
        zh: hashes.zh.to_string(),
    };
    let claim_key = keys::hashes(&a.key);
    let created = store::swap(
        bucket,
        &claim_key,
        None,
        mine.to_json(),
        "application/json",
        HashMap::new(),
    )
    .await
    .map_err(err)?;
    let existing = if created {
        None
    } else {
        store::read(bucket, &claim_key)
            .await
            .map_err(err)?
            .and_then(|s| Sidecar::from_json(&s.bytes))
    };
    match settle(&a.key, existing.as_ref(), &mine, writer) {
        Claim::OtherBytes(e) => {
            // Loud: an origin changing a published release is an incident for the operator.
            worker::console_error!(
                "{}",
                serde_json::json!({ "refused": a.key, "why": e.message })
            );
            trace(|t| t.verification = format!("refused: {}", e.message));
            let _ = pending.upload.abort().await;
            return Err(e);
        }
        Claim::Publish => {
            if stored(bucket, &a.key).await? {
                // The same bytes, published by an earlier writer.
                let _ = pending.upload.abort().await;
            } else {
                pending.upload.complete(pending.parts).await.map_err(err)?;
            }
        }
    }
    let now = now();
    let version_key = format!("{}/{}.json", a.dir, a.version);
    if record.is_some() {
        store::update(bucket, &version_key, now, |current| match current {
            Some(doc) => mirror_docs::add_h1_for(doc, platform, &mine.h1, &mine.zh),
            None => Ok(None),
        })
        .await
        .map_err(err)?;
    } else {
        store::update(bucket, &version_key, now, |current| {
            mirror_docs::add_archive(current, platform, &a.filename, &listed).map(Some)
        })
        .await
        .map_err(err)?;
        let index_key = format!("{}/index.json", a.dir);
        store::update(bucket, &index_key, now, |current| {
            mirror_docs::add_version(current, &a.version).map(Some)
        })
        .await
        .map_err(err)?;
    }
    Ok(listed)
}

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
    if stored(&bucket, &a.key).await.unwrap_or(false)
        || !store::take_lease(&bucket, &a.key, now()).await?
    {
        return compare_with_stored(&bucket, a, body).await;
    }
    let result = async {
        let (hashes, pending) = match stage(&bucket, &a.key, body, None, limit).await {
            Ok(staged) => staged,
            Err(e) if e.kind == EdgeErrorKind::Refused => {
                return respond::error(422, &format!("Cannot hash provider package: {e}"))
            }
            Err(e) => return respond::error(e.status(), &e.message),
        };
        let publishing = publish(
            &bucket,
            a,
            record.as_ref(),
            &a.platform,
            &hashes,
            pending,
            Writer::Upload,
        );
        match publishing.await {
            Ok(_) => {
                let body = serde_json::json!({
                    "key": a.key,
                    "h1": hashes.h1.to_string(),
                    "zh": hashes.zh.to_string(),
                });
                respond::json(201, &body)
            }
            Err(e) if e.kind == EdgeErrorKind::Refused => respond::error(409, &e.message),
            Err(e) => respond::error(e.status(), &e.message),
        }
    }
    .await;
    let _ = store::release_lease(&bucket, &a.key).await;
    result
}

/// An upload of a key that exists or is being written: hash it (keeping nothing), wait for
/// the other writer, and compare.
async fn compare_with_stored<S>(bucket: &Bucket, a: &Upload, mut body: S) -> Result<Response>
where
    S: Stream<Item = Result<Vec<u8>>> + Unpin,
{
    let mut hasher = ZipHasher::new();
    let mut streamed = 0;
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        if hasher.update(&chunk).is_err() {
            break;
        }
        pace(&mut streamed, chunk.len()).await;
    }
    let mine = hasher.finish().ok().map(|h| h.zh.to_string());
    let started = now();
    loop {
        if let Some(s) = store::read(bucket, &keys::hashes(&a.key)).await? {
            let theirs: serde_json::Value = serde_json::from_slice(&s.bytes).unwrap_or_default();
            return if mine.as_deref() == theirs["zh"].as_str() {
                respond::json(
                    200,
                    &serde_json::json!({ "key": a.key, "h1": theirs["h1"], "zh": theirs["zh"] }),
                )
            } else {
                respond::error(409, &format!("{} is already published with other bytes ({}); published archives never change.", a.key, theirs["zh"].as_str().unwrap_or("?")))
            };
        }
        let busy = store::lease_held(bucket, &a.key).await?;
        if !busy && !stored(bucket, &a.key).await.unwrap_or(false) {
            return respond::error(
                409,
                &format!("A concurrent upload of {} did not complete; retry.", a.key),
            );
        }
        if now() - started > WAIT.as_millis() as f64 {
            return respond::error(
                409,
                &format!("A concurrent upload of {} is still running.", a.key),
            );
        }
        Delay::from(Duration::from_millis(200)).await;
    }
}

fn err(e: worker::Error) -> EdgeError {
    internal(&e.to_string())
}
