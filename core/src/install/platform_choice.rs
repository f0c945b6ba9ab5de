//! Which platforms `providers lock` (and `providers mirror`) work for: the `-platform`
//! flags, else `TFLOCK_PLATFORMS`, else the CLI config's `tflock_platforms`, else this
//! machine's — unless the lock already covers
//! several platforms, which `providers lock` then keeps (hashicorp/terraform#28627).
//! `locked` in any of the lists stands for every platform the lock covers today.

use crate::addrs::{Platform, Provider};
use crate::diag::{Diagnostic, Diagnostics};
use crate::install::KnownHashes;
use crate::lockfile::Locks;

/// The environment variable holding the default platform list (comma-separated).
pub const PLATFORMS_ENV: &str = "TFLOCK_PLATFORMS";

/// The word standing for every platform the lock covers.
pub const LOCKED: &str = "locked";

/// One entry of a platform list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlatformSpec {
    /// A platform (`os_arch`).
    Platform(Platform),
    /// `locked`: every platform the lock file covers.
    Locked,
}

/// Where a platform list came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlatformOrigin {
    /// `-platform` flags.
    Flags,
    /// [`PLATFORMS_ENV`].
    Environment,
    /// The CLI configuration's `tflock_platforms`.
    CliConfig,
    /// Nothing was given.
    Default,
}

/// The platforms asked for, before the lock's platforms are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformRequest {
    /// Where the list came from.
    pub origin: PlatformOrigin,
    /// The entries, first occurrence first (empty for [`PlatformOrigin::Default`]).
    pub specs: Vec<PlatformSpec>,
}

impl Default for PlatformRequest {
    /// Nothing given: Terraform's default.
    fn default() -> PlatformRequest {
        PlatformRequest {
            origin: PlatformOrigin::Default,
            specs: Vec::new(),
        }
    }
}

impl PlatformRequest {
    /// The request from `-platform` values (`flags`), else from the environment variable's
    /// value (`env`, blank entries ignored), else from the CLI config's list (`config`). A
    /// value that is no platform is Terraform's `Invalid target platform` error, naming
    /// where it came from.
    pub fn new(
        flags: &[String],
        env: Option<&str>,
        config: Option<&[String]>,
    ) -> Result<PlatformRequest, Diagnostics> {
        let env_values: Vec<String> = env
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let (origin, values, given_in) = if !flags.is_empty() {
            (
                PlatformOrigin::Flags,
                flags,
                "given in the -platform option",
            )
        } else if !env_values.is_empty() {
            (
                PlatformOrigin::Environment,
                &env_values[..],
                "given in TFLOCK_PLATFORMS",
            )
        } else if let Some(list) = config.filter(|l| !l.is_empty()) {
            (
                PlatformOrigin::CliConfig,
                list,
                "given in the CLI configuration's tflock_platforms",
            )
        } else {
            return Ok(PlatformRequest::default());
        };
        let mut diags = Diagnostics::new();
        let mut specs = Vec::new();
        for s in values {
            let spec = if s == LOCKED {
                PlatformSpec::Locked
            } else {
                match Platform::parse(s) {
                    Ok(p) => PlatformSpec::Platform(p),
                    Err(e) => {
                        diags.push(Diagnostic::error(
                            "Invalid target platform",
                            format!(
                                "The string {s:?} {given_in} is not a valid target platform: {e}."
                            ),
                        ));
                        continue;
                    }
                }
            };
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
        if diags.has_errors() {
            return Err(diags);
        }
        Ok(PlatformRequest { origin, specs })
    }

    /// Whether resolving needs the lock's platforms ([`locked_platforms`]), which costs the
    /// host one metadata request per provider. `keep_locked` is true for `providers lock`,
    /// whose default keeps a several-platform lock's platforms; a lock with at most one
    /// `h1:` per provider was locked on one platform (what `init` records) and is not asked
    /// about, so Terraform's default costs nothing more.
    pub fn needs_locked(&self, locks: &Locks, keep_locked: bool) -> bool {
        match self.origin {
            PlatformOrigin::Default => keep_locked && may_cover_several(locks),
            _ => self.specs.contains(&PlatformSpec::Locked),
        }
    }

    /// The platforms to work for, and the line to tell the user, if any. `locked` is what
    /// [`locked_platforms`] found (`None` when it was not asked); `keep_locked` as for
    /// [`PlatformRequest::needs_locked`].
    pub fn resolve(
        &self,
        current: &Platform,
        locked: Option<&LockedPlatforms>,
        keep_locked: bool,
    ) -> Result<PlatformChoice, Box<Diagnostic>> {
        let empty = LockedPlatforms::default();
        let locked = locked.unwrap_or(&empty);
        match self.origin {
            PlatformOrigin::Default => {
                let mut platforms = vec![current.clone()];
                if keep_locked {
                    for p in &locked.platforms {
                        if !platforms.contains(p) {
                            platforms.push(p.clone());
                        }
                    }
                }
                let message = (platforms.len() > 1).then(|| {
                    format!(
                        "tflock: keeping the {} platforms the lock file covers ({}); -platform=OS_ARCH locks only those given",
                        platforms.len(),
                        names(&platforms)
                    )
                });
                let message = message.or_else(|| locked.unnamed_note());
                Ok(PlatformChoice { platforms, message })
            }
            PlatformOrigin::Flags | PlatformOrigin::Environment | PlatformOrigin::CliConfig => {
                let mut platforms: Vec<Platform> = Vec::new();
                for spec in &self.specs {
                    let add: &[Platform] = match spec {
                        PlatformSpec::Platform(p) => std::slice::from_ref(p),
                        PlatformSpec::Locked => &locked.platforms,
                    };
                    for p in add {
                        if !platforms.contains(p) {
                            platforms.push(p.clone());
                        }
                    }
                }
                if platforms.is_empty() {
                    return Err(Box::new(Diagnostic::error(
                        "No platforms to lock",
                        format!(
                            "-platform={LOCKED} stands for the platforms the lock file covers, and it covers none tflock can name: the lock file is missing or empty, or its h1: checksums are in no source's metadata and not in the hash cache. Name the platforms with -platform=OS_ARCH."
                        ),
                    )));
                }
                let from = match self.origin {
                    PlatformOrigin::Environment => Some(PLATFORMS_ENV),
                    PlatformOrigin::CliConfig => Some("the CLI configuration's tflock_platforms"),
                    _ => None,
                };
                let message = from
                    .map(|from| format!("tflock: platforms from {from}: {}", names(&platforms)));
                Ok(PlatformChoice { platforms, message })
            }
        }
    }
}

/// The resolved platforms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformChoice {
    /// The platforms, in the order given (this machine's first by default).
    pub platforms: Vec<Platform>,
    /// One line for stderr when the list is not what Terraform would have used.
    pub message: Option<String>,
}

