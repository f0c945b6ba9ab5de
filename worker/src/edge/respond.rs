//! HTTP answers: documents and archives with `ETag`/304, ranges (206/416) and caching from
//! the core's rules, errors as text, and CORS on everything.

use tflock_core::edge::http::{
    cors_headers, none_match_hits, parse_range, RangeAnswer, CACHE_ARCHIVE, CACHE_DOCUMENT,
    STALE_HEADER,
};
use worker::{Bucket, Headers, Range, Request, Response, ResponseBody, Result};

use super::tap::Streamed;

/// A text error with `status`.
pub(crate) fn error(status: u16, message: &str) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "text/plain; charset=utf-8")?;
    headers.set("cache-control", "no-store")?;
    Ok(Response::ok(format!("{message}\n"))?
        .with_status(status)
        .with_headers(headers))
}

/// 401 for a read without the read token (`TFLOCK_READ_TOKEN`).
pub(crate) fn unauthorized() -> Result<Response> {
    let mut r = error(
        401,
        "This mirror is private: send its read token as Authorization: Bearer (a credentials block for the mirror's host).",
    )?;
    r.headers_mut()
        .set("www-authenticate", "Bearer realm=\"tflock mirror\"")?;
    Ok(r)
}

/// 429: the isolate is at its cap of concurrent origin work.
pub(crate) fn too_busy() -> Result<Response> {
    let mut r = error(
        429,
        "The mirror is busy with other origin requests; retry shortly.",
    )?;
    r.headers_mut().set("retry-after", "1")?;
    Ok(r)
}

/// A JSON answer that is never cached.
pub(crate) fn json(status: u16, body: &serde_json::Value) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    headers.set("cache-control", "no-store")?;
    Ok(Response::from_json(body)?
        .with_status(status)
        .with_headers(headers))
}

/// Adds the CORS headers.
pub(crate) fn with_cors(mut response: Response) -> Result<Response> {
    let headers = response.headers_mut();
    for (name, value) in cors_headers() {
        headers.set(name, value)?;
    }
    Ok(response)
}

/// The answer to a CORS preflight.
pub(crate) fn preflight() -> Result<Response> {
    let headers = Headers::new();
    headers.set("access-control-max-age", "86400")?;
    Ok(Response::empty()?.with_status(204).with_headers(headers))
}

/// A document's bytes, or 304 when the client has them; `stale` names why a stale copy
/// was served.
pub(crate) fn document(
    req: &Request,
    bytes: Vec<u8>,
    http_etag: &str,
    stale: Option<&str>,
) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    headers.set("etag", http_etag)?;
    headers.set("cache-control", CACHE_DOCUMENT)?;
    if let Some(why) = stale {
        // Header values must be one line of visible text.
        let why: String = why
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() || c == ' ' {
                    c
                } else {
                    ' '
                }
            })
            .take(300)
            .collect();
        headers.set(STALE_HEADER, &why)?;
    }
    if none_match_hits(req.headers().get("if-none-match")?.as_deref(), http_etag) {
        return Ok(Response::empty()?.with_status(304).with_headers(headers));
    }
    headers.set("content-length", &bytes.len().to_string())?;
    let head = req.method().to_string() == "HEAD";
    let body = if head { Vec::new() } else { bytes };
    Ok(Response::from_bytes(body)?.with_headers(headers))
}

/// A cold miss streamed as it is pulled: not cacheable (it is verified only at its end,
/// and a failed one ends broken), no ranges.
pub(crate) fn streamed(answer: Streamed) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/zip")?;
    headers.set("cache-control", "no-store")?;
    let fixed: worker::worker_sys::FixedLengthStream =
        worker::FixedLengthStream::wrap(answer.body, answer.length).into();
    Ok(Response::from_body(ResponseBody::Stream(fixed.readable()))?.with_headers(headers))
}

/// Streams the archive at `key` from R2 (the runtime pipes it), honouring `Range`,
/// `If-None-Match` and HEAD. `None` when the object does not exist.
pub(crate) async fn archive(bucket: &Bucket, req: &Request, key: &str) -> Result<Option<Response>> {
    let Some(head) = bucket.head(key).await? else {
        return Ok(None);
    };
    let size = head.size();
    let http_etag = head.http_etag();
    let headers = Headers::new();
    headers.set("content-type", "application/zip")?;
    headers.set("etag", &http_etag)?;
    headers.set("cache-control", CACHE_ARCHIVE)?;
    headers.set("accept-ranges", "bytes")?;
    if none_match_hits(req.headers().get("if-none-match")?.as_deref(), &http_etag) {
        return Ok(Some(
            Response::empty()?.with_status(304).with_headers(headers),
        ));
    }
    let is_head = req.method().to_string() == "HEAD";
    let (status, range) = match parse_range(req.headers().get("range")?.as_deref(), size) {
        RangeAnswer::Full => (200, None),
        RangeAnswer::Partial { start, end } => {
            headers.set("content-range", &format!("bytes {start}-{end}/{size}"))?;
            (206, Some((start, end)))
        }
        RangeAnswer::Unsatisfiable => {
            headers.set("content-range", &format!("bytes */{size}"))?;
            return Ok(Some(
                Response::empty()?.with_status(416).with_headers(headers),
            ));
        }
    };
    let length = range.map_or(size, |(s, e)| e - s + 1);
    headers.set("content-length", &length.to_string())?;
    if is_head {
        return Ok(Some(
            Response::empty()?.with_status(status).with_headers(headers),
        ));
    }
    let mut get = bucket.get(key);
    if let Some((offset, end)) = range {
        get = get.range(Range::OffsetWithLength {
            offset,
            length: end - offset + 1,
        });
    }
    let Some(object) = get.execute().await? else {
        return Ok(None);
    };
    let body = match object.body() {
        Some(body) => body.response_body()?,
        None => ResponseBody::Empty,
    };
    Ok(Some(
        Response::from_body(body)?
            .with_status(status)
            .with_headers(headers),
    ))
}
