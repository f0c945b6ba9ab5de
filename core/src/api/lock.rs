//! Lock and init: the planner and its installation sources driven as one sans-IO run.
//!
//! The planner asks for versions, package locations, local copies and packages; the
//! sources answer the first two by conversations of `GET`s and directory listings. A
//! [`LockRun`] holds both protocols and hands its host only plain IO requests
//! ([`IoRequest`]), any number at once, taking the responses back in any order. Two
//! conversations waiting on the same request share one (service discovery is asked once).

use super::io::{IoId, IoRequest, IoResponse, LocalPlace, PackageId};
use crate::install::{
    Answer, AnswerError, Need, NeedId, PackageDownload, PackageLocation, Planner, SourceError,
};
use crate::protocol::cliconfig::CliConfig;
use crate::protocol::Credentials;
use crate::source::{Conversation, Method, SourceRequest, SourceSet, Step};
use crate::{Diagnostics, Flavor};
use url::Url;

/// Where a lock run's providers come from: the options of `providers lock` and the npm
/// `lock()` that choose its installation sources, typed.
#[derive(Debug, Clone, Default)]
pub struct LockSources {
    /// The CLI configuration: its `provider_installation` methods, `host` blocks and
    /// `credentials` blocks.
    pub cli_config: CliConfig,
    /// One network mirror for every provider (`-net-mirror`), already checked to be an
    /// `https:` URL ([`option_mirror_url`](crate::protocol::mirror::option_mirror_url));
    /// replaces the configuration's methods.
    pub network_mirror: Option<Url>,
    /// Bearer tokens by hostname that win over the configuration's `credentials` blocks,
    /// as `TF_TOKEN_<host>` variables do.
    pub credentials: Credentials,
}

impl LockSources {
    /// The installation sources: the network mirror alone, else the configuration's
    /// methods (direct registry access without any). The error is the configuration's
    /// diagnostics.
    pub fn source_set(&self, flavor: Flavor) -> Result<SourceSet, Diagnostics> {
        match &self.network_mirror {
            Some(base) => Ok(SourceSet::single(
                Method::NetworkMirror {
                    base: base.clone(),
                    trust_all_hashes: false,
                },
                &self.cli_config,
                flavor,
            )),
            None => SourceSet::from_cli_config(&self.cli_config, flavor),
        }
    }

    /// The tokens requests carry: the given ones over the configuration's.
    pub fn credentials(&self) -> Credentials {
        self.credentials.clone().with_cli_config(&self.cli_config)
    }
}

/// A request handed to the host and not yet answered.
#[derive(Debug)]
enum Pending {
    /// A source request; these planner needs' conversations wait on it.
    Source {
        request: SourceRequest,
        waiting: Vec<NeedId>,
    },
    /// A local copy for this need.
    LocalCopy(NeedId),
    /// A package (download or local) for this need.
    Package(NeedId),
}

/// Why a response could not be taken: a bug in the host or in core, never in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// No request with this id is outstanding.
    #[error("no IO request {} is outstanding", .0 .0)]
    UnknownRequest(IoId),
    /// The response's kind does not fit the request.
    #[error("the response to IO request {} does not fit it", .0 .0)]
    Misfit(IoId),
    /// The planner refused the answer made of the response.
    #[error(transparent)]
    Planner(#[from] AnswerError),
}

/// One lock or init run: the planner, the installation sources and their conversations.
#[derive(Debug)]
pub struct LockRun<'a> {
    planner: &'a mut Planner,
    sources: &'a mut SourceSet,
    /// Open conversations, by the need they answer.
    talking: Vec<(NeedId, Conversation)>,
    /// Requests handed out and not yet answered.
    pending: Vec<(IoId, Pending)>,
    /// Requests made while taking a response, for the next [`LockRun::requests`].
    ready: Vec<(IoId, IoRequest)>,
    next_id: u32,
}