/// The platforms a lock file covers, as far as metadata can tell.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LockedPlatforms {
    /// Every platform some provider's recorded `h1:` belongs to, sorted.
    pub platforms: Vec<Platform>,
    /// Providers with `h1:` checksums no known hash places on a platform, and how many.
    pub unnamed: Vec<(Provider, usize)>,
}

impl LockedPlatforms {
    /// The note for a default run whose lock has `h1:` checksums tflock could not place: the
    /// platforms they are for cannot be kept without downloading to find out.
    fn unnamed_note(&self) -> Option<String> {
        let count: usize = self.unnamed.iter().map(|(_, n)| n).sum();
        (count > 0).then(|| {
            format!(
                "tflock: the lock file has {count} h1: checksum(s) of platforms tflock cannot name without downloading (no source lists them, the hash cache lacks them); locking this machine's platform only, -platform=OS_ARCH names others"
            )
        })
    }
}

/// Whether some provider has more than one `h1:`: locked for several platforms (or
/// several builds of one), the only case the default keeps platforms for.
fn may_cover_several(locks: &Locks) -> bool {
    locks
        .providers()
        .any(|l| l.hashes().iter().filter(|h| h.is_h1()).count() > 1)
}

/// The platforms the lock covers: those some recorded `h1:` belongs to, per `known` (what
/// the sources' metadata and the hash cache attribute to each platform; see
/// [`crate::install::learn_hashes`]).
///
/// Only `h1:` counts: `init` records every platform's signed `zh:` from `SHA256SUMS`
/// whatever platform it ran on, so `zh:` says nothing about the platforms a team chose;
/// an `h1:` is recorded only for a package that was hashed (or listed) for its platform.
pub fn locked_platforms(locks: &Locks, known: &KnownHashes) -> LockedPlatforms {
    let mut out = LockedPlatforms::default();
    for lock in locks.providers() {
        let per_platform = known.get(lock.addr());
        let mut unnamed = 0;
        for h in lock.hashes().iter().filter(|h| h.is_h1()) {
            let mut named = false;
            for (platform, hashes) in per_platform.into_iter().flatten() {
                if hashes.contains(h) {
                    named = true;
                    if !out.platforms.contains(platform) {
                        out.platforms.push(platform.clone());
                    }
                }
            }
            if !named {
                unnamed += 1;
            }
        }
        if unnamed > 0 {
            out.unnamed.push((lock.addr().clone(), unnamed));
        }
    }
    crate::collections::sort(&mut out.platforms);
    out
}

