//! Pulling an archive from the origin once, however many requests ask for it. Requests of
//! one isolate share its pull in memory (no bucket reads); across isolates a lease
//! (`_tflock/lease/<key>`, an R2 conditional create) makes one of them the downloader and
//! the others get it from the origin themselves, verified and never stored (`pass.rs`), or,
//! when the core says they may not (`core::edge::wait`), check back with its backoff. The
//! whole pull runs in the background (`background.rs`): its lease, its slot and its
//! multipart upload are given back by its own end, whether or not any client still waits
//! for it.

use std::cell::RefCell;
use std::collections::HashMap;

use futures_channel::oneshot;
use futures_util::future::join;
use tflock_core::edge::held::is_handed_off;
use tflock_core::edge::publish::Writer;
use tflock_core::edge::record::OriginRecord;
use tflock_core::edge::route::Upload;
use tflock_core::edge::serve::busy_error;
use tflock_core::edge::uploads::heard_from;
use tflock_core::edge::wait::{Waiting, WAIT_MS};
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use worker::{Bucket, Delay, Url};

use super::background::outlive_client;
use super::documents::{self, internal, now};
use super::fills;
use super::origin::{self, take_slot};
use super::pass;
use super::publish::publish;
use super::stage::{self, err, Beside};
use super::store::{self, Lease};
use super::tap::{Streamed, Tap};
use super::Mirror;

type Outcome = Result<(), EdgeError>;

/// How long a finished pull's outcome is kept for the requests that waited for it.
const KEEP_OUTCOME_MS: f64 = 1_000.0;
/// The longest pause between two looks at this isolate's pull (memory only, no R2).
const LOOK_MAX_MS: u64 = 250;

/// One archive pull of this isolate.
struct Flight {
    /// Which flight it is: a key's flight may be replaced while its requests still wait.
    id: u64,
    /// It passes the archive through to its own client (`pass.rs`), which no other request
    /// can share: it is not joined, and the requests that joined it before start over.
    passing: bool,
    /// When it was last heard from (`heard`): a pull the runtime cut (its `waitUntil` time
    /// ran out) never ends, so once silent for a lease time it is no longer joined
    /// (`core::edge::uploads::heard_from`).
    heard: f64,
    /// The outcome once the pull ended, and when.
    outcome: Option<(Outcome, f64)>,
}

