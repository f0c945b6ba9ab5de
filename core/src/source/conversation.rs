//! One question (a provider's versions, a package's location), answered by talking to the
//! sources: a resumable procedure.
//!
//! The procedure is written as straight-line code over a [`Ctx`] whose IO calls either
//! return a response the host already gave or suspend with the request still missing.
//! [`Conversation::poll`] runs it from the top against the responses received so far
//! (requests are few and small, so replaying is cheap), which makes every intermediate
//! state a plain list of exchanges: easy to test, nothing to get out of sync.

use super::answers::{AvailableVersions, Found, Question, SourceError, SourcePackage};
use super::requests::{DirEntry, HttpResponse, SourceRequest, SourceResponse};
use super::set::{Listed, Method, SourceSet};
use super::{filesystem, network_mirror, registry};
use crate::addrs::{Platform, Provider};
use crate::version::Version;
use url::Url;

/// A response handed in while no request was outstanding: a bug in the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no source request is outstanding")]
pub struct NotOutstanding;

/// What to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Perform this request and [`Conversation::receive`] the response.
    Request(SourceRequest),
    /// The answer; the conversation is over.
    Answer(Found),
}

/// The exchanges of one need with the sources.
#[derive(Debug, Clone)]
pub struct Conversation {
    goal: Question,
    log: Vec<(SourceRequest, SourceResponse)>,
    pending: Option<SourceRequest>,
}

/// The procedure stopped: this request has no response yet.
pub(crate) struct Suspend(pub(crate) SourceRequest);

/// A step of the procedure that may need IO.
pub(crate) type Io<T> = Result<T, Suspend>;

/// Why a procedure stopped before its result: it is waiting for IO, or it failed. One
/// error type for both lets `?` carry either out of a procedure.
pub(crate) enum Halt<E = SourceError> {
    /// This request has no response yet.
    Suspend(SourceRequest),
    /// The source failed with this error.
    Failed(E),
}

impl<E> From<Suspend> for Halt<E> {
    fn from(Suspend(req): Suspend) -> Halt<E> {
        Halt::Suspend(req)
    }
}

impl From<SourceError> for Halt {
    fn from(e: SourceError) -> Halt {
        Halt::Failed(e)
    }
}

/// A step of the procedure that may suspend for IO or fail.
pub(crate) type Flow<T, E = SourceError> = Result<T, Halt<E>>;

/// A flow's outcome with the failure as a value: only a suspension stays an error.
pub(crate) fn settle<T, E>(flow: Flow<T, E>) -> Io<Result<T, E>> {
    match flow {
        Ok(t) => Ok(Ok(t)),
        Err(Halt::Failed(e)) => Ok(Err(e)),
        Err(Halt::Suspend(req)) => Err(Suspend(req)),
    }
}

/// The procedure's view of the world: the set's memory and the responses so far.
pub(crate) struct Ctx<'a> {
    pub(crate) set: &'a mut SourceSet,
    log: &'a [(SourceRequest, SourceResponse)],
}

impl<'a> Ctx<'a> {
    /// A view of `set` and the responses in `log`.
    pub(crate) fn new(
        set: &'a mut SourceSet,
        log: &'a [(SourceRequest, SourceResponse)],
    ) -> Ctx<'a> {
        Ctx { set, log }
    }

    fn find(&self, req: SourceRequest) -> Io<&'a SourceResponse> {
        match self.log.iter().find(|(r, _)| *r == req) {
            Some((_, resp)) => Ok(resp),
            None => Err(Suspend(req)),
        }
    }

    /// `GET url`, sending `auth_host`'s credentials when given.
    pub(crate) fn get(
        &self,
        url: &Url,
        auth_host: Option<&str>,
    ) -> Io<Result<&'a HttpResponse, String>> {
        let req = SourceRequest::Get {
            url: url.clone(),
            auth_host: auth_host.map(str::to_string),
        };
        Ok(match self.find(req)? {
            SourceResponse::Http(Ok(r)) => Ok(r),
            SourceResponse::Http(Err(e)) => Err(e.clone()),
            SourceResponse::Listing(_) => {
                Err("the host answered an HTTP request with a directory listing".to_string())
            }
        })
    }

    /// The entries of `path`, `None` when it cannot be listed.
    pub(crate) fn list_dir(&self, path: &str) -> Io<Option<&'a [DirEntry]>> {
        let req = SourceRequest::ListDir {
            path: path.to_string(),
        };
        Ok(match self.find(req)? {
            SourceResponse::Listing(Ok(entries)) => Some(entries.as_slice()),
            SourceResponse::Listing(Err(_)) | SourceResponse::Http(_) => None,
        })
    }
}

impl Conversation {
    /// A conversation answering `question`.
    pub fn new(question: Question) -> Conversation {
        Conversation {
            goal: question,
            log: Vec::new(),
            pending: None,
        }
    }

