//! Finishing a run: the new lock set, the output in the products' order (every provider's
//! step-one records, then the queries', then each platform's) and the per-provider results.

use super::journal::Part;
use super::phase::{Obtained, Step, Via};
use super::report::{init_diagnostic, lock_report, LockReport, Subject};
use super::texts::{self, LockChange};
use super::{Entry, Planner};
use crate::addrs::Provider;
use crate::hash::PackageHash;
use crate::install::options::Mode;
use crate::install::outcome::{HashProvenance, Install, Outcome, ProviderResult};
use crate::lockfile::update::retain_required;
use crate::lockfile::{diff_locks, Locks};
use crate::Diagnostics;

impl Planner {
    /// Ends the run. Requests still outstanding count as failures.
    pub fn finish(self) -> Outcome {
        let mut diags = Diagnostics::new();
        if self.outbox.outstanding() > 0 {
            diags.push(texts::unfinished(self.outbox.outstanding()));
        }
        match self.opts.mode {
            Mode::ProvidersLock => self.finish_lock(diags),
            Mode::Init | Mode::InitUpgrade => self.finish_init(diags),
        }
    }

    fn finish_init(self, mut diags: Diagnostics) -> Outcome {
        let flavor = self.opts.flavor;
        let mut lines = Vec::new();
        for part in [Part::First, Part::Query, Part::Platforms] {
            for (provider, entry) in &self.providers {
                lines.extend(entry.journal.lines(part).cloned());
                let subject = self.subject(provider, entry);
                for problem in entry.journal.problems_in(part) {
                    diags.push(init_diagnostic(problem, subject));
                }
            }
        }
        let installs: Vec<Install> = self
            .obtained()
            .filter_map(|(_, o)| o.install.clone())
            .collect();
        // ProvidersFetched fires at the end of EnsureProviderVersions whenever some package
        // was fetched, even if another provider failed.
        let kinds = self
            .obtained()
            .filter_map(|(_, o)| o.auth().map(|a| a.kind));
        if let Some(note) = texts::signing_note(kinds, flavor) {
            lines.push(note);
        }
        if diags.has_errors() {
            // Terraform keeps what it installed before another provider failed.
            return self.outcome(self.previous.clone(), false, diags, lines, installs);
        }

        let mut new = self.previous.clone();
        let mut incomplete = Vec::new();
        for (provider, o) in self.obtained() {
            new.insert(o.lock.clone());
            if o.incomplete {
                incomplete.push(provider.for_display(flavor));
            }
        }
        let required: Vec<Provider> = self.providers.keys().cloned().collect();
        retain_required(&mut new, &required);

        let mut write = false;
        if !new.equal(&self.previous) {
            if self.opts.readonly {
                if let Some(d) = texts::readonly_outcome(&self.previous, &new, flavor) {
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
                    diags.push(texts::incomplete_lock_warning(
                        &incomplete,
                        &platform,
                        flavor,
                    ));
                }
                lines.push(texts::lock_written_message(&self.previous, flavor));
                write = true;
            }
        }
        let new_lock = if write { new } else { self.previous.clone() };
        self.outcome(new_lock, write, diags, lines, installs)
    }

    fn finish_lock(self, mut diags: Diagnostics) -> Outcome {
        let flavor = self.opts.flavor;
        let mut lines = Vec::new();
        for part in [Part::First, Part::Query] {
            for (provider, entry) in &self.providers {
                lines.extend(entry.journal.lines(part).cloned());
                let subject = self.subject(provider, entry);
                for problem in entry.journal.problems_in(part) {
                    if let LockReport::Alone(d) = lock_report(problem, subject) {
                        diags.push(d);
                    }
                }
            }
        }
        for (i, platform) in self.opts.platforms.iter().enumerate() {
            for entry in self.providers.values() {
                lines.extend(entry.journal.platform_lines(i).iter().cloned());
            }
            let errors: Vec<(&Provider, String)> = self
                .providers
                .iter()
                .filter_map(|(p, entry)| self.lock_error(p, entry, i).map(|e| (p, e)))
                .collect();
            if !errors.is_empty() {
                let errors: Vec<(&Provider, &str)> =
                    errors.iter().map(|(p, e)| (*p, e.as_str())).collect();
                diags.push(texts::lock_fetch_failed(platform, &errors, flavor));
                break; // Terraform stops at the first platform that fails
            }
        }
        if diags.has_errors() {
            return self.outcome(self.previous.clone(), false, diags, lines, Vec::new());
        }

        let mut new = self.previous.clone();
        let mut changed = false;
        for (provider, entry) in &self.providers {
            let old = self.previous.provider(provider);
            let mut version = old.map(|l| l.version().clone());
            let mut constraints = old.and_then(|l| l.constraints().cloned());
            let mut hashes: Vec<PackageHash> = old.map(|l| l.hashes().to_vec()).unwrap_or_default();
            for (i, step) in entry.phase.platforms().iter().enumerate() {
                let Some(lock) = step.obtained().map(|o| &o.lock) else {
                    continue;
                };
                version = Some(lock.version().clone());
                constraints = lock.constraints().cloned();
                hashes.extend(lock.hashes().iter().cloned());
                let change = match old {
                    None => LockChange::NewProvider,
                    Some(o) if o.contains_all(lock) => LockChange::NoChange,
                    Some(_) => LockChange::NewHashes,
                };
                changed |= change != LockChange::NoChange;
                let platform = &self.opts.platforms[i];
                lines.push(texts::obtained(provider, platform, change, flavor));
            }
            if let Some(version) = version {
                new.set_provider(provider.clone(), version, constraints, hashes);
            }
        }
        lines.extend(texts::lock_success(changed, flavor));
        self.outcome(new, true, diags, lines, Vec::new())
    }

