//! Read the CLI configuration (`.terraformrc`, `TF_CLI_CONFIG_FILE`): the host only
//! locates and reads the file.

/// A parsed CLI configuration, and the diagnostic for a configured file that is missing.
pub use crate::protocol::cliconfig::{missing_file, CliConfig};
/// Which credentials go to which host.
pub use crate::protocol::Credentials;
