//! Registry, network-mirror and CLI-config protocol models, and signed SHA256SUMS.
//!
//! Everything here is sans-IO: hosts fetch the documents (service discovery, registry
//! `versions`/`download` answers, mirror `index.json`/`<version>.json`, `SHA256SUMS` and its
//! signature, the CLI config text) and hand the bytes in; these modules validate them,
//! resolve URLs and authenticate packages the way Terraform and OpenTofu do, returning
//! values and error texts per [`crate::Flavor`].

pub mod auth;
pub mod cliconfig;
pub mod credentials;
pub mod discovery;
pub mod fs_mirror;
pub mod hashicorp_keys;
pub mod mirror;
pub mod mirror_docs;
pub mod names;
pub mod openpgp;
pub mod package_name;
pub mod patterns;
pub mod registry;
pub mod sha256sums;
pub mod signature;
pub mod urls;

pub use auth::{authenticate_registry_package, AuthError, AuthKind, AuthResult, RegistryAuthInput};
pub use cliconfig::{CliConfig, InstallationMethod, MethodKind};
pub use credentials::Credentials;
pub use discovery::Discovery;
pub use patterns::{ProviderPattern, ProviderPatterns};
pub use registry::{DownloadResponse, PackageMeta, VersionsResponse};
pub use sha256sums::Sha256Sums;
pub use signature::{SigningKey, TrustRoots};
