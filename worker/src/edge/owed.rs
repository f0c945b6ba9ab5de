//! Leases and multipart uploads a dropped pull left held (`core::edge::held`): each is
//! recorded when its holder is dropped unsettled and given back at the isolate's next
//! request or queue batch. A pull that ends settles its own (`store::Lease::release`,
//! `stage::Pending`).

use tflock_core::edge::held::{Held, Owed, Release};
use tflock_core::edge::keys;
use worker::Bucket;

use super::Mirror;

thread_local! {
    /// What this isolate's dropped pulls left held.
    static OWED: Owed = Owed::new();
}

/// Holds `release` until its holder settles it; a drop records it as owed.
pub(crate) fn hold(release: Release) -> Held {
    OWED.with(|o| o.hold(release))
}

/// Gives back what dropped pulls left: in the request's `waitUntil` (so the answer does
/// not wait for it), inline in the queue consumer.
pub(crate) async fn settle(mirror: &Mirror) {
    let owed = OWED.with(Owed::take);
    if owed.is_empty() {
        return;
    }
    let Ok(bucket) = mirror.bucket() else {
        return;
    };
    worker::console_log!(
        "{}",
        serde_json::json!({ "route": "owed", "given_back": owed.len() })
    );
    let work = async move {
        for r in owed {
            give_back(&bucket, r).await;
        }
    };
    match mirror.ctx() {
        Some(ctx) => ctx.wait_until(work),
        None => work.await,
    }
}

/// Deletes a lease, or aborts an upload and removes its record. Failures are harmless: a
/// lease expires, an upload record is swept.
pub(crate) async fn give_back(bucket: &Bucket, release: Release) {
    match release {
        Release::Lease { archive_key } => {
            let _ = bucket.delete(keys::lease(&archive_key)).await;
        }
        Release::Upload {
            archive_key,
            upload_id,
        } => {
            if let Ok(upload) = bucket.resume_multipart_upload(&archive_key, &upload_id) {
                let _ = upload.abort().await;
            }
            let _ = bucket.delete(keys::upload(&archive_key)).await;
        }
    }
}
