//! One module per subcommand.

pub mod completions;
pub mod coverage;
pub mod hash;
pub mod init;
pub mod lockfile;
pub mod merge;
pub mod providers;
pub mod providers_mirror;
pub mod verify;
pub mod version;
