//! Talking to origins: the core's fill requests performed with the CLI's credential
//! rules (a token only when the core names the registry host, and only to that URL's
//! origin across redirects), fills run round by round with each round's requests in
//! parallel, archive downloads without credentials, and a cap on concurrent origin work per
//! isolate. Which URLs may be fetched (every redirect hop included), how much and how long
//! a body may take and when to retry are the core's calls (`edge::allow`, `edge::limits`);
//! this file only keeps the clock and the connection.

use std::time::Duration;

use futures_util::future::{join_all, select, Either};
use futures_util::StreamExt;
use tflock_core::api::HttpResponse;
use tflock_core::edge::fill::{Fill, FillStep, Filled, OriginAnswer, OriginGet};
use tflock_core::edge::held::{Slot, Slots};
use tflock_core::edge::limits::{BodyGuard, Failure};
use tflock_core::edge::uploads::stale_after_ms;
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use worker::{
    AbortSignal, ByteStream, Delay, Fetch, Headers, Method, Request, RequestInit, RequestRedirect,
    Response, Url,
};

use super::documents::now;
use super::Mirror;

/// Origin operations (fills, pulls) one isolate runs at once; past it, 429.
pub(crate) const MAX_IN_FLIGHT: usize = 8;
/// Redirects followed per request, as Go's HTTP client does.
const MAX_REDIRECTS: usize = 10;

thread_local! {
    /// This isolate's slots of origin work (`core::edge::held`).
    static SLOTS: Slots = Slots::new(MAX_IN_FLIGHT);
}

/// A slot of origin work, or `None` when the isolate is at its cap. Dropping it frees the
/// slot; one whose holder the runtime abandoned stops counting after the longest a pull
/// may run.
pub(crate) fn take_slot(mirror: &Mirror) -> Option<Slot> {
    let longest = stale_after_ms(&mirror.config.limits);
    SLOTS.with(|s| s.take(now(), longest))
}

/// Runs `f` with this isolate's slots of origin work (a pass-through takes one, `pass.rs`).
pub(crate) fn with_slots<T>(f: impl FnOnce(&Slots) -> T) -> T {
    SLOTS.with(f)
}

/// Runs `fill` against the origin. When the fill fails after a request was cut short by a
/// limit or refused by the allowed hosts, that verdict is the answer (its status and words
/// say more than the fill's generic "request failed").
pub(crate) async fn run_fill(mirror: &Mirror, mut fill: Fill) -> Result<Filled, EdgeError> {
    let mut cut_short: Option<EdgeError> = None;
    loop {
        match fill.poll() {
            FillStep::Done(Err(e)) => return Err(cut_short.unwrap_or(e)),
            FillStep::Done(result) => return result,
            FillStep::Requests(requests) => {
                let started = worker::Date::now().as_millis();
                let responses = join_all(requests.iter().map(|r| perform(mirror, r))).await;
                let spent = worker::Date::now().as_millis().saturating_sub(started);
                mirror.trace(|t| t.origin_ms += spent);
                for (request, (response, verdict)) in requests.into_iter().zip(responses) {
                    if cut_short.is_none() {
                        cut_short = verdict;
                    }
                    fill.receive(request, response);
                }
            }
        }
    }
}

/// One fill request, retried per the core's policy; the core's verdict when a limit or
/// the allowed hosts ended it.
async fn perform(mirror: &Mirror, request: &OriginGet) -> (OriginAnswer, Option<EdgeError>) {
    let OriginGet { url, auth_host } = request;
    let token = auth_host
        .as_deref()
        .and_then(|h| mirror.config.token_for(h));
    let mut attempt = 0;
    loop {
        let outcome = document(mirror, url, token).await;
        // The policy decides which statuses are worth another try.
        let failure = match &outcome {
            Ok(r) => Some(Failure::Status(r.status)),
            Err(a) => a.retry,
        };
        let delay = failure.and_then(|f| {
            mirror
                .config
                .limits
                .retry_after(attempt, f, worker::js_sys::Math::random())
        });
        let Some(ms) = delay else {
            return match outcome {
                Ok(mut r) => {
                    r.had_credentials = token.is_some();
                    (Ok(r), None)
                }
                Err(Attempt { error, retry }) => {
                    let verdict = retry.is_none().then(|| error.clone());
                    (Err(error.message), verdict)
                }
            };
        };
        Delay::from(Duration::from_millis(ms)).await;
        attempt += 1;
    }
}

