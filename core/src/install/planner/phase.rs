//! Where each provider is in the run, as explicit states (quinn-proto's connection states):
//! a provider's [`Phase`], and within the selected version each platform's [`Step`]. Every
//! state that waits for the host says which answer it waits for.

use super::outbox::About;
use crate::hash::PackageHash;
use crate::install::needs::{Answer, SourcePackage};
use crate::install::outcome::Install;
use crate::lockfile::ProviderLock;
use crate::protocol::auth::AuthResult;
use crate::version::Version;

/// One provider's phase.
#[derive(Debug)]
pub(super) enum Phase {
    /// A `terraform.io/builtin/` provider the product has: nothing to install.
    BuiltIn,
    /// A locked `init` looks for the locked package locally before asking the source.
    Reusing(Reusing),
    /// Waiting for the versions the source offers, to choose one.
    Selecting(Selecting),
    /// The version is chosen; each platform goes its own way.
    Selected(Selected),
    /// No version can be used (the journal says why).
    Failed,
}

/// The locked package is looked for in the working directory and the plugin cache first (the
/// OpenTofu RFC's "registry is down, but the cache is valid"): the source is asked only if
/// neither copy matches the lock. Only for one platform, which has index 0.
#[derive(Debug)]
pub(super) struct Reusing {
    /// The locked version.
    pub version: Version,
    /// The previous lock entry's hashes this release can check.
    pub preferred: Vec<PackageHash>,
    /// The copy being looked at.
    pub check: LocalCheck,
}

/// Choosing a version.
#[derive(Debug)]
pub(super) struct Selecting {
    /// Set when the lock file decides the version (no `-upgrade`).
    pub locked: Option<Version>,
    /// Whether the local copies are still worth a look once the version is chosen.
    pub local: LocalCopies,
}

/// Whether the platforms look at local copies before fetching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LocalCopies {
    /// Not looked at yet.
    Unchecked,
    /// [`Reusing`] found no match already: fetch straight away.
    Missed,
}

/// A chosen version and its platforms' progress, in the order of the target platforms.
#[derive(Debug)]
pub(super) struct Selected {
    /// The version.
    pub version: Version,
    /// Hashes of the previous lock entry this release can check, when its version is the
    /// selected one.
    pub preferred: Vec<PackageHash>,
    /// One step per target platform.
    pub platforms: Vec<Step>,
    /// With [`crate::install::HashSource::Metadata`]: the platform whose package is
    /// downloaded to check the source's metadata, once chosen.
    pub anchor: Option<Anchor>,
}

/// The one platform per provider whose package is downloaded in metadata mode, and the
/// `h1:` the source's metadata claims for it: the metadata is trusted for the other
/// platforms only when the package hashes to that.
#[derive(Debug, Clone)]
pub(super) struct Anchor {
    /// The platform's index.
    pub platform: usize,
    /// The `h1:` the metadata lists for it.
    pub claimed_h1: PackageHash,
}

/// Which local copy a platform is waiting to hear about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LocalCheck {
    /// The package already unpacked in the working directory.
    Installed,
    /// The package in the global plugin cache.
    Cache,
}

/// One platform's step towards its package.
#[derive(Debug)]
pub(super) enum Step {
    /// Waiting to hear about a local copy.
    Checking(LocalCheck),
    /// Waiting for where the package is and what the source says about it.
    Locating,
    /// Waiting for the package the source described.
    Fetching(Box<SourcePackage>),
    /// Metadata mode: the source described the package with its `h1:`; waiting for the
    /// provider's anchor platform to say whether that metadata can be trusted.
    Described(Box<SourcePackage>),
    /// The installed copy matches the lock: it stays, and so does the lock entry.
    Kept,
    /// The package is in hand and accepted.
    Obtained(Box<Obtained>),
    /// The package could not be obtained (the journal says why).
    Failed,
}

