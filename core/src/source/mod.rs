//! Installation sources as a sans-IO layer: the registry, network mirrors and filesystem
//! mirrors that answer a provider's versions and a package's location ([`Question`]),
//! combined like Terraform's `MultiSource`.
//!
//! One [`SourceSet`] serves a run (from a CLI config's `provider_installation` or an
//! explicit method list); `api::LockRun` opens a [`Conversation`] per planner need and
//! loops: the [`SourceRequest`] the conversation asks for (an HTTP `GET` of a small
//! document, or a directory listing) goes to the host, its [`SourceResponse`] comes back,
//! until the conversation yields its answer ([`Found`]). Service discovery results and version lists are
//! remembered in the set, so later conversations skip those requests. Every message is
//! worded here, the same for every host.

mod answers;
pub(crate) mod conversation;
mod filesystem;
mod network_mirror;
pub(crate) mod registry;
mod requests;
mod set;

pub use answers::{
    AvailableVersions, Found, PackageLocation, Question, SourceError, SourceErrorKind,
    SourcePackage,
};
pub use conversation::{Conversation, NotOutstanding, Step};
pub use requests::{DirEntry, HttpResponse, SourceRequest, SourceResponse};
pub use set::{Method, SourceEntry, SourceSet};

#[cfg(test)]
mod tests;
