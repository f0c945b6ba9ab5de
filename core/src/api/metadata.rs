//! What the installation sources say about one package (where it is, which hashes they
//! vouch for), asked outside a lock run: `providers coverage` and the platforms a lock
//! covers use it.

use super::io::{IoRequest, IoResponse, PackageId};
use crate::source::{Found, Question, SourceError, SourcePackage, SourceResponse, SourceSet};

/// The sources' metadata for `package`, performing each request with the blocking
/// `perform`. What the set learns (discovery, version lists) is kept for later calls.
pub fn package_metadata(
    sources: &mut SourceSet,
    package: &PackageId,
    mut perform: impl FnMut(IoRequest) -> IoResponse,
) -> Result<SourcePackage, SourceError> {
    let question = Question::PackageMeta(
        package.provider.clone(),
        package.version.clone(),
        package.platform.clone(),
    );
    let conv = sources.conversation(question);
    let found = conv.run(sources, |req| {
        perform(IoRequest::from_source(req))
            .into_source()
            .unwrap_or_else(|| {
                SourceResponse::Http(Err(
                    "internal error: a package answered a document request".into()
                ))
            })
    });
    match found {
        Found::PackageMeta(r) => r,
        Found::Versions(_) => Err(SourceError::other("internal error: no package answer")),
    }
}