/// A failed attempt: the error, and whether it may be retried (a lost connection) or is a
/// verdict (a limit, a refused URL).
pub(crate) struct Attempt {
    pub error: EdgeError,
    pub retry: Option<Failure>,
}

impl Attempt {
    fn verdict(error: EdgeError) -> Attempt {
        Attempt { error, retry: None }
    }
}

/// `GET url` as a document: headers and body within the document limits, read streamed.
async fn document(
    mirror: &Mirror,
    url: &Url,
    token: Option<&str>,
) -> Result<HttpResponse, Attempt> {
    let limits = &mirror.config.limits;
    let mut guard = limits.document(url.as_str(), now());
    let headers_ms = limits.headers_ms.min(limits.document_ms);
    let mut opened = open(mirror, url, token, headers_ms).await?;
    let status = opened.resp.status_code();
    let content_type = opened.resp.headers().get("content-type").ok().flatten();
    let body = read_body(&mut opened, &mut guard).await?;
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    Ok(HttpResponse::new(
        &opened.url,
        status,
        reason,
        content_type.as_deref(),
        body,
    ))
}

/// Cuts an origin connection (worker-rs's controller can abort only once, by value).
pub(crate) struct Abort(worker::web_sys::AbortController);

impl Abort {
    fn new() -> Result<Abort, Attempt> {
        worker::web_sys::AbortController::new()
            .map(Abort)
            .map_err(|_| {
                Attempt::verdict(EdgeError::new(
                    EdgeErrorKind::OriginFailed,
                    "the runtime has no AbortController",
                ))
            })
    }

    fn signal(&self) -> AbortSignal {
        AbortSignal::from(self.0.signal())
    }

    /// Ends the request and its body (again: no effect).
    pub(crate) fn abort(&self) {
        self.0.abort();
    }
}

/// An origin response whose headers arrived: the connection can still be cut with `abort`.
pub(crate) struct Opened {
    pub resp: Response,
    /// The URL after redirects.
    pub url: Url,
    pub abort: Abort,
}

impl Opened {
    /// Checks the answer's declared `Content-Length` against `guard` before reading, cutting
    /// the connection when it is over the limit.
    pub(crate) fn check_declared(&self, guard: &BodyGuard) -> Result<(), EdgeError> {
        let declared = declared_length(&self.resp);
        guard.declared(declared).inspect_err(|_| self.abort.abort())
    }
}

/// The `Content-Length` an answer declares, if any.
pub(crate) fn declared_length(resp: &Response) -> Option<u64> {
    resp.headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|l| l.parse().ok())
}

/// `GET url` with an optional bearer token, following redirects here so that every hop is
/// checked against the allowed hosts and the token goes only to `url`'s own origin; the
/// headers must come within `headers_ms` per hop.
pub(crate) async fn open(
    mirror: &Mirror,
    url: &Url,
    token: Option<&str>,
    headers_ms: u64,
) -> Result<Opened, Attempt> {
    let abort = Abort::new()?;
    let mut current = url.clone();
    for _ in 0..=MAX_REDIRECTS {
        mirror
            .config
            .allowed
            .fetch(&current)
            .map_err(Attempt::verdict)?;
        let same_origin = current.origin() == url.origin();
        let resp = send(&current, token.filter(|_| same_origin), &abort, headers_ms).await?;
        let status = resp.status_code();
        if matches!(status, 301 | 302 | 303 | 307 | 308) {
            if let Some(location) = resp.headers().get("location").ok().flatten() {
                current = current.join(&location).map_err(|_| {
                    Attempt::verdict(EdgeError::new(
                        EdgeErrorKind::OriginFailed,
                        format!("{current} redirected to {location:?}, which is no URL"),
                    ))
                })?;
                continue;
            }
        }
        return Ok(Opened {
            resp,
            url: current,
            abort,
        });
    }
    abort.abort();
    Err(Attempt::verdict(EdgeError::new(
        EdgeErrorKind::OriginFailed,
        format!("{url}: more than {MAX_REDIRECTS} redirects"),
    )))
}

