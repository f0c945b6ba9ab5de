//! Parsing a host's inputs with core's rules: a network mirror URL (`https:` only), a
//! flavour name, a provider package file name.

pub use crate::flavor::{Flavor, UnknownFlavor};
/// The flavour of a working directory given without `-flavor`: its lock file's header and
/// its file names.
pub use crate::install::choose_flavor;
pub use crate::protocol::mirror::{mirror_base_url, option_mirror_url, InvalidMirrorOption};
pub use crate::protocol::package_name::{
    file_name as package_file_name, parse as package_file_name_parts, PackageFileName,
};
