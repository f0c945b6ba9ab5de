//! Publishing a staged archive: checked against the origin record (if its host is pulled
//! through), its key claimed (`core::edge::publish`: the first writer's `zh:` is the only
//! one that may ever complete it), its upload completed, then the documents the core's
//! plan (`core::edge::plan`) names updated by compare-and-swap.

use std::collections::HashMap;

use tflock_core::api::hash::ZipHashes;
use tflock_core::edge::keys;
use tflock_core::edge::plan::{self, DocUpdate};
use tflock_core::edge::publish::{settle, Claim, Sidecar, Writer};
use tflock_core::edge::record::OriginRecord;
use tflock_core::edge::route::Upload;
use tflock_core::edge::EdgeError;
use worker::Bucket;

use super::documents::now;
use super::stage::{err, Pending};
use super::{store, Mirror};

/// Checks, claims and publishes the staged archive `a` (of `platform`, hashed as `hashes`);
/// aborts it on refusal. The hashes listed for it.
pub(crate) async fn publish(
    mirror: &Mirror,
    a: &Upload,
    record: Option<&OriginRecord>,
    platform: &str,
    hashes: &ZipHashes,
    pending: Pending,
    writer: Writer,
) -> Result<Vec<String>, EdgeError> {
    let bucket = &mirror.bucket().map_err(err)?;
    let listed = match record {
        Some(record) => match record.accept(platform, hashes) {
            Ok(listed) => {
                mirror.trace(|t| t.verification = format!("verified ({})", record.auth));
                listed
            }
            Err(e) => {
                mirror.trace(|t| t.verification = format!("refused: {}", e.message));
                pending.abort(bucket).await;
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
            mirror.trace(|t| t.verification = format!("refused: {}", e.message));
            pending.abort(bucket).await;
            return Err(e);
        }
        Claim::Publish => {
            if store::exists(bucket, &a.key).await.map_err(err)? {
                // The same bytes, published by an earlier writer.
                pending.abort(bucket).await;
            } else {
                pending.complete(bucket).await?;
            }
        }
    }
    let updates = match record {
        Some(_) => plan::after_pull(&a.dir, &a.version, platform, &mine),
        None => plan::after_upload(&a.dir, &a.version, platform, &a.filename, &listed),
    };
    apply(bucket, &updates).await?;
    Ok(listed)
}

/// Applies a publish plan, each document by compare-and-swap, in order.
pub(crate) async fn apply(bucket: &Bucket, updates: &[DocUpdate]) -> Result<(), EdgeError> {
    let now = now();
    for u in updates {
        store::update(bucket, &u.key, now, |current| u.apply(current))
            .await
            .map_err(err)?;
    }
    Ok(())
}
