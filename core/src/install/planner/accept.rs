//! Package acceptance: whether a fetched package may be installed (or, for `providers lock`,
//! recorded) and which hashes it adds to the lock. A pure function of the settings, the
//! previous lock entry, what the source said about the package and what the host computed
//! from its bytes, so every decision is testable without a planner.

use super::signatures::SignatureMemo;
use crate::addrs::Provider;
use crate::hash::PackageHash;
use crate::install::needs::{FetchedPackage, SourcePackage};
use crate::install::options::{Mode, PlanOptions};
use crate::lockfile::update::{record_install, ChecksumMismatch, InstalledPackage, PackageOrigin};
use crate::lockfile::ProviderLock;
use crate::protocol::auth::{
    authenticate_by_hashes, authenticate_registry_package_with, check_registry_h1,
    signing_required, AuthError, AuthResult, LocalHashes, RegistryAuthInput,
};
use crate::protocol::names::preferred_hashes;
use crate::version::{Constraints, Version};
use crate::Flavor;

/// The provider release a fetched package is meant to be.
#[derive(Debug, Clone, Copy)]
pub(super) struct Release<'a> {
    /// The provider.
    pub provider: &'a Provider,
    /// The selected version.
    pub version: &'a Version,
    /// The combined configured constraints (recorded as the lock's `constraints`).
    pub constraints: &'a Constraints,
}

/// A package that passed: how it was authenticated and what it adds to the lock.
#[derive(Debug, Clone)]
pub(super) struct Accepted {
    /// The source's authentication; `None` when the source vouches for nothing (local
    /// mirrors, network mirrors without hashes), which the products print `unauthenticated`.
    pub auth: Option<AuthResult>,
    /// The lock entry this platform's package produces.
    pub lock: ProviderLock,
    /// The `h1:` of the package as unpacked, always recorded.
    pub installed_h1: PackageHash,
    /// Nothing but this platform's `h1:` vouches for the package, so the lock covers this
    /// platform only (Terraform's incomplete-lock warning).
    pub incomplete: bool,
}

/// Why a fetched package was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Rejection {
    /// A registry's package arrived unpacked, so its archive checksum cannot be checked.
    NotAnArchive,
    /// The source's checks failed: checksum, signature, OpenTofu `packages`, mirror hashes.
    Unauthentic(AuthError),
    /// The package matches none of the hashes the lock file recorded for this version.
    ChecksumMismatch(ChecksumMismatch),
}

impl From<AuthError> for Rejection {
    fn from(e: AuthError) -> Rejection {
        Rejection::Unauthentic(e)
    }
}

/// Authenticates `fetched` as `source` described it, checks it against `prior` (the previous
/// lock entry for the provider, any version) and works out the lock entry it produces.
/// `signatures` only remembers signature verdicts: the answer is what verifying again
/// would give.
pub(super) fn accept(
    opts: &PlanOptions,
    release: Release<'_>,
    prior: Option<&ProviderLock>,
    source: &SourcePackage,
    fetched: &FetchedPackage,
    signatures: &mut SignatureMemo,
) -> Result<Accepted, Rejection> {
    let (auth, listed) = authenticate(opts, release.provider, source, fetched, signatures)?;
    let computed = Computed::of(fetched);
    let vouched = vouched_hashes(opts, release.provider, source, auth.as_ref(), &listed);
    let recorded = recorded_hashes(opts.flavor, auth.as_ref(), &vouched);
    // Only hashes of the same version can check this package.
    let same_version = prior.filter(|l| l.version() == release.version);
    let preferred = same_version
        .map(ProviderLock::preferred_hashes)
        .unwrap_or_default();

    let lock = match opts.mode {
        // `providers lock` installs with InstallNewProvidersForce: no check against the
        // lock, just the union.
        Mode::ProvidersLock => ProviderLock::new(
            release.provider.clone(),
            release.version.clone(),
            Some(release.constraints.clone()),
            std::iter::once(computed.installed_h1.clone())
                .chain(preferred.iter().cloned())
                .chain(recorded),
        ),
        Mode::Init | Mode::InitUpgrade => {
            let pkg = InstalledPackage {
                addr: release.provider.clone(),
                version: release.version.clone(),
                constraints: Some(release.constraints.clone()),
                package_hashes: computed.checkable,
                installed_h1: computed.installed_h1.clone(),
                signed_hashes: recorded,
                origin: computed.origin,
            };
            record_install(same_version, &pkg, opts.flavor).map_err(Rejection::ChecksumMismatch)?
        }
    };
    let incomplete = vouched.is_empty()
        && (preferred.is_empty() || preferred == [computed.installed_h1.clone()]);
    Ok(Accepted {
        auth,
        lock,
        installed_h1: computed.installed_h1,
        incomplete,
    })
}

/// What the host's hashes of the package say, by the package's form.
struct Computed {
    /// Hashes a prior lock entry may match (`h1:` of the archive and `zh:`, or the
    /// directory's `h1:`).
    checkable: Vec<PackageHash>,
    /// The `h1:` of the unpacked package.
    installed_h1: PackageHash,
    /// Decides the wording of a checksum mismatch.
    origin: PackageOrigin,
}

