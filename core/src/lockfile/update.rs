//! How `init` changes the lock set, as pure decisions: keeping or replacing a selection,
//! which hashes are recorded (trust on first use), dropping unneeded providers.

use super::model::{Locks, ProviderLock};
use crate::addrs::Provider;
use crate::hash::PackageHash;
use crate::version::{Constraints, Version};
use crate::Flavor;

/// The version the lock file pins `addr` to for this run: the recorded one unless
/// upgrading (`init -upgrade` ignores recorded selections).
pub fn pinned_version<'l>(locks: &'l Locks, addr: &Provider, upgrade: bool) -> Option<&'l Version> {
    if upgrade {
        return None;
    }
    locks.provider(addr).map(ProviderLock::version)
}

/// The error when a recorded selection no longer meets the configured constraints and the
/// run is not upgrading: `locked provider ... does not match configured version constraint`.
pub fn locked_version_conflict(
    addr: &Provider,
    locked: &Version,
    constraints: &Constraints,
    flavor: Flavor,
) -> String {
    format!(
        "locked provider {addr} {locked} does not match configured version constraint {}; must use {} init -upgrade to allow selection of new versions",
        constraints.canonical(),
        flavor.command()
    )
}

/// Where the package that was just installed came from; it decides the mismatch text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackageOrigin {
    /// Downloaded (registry or network mirror archive).
    Download,
    /// An unpacked directory in a local filesystem mirror.
    LocalDirectory,
}

/// What is known about a provider package `init` has just obtained.
#[derive(Debug, Clone)]
pub struct InstalledPackage {
    /// The provider.
    pub addr: Provider,
    /// The version selected and installed.
    pub version: Version,
    /// The combined configured constraints (recorded as the lock's `constraints`).
    pub constraints: Option<Constraints>,
    /// Hashes computed locally from the package as obtained (e.g. `zh:` of the archive and
    /// `h1:` of its contents), used to check it against recorded hashes.
    pub package_hashes: Vec<PackageHash>,
    /// The `h1:` of the installed (unpacked) package directory, always recorded.
    pub installed_h1: PackageHash,
    /// Every hash covered by a verified signature (the registry's checksum list); empty
    /// when the package was not signature-verified.
    pub signed_hashes: Vec<PackageHash>,
    /// Where it came from.
    pub origin: PackageOrigin,
}

/// Why an install was refused: the package matched none of the hashes already recorded.
/// Holds Go's error text; the installer wraps it once into `Failed to install provider`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksumMismatch {
    /// The error as Go's installer words it (`the current package for ... doesn't match ...`).
    pub error: String,
}

/// The lock entry Terraform records after installing `pkg`, given the entry it had before.
///
/// If the prior entry is for the same version and holds hashes this release can check, the
/// package must match one of them (trust on first use); only then are new hashes added.
/// Recorded hashes = prior checkable hashes (same version only) ∪ the installed `h1:` ∪ the
/// signed hashes, sorted and de-duplicated; constraints are replaced by the configured ones.
pub fn record_install(
    prior: Option<&ProviderLock>,
    pkg: &InstalledPackage,
    flavor: Flavor,
) -> Result<ProviderLock, ChecksumMismatch> {
    let prior_hashes = prior
        .filter(|p| *p.version() == pkg.version)
        .map(ProviderLock::preferred_hashes)
        .unwrap_or_default();
    if !prior_hashes.is_empty() && !pkg.package_hashes.iter().any(|h| prior_hashes.contains(h)) {
        return Err(ChecksumMismatch {
            error: mismatch_error(pkg, flavor),
        });
    }
    let hashes = prior_hashes
        .into_iter()
        .chain(std::iter::once(pkg.installed_h1.clone()))
        .chain(pkg.signed_hashes.iter().cloned());
    Ok(ProviderLock::new(
        pkg.addr.clone(),
        pkg.version.clone(),
        pkg.constraints.clone(),
        hashes,
    ))
}

fn mismatch_error(pkg: &InstalledPackage, flavor: Flavor) -> String {
    let which = match pkg.origin {
        PackageOrigin::Download => "current",
        PackageOrigin::LocalDirectory => "local",
    };
    let mut err = format!(
        "the {which} package for {} {} doesn't match any of the checksums previously recorded in the dependency lock file",
        pkg.addr, pkg.version
    );
    if pkg.origin == PackageOrigin::LocalDirectory {
        err.push_str(" (this might be because the available checksums are for packages targeting different platforms)");
    }
    if flavor == Flavor::Terraform {
        err.push_str("; for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification");
    }
    err
}

/// Locks for providers no longer required are removed: keeps only `required` addresses.
pub fn retain_required(locks: &mut Locks, required: &[Provider]) {
    let stale: Vec<Provider> = locks
        .addrs()
        .filter(|a| !required.contains(a))
        .cloned()
        .collect();
    for addr in stale {
        locks.remove_provider(&addr);
    }
}

/// Whether `init` rewrites the file: only when the new locks differ under `Locks::equal`
/// (constraints ignored; hash order matters).
pub fn needs_write(previous: &Locks, new: &Locks) -> bool {
    !new.equal(previous)
}