thread_local! {
    /// The pulls this isolate runs, by archive key.
    static PULLS: RefCell<HashMap<String, Flight>> = RefCell::new(HashMap::new());
    /// The id of the next flight.
    static NEXT_FLIGHT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// What a request does about an archive this isolate may already be pulling.
enum Role {
    /// It starts the flight `id`.
    Lead(u64),
    /// It waits for the flight `id`.
    Join(u64),
}

/// Makes sure the archive `a` is in R2: joins this isolate's pull of it, or starts one
/// that outlives the request.
///
/// Requests that join wait on their own timers and read the outcome from memory: a future
/// of one request woken by another request's code would run, and do its IO, in that other
/// request's context, which workerd refuses ("Cannot perform I/O on behalf of a different
/// request").
///
/// With `stream`, a request that starts the pull gets its answer there as it is pulled
/// (`tap.rs`), once it is large enough to be worth it; when another isolate holds the
/// lease, such a request may get it from the origin instead (`pass.rs`), and a flight that
/// does so is not joined. `missing`: the caller has just seen
/// the archive missing from the bucket (a request's own read), so the pull does not ask
/// again before taking the lease.
pub(crate) async fn ensure(
    mirror: &Mirror,
    a: &Upload,
    mut stream: Option<oneshot::Sender<Streamed>>,
    mut missing: bool,
) -> Outcome {
    loop {
        forget_finished();
        let role = PULLS.with(|p| {
            let mut p = p.borrow_mut();
            // A pull that ended a moment ago is not joined: this request may come after the
            // archive was removed, or after a failure that has passed.
            match p.get(&a.key) {
                Some(f) if running(f) && !f.passing => Role::Join(f.id),
                _ => {
                    let id = NEXT_FLIGHT.with(|n| n.replace(n.get() + 1));
                    let flight = Flight {
                        id,
                        passing: false,
                        heard: now(),
                        outcome: None,
                    };
                    p.insert(a.key.clone(), flight);
                    Role::Lead(id)
                }
            }
        });
        let id = match role {
            Role::Lead(id) => id,
            Role::Join(id) => match join_flight(a, id).await {
                Some(outcome) => return outcome,
                None => {
                    // The flight passes the archive through to its own client: start over
                    // (the archive may be stored by now; if not, this request may pass it
                    // through or wait itself).
                    missing = false;
                    continue;
                }
            },
        };
        let (m, a) = (mirror.clone(), a.clone());
        let tap = stream.take().map(Tap::new);
        let outcome = outlive_client(mirror, async move {
            let outcome = lead(&m, &a, id, tap, missing).await;
            PULLS.with(|p| {
                if let Some(f) = p.borrow_mut().get_mut(&a.key).filter(|f| f.id == id) {
                    f.outcome = Some((outcome.clone(), now()));
                }
            });
            outcome
        });
        return outcome
            .await
            .unwrap_or_else(|| Err(internal("the pull was dropped by the runtime; retry")));
    }
}

/// Waits for this isolate's flight `id` of `a`: its outcome, or `None` when it turned out
/// to pass the archive through to its own client (or was replaced), and the request must
/// start over.
async fn join_flight(a: &Upload, id: u64) -> Option<Outcome> {
    let mut pause = 10;
    let joined = now();
    loop {
        Delay::from(std::time::Duration::from_millis(pause)).await;
        pause = (pause * 2).min(LOOK_MAX_MS);
        if now() - joined > WAIT_MS {
            return Some(Err(internal(
                "another request is still pulling this archive; retry",
            )));
        }
        let seen = PULLS.with(|p| match p.borrow().get(&a.key) {
            None => Some(Some(Ok(()))),
            Some(f) if f.id != id || f.passing => Some(None),
            Some(f) if f.outcome.is_none() && !running(f) => Some(Some(Err(internal(
                "the pull of this archive stopped (its time ran out); retry",
            )))),
            Some(f) => f.outcome.as_ref().map(|(o, _)| Some(o.clone())),
        });
        if let Some(outcome) = seen {
            forget_finished();
            return outcome;
        }
    }
}

/// Marks this isolate's flight `id` of `archive_key` as passing the archive through.
fn mark_passing(archive_key: &str, id: u64) {
    PULLS.with(|p| {
        if let Some(f) = p.borrow_mut().get_mut(archive_key).filter(|f| f.id == id) {
            f.passing = true;
        }
    });
}

/// Whether `f` is still running: not ended, and heard from within a lease time.
fn running(f: &Flight) -> bool {
    f.outcome.is_none() && heard_from(f.heard, now())
}

/// Notes that this isolate's pull of `archive_key` is alive (a chunk staged, a look at
/// another isolate's lease).
pub(crate) fn heard(archive_key: &str) {
    PULLS.with(|p| {
        if let Some(f) = p.borrow_mut().get_mut(archive_key) {
            f.heard = now();
        }
    });
}

/// Drops the outcomes of pulls that ended more than [`KEEP_OUTCOME_MS`] ago.
fn forget_finished() {
    let now = now();
    PULLS.with(|p| {
        p.borrow_mut().retain(|_, f| {
            f.outcome
                .as_ref()
                .is_none_or(|(_, at)| now - at < KEEP_OUTCOME_MS)
        })
    });
}

/// This isolate's pull of `a`: stored already, or downloaded under the lease, or, while
/// another isolate holds it, passed through from the origin to `tap`'s client (flight `id`
/// is then marked so) or waited for.
async fn lead(
    mirror: &Mirror,
    a: &Upload,
    id: u64,
    mut tap: Option<Tap>,
    missing: bool,
) -> Outcome {
    let bucket = mirror.bucket().map_err(err)?;
    // Two independent reads at once: what the origin lists, and whether it is stored (unless
    // the caller has just seen it missing: another writer publishing in between only costs a
    // second download, which its claim makes harmless).
    let (record, stored) = join(
        documents::record(mirror, &bucket, &a.dir, &a.version),
        async {
            match missing {
                true => Ok(false),
                false => store::exists(&bucket, &a.key).await,
            }
        },
    )
    .await;
    let record = record?;
    if stored.map_err(err)? {
        return Ok(());
    }
    let Some((platform, origin_archive)) = record.platform_of(&a.filename) else {
        return Err(EdgeError::new(
            EdgeErrorKind::NotFound,
            format!(
                "the origin registry lists no {} for {} {}",
                a.filename, record.provider, record.version
            ),
        ));
    };
    let mut waiting = Waiting::new(now());
    let mut looked = true; // the first look was above
    let mut lease = loop {
        if !std::mem::take(&mut looked) && store::exists(&bucket, &a.key).await.map_err(err)? {
            return Ok(());
        }
        if let Some(lease) = store::take_lease(&bucket, &a.key, now())
            .await
            .map_err(err)?
        {
            break lease;
        }
        heard(&a.key);
        // Another isolate writes it: a client that takes a streamed answer gets it from the
        // origin now, if the core allows one more read of it here (`core::edge::wait`).
        let passing = pass::begin(mirror, &a.key, tap.is_some(), &waiting);
        if let (Some(_passing), Some(t)) = (passing, tap.as_mut()) {
            mark_passing(&a.key, id);
            let from = (platform, origin_archive.url.as_str());
            let outcome = pass::through(mirror, &record, from, t).await;
            let refused = outcome
                .as_ref()
                .is_err_and(|e| e.kind == EdgeErrorKind::Refused);
            if outcome.is_ok() || refused || t.answered() {
                if let Some(t) = tap.take() {
                    t.finish(&outcome).await;
                }
                return outcome;
            }
            // Nothing reached the client (the origin failed, or declared no length): it
            // waits for the other writer's stored copy instead.
            tap = None;
        }
        let Some(pause) = waiting.next(now(), worker::js_sys::Math::random()) else {
            return Err(internal(
                "another request is still pulling this archive; retry",
            ));
        };
        Delay::from(std::time::Duration::from_millis(pause)).await;
    };
    // This isolate owns the lease: one origin download, counted against the cap (requests
    // waiting for it are not).
    let result = match take_slot(mirror) {
        Some(_slot) => {
            let url = &origin_archive.url;
            let from = (platform, url.as_str());
            download(mirror, &bucket, a, &record, from, &mut lease, tap).await
        }
        None => Err(busy_error()),
    };
    lease.release(&bucket).await;
    if result.as_ref().is_err_and(is_handed_off) {
        // Its slot, lease and upload are given back: the queue's job starts it afresh,
        // with 15 minutes (`fills.rs`).
        worker::console_log!(
            "{}",
            serde_json::json!({ "route": "archive", "handed_off": a.key })
        );
        fills::enqueue_h1(mirror, &a.dir, &a.version, &[platform.to_string()]).await;
    }
    result
}

/// Downloads `a` (`platform` at `url`) from the origin, staging and publishing it, and
/// streaming it to `tap`'s client if there is one.
async fn download(
    mirror: &Mirror,
    bucket: &Bucket,
    a: &Upload,
    record: &OriginRecord,
    (platform, url): (&str, &str),
    lease: &mut Lease,
    mut tap: Option<Tap>,
) -> Outcome {
    let outcome = download_into(
        mirror,
        bucket,
        a,
        record,
        (platform, url),
        lease,
        tap.as_mut(),
    )
    .await;
    if let Some(tap) = tap {
        tap.finish(&outcome).await;
    }
    outcome
}

async fn download_into(
    mirror: &Mirror,
    bucket: &Bucket,
    a: &Upload,
    record: &OriginRecord,
    (platform, url): (&str, &str),
    lease: &mut Lease,
    tap: Option<&mut Tap>,
) -> Outcome {
    let what = format!("{} {} for {platform}", record.provider, record.version);
    let named = |e: EdgeError| match is_handed_off(&e) {
        true => e, // recognised by `lead`, which queues the archive
        false => EdgeError::new(e.kind, format!("{what}: {}", e.message)),
    };
    let t0 = now();
    let url = Url::parse(url).map_err(|e| {
        EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!("{what}: the origin's download URL {url:?}: {e}"),
        )
    })?;
    // The origin request and the upload's creation are independent round trips: at once.
    let (opened, begun) = join(
        origin::open_archive(mirror, &url),
        stage::begin(bucket, &a.key),
    )
    .await;
    let (mut opened, begun) = match (opened, begun) {
        (Ok(o), Ok(b)) => (o, b),
        (Ok(o), Err(e)) => {
            o.abort.abort();
            return Err(named(e));
        }
        (Err(e), begun) => {
            if let Ok(b) = begun {
                b.abort(bucket).await;
            }
            return Err(named(e));
        }
    };
    if opened.resp.status_code() != 200 {
        opened.abort.abort();
        begun.abort(bucket).await;
        return Err(EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!(
                "{what}: the origin answered {} for {url}",
                opened.resp.status_code()
            ),
        ));
    }
    let guard = mirror.config.limits.archive(url.as_str(), t0);
    if let Err(e) = opened.check_declared(&guard) {
        begun.abort(bucket).await;
        return Err(named(e));
    }
    let declared = origin::declared_length(&opened.resp);
    let mut tap = tap;
    if let Some(t) = tap.as_deref_mut() {
        t.set_length(declared);
    }
    let body = match opened.resp.stream() {
        Ok(body) => body,
        Err(e) => {
            begun.abort(bucket).await;
            return Err(err(e));
        }
    };
    let limit = mirror.config.limits.archive_bytes;
    let guarded = Some((guard, &opened.abort));
    // In a request's `waitUntil`, a pull whose client left, or whose client it cannot see
    // (a HEAD, a range, a revalidation), may hand itself to the queue.
    let unattended_ms = (mirror.ctx().is_some() && mirror.queue().is_some())
        .then_some(mirror.config.limits.unattended_ms);
    let beside = Beside {
        lease,
        tap,
        unattended_ms,
        declared,
    };
    let staged = stage::stage_into(bucket, begun, body, guarded, limit, beside).await;
    mirror.trace(|t| t.origin_ms += (now() - t0) as u64);
    let (hashes, pending) = staged.map_err(|e| match e.kind {
        EdgeErrorKind::Refused => EdgeError::new(
            EdgeErrorKind::Refused,
            format!("{what}: cannot hash the archive: {}", e.message),
        ),
        _ => named(e),
    })?;
    publish(
        mirror,
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
