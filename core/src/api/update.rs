//! A bot's move of one provider to one version (npm `updateProvider()`).

/// The plan for moving one provider, run as a lock run.
pub use crate::install::ProviderUpdate;
