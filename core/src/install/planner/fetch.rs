//! Fetching from the source: where a platform's package is and what the source says about
//! it, then the package itself, handed to acceptance.

use super::accept::{accept, Accepted, Release};
use super::journal::{InstallFailure, Problem, Stage};
use super::metadata;
use super::outbox::About;
use super::phase::{Obtained, Step, Via};
use super::texts;
use super::turn::Turn;
use crate::hash::PackageHash;
use crate::install::needs::{FetchedPackage, Need, SourceError, SourcePackage};
use crate::install::options::HashSource;
use crate::install::outcome::Install;
use crate::version::Version;

impl Turn<'_> {
    /// Asks where platform `i`'s package is.
    pub(super) fn locate(&mut self, version: &Version, i: usize) -> Step {
        let need = Need::PackageMeta {
            provider: self.provider.clone(),
            version: version.clone(),
            platform: self.platform(i).clone(),
        };
        self.ask(About::Platform(i), need);
        Step::Locating
    }

    /// The source described platform `i`'s package (or could not): announce it and fetch it.
    pub(super) fn on_location(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        result: Result<SourcePackage, SourceError>,
    ) -> Step {
        let source = match result {
            Ok(source) => source,
            Err(err) => return self.fail(version, i, InstallFailure::Source(err)),
        };
        if self.opts.hash_source == HashSource::Metadata
            && metadata::describe(&source, self.platform(i)).is_some()
        {
            // Settled once every platform is located (`settle_described`, metadata.rs).
            return Step::Described(Box::new(source));
        }
        self.fetch(version, preferred, i, source)
    }

    /// Announces platform `i`'s package and asks for it.
    pub(super) fn fetch(
        &mut self,
        version: &Version,
        preferred: &[PackageHash],
        i: usize,
        source: SourcePackage,
    ) -> Step {
        let (flavor, platform) = (self.flavor(), self.platform(i));
        let line = if self.lock_mode() {
            texts::fetching(self.provider, version, platform, flavor)
        } else {
            texts::installing(self.provider, version, flavor)
        };
        self.say(Stage::Platform(i), line);
        // `providers lock` records whatever it gets; nothing to check it against early.
        let expect = if self.lock_mode() {
            Vec::new()
        } else {
            preferred.to_vec()
        };
        let need = Need::Package {
            provider: self.provider.clone(),
            version: version.clone(),
            platform: platform.clone(),
            location: source.location(),
            expect,
            known_zh: source.known_zh(),
        };
        self.ask(About::Platform(i), need);
        Step::Fetching(Box::new(source))
    }

    /// Platform `i`'s package arrived (or did not): accept it or record why not.
    pub(super) fn on_package(
        &mut self,
        version: &Version,
        i: usize,
        source: SourcePackage,
        result: Result<FetchedPackage, SourceError>,
    ) -> Step {
        match result {
            Ok(fetched) => self.judge(version, i, &source, &fetched, false),
            Err(err) => self.fail(version, i, InstallFailure::Source(err)),
        }
    }

    /// Accepts platform `i`'s `package` or records why not, whether it was downloaded or
    /// described by the source's metadata (`from_metadata`).
    pub(super) fn judge(
        &mut self,
        version: &Version,
        i: usize,
        source: &SourcePackage,
        package: &FetchedPackage,
        from_metadata: bool,
    ) -> Step {
        let release = Release {
            provider: self.provider,
            version,
            constraints: self.constraints,
        };
        let prior = self.previous_lock();
        match accept(self.opts, release, prior, source, package, self.signatures) {
            Ok(accepted) => self.obtained(version, i, source, accepted, from_metadata),
            Err(rejection) => self.fail(version, i, InstallFailure::Rejected(rejection)),
        }
    }

    /// Records platform `i`'s accepted package; `from_metadata` when its hashes are the
    /// source's metadata rather than a download's.
    pub(super) fn obtained(
        &mut self,
        version: &Version,
        i: usize,
        source: &SourcePackage,
        accepted: Accepted,
        from_metadata: bool,
    ) -> Step {
        let (flavor, platform) = (self.flavor(), self.platform(i));
        let auth = texts::auth_in_line(accepted.auth.as_ref());
        let line = if from_metadata {
            texts::from_metadata(self.provider, version, platform, &auth, flavor)
        } else if self.lock_mode() {
            texts::retrieved(self.provider, version, platform, &auth, flavor)
        } else {
            texts::installed(self.provider, version, &auth, flavor)
        };
        self.say(Stage::Platform(i), line);
        // `providers lock` only hashes the package; metadata names no package to unpack.
        let install = (!self.lock_mode() && !from_metadata).then(|| Install {
            provider: self.provider.clone(),
            version: version.clone(),
            platform: platform.clone(),
            location: source.location(),
            from_cache: false,
        });
        Step::Obtained(Box::new(Obtained {
            lock: accepted.lock,
            incomplete: accepted.incomplete,
            local_h1: accepted.installed_h1,
            install,
            via: Via::Source(accepted.auth),
            from_metadata,
        }))
    }

    pub(super) fn fail(&mut self, version: &Version, i: usize, failure: InstallFailure) -> Step {
        self.note(Problem::Install {
            platform: i,
            version: version.clone(),
            failure,
        });
        Step::Failed
    }
}
