//! One module per subcommand.

pub mod coverage;
pub mod hash;
pub mod init;
pub mod providers;
pub mod verify;
pub mod lockfile;
pub mod merge;
