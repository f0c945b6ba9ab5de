//! One module per subcommand.

pub mod hash;
