//! `providers mirror`: which documents of a mirror directory a set of newly stored packages
//! changes. The same publish plan the edge mirror follows ([`crate::edge::plan`]), so the
//! two hosts write `index.json` and `<version>.json` by one rule.

pub use crate::edge::plan::{after_upload, per_document};
