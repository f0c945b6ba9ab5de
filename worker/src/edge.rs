//! The Workers runtime glue: R2 reads and writes, request and response plumbing.

use crate::route::{route, Route, Upload};
use futures_util::StreamExt;
use tflock_core::hash::{ZipHasher, ZipHashes};
use tflock_core::protocol::mirror_docs;
use worker::{
    event, Bucket, Context, Env, Headers, HttpMetadata, MultipartUpload, Request, Response,
    ResponseBody, Result, UploadedPart,
};

/// The R2 binding.
const BUCKET: &str = "MIRROR";
/// Upload part size: R2 wants at least 5 MiB per part but the last; memory stays at one part.
const PART: usize = 8 * 1024 * 1024;

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let method = req.method().to_string();
    match route(&method, &req.path()) {
        Route::Serve { key, content_type } => {
            serve(&env, &key, content_type, method == "HEAD").await
        }
        Route::Upload(upload) => receive(&mut req, &env, &upload).await,
        Route::NotFound => Response::error("Not Found", 404),
        Route::MethodNotAllowed => Response::error("Method Not Allowed", 405),
    }
}

/// Streams an R2 object to the client (the runtime pipes it; the Worker spends no CPU).
async fn serve(env: &Env, key: &str, content_type: &str, head: bool) -> Result<Response> {
    let bucket = env.bucket(BUCKET)?;
    let Some(object) = bucket.get(key).execute().await? else {
        return Response::error("Not Found", 404);
    };
    let headers = Headers::new();
    headers.set("content-type", content_type)?;
    headers.set("etag", &object.http_etag())?;
    let body = match object.body() {
        Some(body) if !head => body.response_body()?,
        _ => ResponseBody::Empty,
    };
    Ok(Response::from_body(body)?.with_headers(headers))
}

/// Stores an uploaded archive as it is hashed, then lists it in the mirror documents.
async fn receive(req: &mut Request, env: &Env, upload: &Upload) -> Result<Response> {
    let Ok(token) = env.secret("UPLOAD_TOKEN").map(|s| s.to_string()) else {
        return Response::error("Uploads are disabled: set the UPLOAD_TOKEN secret.", 403);
    };
    let given = req.headers().get("authorization")?.unwrap_or_default();
    if !same(given.as_bytes(), format!("Bearer {token}").as_bytes()) {
        return Response::error("Unauthorized", 401);
    }
    let bucket = env.bucket(BUCKET)?;
    let multipart = bucket
        .create_multipart_upload(upload.key.clone())
        .http_metadata(content_type("application/zip"))
        .execute()
        .await?;
    let hashes = match stream_parts(req, &multipart).await {
        Ok((parts, hashes)) => {
            multipart.complete(parts).await?;
            hashes
        }
        Err(why) => {
            // Nothing is kept from an archive that cannot be hashed.
            let _ = multipart.abort().await;
            return Response::error(format!("Cannot hash provider package: {why}"), 422);
        }
    };
    let listed = [hashes.h1.to_string(), hashes.zh.to_string()];
    let version_key = format!("{}/{}.json", upload.dir, upload.version);
    let current = read(&bucket, &version_key).await?;
    let doc = mirror_docs::add_archive(
        current.as_deref(),
        &upload.platform,
        &upload.filename,
        &listed,
    )
    .map_err(|e| worker::Error::RustError(format!("{version_key}: {e}")))?;
    write_json(&bucket, &version_key, doc).await?;
    let index_key = format!("{}/index.json", upload.dir);
    let current = read(&bucket, &index_key).await?;
    let doc = mirror_docs::add_version(current.as_deref(), &upload.version)
        .map_err(|e| worker::Error::RustError(format!("{index_key}: {e}")))?;
    write_json(&bucket, &index_key, doc).await?;
    let body = serde_json::json!({
        "key": upload.key,
        "h1": hashes.h1.to_string(),
        "zh": hashes.zh.to_string(),
    });
    Ok(Response::from_json(&body)?.with_status(201))
}

/// Feeds the request body to the hasher and to R2 part by part.
async fn stream_parts(
    req: &mut Request,
    multipart: &MultipartUpload,
) -> std::result::Result<(Vec<UploadedPart>, ZipHashes), String> {
    let mut hasher = ZipHasher::new();
    let mut body = req.stream().map_err(|e| e.to_string())?;
    let mut buf = Vec::with_capacity(PART);
    let mut parts = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        hasher.update(&chunk).map_err(|e| e.to_string())?;
        buf.extend_from_slice(&chunk);
        if buf.len() >= PART {
            let part = std::mem::replace(&mut buf, Vec::with_capacity(PART));
            parts.push(put_part(multipart, parts.len(), part).await?);
        }
    }
    let hashes = hasher.finish().map_err(|e| e.to_string())?;
    if !buf.is_empty() || parts.is_empty() {
        parts.push(put_part(multipart, parts.len(), buf).await?);
    }
    Ok((parts, hashes))
}

async fn put_part(
    multipart: &MultipartUpload,
    done: usize,
    bytes: Vec<u8>,
) -> std::result::Result<UploadedPart, String> {
    let number =
        u16::try_from(done + 1).map_err(|_| "the archive has too many parts".to_string())?;
    multipart
        .upload_part(number, bytes)
        .await
        .map_err(|e| e.to_string())
}

async fn read(bucket: &Bucket, key: &str) -> Result<Option<Vec<u8>>> {
    match bucket.get(key).execute().await? {
        Some(object) => match object.body() {
            Some(body) => Ok(Some(body.bytes().await?)),
            None => Ok(None),
        },
        None => Ok(None),
    }
}

async fn write_json(bucket: &Bucket, key: &str, doc: Vec<u8>) -> Result<()> {
    bucket
        .put(key, doc)
        .http_metadata(content_type("application/json"))
        .execute()
        .await?;
    Ok(())
}

fn content_type(value: &str) -> HttpMetadata {
    HttpMetadata {
        content_type: Some(value.to_string()),
        ..HttpMetadata::default()
    }
}

/// Compares secrets without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