    /// The next request, or the answer once every response it needs has arrived. Asking
    /// again before answering returns the same request. What is learned on the way
    /// (discovery, version lists) is remembered in `set`.
    pub fn poll(&mut self, set: &mut SourceSet) -> Step {
        let mut ctx = Ctx {
            set,
            log: &self.log,
        };
        let result = match &self.goal {
            Question::Versions(p) => settle(versions(&mut ctx, p)).map(Found::Versions),
            Question::PackageMeta(p, v, platform) => {
                settle(package_meta(&mut ctx, p, v, platform)).map(Found::PackageMeta)
            }
        };
        match result {
            Ok(answer) => {
                self.pending = None;
                Step::Answer(answer)
            }
            Err(Suspend(req)) => {
                self.pending = Some(req.clone());
                Step::Request(req)
            }
        }
    }

    /// Hands in the response to the request [`Conversation::poll`] returned last. An
    /// error when no request is outstanding.
    pub fn receive(&mut self, response: SourceResponse) -> Result<(), NotOutstanding> {
        let req = self.pending.take().ok_or(NotOutstanding)?;
        self.log.push((req, response));
        Ok(())
    }

    /// Runs the conversation to its answer with a blocking `perform`.
    pub fn run(
        mut self,
        set: &mut SourceSet,
        mut perform: impl FnMut(&SourceRequest) -> SourceResponse,
    ) -> Found {
        loop {
            match self.poll(set) {
                Step::Answer(a) => return a,
                Step::Request(req) => {
                    let resp = perform(&req);
                    // `poll` just set the pending request, so this cannot fail.
                    let _ = self.receive(resp);
                }
            }
        }
    }

    /// Every exchange so far, in order.
    pub fn exchanges(&self) -> &[(SourceRequest, SourceResponse)] {
        &self.log
    }
}

/// The versions source `i` offers for `p`, fetched once per set; `None` when the source
/// has no such provider. Failures are not remembered.
fn listed_versions(ctx: &mut Ctx<'_>, i: usize, m: &Method, p: &Provider) -> Flow<Option<Listed>> {
    let key = (i, p.clone());
    if let Some(hit) = ctx.set.listed.get(&key) {
        return Ok(hit.clone());
    }
    let fresh = match m {
        Method::Registry => Some(Listed {
            available: registry::versions(ctx, p)?,
            packages: Vec::new(),
        }),
        Method::NetworkMirror { base, .. } => {
            network_mirror::versions(ctx, base, p)?.map(|available| Listed {
                available,
                packages: Vec::new(),
            })
        }
        Method::FilesystemMirror { path } => filesystem::listing(ctx, path, p)?,
    };
    ctx.set.listed.insert(key, fresh.clone());
    Ok(fresh)
}

/// All versions any handling source offers (union, like `MultiSource`).
fn versions(ctx: &mut Ctx<'_>, p: &Provider) -> Flow<AvailableVersions> {
    let mut found = false;
    let mut out = AvailableVersions::default();
    for (i, method) in ctx.set.handling(p) {
        let Some(listed) = listed_versions(ctx, i, &method, p)? else {
            continue;
        };
        found = true;
        for version in listed.available.versions {
            if !out.versions.contains(&version) {
                out.versions.push(version);
            }
        }
        out.warnings.extend(listed.available.warnings);
    }
    if !found {
        return Err(SourceError::other(format!(
            "provider {p} was not found in any of the search locations\n\n{}",
            ctx.set.describe_locations(p)
        ))
        .into());
    }
    Ok(out)
}

/// Where to get `p` `v` for `platform`: the first handling source that lists the version.
/// A source that fails to list is skipped; its error is the answer when none lists it.
fn package_meta(
    ctx: &mut Ctx<'_>,
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Flow<SourcePackage> {
    let mut last_err = None;
    for (i, method) in ctx.set.handling(p) {
        let listed = match listed_versions(ctx, i, &method, p) {
            Ok(listed) => listed,
            Err(Halt::Failed(e)) => {
                last_err = Some(e);
                continue;
            }
            Err(suspend) => return Err(suspend),
        };
        let Some(listed) = listed.filter(|l| l.available.versions.contains(v)) else {
            continue;
        };
        return match &method {
            Method::Registry => registry::package_flow(ctx, p, v, platform),
            Method::NetworkMirror {
                base,
                trust_all_hashes,
            } => network_mirror::package(ctx, base, *trust_all_hashes, p, v, platform),
            Method::FilesystemMirror { .. } => {
                Ok(filesystem::package(&listed.packages, p, v, platform)?)
            }
        };
    }
    Err(Halt::Failed(last_err.unwrap_or_else(|| {
        SourceError::other(format!(
            "provider {p} {v} is not available from any of the configured sources"
        ))
    })))
}
