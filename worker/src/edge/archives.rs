//! `GET`/`HEAD` of an archive: served from R2; on a miss pulled from the origin once
//! (`pulls.rs`) and then served from R2. What to answer is the core's
//! (`core::edge::serve::archive`, `after_pull`).

use tflock_core::edge::route::Upload;
use tflock_core::edge::serve::{self, Answer};
use worker::{Request, Response, Result};

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
    match serve::after_pull(pulls::ensure(mirror, a).await) {
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
