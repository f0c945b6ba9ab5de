//! What the installation sources say about one package (where it is, which hashes they
//! vouch for), asked outside a lock run: `providers coverage` and the platforms a lock
//! covers use it.

use super::io::{IoRequest, IoResponse, PackageId};
use crate::source::{
    Conversation, Found, Question, SourceError, SourcePackage, SourceResponse, SourceSet, Step,
};

/// The sources' metadata for `package`, performing each request with the blocking
/// `perform`. What the set learns (discovery, version lists) is kept for later calls.
pub fn package_metadata(
    sources: &mut SourceSet,
    package: &PackageId,
    mut perform: impl FnMut(IoRequest) -> IoResponse,
) -> Result<SourcePackage, SourceError> {
    let mut query = MetadataQuery::new(sources, package);
    loop {
        match query.step(sources) {
            MetadataStep::Answer(found) => return found,
            MetadataStep::Request(req) => query.respond(perform(req)),
        }
    }
}

/// [`package_metadata`] one request at a time, for hosts whose IO is asynchronous (the
/// npm package's `fetch`): [`MetadataQuery::step`] until it answers, handing each
/// request's response to [`MetadataQuery::respond`].
#[derive(Debug)]
pub struct MetadataQuery {
    conversation: Conversation,
}

/// What a [`MetadataQuery`] needs next.
#[derive(Debug)]
// Each step is matched and consumed at once: boxing the request would only add an
// allocation per request.
#[allow(clippy::large_enum_variant)]
pub enum MetadataStep {
    /// Perform this request and hand its response to [`MetadataQuery::respond`].
    Request(IoRequest),
    /// The sources' answer; the query is over.
    Answer(Result<SourcePackage, SourceError>),
}

impl MetadataQuery {
    /// A query for `package`'s metadata from `sources`.
    pub fn new(sources: &SourceSet, package: &PackageId) -> MetadataQuery {
        MetadataQuery {
            conversation: sources.conversation(Question::PackageMeta(
                package.provider.clone(),
                package.version.clone(),
                package.platform.clone(),
            )),
        }
    }

    /// The next request, or the answer once every response it needs has arrived.
    pub fn step(&mut self, sources: &mut SourceSet) -> MetadataStep {
        match self.conversation.poll(sources) {
            Step::Request(req) => MetadataStep::Request(IoRequest::from_source(&req)),
            Step::Answer(Found::PackageMeta(r)) => MetadataStep::Answer(r),
            Step::Answer(Found::Versions(_)) => {
                MetadataStep::Answer(Err(SourceError::other("internal error: no package answer")))
            }
        }
    }

    /// Hands in the response to the request [`MetadataQuery::step`] returned last.
    pub fn respond(&mut self, response: IoResponse) {
        let response = response.into_source().unwrap_or_else(|| {
            SourceResponse::Http(Err(
                "internal error: a package answered a document request".into()
            ))
        });
        // `step` just returned the request this answers; a response without one is dropped.
        let _ = self.conversation.receive(response);
    }
}
