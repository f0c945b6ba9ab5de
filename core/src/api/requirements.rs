//! The planner's requirements from a configuration's, and the diagnostics `init` makes
//! about legacy (unqualified) provider addresses.

/// The planner's [`super::Requirements`] from a configuration's provider requirements.
pub use crate::install::requirements::from_configuration;
/// The errors for legacy provider addresses the configuration still uses.
pub use crate::install::requirements::legacy_address_errors;