    /// The error `providers lock` lists for `provider` under the platform with index `i`.
    fn lock_error(&self, provider: &Provider, entry: &Entry, i: usize) -> Option<String> {
        let subject = self.subject(provider, entry);
        entry
            .journal
            .problems()
            .iter()
            .find_map(|problem| match lock_report(problem, subject) {
                LockReport::Listed(at, error) if at == i => Some(error),
                _ => None,
            })
    }

    fn subject<'a>(&'a self, provider: &'a Provider, entry: &'a Entry) -> Subject<'a> {
        Subject {
            opts: &self.opts,
            provider,
            constraints: &entry.constraints,
        }
    }

    /// Every obtained package with its provider, in provider then platform order.
    fn obtained(&self) -> impl Iterator<Item = (&Provider, &Obtained)> {
        self.providers.iter().flat_map(|(provider, entry)| {
            entry
                .phase
                .platforms()
                .iter()
                .filter_map(Step::obtained)
                .map(move |o| (provider, o))
        })
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
            .providers
            .iter()
            .map(|(p, entry)| self.provider_result(p, entry, &new_lock))
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

    fn provider_result(
        &self,
        provider: &Provider,
        entry: &Entry,
        new_lock: &Locks,
    ) -> ProviderResult {
        let previous: Vec<PackageHash> = self
            .previous
            .provider(provider)
            .map(|l| l.hashes().to_vec())
            .unwrap_or_default();
        let recorded: Vec<PackageHash> = new_lock
            .provider(provider)
            .map(|l| l.hashes().to_vec())
            .unwrap_or_default();
        let obtained: Vec<(usize, &Obtained)> = entry
            .phase
            .platforms()
            .iter()
            .enumerate()
            .filter_map(|(i, step)| step.obtained().map(|o| (i, o)))
            .collect();
        let provenance = recorded
            .into_iter()
            .map(|hash| {
                let mut p = HashProvenance::new(hash.clone());
                p.from_previous_lock = previous.contains(&hash);
                for (i, o) in &obtained {
                    self.add_provenance(&mut p, *i, o);
                }
                p
            })
            .collect();
        let auth = obtained
            .iter()
            .filter(|(_, o)| matches!(o.via, Via::Source(_)))
            .map(|(i, o)| {
                (
                    self.opts.platforms[*i].clone(),
                    texts::auth_summary(o.auth()),
                )
            })
            .collect();
        ProviderResult {
            provider: provider.clone(),
            version: entry.phase.version().cloned(),
            auth,
            provenance,
        }
    }

    /// What platform `i`'s package says about the recorded hash `p` is for.
    fn add_provenance(&self, p: &mut HashProvenance, i: usize, o: &Obtained) {
        // A package taken from metadata was never hashed here: what its checks "verified
        // locally" is the metadata itself.
        if o.local_h1 == p.hash {
            p.computed_locally |= !o.from_metadata;
            p.from_metadata |= o.from_metadata;
            push_unique(&mut p.platforms, self.opts.platforms[i].to_string());
        }
        let records = o.auth().map_or(&[][..], |a| &a.hashes);
        for r in records.iter().filter(|r| r.hash == p.hash.as_str()) {
            p.computed_locally |= r.verified_locally && !o.from_metadata;
            p.from_metadata |= r.verified_locally && o.from_metadata;
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
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}
