//! An archive streamed into an R2 multipart upload in equal parts while the core hashes it.
//! Nothing is visible until [`Pending::complete`]; every upload is recorded under
//! `keys::upload` until it is completed or aborted, so one an evicted isolate left behind
//! is found and aborted by the sweep (`sweep.rs`, `core::edge::uploads`).

use std::collections::HashMap;
use std::time::Duration;

use futures_util::future::{select, Either};
use futures_util::StreamExt;
use tflock_core::api::hash::ZipHashes;
use tflock_core::edge::held::{
    handed_off, must_hand_off, Client, Held, Progress, Release, CHECK_EVERY_MS,
};
use tflock_core::edge::keys;
use tflock_core::edge::limits::BodyGuard;
use tflock_core::edge::parts::{PartSplitter, PART_SIZE};
use tflock_core::edge::uploads::{STARTED_AT, UPLOAD_ID};
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use worker::js_sys::Promise;
use worker::wasm_bindgen::JsValue;
use worker::wasm_bindgen_futures::{future_to_promise, JsFuture};
use worker::{Bucket, ByteStream, Delay, MultipartUpload, UploadedPart};

use super::documents::{internal, now};
use super::part_buffer::PartBuffer;
use super::store::{self, Lease};
use super::tap::Tap;
use super::{origin, owed, sha};

/// Bytes streamed between two turns of the event loop. When the body's chunks are already
/// buffered, each read resolves as a microtask and the loop never gives the isolate back:
/// every other request to it (document hits) waited for the whole pull, then had its
/// connection dropped (`cargo xtask bench worker`, hits during the pull).
const YIELD_EVERY: usize = 1024 * 1024;

/// What runs beside a staging: the lease it renews, and the client it streams to (a cold
/// miss's, see `tap.rs`).
pub(crate) struct Beside<'a> {
    /// The writer's lease, renewed as it streams.
    pub lease: &'a mut Lease,
    /// The client of a cold miss, which gets each chunk once it was hashed and staged.
    pub tap: Option<&'a mut Tap>,
    /// In a request's `waitUntil` with a queue to hand off to: how long the pull may run
    /// once its client left (`Limits::unattended_ms`).
    pub unattended_ms: Option<u64>,
    /// The length the origin declared, which the hand-off judges the rest by.
    pub declared: Option<u64>,
}

impl Beside<'_> {
    /// What the pull knows of its client: seen while a streamed answer is open; unseen
    /// without one (a HEAD, a range, a revalidation, a stream not open yet).
    fn client(&self) -> Client {
        match self.tap.as_deref() {
            Some(tap) => tap.client(),
            None => Client::Unseen,
        }
    }

    /// Whether the pull must stop and hand its archive to the queue now, `received` bytes
    /// in, having streamed since `started` (`core::edge::held::must_hand_off`).
    fn must_hand_off(&self, received: u64, started: f64) -> bool {
        let Some(budget) = self.unattended_ms else {
            return false; // the queue's own pull, or an upload: nowhere to hand off to
        };
        let now = now();
        let progress = Progress {
            received,
            declared: self.declared,
            elapsed_ms: now - started,
        };
        must_hand_off(self.client(), progress, now, budget as f64)
    }

    /// Whether the pull checks the hand-off while it waits for the origin's next bytes
    /// (a stalled origin sends none): whenever its client is not seen.
    fn ticks(&self) -> bool {
        self.unattended_ms.is_some() && self.client() != Client::Seen
    }
}

/// An archive written to R2 as parts but not yet visible.
pub(crate) struct Pending {
    key: String,
    upload: MultipartUpload,
    parts: Vec<UploadedPart>,
    /// Settled by [`Pending::complete`] or [`Pending::abort`]; owed (aborted at the next
    /// chance) if the pending archive is dropped.
    held: Held,
}