impl Computed {
    fn of(fetched: &FetchedPackage) -> Computed {
        match fetched {
            FetchedPackage::Archive { hashes, .. } => Computed {
                checkable: vec![hashes.h1_archive.clone(), hashes.zh.clone()],
                installed_h1: hashes.h1.clone(),
                origin: PackageOrigin::Download,
            },
            FetchedPackage::Dir { h1 } => Computed {
                checkable: vec![h1.clone()],
                installed_h1: h1.clone(),
                origin: PackageOrigin::LocalDirectory,
            },
        }
    }
}

/// Runs the source's checks; returns their result (`None`: the source vouches for nothing)
/// and the hashes OpenTofu's registry `packages` list once the local `h1:` is among them.
fn authenticate(
    opts: &PlanOptions,
    provider: &Provider,
    source: &SourcePackage,
    fetched: &FetchedPackage,
    signatures: &mut SignatureMemo,
) -> Result<(Option<AuthResult>, Vec<String>), Rejection> {
    let flavor = opts.flavor;
    match source {
        SourcePackage::Registry {
            meta,
            sha256sums,
            signature,
        } => {
            let FetchedPackage::Archive {
                hashes,
                sha256,
                size,
            } = fetched
            else {
                return Err(Rejection::NotAnArchive);
            };
            let input = RegistryAuthInput {
                flavor,
                provider_hostname: &provider.hostname,
                enforce_gpg_validation: opts.enforce_gpg_validation,
                meta,
                document: sha256sums,
                signature,
                archive_sha256: *sha256,
                archive_size: *size,
                trust_roots: &opts.trust_roots,
            };
            let auth = authenticate_registry_package_with(&input, &mut |i| signatures.verify(i))?;
            let mut listed = Vec::new();
            if flavor == Flavor::OpenTofu && meta.has_packages() {
                // The RFC: the locally computed h1 must be one the registry lists; then
                // every platform's hashes it lists are trusted.
                check_registry_h1(meta, hashes.h1.as_str())
                    .or_else(|_| check_registry_h1(meta, hashes.h1_archive.as_str()))?;
                for entry in meta.packages.values() {
                    listed.extend(preferred_hashes(&entry.hashes));
                }
            }
            Ok((Some(auth), listed))
        }
        SourcePackage::NetworkMirror {
            hashes,
            trust_all_hashes,
            ..
        } => {
            if hashes.is_empty() {
                return Ok((None, Vec::new()));
            }
            let local = match fetched {
                FetchedPackage::Archive { hashes: z, .. } => LocalHashes {
                    h1: Some(z.h1_archive.to_string()),
                    zh: Some(z.zh.to_string()),
                },
                FetchedPackage::Dir { h1 } => LocalHashes {
                    h1: Some(h1.to_string()),
                    zh: None,
                },
            };
            let platform = hashes.first().map(|(p, _)| p.clone()).unwrap_or_default();
            let auth =
                authenticate_by_hashes(flavor, &platform, hashes, &local, *trust_all_hashes)?;
            Ok((Some(auth), Vec::new()))
        }
        SourcePackage::LocalArchive { .. } | SourcePackage::LocalDir { .. } => {
            Ok((None, Vec::new()))
        }
    }
}

/// Hashes the checks vouch for beyond the package itself: Terraform's signed `zh:` list
/// (only when signed), OpenTofu's signed or — when signing is not required — reported
/// hashes, plus the `packages` hashes `listed`.
fn vouched_hashes(
    opts: &PlanOptions,
    provider: &Provider,
    source: &SourcePackage,
    auth: Option<&AuthResult>,
    listed: &[String],
) -> Vec<PackageHash> {
    let flavor = opts.flavor;
    let from_auth: Vec<&str> = match auth {
        None => Vec::new(),
        Some(auth) if flavor == Flavor::Terraform && !auth.signed() => Vec::new(),
        Some(auth) => {
            let required = match (source, flavor) {
                (_, Flavor::Terraform) => true,
                (SourcePackage::Registry { meta, .. }, Flavor::OpenTofu) => signing_required(
                    flavor,
                    !meta.signing_keys.is_empty(),
                    &provider.hostname,
                    opts.enforce_gpg_validation,
                ),
                (_, Flavor::OpenTofu) => false,
            };
            auth.vouched_hashes(required)
        }
    };
    from_auth
        .into_iter()
        .chain(listed.iter().map(String::as_str))
        .filter_map(|h| PackageHash::parse(h).ok())
        .collect()
}

/// The hashes the lock records besides the prior ones and the installed `h1:`: the vouched
/// ones, and for OpenTofu also every hash verified locally against the package (its
/// installer's `localHashes`, e.g. a mirror's matching `zh:`); Terraform records no more.
fn recorded_hashes(
    flavor: Flavor,
    auth: Option<&AuthResult>,
    vouched: &[PackageHash],
) -> Vec<PackageHash> {
    let local = match (flavor, auth) {
        (Flavor::OpenTofu, Some(auth)) => auth
            .local_hashes()
            .filter_map(|h| PackageHash::parse(h).ok())
            .collect(),
        _ => Vec::new(),
    };
    vouched.iter().cloned().chain(local).collect()
}
