//! Local copies: the package already unpacked in the working directory and the one in the
//! global plugin cache, looked at before the source is asked for the package.

use super::journal::{Problem, Stage};
use super::outbox::About;
use super::phase::{
    LocalCheck, LocalCopies, Obtained, Phase, Reusing, Selected, Selecting, Step, Via,
};
use super::texts;
use super::turn::Turn;
use crate::hash::{package_matches_any_hash, PackageHash, PackageHashes};
use crate::install::needs::{Need, PackageLocation};
use crate::install::outcome::Install;
use crate::lockfile::ProviderLock;
use crate::version::Version;

/// What an answer about a local copy settles for its platform.
pub(super) enum Local {
    /// The platform is done: kept, taken from the cache, or failed.
    Settled(Step),
    /// Another copy is worth a look; it was asked about.
    Checking(LocalCheck),
    /// No local copy will do: the source must provide the package.
    Missed,
}

/// What the plugin cache's copy is good for.
#[derive(Debug, PartialEq, Eq)]
enum CachedCopy {
    /// It may be used; its `h1:`.
    Usable(PackageHash),
    /// `plugin_cache_may_break_dependency_lock_file` lets it be used, but it matches none
    /// of the locked hashes, so linking it would fail.
    Mismatch,
    /// Absent, or not trustworthy: fetch instead.
    Unusable,
}

impl Turn<'_> {
    /// Asks about the first local copy worth a look for platform `i`; `None` when none is.
    pub(super) fn first_local_check(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
    ) -> Option<LocalCheck> {
        // Only locked hashes can vouch for an installed copy, and `providers lock` installs
        // nothing.
        if !self.lock_mode() && !preferred.is_empty() {
            return Some(self.check(LocalCheck::Installed, version, i));
        }
        self.check_cache(version, i)
    }

    fn check_cache(&mut self, version: &Version, i: usize) -> Option<LocalCheck> {
        if !self.opts.plugin_cache {
            return None;
        }
        Some(self.check(LocalCheck::Cache, version, i))
    }

    fn check(&mut self, check: LocalCheck, version: &Version, i: usize) -> LocalCheck {
        let (provider, version, platform) = (
            self.provider.clone(),
            version.clone(),
            self.platform(i).clone(),
        );
        let need = match check {
            LocalCheck::Installed => Need::InstalledPackage {
                provider,
                version,
                platform,
            },
            LocalCheck::Cache => Need::CachedPackage {
                provider,
                version,
                platform,
            },
        };
        self.ask(About::Platform(i), need);
        check
    }

    /// The [`Phase::Reusing`] answer: the locked package's local copy settles the provider,
    /// or the next copy is asked about, or the source is asked for its versions after all.
    pub(super) fn on_reused(&mut self, reusing: Reusing, h1: Option<PackageHash>) -> Phase {
        let Reusing {
            version,
            preferred,
            check,
        } = reusing;
        match self.on_local(check, &version, &preferred, 0, h1) {
            Local::Settled(step) => Phase::Selected(Selected {
                version,
                preferred,
                platforms: vec![step],
                anchor: None,
            }),
            Local::Checking(check) => Phase::Reusing(Reusing {
                version,
                preferred,
                check,
            }),
            // The source must still confirm that it offers the locked version.
            Local::Missed => self.query(Selecting {
                locked: Some(version),
                local: LocalCopies::Missed,
            }),
        }
    }

    /// Platform `i`'s answer about the local copy `check`.
    pub(super) fn on_local(
        &mut self,
        check: LocalCheck,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        h1: Option<PackageHash>,
    ) -> Local {
        match check {
            LocalCheck::Installed => self.on_installed(version, preferred, i, h1),
            LocalCheck::Cache => self.on_cached(version, preferred, i, h1),
        }
    }

    fn on_installed(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        h1: Option<PackageHash>,
    ) -> Local {
        let matches = h1
            .as_ref()
            .is_some_and(|h| package_matches_any_hash(PackageHashes::Unpacked(h), preferred));
        if matches {
            let line = texts::already_installed(self.provider, version, self.flavor());
            self.say(Stage::Platform(i), line);
            return Local::Settled(Step::Kept);
        }
        match self.check_cache(version, i) {
            Some(check) => Local::Checking(check),
            None => Local::Missed,
        }
    }

    fn on_cached(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        h1: Option<PackageHash>,
    ) -> Local {
        match judge_cached(h1, preferred, self.opts.plugin_cache_may_break_lock) {
            CachedCopy::Usable(h1) => Local::Settled(self.use_cached(version, preferred, i, h1)),
            CachedCopy::Mismatch => {
                self.note(Problem::CacheMismatch {
                    platform: i,
                    version: version.clone(),
                });
                Local::Settled(Step::Failed)
            }
            CachedCopy::Unusable => Local::Missed,
        }
    }

    fn use_cached(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        h1: PackageHash,
    ) -> Step {
        let line = texts::from_cache(self.provider, version, self.flavor());
        self.say(Stage::Platform(i), line);
        let lock = ProviderLock::new(
            self.provider.clone(),
            version.clone(),
            Some(self.constraints.clone()),
            preferred.iter().cloned().chain([h1.clone()]),
        );
        let install = Install {
            provider: self.provider.clone(),
            version: version.clone(),
            platform: self.platform(i).clone(),
            location: PackageLocation::LocalDir(String::new()),
            from_cache: true,
        };
        Step::Obtained(Box::new(Obtained {
            lock,
            incomplete: preferred.is_empty() || preferred == [h1.clone()],
            local_h1: h1,
            install: Some(install),
            via: Via::PluginCache,
            from_metadata: false,
        }))
    }
}

/// Whether the cached copy with `h1` may stand in for the source's package: it must match
/// a locked hash, unless `may_break` (`plugin_cache_may_break_dependency_lock_file`) lets a
/// provider without locked hashes take it.
fn judge_cached(h1: Option<PackageHash>, preferred: &[PackageHash], may_break: bool) -> CachedCopy {
    let Some(h1) = h1 else {
        return CachedCopy::Unusable;
    };
    let matches =
        !preferred.is_empty() && package_matches_any_hash(PackageHashes::Unpacked(&h1), preferred);
    match (matches, may_break) {
        (true, _) => CachedCopy::Usable(h1),
        (false, true) if preferred.is_empty() => CachedCopy::Usable(h1),
        (false, true) => CachedCopy::Mismatch,
        (false, false) => CachedCopy::Unusable,
    }
}

#[cfg(test)]
mod tests {
    use super::{judge_cached, CachedCopy};
    use crate::hash::PackageHash;

    fn h(s: &str) -> PackageHash {
        PackageHash::parse(s).unwrap()
    }

    #[test]
    fn a_cached_copy_needs_a_matching_locked_hash_unless_the_setting_allows_breaking() {
        let locked = [h("h1:a")];
        assert_eq!(
            judge_cached(Some(h("h1:a")), &locked, false),
            CachedCopy::Usable(h("h1:a"))
        );
        assert_eq!(
            judge_cached(Some(h("h1:b")), &locked, false),
            CachedCopy::Unusable
        );
        assert_eq!(
            judge_cached(Some(h("h1:b")), &locked, true),
            CachedCopy::Mismatch
        );
        assert_eq!(
            judge_cached(Some(h("h1:b")), &[], false),
            CachedCopy::Unusable
        );
        assert_eq!(
            judge_cached(Some(h("h1:b")), &[], true),
            CachedCopy::Usable(h("h1:b"))
        );
        assert_eq!(judge_cached(None, &locked, true), CachedCopy::Unusable);
    }
}
