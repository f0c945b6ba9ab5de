//! `providers mirror`: which documents of a mirror directory a set of newly stored packages
//! changes. The same publish plan the edge mirror follows ([`crate::edge::plan`]), so the
//! two hosts write `index.json` and `<version>.json` by one rule.

pub use crate::edge::plan::{after_upload, per_document};

/// A provider's hostname as directories name it (Unicode, not Punycode).
pub use crate::addrs::hostname::for_display as hostname_for_display;
/// Whether an archive already in a mirror stands in for its download, and the summary of
/// the ones reused.
pub use crate::install::{mirror_reuse_summary, mirrored_archive_matches};
/// The diagnostic for a filesystem mirror's unpacked copy that cannot be mirrored.
pub use crate::protocol::mirror_docs::unpacked_source;
/// Carry the `h1:` hashes of an archive's old document into its new one (the edge mirror's
/// document update), and why a mirror document could not be changed.
pub use crate::protocol::mirror_docs::{carry_h1, MirrorDocError};
