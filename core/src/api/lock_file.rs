//! Read, write, diff, merge and update a `.terraform.lock.hcl`, with Terraform's layout
//! and messages.

/// A message's text without Terraform's `[bold]`-style markup, for plain output.
pub use crate::lockfile::messages::strip_markup;
/// The message for a lock file that could not be written.
pub use crate::lockfile::messages::write_failed;
/// The diagnostic for a locked version the configuration's constraints refuse.
pub use crate::lockfile::update::locked_version_conflict;
/// Drop the providers a configuration no longer requires (Terraform's rule for a lock).
pub use crate::lockfile::update::retain_required;
/// Compare two locks and render the differences.
pub use crate::lockfile::{diff_locks, render_diff, LockDiff};
/// Write [`Locks`] in Terraform's `hclwrite` layout, under the flavour's header.
pub use crate::lockfile::{header_flavor, write_locks};
/// Parse a lock file (text or bytes) into [`Locks`] and its diagnostics.
pub use crate::lockfile::{load_locks, load_locks_bytes, LoadOptions, LOCK_FILE_NAME};
/// Merge two locks (a git merge driver's three-way step) and render the result.
pub use crate::lockfile::{merge_locks, render_merge};
/// A lock file's providers, and one provider's entry.
pub use crate::lockfile::{Locks, ProviderLock};