impl Pending {
    /// Makes the archive visible, and forgets the upload's record. If completing fails, the
    /// upload is aborted.
    pub async fn complete(self, bucket: &Bucket) -> Result<(), EdgeError> {
        let release = self.held.settle();
        if let Err(e) = self.upload.complete(self.parts).await {
            owed::give_back(bucket, release).await;
            return Err(err(e));
        }
        forget(bucket, &self.key).await;
        Ok(())
    }

    /// Drops the parts, and forgets the upload's record.
    pub async fn abort(self, bucket: &Bucket) {
        owed::give_back(bucket, self.held.settle()).await;
    }
}

/// A multipart upload begun, with nothing in it yet; its record is being written.
pub(crate) struct Begun {
    key: String,
    upload: MultipartUpload,
    held: Held,
    recording: Recording,
}

impl Begun {
    /// Gives the upload back unused.
    pub async fn abort(self, bucket: &Bucket) {
        let Begun {
            held,
            mut recording,
            ..
        } = self;
        let _ = recording.done().await;
        owed::give_back(bucket, held.settle()).await;
    }
}

/// The write of an upload's record (`keys::upload`), running while the archive streams: it
/// must land before the upload's first part does (until then there is nothing for the sweep
/// to abort), not before the client's first byte.
struct Recording(Option<Promise>);

impl Recording {
    /// Waits for the record, once; an error if it could not be written.
    async fn done(&mut self) -> Result<(), EdgeError> {
        match self.0.take() {
            Some(p) => JsFuture::from(p)
                .await
                .map(|_| ())
                .map_err(|e| internal(&format!("recording the upload failed: {e:?}"))),
            None => Ok(()),
        }
    }
}

/// Begins a multipart upload of `key` and starts writing its record (a pull does this while
/// its origin request is in flight: the two are independent, and each costs a round trip).
pub(crate) async fn begin(bucket: &Bucket, key: &str) -> Result<Begun, EdgeError> {
    let upload = bucket
        .create_multipart_upload(key.to_string())
        .http_metadata(store::content_type_meta("application/zip"))
        .execute()
        .await
        .map_err(err)?;
    let upload_id = upload.upload_id().await;
    // From here on the upload is given back on every path: settled, or owed if this future
    // (or the one staging into it) is dropped.
    let held = owed::hold(Release::Upload {
        archive_key: key.to_string(),
        upload_id: upload_id.clone(),
    });
    let record = HashMap::from([
        (UPLOAD_ID.to_string(), upload_id),
        (STARTED_AT.to_string(), now().to_string()),
    ]);
    let (b, record_key) = (bucket.clone(), keys::upload(key));
    // A promise runs at once, whether or not anyone awaits it yet.
    let recording = future_to_promise(async move {
        b.put(record_key, Vec::new())
            .custom_metadata(record)
            .execute()
            .await
            .map(|_| JsValue::UNDEFINED)
            .map_err(|e| JsValue::from_str(&e.to_string()))
    });
    Ok(Begun {
        key: key.to_string(),
        upload,
        held,
        recording: Recording(Some(recording)),
    })
}

/// Streams `body` into a multipart upload of `key` in equal parts while hashing it, within
/// `guard` (an origin download) and at most `limit` bytes, with `beside` kept up as it goes.
/// On failure the upload is aborted here. A body that is no zip is `Refused`.
pub(crate) async fn stage(
    bucket: &Bucket,
    key: &str,
    body: ByteStream,
    guard: Option<(BodyGuard, &origin::Abort)>,
    limit: u64,
    beside: Beside<'_>,
) -> Result<(ZipHashes, Pending), EdgeError> {
    let begun = begin(bucket, key).await?;
    stage_into(bucket, begun, body, guard, limit, beside).await
}

