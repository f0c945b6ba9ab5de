//! The planner's own requests, for hosts that answer them themselves (the npm `Planner`
//! class) rather than through [`super::LockRun`].

/// Where a package is, as a registry's download document says.
pub use crate::install::PackageLocation;
/// What the planner needs next and what a host answers.
pub use crate::install::{Answer, AvailableVersions, Need, NeedId};
pub use crate::protocol::registry::DownloadResponse;
pub use crate::protocol::PackageMeta;
