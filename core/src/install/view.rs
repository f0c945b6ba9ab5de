//! The outcome of `init` / `providers lock` as one serializable value. The CLI's `--json`
//! prints it as is (snake_case), the npm package returns it with camelCase keys: casing is
//! the hosts' only say in it, so the two never disagree on what an outcome contains.

use serde::Serialize;

use super::outcome::{HashProvenance, Outcome, ProviderResult};
use crate::lockfile::{write_locks, LockDiff};
use crate::{Diagnostics, Flavor};

/// What a finished run reports.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomeView {
    /// The lock file after the run, as text (Terraform's exact bytes).
    pub lock_text: String,
    /// Whether the host should write the lock file.
    pub write_lock: bool,
    /// What changed from the previous lock file.
    pub changes: LockDiff,
    /// Errors and warnings, with the product's texts.
    pub diagnostics: Diagnostics,
    /// Progress and summary lines, with `[bold]`/`[reset]` markup.
    pub messages: Vec<String>,
    /// Per provider: the selection, authentication and where each hash's trust came from.
    pub providers: Vec<ProviderView>,
}

/// One provider's result.
#[derive(Debug, Clone, Serialize)]
pub struct ProviderView {
    /// The provider address.
    pub provider: String,
    /// The selected version, when selection succeeded.
    pub version: Option<String>,
    /// The authentication result per platform.
    pub auth: Vec<AuthView>,
    /// Every recorded hash and why it is trusted.
    pub hashes: Vec<HashProvenance>,
}

/// One platform's authentication result (`signed by HashiCorp`, ...).
#[derive(Debug, Clone, Serialize)]
pub struct AuthView {
    /// The platform.
    pub platform: String,
    /// The result, in the product's words.
    pub result: String,
}

impl OutcomeView {
    /// The view of `outcome`; `flavor` decides the lock file's header.
    pub fn new(outcome: &Outcome, flavor: Flavor) -> OutcomeView {
        OutcomeView {
            lock_text: write_locks(&outcome.new_lock, flavor),
            write_lock: outcome.write_lock,
            changes: outcome.changes.clone(),
            diagnostics: outcome.diagnostics.clone(),
            messages: outcome.messages.clone(),
            providers: outcome.providers.iter().map(ProviderView::new).collect(),
        }
    }
}

impl ProviderView {
    fn new(p: &ProviderResult) -> ProviderView {
        ProviderView {
            provider: p.provider.to_string(),
            version: p.version.as_ref().map(ToString::to_string),
            auth: p
                .auth
                .iter()
                .map(|(platform, result)| AuthView {
                    platform: platform.to_string(),
                    result: result.clone(),
                })
                .collect(),
            hashes: p.provenance.clone(),
        }
    }
}
