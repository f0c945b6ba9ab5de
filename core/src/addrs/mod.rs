//! Provider source addresses and platforms.

mod error;
pub mod hostname;
mod part;
mod platform;
mod provider;

pub use error::AddrError;
pub use part::parse_provider_part;
pub use platform::{Platform, PlatformError};
pub use provider::{
    Provider, BUILTIN_HOST, BUILTIN_NAMESPACE, LEGACY_NAMESPACE, OPENTOFU_BUILTIN_HOST,
    UNKNOWN_NAMESPACE,
};
