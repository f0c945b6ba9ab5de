//! Installation sources as a sans-IO layer: the registry, network mirrors and filesystem
//! mirrors that answer the planner's [`Need::Versions`](crate::install::Need::Versions) and
//! [`Need::PackageMeta`](crate::install::Need::PackageMeta), combined like Terraform's
//! `MultiSource`.
//!
//! A host builds one [`SourceSet`] per run (from a CLI config's `provider_installation` or
//! an explicit method list), opens a [`Conversation`] per planner need, and loops: perform
//! the [`SourceRequest`] the conversation asks for (an HTTP `GET` of a small document, or a
//! directory listing), hand back the [`SourceResponse`], until it yields the planner's
//! [`Answer`](crate::install::Answer). Service discovery results and version lists are
//! remembered in the set, so later conversations skip those requests. Every message is
//! worded here, the same for every host.

pub(crate) mod conversation;
mod exchange;
mod filesystem;
mod network_mirror;
pub(crate) mod registry;
mod set;

pub use conversation::{Conversation, NotOutstanding, Step};
pub use exchange::{DirEntry, HttpResponse, SourceRequest, SourceResponse};
pub use set::{Method, SourceEntry, SourceSet};

#[cfg(test)]
mod tests;
