//! Background work on the `FILL` queue: the `h1:` of every platform of a filled version
//! (the consumer pulls each archive through the same single-flight path a GET takes), and
//! the operator's backfill, which fans out into version fills and then `h1:` fills.

use serde::{Deserialize, Serialize};
use tflock_core::api::Provider;
use tflock_core::edge::fill::{Fill, Filled};
use tflock_core::edge::keys;
use tflock_core::edge::plan;
use tflock_core::edge::publish::Sidecar;
use worker::{MessageBatch, MessageExt, Request, Response, Result};

use super::documents;
use super::origin::run_fill;
use super::publish::apply;
use super::{owed, pulls, respond, store, sweep, Mirror};
use tflock_core::edge::route::Upload;

/// One unit of background work.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Job {
    /// Pull and hash one platform's archive, listing its `h1:`.
    H1 {
        dir: String,
        version: String,
        platform: String,
    },
    /// Fill one version (which queues its platforms' `h1:`).
    Version { dir: String, version: String },
    /// Fill every version of a provider, or the listed ones.
    Backfill {
        provider: String,
        #[serde(default)]
        versions: Option<Vec<String>>,
    },
}

/// Queues the `h1:` fill of `platforms` (logged, not fatal, when the queue is missing:
/// the archives are then hashed on their first download instead).
pub(crate) async fn enqueue_h1(mirror: &Mirror, dir: &str, version: &str, platforms: &[String]) {
    let jobs = platforms
        .iter()
        .map(|p| Job::H1 {
            dir: dir.to_string(),
            version: version.to_string(),
            platform: p.clone(),
        })
        .collect();
    send(mirror, jobs).await;
}

async fn send(mirror: &Mirror, jobs: Vec<Job>) -> usize {
    let Some(queue) = mirror.queue() else {
        worker::console_warn!(
            "no FILL queue bound: {} background jobs dropped",
            jobs.len()
        );
        return 0;
    };
    let mut sent = 0;
    // A queue batch holds at most 100 messages.
    for chunk in jobs.chunks(100) {
        match queue.send_batch(chunk.to_vec()).await {
            Ok(()) => sent += chunk.len(),
            Err(e) => worker::console_error!("queueing {} jobs failed: {e}", chunk.len()),
        }
    }
    sent
}

/// The queue consumer: each message is acknowledged when done, retried when it failed.
pub(crate) async fn consume(mirror: &Mirror, batch: MessageBatch<serde_json::Value>) -> Result<()> {
    owed::settle(mirror).await;
    if let Err(e) = sweep::maybe(mirror).await {
        worker::console_error!("sweeping abandoned uploads failed: {e}");
    }
    for message in batch.messages()? {
        let job: std::result::Result<Job, _> = serde_json::from_value(message.body().clone());
        let outcome = match job {
            Ok(job) => run(mirror, &job).await,
            Err(e) => Err(format!("unreadable job: {e}")),
        };
        let line = serde_json::json!({
            "route": "queue",
            "job": message.body(),
            "result": match &outcome { Ok(()) => "done".to_string(), Err(e) => e.clone() },
        });
        worker::console_log!("{line}");
        match outcome {
            Ok(()) => message.ack(),
            Err(_) => message.retry(),
        }
    }
    Ok(())
}

async fn run(mirror: &Mirror, job: &Job) -> std::result::Result<(), String> {
    let bucket = mirror.bucket().map_err(|e| e.to_string())?;
    match job {
        Job::H1 {
            dir,
            version,
            platform,
        } => {
            let record = documents::record(mirror, &bucket, dir, version)
                .await
                .map_err(|e| e.message)?;
            let Some(origin) = record.platforms.get(platform) else {
                return Ok(()); // the origin dropped the platform since: nothing to hash
            };
            let upload = Upload {
                key: keys::archive(dir, &origin.filename),
                dir: dir.clone(),
                version: version.clone(),
                platform: platform.clone(),
                filename: origin.filename.clone(),
                hostname: dir.split('/').next().unwrap_or_default().to_string(),
            };
            pulls::ensure(mirror, &upload, None, false)
                .await
                .map_err(|e| e.message)?;
            // Stored earlier by a plain download: make sure its h1: is listed too, beside
            // the zh: it was computed with and no other.
            if let Some(s) = store::read(&bucket, &keys::hashes(&upload.key))
                .await
                .map_err(|e| e.to_string())?
            {
                if let Some(side) = Sidecar::from_json(&s.bytes) {
                    apply(&bucket, &plan::after_pull(dir, version, platform, &side))
                        .await
                        .map_err(|e| e.message)?;
                }
            }
            Ok(())
        }
        Job::Version { dir, version } => {
            documents::fill_version(mirror, &bucket, dir, version, documents::now())
                .await
                .map(|_| ())
                .map_err(|e| e.message)
        }
        Job::Backfill { provider, versions } => {
            let p = Provider::parse(provider, mirror.config.flavor).map_err(|e| e.to_string())?;
            let dir = format!("{}/{}/{}", p.hostname, p.namespace, p.r#type);
            let versions = match versions {
                Some(v) => v.clone(),
                None => match run_fill(mirror, Fill::index(&mirror.config, p)).await {
                    Ok(Filled::Index { versions, .. }) => versions,
                    Ok(_) => Vec::new(),
                    Err(e) => return Err(e.message),
                },
            };
            let cap = mirror.config.limits.backfill_versions;
            if versions.len() > cap {
                return Err(format!(
                    "{provider} has {} versions; a backfill queues at most {cap} (TFLOCK_LIMITS backfill_versions): name the versions",
                    versions.len()
                ));
            }
            let jobs = versions
                .into_iter()
                .map(|version| Job::Version {
                    dir: dir.clone(),
                    version,
                })
                .collect();
            send(mirror, jobs).await;
            Ok(())
        }
    }
}

/// `POST /_admin/backfill` with `{"providers": ["host/ns/type", ...], "versions": [...]}`
/// (`versions` optional: every version). Queues one job per provider.
pub(crate) async fn backfill(mirror: &Mirror, req: &mut Request) -> Result<Response> {
    let auth = req.headers().get("authorization")?.unwrap_or_default();
    if !mirror.config.upload_allowed("", &auth) {
        return respond::error(401, "Unauthorized");
    }
    #[derive(Deserialize)]
    struct Body {
        providers: Vec<String>,
        #[serde(default)]
        versions: Option<Vec<String>>,
    }
    let body: Body = match serde_json::from_slice(&req.bytes().await?) {
        Ok(b) => b,
        Err(e) => return respond::error(400, &format!("backfill body: {e}")),
    };
    let cap = mirror.config.limits.backfill_versions;
    if body.versions.as_ref().is_some_and(|v| v.len() > cap) {
        return respond::error(
            400,
            &format!("A backfill queues at most {cap} versions per provider (TFLOCK_LIMITS backfill_versions)."),
        );
    }
    let mut jobs = Vec::new();
    for provider in body.providers {
        if let Err(e) = Provider::parse(&provider, mirror.config.flavor) {
            return respond::error(400, &format!("{provider}: {e}"));
        }
        jobs.push(Job::Backfill {
            provider,
            versions: body.versions.clone(),
        });
    }
    let queued = send(mirror, jobs).await;
    respond::json(202, &serde_json::json!({ "queued": queued }))
}
