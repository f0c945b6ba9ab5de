//! Aborting the multipart uploads an evicted isolate left unfinished (its parts are kept,
//! and billed, until aborted). Every upload is recorded under `keys::upload` while it runs
//! (`stage.rs`); the queue consumer lists those records now and then and aborts the ones
//! the core calls abandoned (`core::edge::uploads`). An R2 lifecycle rule that aborts
//! incomplete multipart uploads after a day is the backstop (worker/README.md).

use std::cell::Cell;

use tflock_core::edge::keys;
use tflock_core::edge::uploads::{abandoned, sweep_due, STARTED_AT, SWEEP_MAX, UPLOAD_ID};
use worker::{Include, Result};

use super::documents::now;
use super::Mirror;

thread_local! {
    /// When this isolate last swept (NaN: never).
    static LAST: Cell<f64> = const { Cell::new(f64::NAN) };
}

/// Sweeps when this isolate's last sweep is old enough; the number of uploads aborted.
pub(crate) async fn maybe(mirror: &Mirror) -> Result<usize> {
    let now = now();
    let last = LAST.with(Cell::get);
    if !sweep_due((!last.is_nan()).then_some(last), now) {
        return Ok(0);
    }
    LAST.with(|l| l.set(now));
    sweep(mirror, now).await
}

/// Aborts up to [`SWEEP_MAX`] abandoned uploads and removes their records.
async fn sweep(mirror: &Mirror, now: f64) -> Result<usize> {
    let bucket = mirror.bucket()?;
    let page = bucket
        .list()
        .prefix(keys::UPLOADS_PREFIX)
        .include(vec![Include::CustomMetadata])
        .limit(1000)
        .execute()
        .await?;
    let mut aborted = 0;
    for o in page.objects() {
        if aborted >= SWEEP_MAX {
            break;
        }
        let record = o.custom_metadata().unwrap_or_default();
        let started: f64 = record
            .get(STARTED_AT)
            .and_then(|t| t.parse().ok())
            .unwrap_or(f64::NAN);
        if !abandoned(started, now, &mirror.config.limits) {
            continue;
        }
        let key = o.key();
        if let (Some(target), Some(id)) = (keys::upload_target(&key), record.get(UPLOAD_ID)) {
            // An upload that completed or was aborted since cannot be aborted again: fine.
            if let Ok(upload) = bucket.resume_multipart_upload(target, id) {
                let _ = upload.abort().await;
            }
        }
        bucket.delete(key.clone()).await?;
        aborted += 1;
        worker::console_log!(
            "{}",
            serde_json::json!({ "route": "sweep", "aborted": key })
        );
    }
    Ok(aborted)
}