/// The platforms whose package metadata a host asks, in order, until one answers, to
/// learn every platform's hashes (a registry's signed `SHA256SUMS` and `packages`, a
/// mirror's `<version>.json` list them all): this machine's, then the common ones.
pub fn probe_platforms(current: &Platform) -> Vec<Platform> {
    let mut out = vec![current.clone()];
    for s in [
        "linux_amd64",
        "darwin_arm64",
        "darwin_amd64",
        "linux_arm64",
        "windows_amd64",
    ] {
        if let Ok(p) = Platform::parse(s) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

fn names(platforms: &[Platform]) -> String {
    platforms
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::SortedMap;
    use crate::hash::PackageHash;
    use crate::lockfile::{load_locks, LoadOptions};
    use crate::Flavor;

    fn h(c: char) -> String {
        format!("h1:{}=", c.to_string().repeat(43))
    }

    fn zh(c: char) -> String {
        format!("zh:{}", c.to_string().repeat(64))
    }

    fn lock(hashes: &[String]) -> Locks {
        let list: Vec<String> = hashes.iter().map(|h| format!("    \"{h}\",\n")).collect();
        let text = format!(
            "provider \"registry.terraform.io/acme/demo\" {{\n  version = \"1.0.0\"\n  hashes = [\n{}  ]\n}}\n",
            list.concat()
        );
        let (locks, diags) = load_locks(&text, &LoadOptions::new("l", Flavor::Terraform));
        assert!(!diags.has_errors(), "{diags:?}");
        locks
    }

    fn known(entries: &[(&str, String)]) -> KnownHashes {
        let provider = Provider::parse("acme/demo", Flavor::Terraform).expect("address");
        let mut per: SortedMap<Platform, Vec<PackageHash>> = SortedMap::new();
        for (platform, hash) in entries {
            per.entry(p(platform))
                .or_default()
                .push(PackageHash::parse(hash).expect("hash"));
        }
        let mut k = KnownHashes::new();
        k.insert(provider, per);
        k
    }

    fn p(s: &str) -> Platform {
        Platform::parse(s).expect("platform")
    }

    #[test]
    fn only_h1_checksums_place_a_lock_on_a_platform() {
        let locks = lock(&[h('a'), zh('b'), zh('c')]);
        let k = known(&[
            ("linux_amd64", h('a')),
            ("linux_amd64", zh('c')),
            ("darwin_arm64", zh('b')),
        ]);
        let found = locked_platforms(&locks, &k);
        assert_eq!(found.platforms, [p("linux_amd64")]);
        assert!(found.unnamed.is_empty());
    }

    #[test]
    fn h1_checksums_no_source_lists_are_counted_as_unnamed() {
        let locks = lock(&[h('a'), h('d')]);
        let found = locked_platforms(&locks, &known(&[("windows_amd64", h('a'))]));
        assert_eq!(found.platforms, [p("windows_amd64")]);
        assert_eq!(found.unnamed.len(), 1);
        assert_eq!(found.unnamed[0].1, 1);
    }

    #[test]
    fn flags_win_over_the_environment_and_the_environment_over_the_default() {
        let r = PlatformRequest::new(&["linux_arm64".into()], Some("darwin_arm64"), None).unwrap();
        assert_eq!(r.origin, PlatformOrigin::Flags);
        assert_eq!(r.specs, [PlatformSpec::Platform(p("linux_arm64"))]);
        let r =
            PlatformRequest::new(&[], Some(" darwin_arm64, ,locked,darwin_arm64"), None).unwrap();
        assert_eq!(r.origin, PlatformOrigin::Environment);
        assert_eq!(
            r.specs,
            [
                PlatformSpec::Platform(p("darwin_arm64")),
                PlatformSpec::Locked
            ]
        );
        let config = ["windows_amd64".to_string()];
        let r = PlatformRequest::new(&[], Some(" "), Some(&config)).unwrap();
        assert_eq!(r.origin, PlatformOrigin::CliConfig);
        let c = r.resolve(&p("linux_amd64"), None, true).unwrap();
        assert_eq!(c.platforms, [p("windows_amd64")]);
        assert_eq!(
            c.message.as_deref(),
            Some("tflock: platforms from the CLI configuration's tflock_platforms: windows_amd64")
        );
        let r = PlatformRequest::new(&[], Some(" "), Some(&[])).unwrap();
        assert_eq!(r.origin, PlatformOrigin::Default);
    }

    #[test]
    fn a_bad_platform_is_terraforms_error_naming_where_it_came_from() {
        let e = PlatformRequest::new(&[], Some("linux"), None).unwrap_err();
        assert_eq!(e.0[0].summary, "Invalid target platform");
        assert!(
            e.0[0]
                .detail
                .starts_with("The string \"linux\" given in TFLOCK_PLATFORMS"),
            "{}",
            e.0[0].detail
        );
    }

    #[test]
    fn the_default_keeps_a_several_platform_lock_and_says_so() {
        let locks = lock(&[h('a'), h('b')]);
        let r = PlatformRequest::new(&[], None, None).unwrap();
        assert!(r.needs_locked(&locks, true));
        assert!(
            !r.needs_locked(&locks, false),
            "mirror keeps Terraform's default"
        );
        let found = LockedPlatforms {
            platforms: vec![p("darwin_arm64"), p("windows_amd64")],
            unnamed: vec![],
        };
        let c = r.resolve(&p("linux_amd64"), Some(&found), true).unwrap();
        assert_eq!(
            c.platforms,
            [p("linux_amd64"), p("darwin_arm64"), p("windows_amd64")]
        );
        assert_eq!(
            c.message.as_deref(),
            Some("tflock: keeping the 3 platforms the lock file covers (linux_amd64, darwin_arm64, windows_amd64); -platform=OS_ARCH locks only those given")
        );
    }

    #[test]
    fn h1_checksums_nothing_can_place_are_said_and_the_default_stays_this_machines() {
        let r = PlatformRequest::default();
        let found = LockedPlatforms {
            platforms: vec![],
            unnamed: vec![(
                Provider::parse("acme/demo", Flavor::Terraform).expect("address"),
                2,
            )],
        };
        let c = r.resolve(&p("linux_amd64"), Some(&found), true).unwrap();
        assert_eq!(c.platforms, [p("linux_amd64")]);
        assert_eq!(
            c.message.as_deref(),
            Some("tflock: the lock file has 2 h1: checksum(s) of platforms tflock cannot name without downloading (no source lists them, the hash cache lacks them); locking this machine's platform only, -platform=OS_ARCH names others")
        );
    }

    #[test]
    fn a_one_platform_lock_costs_nothing_and_the_default_stays_terraforms() {
        let locks = lock(&[h('a'), zh('b'), zh('c')]);
        let r = PlatformRequest::new(&[], None, None).unwrap();
        assert!(!r.needs_locked(&locks, true));
        let c = r.resolve(&p("linux_amd64"), None, true).unwrap();
        assert_eq!(c.platforms, [p("linux_amd64")]);
        assert_eq!(c.message, None);
    }

    #[test]
    fn locked_expands_among_given_platforms_and_refuses_when_it_is_empty() {
        let r = PlatformRequest::new(&["locked".into(), "linux_arm64".into()], None, None).unwrap();
        assert!(r.needs_locked(&Locks::new(), false));
        let found = LockedPlatforms {
            platforms: vec![p("darwin_arm64"), p("linux_arm64")],
            unnamed: vec![],
        };
        let c = r.resolve(&p("linux_amd64"), Some(&found), false).unwrap();
        assert_eq!(c.platforms, [p("darwin_arm64"), p("linux_arm64")]);
        assert_eq!(c.message, None);
        let only = PlatformRequest::new(&["locked".into()], None, None).unwrap();
        let e = only
            .resolve(&p("linux_amd64"), Some(&LockedPlatforms::default()), false)
            .unwrap_err();
        assert_eq!(e.summary, "No platforms to lock");
    }

    #[test]
    fn probing_starts_with_this_machine_and_names_each_platform_once() {
        let probes = probe_platforms(&p("darwin_arm64"));
        assert_eq!(probes[0], p("darwin_arm64"));
        assert_eq!(
            probes.iter().filter(|x| **x == p("darwin_arm64")).count(),
            1
        );
        assert!(probes.contains(&p("linux_amd64")));
    }
}