impl<'a> LockRun<'a> {
    /// A run of `planner` whose versions and package locations come from `sources`.
    pub fn new(planner: &'a mut Planner, sources: &'a mut SourceSet) -> LockRun<'a> {
        LockRun {
            planner,
            sources,
            talking: Vec::new(),
            pending: Vec::new(),
            ready: Vec::new(),
            next_id: 0,
        }
    }

    /// The IO requests that can be made now (perform them in any order, in parallel if
    /// you like); empty with nothing outstanding means the run is over: call
    /// [`Planner::finish`]. A planner need answered without IO (an invalid download URL)
    /// is answered here, so the requests it leads to come out in the same call.
    pub fn requests(&mut self) -> Result<Vec<(IoId, IoRequest)>, RunError> {
        let mut out = std::mem::take(&mut self.ready);
        loop {
            let needs = self.planner.take_requests();
            if needs.is_empty() {
                return Ok(out);
            }
            for req in needs {
                self.start(req.id, req.need, &mut out)?;
            }
        }
    }

    /// True when no request is outstanding and the planner asks for nothing more.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty() && self.ready.is_empty() && self.planner.is_done()
    }

    /// The planner's progress lines since the last call (`[bold]` markup), for live display.
    pub fn progress(&mut self) -> Vec<String> {
        self.planner.drain_progress()
    }

    /// Hands in the response to request `id`. The requests it makes possible come from
    /// the next [`LockRun::requests`].
    pub fn respond(&mut self, id: IoId, response: IoResponse) -> Result<(), RunError> {
        // A handful of entries at a time: a vector is smaller in wasm than a map.
        let at = self
            .pending
            .iter()
            .position(|(p, _)| *p == id)
            .ok_or(RunError::UnknownRequest(id))?;
        let (_, pending) = self.pending.swap_remove(at);
        match (pending, response) {
            (Pending::LocalCopy(need), IoResponse::LocalCopy(h1)) => {
                self.planner.answer(need, Answer::LocalPackage(h1))?;
            }
            (Pending::Package(need), IoResponse::Package(result)) => {
                let answer = Answer::Package(result.map_err(SourceError::other));
                self.planner.answer(need, answer)?;
            }
            (
                Pending::Source { waiting, .. },
                response @ (IoResponse::Http(_) | IoResponse::Listing(_)),
            ) => {
                let response = response.into_source().ok_or(RunError::Misfit(id))?;
                // Like `requests`, answered conversations may lead to new needs; they are
                // collected there.
                let mut out = Vec::new();
                for need in waiting {
                    if let Some((_, conv)) = self.talking.iter_mut().find(|(n, _)| *n == need) {
                        // The conversation's outstanding request is this one.
                        let _ = conv.receive(response.clone());
                    }
                    self.advance(need, &mut out)?;
                }
                self.deferred(out);
            }
            (pending, _) => {
                self.pending.push((id, pending));
                return Err(RunError::Misfit(id));
            }
        }
        Ok(())
    }

    /// Requests created while taking a response: they stay pending and are handed out by
    /// the next [`LockRun::requests`].
    fn deferred(&mut self, out: Vec<(IoId, IoRequest)>) {
        self.ready.extend(out);
    }

    fn issue(&mut self, pending: Pending, request: IoRequest, out: &mut Vec<(IoId, IoRequest)>) {
        let id = IoId(self.next_id);
        self.next_id += 1;
        self.pending.push((id, pending));
        out.push((id, request));
    }

    /// Starts answering one planner need.
    fn start(
        &mut self,
        id: NeedId,
        need: Need,
        out: &mut Vec<(IoId, IoRequest)>,
    ) -> Result<(), RunError> {
        if let Some(question) = need.question() {
            self.talking.push((id, self.sources.conversation(question)));
            return self.advance(id, out);
        }
        // An installed copy and a plugin-cache copy are read alike, from different places.
        let installed = matches!(need, Need::InstalledPackage { .. });
        match need {
            Need::InstalledPackage {
                provider,
                version,
                platform,
            }
            | Need::CachedPackage {
                provider,
                version,
                platform,
            } => {
                let place = if installed {
                    LocalPlace::Installed
                } else {
                    LocalPlace::PluginCache
                };
                let package = PackageId {
                    provider,
                    version,
                    platform,
                };
                let request = IoRequest::ReadLocalCopy { place, package };
                self.issue(Pending::LocalCopy(id), request, out);
            }
            Need::Package {
                provider,
                version,
                platform,
                location,
                known_zh,
                ..
            } => {
                let package = PackageId {
                    provider,
                    version,
                    platform,
                };
                let request = match location {
                    PackageLocation::Url(u) => {
                        match PackageDownload::new(&u, self.sources.flavor()) {
                            Ok(download) => IoRequest::Download {
                                download,
                                package,
                                known_zh,
                            },
                            Err(text) => {
                                let answer = Answer::Package(Err(SourceError::other(text)));
                                self.planner.answer(id, answer)?;
                                return Ok(());
                            }
                        }
                    }
                    PackageLocation::LocalArchive(path) => IoRequest::HashLocal {
                        path,
                        is_dir: false,
                        package,
                    },
                    PackageLocation::LocalDir(path) => IoRequest::HashLocal {
                        path,
                        is_dir: true,
                        package,
                    },
                };
                self.issue(Pending::Package(id), request, out);
            }
            // Sources answer these; `conversation` returned one above.
            Need::Versions { .. } | Need::PackageMeta { .. } => {}
        }
        Ok(())
    }

    /// Runs need `id`'s conversation until it waits for a response or answers.
    fn advance(&mut self, id: NeedId, out: &mut Vec<(IoId, IoRequest)>) -> Result<(), RunError> {
        let Some(at) = self.talking.iter().position(|(n, _)| *n == id) else {
            return Ok(());
        };
        match self.talking[at].1.poll(self.sources) {
            Step::Answer(found) => {
                self.talking.swap_remove(at);
                self.planner.answer(id, Answer::from(found))?;
            }
            Step::Request(request) => {
                let shared = self.pending.iter_mut().find_map(|(_, p)| match p {
                    Pending::Source {
                        request: asked,
                        waiting,
                    } if *asked == request => Some(waiting),
                    _ => None,
                });
                match shared {
                    Some(waiting) => waiting.push(id),
                    None => {
                        let io = IoRequest::from_source(&request);
                        let pending = Pending::Source {
                            request,
                            waiting: vec![id],
                        };
                        self.issue(pending, io, out);
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::{Platform, Provider};
    use crate::install::{Mode, PlanOptions, Requirements};
    use crate::lockfile::Locks;
    use crate::source::HttpResponse;
    use crate::version::Constraints;

    fn planner(names: &[&str]) -> Planner {
        let mut reqs = Requirements::new();
        for name in names {
            let p = Provider::parse(name, Flavor::Terraform).unwrap();
            reqs.insert(p, Constraints::parse("~> 1.0", Flavor::Terraform).unwrap());
        }
        let opts = PlanOptions::new(
            Flavor::Terraform,
            Mode::ProvidersLock,
            vec![Platform::new("linux", "amd64")],
        );
        Planner::new(reqs, Locks::default(), opts)
    }

    fn registry() -> SourceSet {
        LockSources::default()
            .source_set(Flavor::Terraform)
            .unwrap()
    }

    #[test]
    fn needs_waiting_on_the_same_request_share_one() {
        let mut planner = planner(&["example.com/a/one", "example.com/a/two"]);
        let mut set = registry();
        let mut run = LockRun::new(&mut planner, &mut set);
        let asked = run.requests().unwrap();
        // Both providers' version lists start with the host's service discovery: asked once.
        assert_eq!(asked.len(), 1, "{asked:?}");
        let (id, IoRequest::Get { url, auth_host }) = &asked[0] else {
            panic!("{asked:?}")
        };
        assert_eq!(
            url.as_str(),
            "https://example.com/.well-known/terraform.json"
        );
        assert_eq!(auth_host.as_deref(), Some("example.com"));
        let body = r#"{"providers.v1":"/v1/providers/"}"#;
        let doc = HttpResponse::new(url, 200, "OK", Some("application/json"), body);
        run.respond(*id, IoResponse::Http(Ok(doc))).unwrap();
        // Now each asks for its own version list.
        let mut urls: Vec<String> = run
            .requests()
            .unwrap()
            .into_iter()
            .map(|(_, r)| match r {
                IoRequest::Get { url, .. } => url.to_string(),
                other => panic!("{other:?}"),
            })
            .collect();
        urls.sort();
        assert_eq!(
            urls,
            [
                "https://example.com/v1/providers/a/one/versions",
                "https://example.com/v1/providers/a/two/versions"
            ]
        );
        assert!(!run.is_done());
    }

    #[test]
    fn a_response_to_nothing_outstanding_or_of_the_wrong_kind_is_refused() {
        let mut planner = planner(&["example.com/a/one"]);
        let mut set = registry();
        let mut run = LockRun::new(&mut planner, &mut set);
        assert_eq!(
            run.respond(IoId(7), IoResponse::LocalCopy(None)),
            Err(RunError::UnknownRequest(IoId(7)))
        );
        let (id, _) = run.requests().unwrap().remove(0);
        assert_eq!(
            run.respond(id, IoResponse::LocalCopy(None)),
            Err(RunError::Misfit(id))
        );
    }

    #[test]
    fn a_failed_request_ends_in_the_planners_words_and_the_run_is_done() {
        let mut planner = planner(&["example.com/a/one"]);
        let mut set = registry();
        let mut run = LockRun::new(&mut planner, &mut set);
        let (id, _) = run.requests().unwrap().remove(0);
        run.respond(id, IoResponse::Http(Err("connection refused".into())))
            .unwrap();
        assert!(run.requests().unwrap().is_empty());
        assert!(run.is_done());
        drop(run);
        let outcome = planner.finish();
        assert!(outcome.has_errors());
        let text = format!("{:?}", outcome.diagnostics);
        assert!(text.contains("connection refused"), "{text}");
    }
}
