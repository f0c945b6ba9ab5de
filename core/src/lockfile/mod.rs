//! The dependency lock file `.terraform.lock.hcl`: read, write, update, review, merge.

mod content;
pub mod diff;
pub mod hcl_string;
pub mod merge;
pub mod messages;
mod model;
pub mod nesting;
pub mod read;
mod spans;
mod static_value;
pub mod update;
pub mod write;

pub use diff::{diff_locks, render_diff, LockDiff};
pub use merge::{merge_locks, render_merge, MergeResult};
pub use model::{Locks, ProviderLock};
pub use read::{load_locks, load_locks_bytes, LoadOptions, LOCK_FILE_NAME};
pub use write::{header_flavor, header_names, write_locks};
