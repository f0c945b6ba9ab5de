//! `GET`/`HEAD` of an archive: served from R2; on a miss pulled from the origin once
//! (`pulls.rs`) and streamed to the request that started the pull as it arrives (`tap.rs`),
//! or served from R2 once stored. What to answer is the core's
//! (`core::edge::serve::archive`, `after_pull`).

use futures_channel::oneshot;
use futures_util::future::{select, Either};
use tflock_core::edge::route::Upload;
use tflock_core::edge::serve::{self, Answer};
use worker::{Method, Request, Response, Result};

use super::{pulls, respond, Mirror};

/// `GET`/`HEAD` of an archive.
pub(crate) async fn serve(mirror: &Mirror, req: &Request, a: &Upload) -> Result<Response> {
    let bucket = mirror.bucket()?;
    if let Some(r) = respond::archive(&bucket, req, &a.key).await? {
        mirror.trace(|t| t.cache = "hit");
        return Ok(r);
    }
    match serve::archive(false, mirror.config.check_pull(&a.hostname)) {
        Answer::Fill => {}
        other => return answer(other),
    }
    mirror.trace(|t| t.cache = "miss");
    // A plain GET may get the archive as it is pulled; HEAD, ranges and revalidations wait
    // for the stored copy.
    let plain = req.method() == Method::Get
        && req.headers().get("range")?.is_none()
        && req.headers().get("if-none-match")?.is_none();
    let outcome = if plain {
        let (opened, answer) = oneshot::channel();
        let pulling = Box::pin(pulls::ensure(mirror, a, Some(opened), true));
        match select(answer, pulling).await {
            Either::Left((Ok(streamed), _)) => return respond::streamed(streamed),
            // Not streamed (a small archive, or this request joined another's pull).
            Either::Left((Err(_), pulling)) => pulling.await,
            Either::Right((outcome, _)) => outcome,
        }
    } else {
        pulls::ensure(mirror, a, None, true).await
    };
    match serve::after_pull(outcome) {
        Answer::Filled => match respond::archive(&bucket, req, &a.key).await? {
            Some(r) => Ok(r),
            None => respond::error(502, "the pulled archive vanished; retry"),
        },
        other => answer(other),
    }
}

/// Renders an answer that serves no stored archive.
fn answer(a: Answer) -> Result<Response> {
    match a {
        Answer::TooBusy => respond::too_busy(),
        Answer::NotFound { message, .. } => respond::error(404, &message),
        Answer::Error(e) => respond::error(e.status(), &e.message),
        other => respond::error(500, &format!("unexpected answer for an archive: {other:?}")),
    }
}
