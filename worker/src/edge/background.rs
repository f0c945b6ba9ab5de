//! Work that must finish whether or not the client that started it stays: a pull holds a
//! lease, a concurrency slot and a multipart upload, and only its own end gives them back.
//! Cloudflare cancels a request whose client went away, and workers-rs never drops a
//! cancelled future (its `Drop` guards never run), so such work runs in the fetch event's
//! `waitUntil`, and the request only waits for its result.

use std::future::Future;

use futures_channel::oneshot;

use super::Mirror;

/// Runs `work` so that it outlives the request (in `ctx.wait_until`; inline in the queue
/// consumer, which has no client), and waits for its result. `None` only if the runtime
/// dropped the work unfinished.
pub(crate) async fn outlive_client<T, F>(mirror: &Mirror, work: F) -> Option<T>
where
    T: 'static,
    F: Future<Output = T> + 'static,
{
    let (tx, rx) = oneshot::channel();
    let work = async move {
        // The request may be gone: nobody to tell, which is fine.
        let _ = tx.send(work.await);
    };
    match mirror.ctx() {
        Some(ctx) => ctx.wait_until(work),
        None => work.await,
    }
    rx.await.ok()
}
