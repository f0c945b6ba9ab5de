//! Everything that touches the network and the disk on behalf of the core.

pub mod atomic;
pub mod cliconfig;
pub mod driver;
pub mod flavor;
pub mod hash_cache;
pub mod http;
pub mod locked_platforms;
pub mod mirror_dir;
pub mod package;
pub mod provider_dir;
pub mod sha_thread;
pub mod sources;
pub mod workdir;
