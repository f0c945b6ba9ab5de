//! The Workers runtime glue: R2, Queues and outbound fetches driving the core's edge rules.
//!
//! The decisions (what to serve, what to publish, how long to wait, what is abandoned) are
//! `tflock_core::edge`'s; these files only perform them:
//!
//! - `documents`: `index.json` / `<version>.json`, filled from the origin on a miss.
//! - `archives`: `GET`/`HEAD` of an archive: served from R2, pulled on a miss.
//! - `pulls`: the single-flight pull of an archive (in-isolate, then across isolates by
//!   lease), run in the background so it outlives its client.
//! - `background`: work that outlives the request that started it (`ctx.wait_until`).
//! - `stage`: an archive streamed into a multipart upload while it is hashed.
//! - `tap`: a cold miss streamed to its client as it is pulled (the core's `edge::tee`).
//! - `pass`: an archive another isolate is pulling, streamed from the origin to a waiter,
//!   verified and never stored (the core's `edge::wait`).
//! - `publish`: claiming an archive's key, completing its upload, updating documents.
//! - `uploads`: `PUT` of an archive.
//! - `sweep`: aborting multipart uploads an evicted isolate left behind (queue consumer).
//! - `fills`: the queue consumer (`h1:` of every platform, backfill) and its producer side.
//! - `origin`: performing the core's source requests with the CLI's credential rules.
//! - `owed`: leases and uploads a dropped pull left held, given back at the next chance.
//! - `part_buffer`: the multipart part being filled, one JS buffer reused for every part.
//! - `sha`: SHA-256 on `node:crypto` (native) for the zip hashers.
//! - `store`: R2 reads, compare-and-swap writes, leases.
//! - `respond`: HTTP answers (CORS, caching, ranges, `ETag`).

mod archives;
mod background;
mod documents;
mod fills;
mod origin;
mod owed;
mod part_buffer;
mod pass;
mod publish;
mod pulls;
mod respond;
mod sha;
mod stage;
mod store;
mod sweep;
mod tap;
mod uploads;

use std::cell::RefCell;
use std::rc::Rc;

use tflock_core::edge::config::EdgeConfig;
use worker::{event, Context, Env, MessageBatch, Request, Response, Result};

use tflock_core::edge::route::{route, Route};

/// The R2 binding.
const BUCKET: &str = "MIRROR";
/// The queue producer binding for background fills.
const QUEUE: &str = "FILL";

/// What one request learned, for its log line.
#[derive(Debug, Default, Clone)]
pub(crate) struct Trace {
    /// `hit`, `miss`, `stale` or `-`.
    pub cache: &'static str,
    /// Milliseconds spent waiting for the origin.
    pub origin_ms: u64,
    /// `verified`, `refused: ...` or `-`.
    pub verification: String,
}

thread_local! {
    /// The configuration parsed from the variables it was last seen with: parsing the CLI
    /// configuration text on every request was about 15% of a document hit's CPU.
    static CONFIG: RefCell<Option<ParsedConfig>> = const { RefCell::new(None) };
}

/// The `env` object the variables were read from, the variables, and the configuration
/// parsed from them.
type ParsedConfig = (
    worker::js_sys::Object,
    Vec<(String, String)>,
    Rc<EdgeConfig>,
);

/// The mirror's bindings and settings for one invocation, and its trace. Cloned into work
/// that outlives the request (a pull), which keeps writing to the same trace.
#[derive(Clone)]
pub(crate) struct Mirror {
    pub env: Env,
    pub config: Rc<EdgeConfig>,
    /// This request's trace (one per request: concurrent requests never share it).
    trace: Rc<RefCell<Trace>>,
    /// The fetch event's context, for work that must outlive the client; `None` in the
    /// queue consumer, which has no client to lose.
    ctx: Option<Rc<Context>>,
}

impl Mirror {
    /// Updates this request's trace.
    pub fn trace(&self, f: impl FnOnce(&mut Trace)) {
        f(&mut self.trace.borrow_mut());
    }

    /// The fetch event's context, if this is a request.
    pub fn ctx(&self) -> Option<&Context> {
        self.ctx.as_deref()
    }

