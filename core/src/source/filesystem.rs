//! A filesystem mirror (`filesystem_search.go`): walk `HOST/NAMESPACE/TYPE/` under the
//! mirror directory through [`SourceRequest::ListDir`](super::SourceRequest::ListDir)
//! requests and classify what is there with [`parse_entry`].

use super::answers::{AvailableVersions, SourceError, SourceErrorKind, SourcePackage};
use super::conversation::{Ctx, Io};
use super::set::Listed;
use crate::addrs::{Platform, Provider};
use crate::protocol::fs_mirror::{parse_entry, Layout};
use crate::protocol::registry::platform_not_supported;
use crate::version::Version;

/// One package found in a filesystem mirror.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FsPackage {
    version: Version,
    platform: String,
    layout: Layout,
    path: String,
}

/// `base` joined with `name` the way `Path::join` joins a relative name.
fn join(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else if base.ends_with('/') {
        format!("{base}{name}")
    } else {
        format!("{base}/{name}")
    }
}

/// Every package of `p` in the mirror at `dir`, sorted by version then platform.
fn walk(ctx: &Ctx<'_>, dir: &str, p: &Provider) -> Io<Vec<FsPackage>> {
    let mut out = Vec::new();
    let Some(hosts) = ctx.list_dir(dir)? else {
        return Ok(out);
    };
    let default_host = ctx.set.flavor.default_registry_host();
    let mut consider = |rel: &str, path: String, is_dir: bool| {
        let Some(e) = parse_entry(rel, is_dir, default_host) else {
            return;
        };
        if e.hostname != p.hostname {
            return;
        }
        if let Ok(version) = Version::parse_flavored(&e.version, ctx.set.flavor) {
            out.push(FsPackage {
                version,
                platform: e.platform,
                layout: e.layout,
                path,
            });
        }
    };
    for host in hosts.iter().filter(|h| h.is_dir) {
        let type_dir = join(&join(&join(dir, &host.name), &p.namespace), &p.r#type);
        let Some(items) = ctx.list_dir(&type_dir)? else {
            continue;
        };
        for item in items {
            let rel_base = format!("{}/{}/{}/{}", host.name, p.namespace, p.r#type, item.name);
            let path = join(&type_dir, &item.name);
            if item.is_dir {
                let Some(platforms) = ctx.list_dir(&path)? else {
                    continue;
                };
                for plat in platforms {
                    let rel = format!("{rel_base}/{}", plat.name);
                    consider(&rel, join(&path, &plat.name), plat.is_dir);
                }
            } else {
                consider(&rel_base, path, false);
            }
        }
    }
    crate::collections::sort_by(&mut out, |a, b| {
        a.version
            .cmp(&b.version)
            .then_with(|| a.platform.cmp(&b.platform))
    });
    Ok(out)
}

/// What the mirror at `dir` offers for `p`; `None` when it has no package of it.
pub(crate) fn listing(ctx: &Ctx<'_>, dir: &str, p: &Provider) -> Io<Option<Listed>> {
    let packages = walk(ctx, dir, p)?;
    if packages.is_empty() {
        return Ok(None);
    }
    let mut versions: Vec<Version> = Vec::new();
    for pkg in &packages {
        if !versions.contains(&pkg.version) {
            versions.push(pkg.version.clone());
        }
    }
    Ok(Some(Listed {
        available: AvailableVersions {
            versions,
            warnings: Vec::new(),
        },
        packages,
    }))
}

/// The package of `p` `v` for `platform` among those listed; an unpacked directory wins
/// over an archive of the same package, as in Terraform.
pub(crate) fn package(
    packages: &[FsPackage],
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Result<SourcePackage, SourceError> {
    let platform = platform.to_string();
    let mut candidates: Vec<&FsPackage> = packages
        .iter()
        .filter(|c| &c.version == v && c.platform == platform)
        .collect();
    crate::collections::sort_by(&mut candidates, |a, b| {
        (a.layout != Layout::Unpacked).cmp(&(b.layout != Layout::Unpacked))
    });
    match candidates.first() {
        Some(c) if c.layout == Layout::Unpacked => Ok(SourcePackage::LocalDir {
            path: c.path.clone(),
        }),
        Some(c) => Ok(SourcePackage::LocalArchive {
            path: c.path.clone(),
        }),
        None => Err(SourceError {
            kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
            message: platform_not_supported(&p.to_string(), &v.to_string(), &platform),
        }),
    }
}