/// [`stage`] into an upload already begun.
pub(crate) async fn stage_into(
    bucket: &Bucket,
    begun: Begun,
    body: ByteStream,
    guard: Option<(BodyGuard, &origin::Abort)>,
    limit: u64,
    beside: Beside<'_>,
) -> Result<(ZipHashes, Pending), EdgeError> {
    let Begun {
        key,
        upload,
        held,
        mut recording,
    } = begun;
    let streamed = stream_parts(
        bucket,
        (&key, &upload, &mut recording),
        body,
        guard,
        limit,
        beside,
    )
    .await;
    match streamed {
        Ok((hashes, parts)) => Ok((
            hashes,
            Pending {
                key,
                upload,
                parts,
                held,
            },
        )),
        Err(e) => {
            // The record may still be landing: let it, so that giving back removes it.
            let _ = recording.done().await;
            owed::give_back(bucket, held.settle()).await;
            Err(e)
        }
    }
}

/// Removes the record of `key`'s upload (a record left behind is swept later, harmlessly:
/// aborting a finished upload changes nothing).
async fn forget(bucket: &Bucket, key: &str) {
    let _ = bucket.delete(keys::upload(key)).await;
}

async fn stream_parts(
    bucket: &Bucket,
    (key, upload, recording): (&str, &MultipartUpload, &mut Recording),
    mut body: ByteStream,
    mut guard: Option<(BodyGuard, &origin::Abort)>,
    limit: u64,
    mut beside: Beside<'_>,
) -> Result<(ZipHashes, Vec<UploadedPart>), EdgeError> {
    let refused = |e: String| EdgeError::new(EdgeErrorKind::Refused, e);
    let mut hasher = sha::zip_hasher();
    let mut splitter = PartSplitter::new(PART_SIZE);
    let mut part = PartBuffer::new(bucket, key, upload)
        .await
        .map_err(|e| internal(&e))?;
    let mut streamed = 0;
    let started = now();
    loop {
        let chunk = match guard.as_mut() {
            Some((g, abort)) => {
                let next = origin::next_chunk(&mut body, g, abort);
                let read = match beside.ticks() {
                    true => {
                        let tick = Delay::from(Duration::from_millis(CHECK_EVERY_MS));
                        match select(Box::pin(next), tick).await {
                            Either::Left((read, _)) => Some(read),
                            Either::Right(_) => None,
                        }
                    }
                    false => Some(next.await),
                };
                match read {
                    // No bytes within a tick: the origin may have stalled.
                    None if beside.must_hand_off(splitter.total(), started) => {
                        return Err(handed_off())
                    }
                    None => continue,
                    Some(Ok(Some(chunk))) => chunk,
                    Some(Ok(None)) => break,
                    Some(Err(a)) => return Err(a.error),
                }
            }
            None => match body.next().await {
                Some(chunk) => chunk.map_err(err)?,
                None => break,
            },
        };
        hasher.update(&chunk).map_err(|e| refused(e.to_string()))?;
        for piece in splitter.cut(&chunk) {
            if piece.completes {
                recording.done().await?; // before the first part lands
            }
            part.write(&piece).await.map_err(|e| internal(&e))?;
        }
        if splitter.total() > limit {
            return Err(refused(format!("the archive is larger than {limit} bytes")));
        }
        if let Some(tap) = beside.tap.as_deref_mut() {
            tap.push(&chunk);
        }
        if beside.must_hand_off(splitter.total(), started) {
            return Err(handed_off());
        }
        pace(&mut streamed, chunk.len()).await;
        beside.lease.keep(bucket, now()).await;
    }
    let hashes = hasher.finish().map_err(|e| refused(e.to_string()))?;
    sha::check().map_err(|e| internal(&e))?;
    recording.done().await?;
    if let Some(len) = splitter.finish() {
        part.upload(len).await.map_err(|e| internal(&e))?;
    }
    Ok((hashes, part.into_parts()))
}

/// Counts `n` more bytes streamed; every [`YIELD_EVERY`] bytes, yields to the event loop.
pub(crate) async fn pace(streamed: &mut usize, n: usize) {
    *streamed += n;
    if *streamed >= YIELD_EVERY {
        *streamed = 0;
        // A zero timer is a macrotask: requests waiting for the isolate go first.
        Delay::from(Duration::ZERO).await;
    }
}

pub(crate) fn err(e: worker::Error) -> EdgeError {
    internal(&e.to_string())
}
