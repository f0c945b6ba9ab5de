//! The planner state machine: Terraform's `EnsureProviderVersions` (and the `init` /
//! `providers lock` commands around it) with every IO step turned into a request.

mod accept;
#[cfg(test)]
mod accept_tests;
mod texts;

use super::exchange::{
    Answer, AvailableVersions, FetchedPackage, Need, NeedId, PackageLocation, Request, SourceError,
    SourcePackage,
};
use super::options::{Mode, PlanOptions, Requirements};
use super::outcome::{HashProvenance, Install, Outcome, ProviderResult};
use crate::addrs::{Platform, Provider};
use crate::collections::SortedMap;
use crate::hash::{package_matches_any_hash, PackageHash, PackageHashes};
use crate::lockfile::messages::{incomplete_lock_warning, lock_written_message, readonly_outcome};
use crate::lockfile::{diff_locks, Locks, ProviderLock};
use crate::protocol::auth::{AuthKind, AuthResult, HashRecord};
use crate::version::{select_newest, Constraints, Version};
use crate::{Diagnostic, Diagnostics, Flavor};
use std::collections::VecDeque;
use texts::LockChange;

/// Drives one `init` / `init -upgrade` / `providers lock` run without doing any IO.
#[derive(Debug)]
pub struct Planner {
    opts: PlanOptions,
    previous: Locks,
    next_id: u32,
    queue: VecDeque<Request>,
    pending: SortedMap<NeedId, Pending>,
    work: SortedMap<Provider, Work>,
    progress: Vec<String>,
}

/// What an outstanding request was for.
#[derive(Debug, Clone)]
enum Pending {
    Versions(Provider),
    Installed(Provider, usize),
    Cached(Provider, usize),
    Meta(Provider, usize),
    Package(Provider, usize),
}

/// Per-provider progress, with messages and diagnostics kept by phase so the final
/// output has a stable order whatever order the host answers in.
#[derive(Debug, Default)]
struct Work {
    constraints: Constraints,
    /// Set when the lock file decides the version (no `-upgrade`).
    locked: Option<Version>,
    version: Option<Version>,
    /// Hashes of the previous lock entry this release can check, when its version is the
    /// selected one.
    preferred: Vec<PackageHash>,
    failed: bool,
    /// The locked package is looked for locally before the source is asked (the OpenTofu
    /// RFC's "registry is down, but the cache is valid"): the source is only queried if
    /// neither the installed copy nor the plugin cache matches the lock.
    local_first: bool,
    /// The installed copy and the cache were already checked for this version.
    local_checked: bool,
    platforms: Vec<PlatformWork>,
    first_lines: Vec<String>,
    first_diags: Vec<Diagnostic>,
    query_lines: Vec<String>,
    query_diags: Vec<Diagnostic>,
    install_diags: Vec<Diagnostic>,
    /// Error text per platform index (`providers lock` folds them into one diagnostic).
    errors: SortedMap<usize, String>,
}

#[derive(Debug, Default, Clone)]
struct PlatformWork {
    source: Option<SourcePackage>,
    lines: Vec<String>,
    /// The lock entry this platform's install produced.
    lock: Option<ProviderLock>,
    /// The previously-installed package already matches the lock: keep the old entry.
    kept: bool,
    incomplete: bool,
    install: Option<Install>,
    auth: Option<String>,
    auth_kind: Option<AuthKind>,
    records: Vec<HashRecord>,
    local_h1: Option<PackageHash>,
}

impl Planner {
    /// Starts a run for `requirements` (from configuration) against `previous` (the lock
    /// file as loaded; empty when there is none).
    pub fn new(requirements: Requirements, previous: Locks, options: PlanOptions) -> Planner {
        let mut planner = Planner {
            opts: options,
            previous,
            next_id: 0,
            queue: VecDeque::new(),
            pending: SortedMap::new(),
            work: SortedMap::new(),
            progress: Vec::new(),
        };
        for (provider, constraints) in requirements {
            planner.start_provider(provider, constraints);
        }
        planner
    }

