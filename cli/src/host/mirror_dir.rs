//! A network-mirror directory that `providers mirror` builds: where each archive goes, and
//! an archive already there standing in for its download when core says it matches.

use super::package::{archive, hash_zip_file, Fetched};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use tflock_core::api::hash::PackageHash;
use tflock_core::api::mirror::hostname_for_display;
use tflock_core::api::mirror::mirrored_archive_matches;
use tflock_core::api::parse::package_file_name;
use tflock_core::api::version::Version;
use tflock_core::api::{Platform, Provider};

/// The directory of `provider`'s files in the mirror at `target`
/// (`<host>/<namespace>/<type>/`, the network mirror protocol's layout).
pub fn provider_dir(target: &Path, provider: &Provider) -> PathBuf {
    target
        .join(hostname_for_display(&provider.hostname))
        .join(&provider.namespace)
        .join(&provider.r#type)
}

/// Where the archive of `provider` `version` for `platform` lives in the mirror.
pub fn archive_path(
    target: &Path,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
) -> PathBuf {
    provider_dir(target, provider).join(package_file_name(
        &provider.r#type,
        &version.to_string(),
        &platform.to_string(),
    ))
}

/// The archive already in the mirror, hashed, when it is the one the source announced
/// (`announced`, its `zh:`); `None` when it is absent, unreadable or different, so the
/// package is downloaded (and replaces it).
pub fn reuse(
    target: &Path,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
    announced: Option<&PackageHash>,
) -> Option<Fetched> {
    announced?;
    let path = archive_path(target, provider, version, platform);
    if !path.is_file() {
        return None;
    }
    let hashes = hash_zip_file(&path, &ProgressBar::hidden()).ok()?;
    if !mirrored_archive_matches(&hashes, announced) {
        return None;
    }
    let size = std::fs::metadata(&path).ok()?.len();
    Some(Fetched {
        package: archive(hashes, size).ok()?,
        kept: None,
        local: Some(path),
        reused: true,
    })
}