/// A platform's package, obtained and accepted.
#[derive(Debug)]
pub(super) struct Obtained {
    /// The lock entry it produces.
    pub lock: ProviderLock,
    /// Only this platform's `h1:` vouches for it (the incomplete-lock warning).
    pub incomplete: bool,
    /// The `h1:` computed here from the package.
    pub local_h1: PackageHash,
    /// What the host should put in place (`None` for `providers lock`, which only hashes).
    pub install: Option<Install>,
    /// Where it came from.
    pub via: Via,
    /// Its hashes were taken from the source's metadata: the package was not downloaded,
    /// so `local_h1` is the `h1:` the metadata lists, not one computed here.
    pub from_metadata: bool,
}

/// Where an obtained package came from.
#[derive(Debug)]
pub(super) enum Via {
    /// The plugin cache, checked against the lock only.
    PluginCache,
    /// The source, with its authentication (`None`: unauthenticated).
    Source(Option<AuthResult>),
}

/// The kinds of answer a state can wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Awaited {
    /// [`Answer::Versions`].
    Versions,
    /// [`Answer::LocalPackage`].
    LocalPackage,
    /// [`Answer::PackageMeta`].
    PackageMeta,
    /// [`Answer::Package`].
    Package,
}

impl Awaited {
    /// Whether `answer` is of this kind.
    pub fn fits(self, answer: &Answer) -> bool {
        matches!(
            (self, answer),
            (Awaited::Versions, Answer::Versions(_))
                | (Awaited::LocalPackage, Answer::LocalPackage(_))
                | (Awaited::PackageMeta, Answer::PackageMeta(_))
                | (Awaited::Package, Answer::Package(_))
        )
    }
}

impl Phase {
    /// The answer this phase waits for about `about`, if it waits for one.
    pub fn awaits(&self, about: About) -> Option<Awaited> {
        match (self, about) {
            (Phase::Selecting(_), About::Versions) => Some(Awaited::Versions),
            (Phase::Reusing(_), About::Platform(0)) => Some(Awaited::LocalPackage),
            (Phase::Selected(s), About::Platform(i)) => s.platforms.get(i).and_then(Step::awaits),
            _ => None,
        }
    }

    /// Moves to the phase `step` makes of the current one.
    pub fn advance(&mut self, step: impl FnOnce(Phase) -> Phase) {
        // `Failed` only holds the place while `step` runs: whatever it returns replaces it.
        let current = std::mem::replace(self, Phase::Failed);
        *self = step(current);
    }

    /// The version the provider is at: chosen, or (while reusing) locked.
    pub fn version(&self) -> Option<&Version> {
        match self {
            Phase::Reusing(r) => Some(&r.version),
            Phase::Selected(s) => Some(&s.version),
            Phase::BuiltIn | Phase::Selecting(_) | Phase::Failed => None,
        }
    }

    /// Each target platform's step, once a version is chosen (empty before).
    pub fn platforms(&self) -> &[Step] {
        match self {
            Phase::Selected(s) => &s.platforms,
            _ => &[],
        }
    }
}

impl Selected {
    /// Moves platform `i` to the step `step` makes of its current one.
    pub fn advance(&mut self, i: usize, step: impl FnOnce(&Version, &[PackageHash], Step) -> Step) {
        let Some(slot) = self.platforms.get_mut(i) else {
            return;
        };
        // As in `Phase::advance`, `Failed` only holds the place.
        let current = std::mem::replace(slot, Step::Failed);
        *slot = step(&self.version, &self.preferred, current);
    }
}

impl Step {
    /// The answer this step waits for, if it waits for one.
    pub fn awaits(&self) -> Option<Awaited> {
        match self {
            Step::Checking(_) => Some(Awaited::LocalPackage),
            Step::Locating => Some(Awaited::PackageMeta),
            Step::Fetching(_) => Some(Awaited::Package),
            // Described steps wait on another platform, not on the host.
            Step::Described(_) | Step::Kept | Step::Obtained(_) | Step::Failed => None,
        }
    }

    /// The package, when it was obtained.
    pub fn obtained(&self) -> Option<&Obtained> {
        match self {
            Step::Obtained(o) => Some(o),
            _ => None,
        }
    }
}

impl Obtained {
    /// The source's authentication, when the package came from the source and it vouched.
    pub fn auth(&self) -> Option<&AuthResult> {
        match &self.via {
            Via::Source(auth) => auth.as_ref(),
            Via::PluginCache => None,
        }
    }
}
