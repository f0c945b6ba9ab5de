//! A pass-through read: the archive streamed from the origin to a request whose writer runs
//! in another isolate, instead of that request checking R2 until the writer is done. The
//! same download a pull makes (limits, deadlines, retries, an origin slot), hashed as it
//! passes and handed to the client through the core's tee, its last bytes only once they
//! are the ones the signed `SHA256SUMS` names; nothing is stored. Whether a request passes
//! an archive through, and how many at once, is the core's (`core::edge::wait`).

use tflock_core::edge::record::OriginRecord;
use tflock_core::edge::uploads::stale_after_ms;
use tflock_core::edge::wait::{passes, PassThrough, PassThroughs, Waiting};
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use worker::Url;

use super::documents::{internal, now};
use super::origin::{self, declared_length};
use super::stage::{err, pace};
use super::tap::Tap;
use super::{sha, Mirror};

thread_local! {
    /// This isolate's pass-through reads, by archive key.
    static PASSES: PassThroughs = PassThroughs::new();
}

/// What a pass-through of `archive_key` holds (its place and an origin slot), or `None`
/// when the request (`streams`: a plain GET; `waiting`: its wait so far) waits instead
/// (`core::edge::wait::PassThroughs::begin`).
pub(crate) fn begin(
    mirror: &Mirror,
    archive_key: &str,
    streams: bool,
    waiting: &Waiting,
) -> Option<PassThrough> {
    let longest = stale_after_ms(&mirror.config.limits);
    origin::with_slots(|slots| {
        PASSES.with(|p| p.begin(archive_key, (streams, waiting), slots, now(), longest))
    })
}

/// Streams `platform`'s archive of `record` from `url` to `tap`'s client, verified as it
/// passes. The caller ends the answer with the outcome (`Tap::finish`). An error before the
/// answer was handed over (`Tap::answered`) leaves the client to wait for the stored copy,
/// unless the bytes were refused.
pub(crate) async fn through(
    mirror: &Mirror,
    record: &OriginRecord,
    (platform, url): (&str, &str),
    tap: &mut Tap,
) -> Result<(), EdgeError> {
    let what = format!("{} {} for {platform}", record.provider, record.version);
    let named = |e: EdgeError| EdgeError::new(e.kind, format!("{what}: {}", e.message));
    let refused = |e: String| EdgeError::new(EdgeErrorKind::Refused, format!("{what}: {e}"));
    let t0 = now();
    let url = Url::parse(url).map_err(|e| {
        EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!("{what}: the origin's download URL {url:?}: {e}"),
        )
    })?;
    let mut opened = origin::open_archive(mirror, &url).await.map_err(named)?;
    let status = opened.resp.status_code();
    if status != 200 {
        opened.abort.abort();
        return Err(EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!("{what}: the origin answered {status} for {url}"),
        ));
    }
    let mut guard = mirror.config.limits.archive(url.as_str(), t0);
    opened.check_declared(&guard).map_err(named)?;
    let declared = declared_length(&opened.resp);
    if !passes(declared) {
        opened.abort.abort();
        return Err(internal(&format!(
            "{what}: the origin declared no length, so it is not passed through"
        )));
    }
    tap.pass_through();
    tap.set_length(declared);
    let mut body = opened.resp.stream().map_err(err)?;
    let mut hasher = sha::zip_hasher();
    let mut streamed = 0;
    loop {
        let chunk = match origin::next_chunk(&mut body, &mut guard, &opened.abort).await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(a) => return Err(named(a.error)),
        };
        if let Err(e) = hasher.update(&chunk) {
            opened.abort.abort();
            return Err(refused(format!("cannot hash the archive: {e}")));
        }
        tap.push_waiting(&chunk).await;
        if tap.gone() {
            // Nothing is stored, so nothing is left to finish for anyone.
            opened.abort.abort();
            return Err(internal(&format!("{what}: the client left")));
        }
        pace(&mut streamed, chunk.len()).await;
    }
    mirror.trace(|t| t.origin_ms += (now() - t0) as u64);
    let hashes = hasher
        .finish()
        .map_err(|e| refused(format!("cannot hash the archive: {e}")))?;
    sha::check().map_err(|e| internal(&e))?;
    match record.accept(platform, &hashes) {
        Ok(_) => {
            mirror
                .trace(|t| t.verification = format!("verified ({}), passed through", record.auth));
            Ok(())
        }
        Err(e) => {
            mirror.trace(|t| t.verification = format!("refused: {}", e.message));
            Err(e)
        }
    }
}
