//! Does a lock file satisfy a configuration's requirements? Offline: which providers the
//! lock misses, which it has that nothing requires (Terraform's rule for providers no
//! longer required), which locked versions the constraints refuse.

pub use crate::install::{check_lock, LockCheck, LockStatus, ProviderCheck};