    fn new(env: Env, ctx: Option<Context>) -> std::result::Result<Mirror, String> {
        let ctx = ctx.map(Rc::new);
        let trace = Rc::new(RefCell::new(Trace::default()));
        use worker::wasm_bindgen::JsCast;
        // workerd hands every request of an isolate the same `env` object, and its bindings
        // do not change under it: the same object needs no reading at all (a dozen calls
        // into JS per request, before).
        let same = CONFIG.with(|c| {
            c.borrow().as_ref().and_then(|(seen, _, config)| {
                let obj: &worker::js_sys::Object = env.unchecked_ref();
                worker::js_sys::Object::is(seen, obj).then(|| Rc::clone(config))
            })
        });
        if let Some(config) = same {
            return Ok(Mirror {
                env,
                config,
                trace,
                ctx,
            });
        }
        let mut vars = Vec::new();
        for name in [
            "TFLOCK_CLI_CONFIG",
            "TFLOCK_FLAVOR",
            "TFLOCK_PRIVATE_HOSTS",
            "TFLOCK_ALLOWED_HOSTS",
            "TFLOCK_LIMITS",
            "TFLOCK_READ_TOKEN",
            "TFLOCK_UPLOAD_TOKENS",
            "UPLOAD_TOKEN",
        ] {
            if let Some(v) = var(&env, name) {
                vars.push((name.to_string(), v));
            }
        }
        // `TF_TOKEN_*` and `UPLOAD_TOKEN_*` secrets: their names are only known at runtime.
        for name in binding_names(&env) {
            if name.starts_with("TF_TOKEN_") || name.starts_with("UPLOAD_TOKEN_") {
                if let Some(v) = var(&env, &name) {
                    vars.push((name, v));
                }
            }
        }
        let obj: worker::js_sys::Object = env.clone().unchecked_into();
        let config = CONFIG.with(|c| {
            let mut c = c.borrow_mut();
            let config = match c.as_ref() {
                Some((_, seen, config)) if *seen == vars => Rc::clone(config),
                _ => Rc::new(EdgeConfig::from_vars(&vars).map_err(|e| e.to_string())?),
            };
            *c = Some((obj, vars, Rc::clone(&config)));
            Ok::<_, String>(config)
        })?;
        Ok(Mirror {
            env,
            config,
            trace,
            ctx,
        })
    }

    pub fn bucket(&self) -> Result<worker::Bucket> {
        self.env.bucket(BUCKET)
    }

    pub fn queue(&self) -> Option<worker::Queue> {
        self.env.queue(QUEUE).ok()
    }
}

/// A variable or secret, whichever is bound.
fn var(env: &Env, name: &str) -> Option<String> {
    env.secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok()
}

/// The names bound on `env` (variables, secrets and bindings alike).
fn binding_names(env: &Env) -> Vec<String> {
    use worker::wasm_bindgen::JsCast;
    let obj: &worker::js_sys::Object = env.unchecked_ref();
    worker::js_sys::Object::keys(obj)
        .iter()
        .filter_map(|k| k.as_string())
        .collect()
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let started = worker::Date::now().as_millis();
    let method = req.method().to_string();
    let path = req.path();
    let mut which = Route::NotFound;
    let mut trace = None;
    let response = match Mirror::new(env, Some(ctx)) {
        Err(why) => respond::error(
            500,
            &format!("The mirror's configuration is invalid: {why}"),
        ),
        Ok(mirror) => {
            owed::settle(&mirror).await;
            trace = Some(Rc::clone(&mirror.trace));
            which = route(&method, &path, mirror.config.flavor);
            let auth = req.headers().get("authorization")?.unwrap_or_default();
            if needs_read_token(&which) && !mirror.config.read_allowed(&auth) {
                respond::unauthorized()
            } else {
                handle(&mirror, req, &which).await
            }
        }
    };
    let response = match response {
        Ok(r) => r,
        Err(e) => respond::error(500, &format!("{e}"))?,
    };
    let response = respond::with_cors(response)?;
    {
        let t = trace.map(|t| t.borrow().clone()).unwrap_or_default();
        let line = serde_json::json!({
            "method": method,
            "path": path,
            "route": route_name(&which),
            "status": response.status_code(),
            "cache": if t.cache.is_empty() { "-" } else { t.cache },
            "origin_ms": t.origin_ms,
            "verification": if t.verification.is_empty() { "-" } else { t.verification.as_str() },
            "ms": worker::Date::now().as_millis().saturating_sub(started),
        });
        worker::console_log!("{line}");
    }
    Ok(response)
}

async fn handle(mirror: &Mirror, mut req: Request, which: &Route) -> Result<Response> {
    match which {
        Route::Document(doc) => documents::serve(mirror, &req, doc).await,
        Route::Archive(a) => archives::serve(mirror, &req, a).await,
        Route::Upload(u) => uploads::receive(mirror, &mut req, u).await,
        Route::Preflight => respond::preflight(),
        Route::Backfill => fills::backfill(mirror, &mut req).await,
        Route::Objects => store::objects(mirror, &req).await,
        Route::NotFound => respond::error(404, "Not Found"),
        Route::MethodNotAllowed => respond::error(405, "Method Not Allowed"),
    }
}

/// Every read but a CORS preflight (which browsers send without credentials); uploads and
/// the operator's routes check their own tokens.
fn needs_read_token(r: &Route) -> bool {
    !matches!(
        r,
        Route::Preflight | Route::Upload(_) | Route::Backfill | Route::Objects
    )
}

fn route_name(r: &Route) -> &'static str {
    match r {
        Route::Document(d) if d.version.is_some() => "version",
        Route::Document(_) => "index",
        Route::Archive(_) => "archive",
        Route::Upload(_) => "upload",
        Route::Preflight => "preflight",
        Route::Backfill => "backfill",
        Route::Objects => "objects",
        Route::NotFound => "not_found",
        Route::MethodNotAllowed => "method_not_allowed",
    }
}

#[event(queue)]
async fn queue(batch: MessageBatch<serde_json::Value>, env: Env, _ctx: Context) -> Result<()> {
    let mirror = Mirror::new(env, None).map_err(worker::Error::RustError)?;
    fills::consume(&mirror, batch).await
}