/// One hop.
async fn send(
    url: &Url,
    token: Option<&str>,
    abort: &Abort,
    headers_ms: u64,
) -> Result<Response, Attempt> {
    let failed = |e: String| Attempt::verdict(EdgeError::new(EdgeErrorKind::OriginFailed, e));
    let headers = Headers::new();
    headers
        .set("user-agent", "tflock-edge-mirror")
        .map_err(|e| failed(e.to_string()))?;
    if let Some(token) = token {
        headers
            .set("authorization", &format!("Bearer {token}"))
            .map_err(|e| failed(e.to_string()))?;
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Get)
        .with_headers(headers)
        .with_redirect(RequestRedirect::Manual);
    let request = Request::new_with_init(url.as_str(), &init).map_err(|e| failed(e.to_string()))?;
    let signal = abort.signal();
    let fetch = Fetch::Request(request);
    let outcome = {
        let sending = Box::pin(fetch.send_with_signal(&signal));
        let timer = Box::pin(Delay::from(Duration::from_millis(headers_ms)));
        match select(sending, timer).await {
            Either::Left((result, _)) => Some(result),
            Either::Right(_) => None,
        }
    };
    match outcome {
        Some(Ok(resp)) => Ok(resp),
        Some(Err(e)) => Err(Attempt {
            error: EdgeError::new(
                EdgeErrorKind::OriginFailed,
                format!("request to {url} failed: {e}"),
            ),
            retry: Some(Failure::Connection),
        }),
        None => {
            abort.abort();
            Err(Attempt::verdict(EdgeError::new(
                EdgeErrorKind::TimedOut,
                format!(
                    "the origin did not answer {url} within {:.1} s",
                    headers_ms as f64 / 1000.0
                ),
            )))
        }
    }
}

/// Reads `opened`'s body whole under `guard` (documents only: a few MiB at most).
async fn read_body(opened: &mut Opened, guard: &mut BodyGuard) -> Result<Vec<u8>, Attempt> {
    opened.check_declared(guard).map_err(Attempt::verdict)?;
    let mut body = opened.resp.stream().map_err(|e| Attempt {
        error: EdgeError::new(EdgeErrorKind::OriginFailed, e.to_string()),
        retry: Some(Failure::Connection),
    })?;
    let mut bytes = Vec::new();
    while let Some(chunk) = next_chunk(&mut body, guard, &opened.abort).await? {
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The next chunk of an origin body within `guard`'s limits, `None` at its end; cuts the
/// connection when a limit ends it.
pub(crate) async fn next_chunk(
    body: &mut ByteStream,
    guard: &mut BodyGuard,
    abort: &Abort,
) -> Result<Option<Vec<u8>>, Attempt> {
    let wait = Duration::from_millis(guard.wait_ms(now()));
    let next = match select(body.next(), Box::pin(Delay::from(wait))).await {
        Either::Left((next, _)) => next,
        Either::Right(_) => {
            abort.abort();
            return Err(Attempt::verdict(guard.expired(now())));
        }
    };
    match next {
        None => Ok(None),
        Some(Err(e)) => Err(Attempt {
            error: EdgeError::new(
                EdgeErrorKind::OriginFailed,
                format!("reading the origin's answer failed: {e}"),
            ),
            retry: Some(Failure::Connection),
        }),
        Some(Ok(chunk)) => {
            if let Err(e) = guard.chunk(chunk.len(), now()) {
                abort.abort();
                return Err(Attempt::verdict(e));
            }
            Ok(Some(chunk))
        }
    }
}

/// Opens an archive download (no credentials, as the CLI fetches them), retrying lost
/// connections and 5xx answers before any byte was read.
pub(crate) async fn open_archive(mirror: &Mirror, url: &Url) -> Result<Opened, EdgeError> {
    let limits = &mirror.config.limits;
    let mut attempt = 0;
    loop {
        let outcome = open(mirror, url, None, limits.headers_ms).await;
        let failure = match &outcome {
            Ok(o) => Some(Failure::Status(o.resp.status_code())),
            Err(a) => a.retry,
        };
        let delay =
            failure.and_then(|f| limits.retry_after(attempt, f, worker::js_sys::Math::random()));
        let Some(ms) = delay else {
            return outcome.map_err(|a| a.error);
        };
        if let Ok(o) = &outcome {
            o.abort.abort();
        }
        Delay::from(Duration::from_millis(ms)).await;
        attempt += 1;
    }
}