    /// The next request the host should perform, or `None` when every request that can be
    /// made now has been handed out (answer the outstanding ones, then ask again).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Request> {
        self.queue.pop_front()
    }

    /// All requests that can be made now; hosts that work in parallel take them together.
    pub fn take_requests(&mut self) -> Vec<Request> {
        self.queue.drain(..).collect()
    }

    /// True when nothing is queued or outstanding: call [`Planner::finish`].
    pub fn is_done(&self) -> bool {
        self.queue.is_empty() && self.pending.is_empty()
    }

    /// Progress lines produced since the last call, for live display.
    pub fn drain_progress(&mut self) -> Vec<String> {
        std::mem::take(&mut self.progress)
    }

    /// Feeds back the host's answer to request `id`.
    ///
    /// Fails (changing nothing) when `id` is unknown or the answer's kind does not fit the
    /// request: those are bugs in the host, not in the input.
    pub fn answer(&mut self, id: NeedId, answer: Answer) -> Result<(), String> {
        let Some(pending) = self.pending.get(&id).cloned() else {
            return Err(format!("no outstanding request with id {}", id.0));
        };
        match (pending, answer) {
            (Pending::Versions(p), Answer::Versions(r)) => self.on_versions(p, r),
            (Pending::Installed(p, i), Answer::LocalPackage(h)) => self.on_installed(p, i, h),
            (Pending::Cached(p, i), Answer::LocalPackage(h)) => self.on_cached(p, i, h),
            (Pending::Meta(p, i), Answer::PackageMeta(r)) => self.on_meta(p, i, r),
            (Pending::Package(p, i), Answer::Package(r)) => self.on_package(p, i, r),
            (pending, answer) => {
                return Err(format!(
                    "answer {answer:?} does not fit request {} ({pending:?})",
                    id.0
                ))
            }
        }
        self.pending.remove(&id);
        Ok(())
    }

    fn flavor(&self) -> Flavor {
        self.opts.flavor
    }

    fn lock_mode(&self) -> bool {
        self.opts.mode == Mode::ProvidersLock
    }

    fn ask(&mut self, need: Need, pending: Pending) {
        let id = NeedId(self.next_id);
        self.next_id += 1;
        self.pending.insert(id, pending);
        self.queue.push_back(Request { id, need });
    }

    fn say(&mut self, line: String) {
        self.progress.push(line);
    }

    // Step 1: built-ins, locked selections and the locked/constraint conflict.
    fn start_provider(&mut self, provider: Provider, constraints: Constraints) {
        let flavor = self.flavor();
        let mut work = Work {
            constraints: constraints.clone(),
            platforms: vec![PlatformWork::default(); self.opts.platforms.len()],
            ..Work::default()
        };
        if provider.is_builtin_for(flavor) {
            if self.lock_mode() {
                return; // built-in providers don't participate in locking
            }
            self.start_builtin(&provider, &constraints, &mut work);
            self.work.insert(provider, work);
            return;
        }
        if self.opts.mode != Mode::InitUpgrade {
            if let Some(lock) = self.previous.provider(&provider) {
                let locked = lock.version().clone();
                if !constraints.allows(&locked) {
                    let line = texts::query_begin(&provider, &constraints, true, flavor);
                    self.say(line.clone());
                    work.first_lines.push(line);
                    let err = texts::locked_conflict(&provider, &locked, &constraints, flavor);
                    self.record_query_failure(&provider, &mut work, &SourceError::other(err), true);
                    self.work.insert(provider, work);
                    return;
                }
                work.locked = Some(locked);
            }
        }
        if !self.lock_mode() {
            // `providers lock` reports only fetches, not queries.
            let line = texts::query_begin(&provider, &constraints, work.locked.is_some(), flavor);
            self.say(line.clone());
            work.query_lines.push(line);
        }
        if let Some(locked) = work.locked.clone() {
            let preferred = self
                .previous
                .provider(&provider)
                .map(ProviderLock::preferred_hashes)
                .unwrap_or_default();
            if self.opts.mode == Mode::Init
                && !preferred.is_empty()
                && self.opts.platforms.len() == 1
            {
                work.local_first = true;
                work.preferred = preferred;
                work.version = Some(locked.clone());
                self.start_platform(&provider, &mut work, &locked, 0);
                self.work.insert(provider, work);
                return;
            }
        }
        self.work.insert(provider.clone(), work);
        self.ask(
            Need::Versions {
                provider: provider.clone(),
            },
            Pending::Versions(provider),
        );
    }

    fn start_builtin(&mut self, provider: &Provider, constraints: &Constraints, work: &mut Work) {
        let flavor = self.flavor();
        let err = if !self.opts.builtin_types.contains(&provider.r#type) {
            Some(texts::no_such_builtin(provider, flavor))
        } else if !constraints.is_empty() {
            Some(texts::BUILTIN_CONSTRAINED.to_string())
        } else {
            None
        };
        match err {
            None => {
                let line = texts::built_in(provider, flavor);
                self.say(line.clone());
                work.first_lines.push(line);
            }
            Some(err) => {
                work.failed = true;
                work.first_diags
                    .push(texts::invalid_builtin(provider, &err, flavor));
            }
        }
    }

    // Step 2: choose the newest acceptable version the source offers.
    fn on_versions(&mut self, provider: Provider, result: Result<AvailableVersions, SourceError>) {
        let Some(mut work) = self.work.remove(&provider) else {
            return;
        };
        match result {
            Err(err) => self.fail_query(&provider, &mut work, &err),
            Ok(available) => {
                if !available.warnings.is_empty() {
                    work.query_diags
                        .push(texts::registry_warnings(&provider, &available.warnings));
                }
                let chosen = match &work.locked {
                    Some(locked) => available
                        .versions
                        .iter()
                        .find(|v| *v == locked)
                        .cloned()
                        .ok_or_else(|| texts::locked_version_gone(locked)),
                    None => select_newest(&work.constraints, &available.versions)
                        .ok_or_else(|| texts::no_matching_version(&work.constraints)),
                };
                match chosen {
                    Err(err) => self.fail_query(&provider, &mut work, &SourceError::other(err)),
                    Ok(version) => {
                        work.preferred = self
                            .previous
                            .provider(&provider)
                            .filter(|l| *l.version() == version)
                            .map(ProviderLock::preferred_hashes)
                            .unwrap_or_default();
                        work.version = Some(version.clone());
                        for i in 0..self.opts.platforms.len() {
                            self.start_platform(&provider, &mut work, &version, i);
                        }
                    }
                }
            }
        }
        self.work.insert(provider, work);
    }

    fn fail_query(&mut self, provider: &Provider, work: &mut Work, err: &SourceError) {
        self.record_query_failure(provider, work, err, false);
    }

    /// Records a failure to choose a version; `early` puts the diagnostic with the
    /// step-one ones (the locked/constraint conflict, found before any query).
    fn record_query_failure(
        &mut self,
        provider: &Provider,
        work: &mut Work,
        err: &SourceError,
        early: bool,
    ) {
        let flavor = self.flavor();
        work.failed = true;
        if self.lock_mode() {
            work.errors.insert(0, err.message.clone());
            return;
        }
        let diag = texts::query_failure(provider, err, flavor);
        if early {
            work.first_diags.push(diag);
        } else {
            work.query_diags.push(diag);
        }
    }

    // Step 3, per platform: reuse what is installed, else the cache, else fetch.
    fn start_platform(
        &mut self,
        provider: &Provider,
        work: &mut Work,
        version: &Version,
        i: usize,
    ) {
        let platform = self.opts.platforms[i].clone();
        if work.local_checked {
            self.ask_meta(provider, version, i);
            return;
        }
        if !self.lock_mode() && !work.preferred.is_empty() {
            self.ask(
                Need::InstalledPackage {
                    provider: provider.clone(),
                    version: version.clone(),
                    platform,
                },
                Pending::Installed(provider.clone(), i),
            );
            return;
        }
        self.after_installed_check(provider, work, version, i);
    }

    fn after_installed_check(
        &mut self,
        provider: &Provider,
        work: &mut Work,
        version: &Version,
        i: usize,
    ) {
        if self.opts.plugin_cache {
            self.ask(
                Need::CachedPackage {
                    provider: provider.clone(),
                    version: version.clone(),
                    platform: self.opts.platforms[i].clone(),
                },
                Pending::Cached(provider.clone(), i),
            );
            return;
        }
        self.no_local_match(provider, work, version, i);
    }

    /// Neither the installed copy nor the cache matched: fetch from the source. When the
    /// local copies were checked first, the source's versions have not been asked yet.
    fn no_local_match(
        &mut self,
        provider: &Provider,
        work: &mut Work,
        version: &Version,
        i: usize,
    ) {
        if work.local_first {
            work.local_first = false;
            work.local_checked = true;
            work.version = None;
            self.ask(
                Need::Versions {
                    provider: provider.clone(),
                },
                Pending::Versions(provider.clone()),
            );
            return;
        }
        self.ask_meta(provider, version, i);
    }

    fn ask_meta(&mut self, provider: &Provider, version: &Version, i: usize) {
        self.ask(
            Need::PackageMeta {
                provider: provider.clone(),
                version: version.clone(),
                platform: self.opts.platforms[i].clone(),
            },
            Pending::Meta(provider.clone(), i),
        );
    }

    fn on_installed(&mut self, provider: Provider, i: usize, h1: Option<PackageHash>) {
        let Some(mut work) = self.work.remove(&provider) else {
            return;
        };
        let Some(version) = work.version.clone() else {
            self.work.insert(provider, work);
            return;
        };
        let matches = h1
            .as_ref()
            .is_some_and(|h| package_matches_any_hash(PackageHashes::Unpacked(h), &work.preferred));
        if matches {
            let line = texts::already_installed(&provider, &version, self.flavor());
            self.say(line.clone());
            work.platforms[i].lines.push(line);
            work.platforms[i].kept = true;
        } else {
            self.after_installed_check(&provider, &mut work, &version, i);
        }
        self.work.insert(provider, work);
    }

    fn on_cached(&mut self, provider: Provider, i: usize, h1: Option<PackageHash>) {
        let flavor = self.flavor();
        let Some(mut work) = self.work.remove(&provider) else {
            return;
        };
        let Some(version) = work.version.clone() else {
            self.work.insert(provider, work);
            return;
        };
        let platform = self.opts.platforms[i].clone();
        if let Some(h1) = h1 {
            let matches = !work.preferred.is_empty()
                && package_matches_any_hash(PackageHashes::Unpacked(&h1), &work.preferred);
            if matches || self.opts.plugin_cache_may_break_lock {
                if !matches && !work.preferred.is_empty() {
                    // Accepted by the setting, but linking checks the lock and fails.
                    work.failed = true;
                    work.install_diags
                        .push(texts::cache_mismatch(&provider, &version, flavor));
                    self.work.insert(provider, work);
                    return;
                }
                let line = texts::from_cache(&provider, &version, flavor);
                self.say(line.clone());
                let pw = &mut work.platforms[i];
                pw.lines.push(line);
                let prior = work.preferred.clone();
                let local = vec![h1.clone()];
                pw.incomplete = prior.is_empty() || prior == local;
                pw.local_h1 = Some(h1.clone());
                pw.lock = Some(ProviderLock::new(
                    provider.clone(),
                    version.clone(),
                    Some(work.constraints.clone()),
                    prior.into_iter().chain(local),
                ));
                pw.install = Some(Install {
                    provider: provider.clone(),
                    version: version.clone(),
                    platform,
                    location: PackageLocation::LocalDir(String::new()),
                    from_cache: true,
                });
                self.work.insert(provider, work);
                return;
            }
        }
        self.no_local_match(&provider, &mut work, &version, i);
        self.work.insert(provider, work);
    }

    fn on_meta(
        &mut self,
        provider: Provider,
        i: usize,
        result: Result<SourcePackage, SourceError>,
    ) {
        let flavor = self.flavor();
        let Some(mut work) = self.work.remove(&provider) else {
            return;
        };
        let Some(version) = work.version.clone() else {
            self.work.insert(provider, work);
            return;
        };
        let platform = self.opts.platforms[i].clone();
        match result {
            Err(err) => self.fail_install(&provider, &version, &mut work, i, &err),
            Ok(source) => {
                let line = if self.lock_mode() {
                    texts::fetching(&provider, &version, &platform, flavor)
                } else {
                    texts::installing(&provider, &version, flavor)
                };
                self.say(line.clone());
                work.platforms[i].lines.push(line);
                let expect = if self.lock_mode() {
                    Vec::new()
                } else {
                    work.preferred.clone()
                };
                let location = source.location();
                let known_zh = source.known_zh();
                work.platforms[i].source = Some(source);
                self.ask(
                    Need::Package {
                        provider: provider.clone(),
                        version,
                        platform,
                        location,
                        expect,
                        known_zh,
                    },
                    Pending::Package(provider.clone(), i),
                );
            }
        }
        self.work.insert(provider, work);
    }

    fn fail_install(
        &mut self,
        provider: &Provider,
        version: &Version,
        work: &mut Work,
        i: usize,
        err: &SourceError,
    ) {
        let flavor = self.flavor();
        work.failed = true;
        if self.lock_mode() {
            work.errors.insert(i, err.message.clone());
            return;
        }
        let platform = &self.opts.platforms[i];
        let diag = texts::install_source_failure(provider, version, platform, err, flavor);
        work.install_diags.push(diag);
    }

    fn on_package(
        &mut self,
        provider: Provider,
        i: usize,
        result: Result<FetchedPackage, SourceError>,
    ) {
        let Some(mut work) = self.work.remove(&provider) else {
            return;
        };
        let Some(version) = work.version.clone() else {
            self.work.insert(provider, work);
            return;
        };
        match result {
            Err(err) => self.fail_install(&provider, &version, &mut work, i, &err),
            Ok(fetched) => {
                if let Err(err) = self.accept_package(&provider, &version, &mut work, i, &fetched) {
                    self.fail_install(&provider, &version, &mut work, i, &SourceError::other(err));
                }
            }
        }
        self.work.insert(provider, work);
    }

    /// Accepts a fetched package (or says why not) and records what this platform
    /// contributes.
    fn accept_package(
        &mut self,
        provider: &Provider,
        version: &Version,
        work: &mut Work,
        i: usize,
        fetched: &FetchedPackage,
    ) -> Result<(), String> {
        let flavor = self.flavor();
        let platform = self.opts.platforms[i].clone();
        let Some(source) = work.platforms[i].source.clone() else {
            return Err("package fetched before its metadata".to_string());
        };
        let release = accept::Release {
            provider,
            version,
            constraints: &work.constraints,
        };
        let prior = self.previous.provider(provider);
        let accepted = accept::accept(&self.opts, release, prior, &source, fetched)
            .map_err(|r| texts::rejection(&r, provider, version, flavor))?;

        let auth = accepted.auth;
        let auth_text = auth
            .as_ref()
            .map_or_else(|| "unauthenticated".to_string(), AuthResult::summary);
        let auth_line = auth
            .as_ref()
            .map_or_else(|| "unauthenticated".to_string(), texts::auth_in_line);
        let line = if self.lock_mode() {
            texts::retrieved(provider, version, &platform, &auth_line, flavor)
        } else {
            texts::installed(provider, version, &auth_line, flavor)
        };
        self.say(line.clone());
        let pw = &mut work.platforms[i];
        pw.lines.push(line);
        pw.auth = Some(auth_text);
        pw.auth_kind = auth.as_ref().map(|a| a.kind);
        pw.records = auth.map(|a| a.hashes).unwrap_or_default();
        pw.local_h1 = Some(accepted.installed_h1);
        pw.incomplete = accepted.incomplete;
        pw.lock = Some(accepted.lock);
        if !self.lock_mode() {
            pw.install = Some(Install {
                provider: provider.clone(),
                version: version.clone(),
                platform,
                location: source.location(),
                from_cache: false,
            });
        }
        Ok(())
    }

    /// Ends the run. Requests still outstanding count as failures.
    pub fn finish(self) -> Outcome {
        let mut diags = Diagnostics::new();
        if !self.pending.is_empty() {
            diags.push(texts::unfinished(self.pending.len()));
        }
        if self.lock_mode() {
            self.finish_lock(diags)
        } else {
            self.finish_init(diags)
        }
    }

    fn ordered_lines_and_diags(&self, diags: &mut Diagnostics) -> Vec<String> {
        let mut lines = Vec::new();
        for w in self.work.values() {
            lines.extend(w.first_lines.iter().cloned());
            diags.extend(w.first_diags.iter().cloned());
        }
        for w in self.work.values() {
            lines.extend(w.query_lines.iter().cloned());
            diags.extend(w.query_diags.iter().cloned());
        }
        lines
    }

    fn finish_init(mut self, mut diags: Diagnostics) -> Outcome {
        let flavor = self.flavor();
        let mut lines = self.ordered_lines_and_diags(&mut diags);
        for w in self.work.values() {
            for pw in &w.platforms {
                lines.extend(pw.lines.iter().cloned());
            }
            diags.extend(w.install_diags.iter().cloned());
        }
        let installs: Vec<Install> = self
            .work
            .values()
            .flat_map(|w| w.platforms.iter().filter_map(|p| p.install.clone()))
            .collect();
        // ProvidersFetched fires at the end of EnsureProviderVersions whenever some package
        // was fetched, even if another provider failed.
        if let Some(note) = texts::signing_note(
            self.work
                .values()
                .flat_map(|w| w.platforms.iter().filter_map(|p| p.auth_kind)),
            flavor,
        ) {
            lines.push(note);
        }
        if diags.has_errors() {
            // Terraform keeps what it installed before another provider failed.
            return self.outcome(self.previous.clone(), false, diags, lines, installs);
        }

        let mut new = self.previous.clone();
        let mut incomplete = Vec::new();
        for (provider, w) in &self.work {
            for pw in &w.platforms {
                if let Some(lock) = &pw.lock {
                    new.insert(lock.clone());
                    if pw.incomplete {
                        incomplete.push(provider.for_display(flavor));
                    }
                }
            }
        }
        let required: Vec<Provider> = self.work.keys().cloned().collect();
        crate::lockfile::update::retain_required(&mut new, &required);

        let mut write = false;
        if !new.equal(&self.previous) {
            if self.opts.readonly {
                if let Some(d) = readonly_outcome(&self.previous, &new, flavor) {
                    diags.push(d);
                }
            } else {
                if !incomplete.is_empty() {
                    let platform = self
                        .opts
                        .platforms
                        .first()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    diags.push(incomplete_lock_warning(&incomplete, &platform, flavor));
                }
                lines.push(lock_written_message(&self.previous, flavor));
                write = true;
            }
        }
        let new_lock = if write { new } else { self.previous.clone() };
        self.progress.clear();
        self.outcome(new_lock, write, diags, lines, installs)
    }

    fn finish_lock(self, mut diags: Diagnostics) -> Outcome {
        let flavor = self.flavor();
        let mut lines = self.ordered_lines_and_diags(&mut diags);
        for (i, platform) in self.opts.platforms.iter().enumerate() {
            for w in self.work.values() {
                if let Some(pw) = w.platforms.get(i) {
                    lines.extend(pw.lines.iter().cloned());
                }
            }
            let errors: Vec<(&Provider, &str)> = self
                .work
                .iter()
                .filter_map(|(p, w)| w.errors.get(&i).map(|e| (p, e.as_str())))
                .collect();
            if !errors.is_empty() {
                diags.push(texts::lock_fetch_failed(platform, &errors, flavor));
                break; // Terraform stops at the first platform that fails
            }
        }
        if diags.has_errors() {
            return self.outcome(self.previous.clone(), false, diags, lines, Vec::new());
        }

        let mut new = self.previous.clone();
        let mut changed = false;
        for (provider, w) in &self.work {
            let old = self.previous.provider(provider);
            let mut version = old.map(|l| l.version().clone());
            let mut constraints = old.and_then(|l| l.constraints().cloned());
            let mut hashes: Vec<PackageHash> = old.map(|l| l.hashes().to_vec()).unwrap_or_default();
            for (i, pw) in w.platforms.iter().enumerate() {
                let Some(lock) = &pw.lock else { continue };
                version = Some(lock.version().clone());
                constraints = lock.constraints().cloned();
                hashes.extend(lock.hashes().iter().cloned());
                let change = match old {
                    None => LockChange::NewProvider,
                    Some(o) if o.contains_all(lock) => LockChange::NoChange,
                    Some(_) => LockChange::NewHashes,
                };
                changed |= change != LockChange::NoChange;
                lines.push(texts::obtained(
                    provider,
                    &self.opts.platforms[i],
                    change,
                    flavor,
                ));
            }
            if let Some(version) = version {
                new.set_provider(provider.clone(), version, constraints, hashes);
            }
        }
        lines.extend(texts::lock_success(changed, flavor));
        self.outcome(new, true, diags, lines, Vec::new())
    }

    fn outcome(
        &self,
        new_lock: Locks,
        write_lock: bool,
        diagnostics: Diagnostics,
        messages: Vec<String>,
        installs: Vec<Install>,
    ) -> Outcome {
        let providers = self
            .work
            .iter()
            .map(|(p, w)| self.provider_result(p, w, &new_lock))
            .collect();
        Outcome {
            changes: diff_locks(&self.previous, &new_lock),
            new_lock,
            write_lock,
            diagnostics,
            messages,
            installs,
            providers,
        }
    }

    fn provider_result(&self, provider: &Provider, w: &Work, new_lock: &Locks) -> ProviderResult {
        let previous: Vec<PackageHash> = self
            .previous
            .provider(provider)
            .map(|l| l.hashes().to_vec())
            .unwrap_or_default();
        let recorded: Vec<PackageHash> = new_lock
            .provider(provider)
            .map(|l| l.hashes().to_vec())
            .unwrap_or_default();
        let provenance = recorded
            .into_iter()
            .map(|hash| {
                let mut p = HashProvenance::new(hash.clone());
                p.from_previous_lock = previous.contains(&hash);
                for (i, pw) in w.platforms.iter().enumerate() {
                    if pw.local_h1.as_ref() == Some(&hash) {
                        p.computed_locally = true;
                        push_unique(&mut p.platforms, self.opts.platforms[i].to_string());
                    }
                    for r in pw.records.iter().filter(|r| r.hash == hash.as_str()) {
                        p.computed_locally |= r.verified_locally;
                        p.reported_by_registry |= r.reported_by_registry;
                        p.reported_by_mirror |= r.reported_by_trusted_mirror;
                        if p.signed_by.is_none() {
                            p.signed_by = r.signed_by.clone();
                        }
                        if let Some(pl) = &r.platform {
                            push_unique(&mut p.platforms, pl.clone());
                        }
                    }
                }
                p
            })
            .collect();
        ProviderResult {
            provider: provider.clone(),
            version: w.version.clone(),
            auth: w
                .platforms
                .iter()
                .enumerate()
                .filter_map(|(i, pw)| pw.auth.clone().map(|a| (self.opts.platforms[i].clone(), a)))
                .collect::<Vec<(Platform, String)>>(),
            provenance,
        }
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}
