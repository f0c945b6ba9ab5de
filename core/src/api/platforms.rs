//! Which platforms to lock: flags, `TFLOCK_PLATFORMS`, the ones a lock already covers.

/// Restrict a run to the providers named on the command line.
pub use crate::install::restrict_to_arguments;
/// The platforms a lock covers, learned from its hashes and the sources' metadata.
pub use crate::install::{locked_platforms, probe_platforms, LockedPlatforms};
/// The platforms a run asked for, and the environment variable that names them.
pub use crate::install::{PlatformOrigin, PlatformRequest, PlatformSpec, LOCKED, PLATFORMS_ENV};
