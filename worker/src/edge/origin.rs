//! Talking to origins: the core's source requests performed with the CLI's credential
//! rules (a token only when the core names the registry host), fills run round by round
//! with each round's requests in parallel, archive downloads without credentials, a
//! timeout on every request and a cap on concurrent origin work per isolate.

use std::cell::Cell;
use std::time::Duration;

use futures_util::future::{join_all, select, Either};
use tflock_core::edge::fill::{Fill, FillStep, Filled};
use tflock_core::edge::{EdgeError, EdgeErrorKind};
use tflock_core::source::{HttpResponse, SourceRequest, SourceResponse};
use worker::{AbortController, Delay, Fetch, Headers, Method, Request, RequestInit, Response};

use super::{trace, Mirror};

/// How long one origin request may take before it counts as failed (a stalled origin).
const TIMEOUT: Duration = Duration::from_secs(10);
/// Origin operations (fills, pulls) one isolate runs at once; past it, 429.
pub(crate) const MAX_IN_FLIGHT: usize = 8;

thread_local! {
    static IN_FLIGHT: Cell<usize> = const { Cell::new(0) };
}

/// A slot of origin work; dropping it frees the slot.
pub(crate) struct Slot;

impl Slot {
    /// A slot, or `None` when the isolate is at its cap.
    pub(crate) fn take() -> Option<Slot> {
        IN_FLIGHT.with(|n| {
            if n.get() >= MAX_IN_FLIGHT {
                None
            } else {
                n.set(n.get() + 1);
                Some(Slot)
            }
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        IN_FLIGHT.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// Runs `fill` against the origin.
pub(crate) async fn run_fill(mirror: &Mirror, mut fill: Fill) -> Result<Filled, EdgeError> {
    loop {
        match fill.poll() {
            FillStep::Done(result) => return result,
            FillStep::Requests(requests) => {
                let started = worker::Date::now().as_millis();
                let responses = join_all(requests.iter().map(|r| perform(mirror, r))).await;
                let spent = worker::Date::now().as_millis().saturating_sub(started);
                trace(|t| t.origin_ms += spent);
                for (request, response) in requests.into_iter().zip(responses) {
                    fill.receive(request, response);
                }
            }
        }
    }
}

/// One source request.
async fn perform(mirror: &Mirror, request: &SourceRequest) -> SourceResponse {
    let SourceRequest::Get { url, auth_host } = request else {
        return SourceResponse::Listing(Err("a mirror has no local directories".to_string()));
    };
    let token = auth_host
        .as_deref()
        .and_then(|h| mirror.config.token_for(h));
    let result = match get(url.as_str(), token).await {
        Ok(resp) => {
            // The URL after redirects, read before the body is consumed.
            let raw: worker::web_sys::Response = resp.into();
            let final_url = worker::Url::parse(&raw.url()).unwrap_or_else(|_| url.clone());
            let mut resp = Response::from(raw);
            let status = resp.status_code();
            let content_type = resp.headers().get("content-type").ok().flatten();
            match resp.bytes().await {
                Ok(body) => {
                    let reason = http::StatusCode::from_u16(status)
                        .ok()
                        .and_then(|s| s.canonical_reason())
                        .unwrap_or("");
                    let mut r = HttpResponse::new(
                        &final_url,
                        status,
                        reason,
                        content_type.as_deref(),
                        body,
                    );
                    r.had_credentials = token.is_some();
                    Ok(r)
                }
                Err(e) => Err(format!("reading the response from {url}: {e}")),
            }
        }
        Err(e) => Err(e),
    };
    SourceResponse::Http(result)
}

/// `GET url` with an optional bearer token, within [`TIMEOUT`].
pub(crate) async fn get(url: &str, token: Option<&str>) -> Result<Response, String> {
    let headers = Headers::new();
    headers
        .set("user-agent", "tflock-edge-mirror")
        .map_err(|e| e.to_string())?;
    if let Some(token) = token {
        headers
            .set("authorization", &format!("Bearer {token}"))
            .map_err(|e| e.to_string())?;
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Get).with_headers(headers);
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    let abort = AbortController::default();
    let signal = abort.signal();
    let fetch = Fetch::Request(request);
    let outcome = {
        let sending = Box::pin(fetch.send_with_signal(&signal));
        let timer = Box::pin(Delay::from(TIMEOUT));
        match select(sending, timer).await {
            Either::Left((Ok(resp), _)) => Some(Ok(resp)),
            Either::Left((Err(e), _)) => Some(Err(format!("request to {url} failed: {e}"))),
            Either::Right(_) => None,
        }
    };
    match outcome {
        Some(result) => result,
        None => {
            abort.abort();
            Err(format!(
                "the origin did not answer {url} within {} s",
                TIMEOUT.as_secs()
            ))
        }
    }
}

/// The error for a request turned away by the cap.
pub(crate) fn busy() -> EdgeError {
    EdgeError::new(
        EdgeErrorKind::OriginFailed,
        "the mirror is busy with other origin requests; retry shortly",
    )
}
