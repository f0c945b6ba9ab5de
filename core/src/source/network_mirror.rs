//! A network mirror: `index.json` for versions, `<version>.json` for packages.

use url::Url;

use super::answers::{AvailableVersions, SourceError, SourceErrorKind, SourcePackage};
use super::conversation::{Ctx, Flow};
use super::requests::HttpResponse;
use crate::addrs::{Platform, Provider};
use crate::protocol::mirror::{
    check_content_type, index_status, index_url, mirror_query_failed, platform_missing,
    version_index_missing, version_url, MirrorIndex, MirrorPackageError, MirrorStatus,
    MirrorVersion,
};
use crate::protocol::urls::credentials_host;
use crate::version::Version;

fn unauthorized(url: &Url) -> SourceError {
    SourceError::other(format!(
        "host {} rejected the given authentication credentials",
        url.host_str().unwrap_or("")
    ))
}

/// Checks a 200 response's content type; the error is already wrapped.
fn json_body<'a>(doc: &'a HttpResponse, base: &Url, addr: &str) -> Result<&'a [u8], SourceError> {
    check_content_type(doc.content_type.as_deref())
        .map_err(|e| SourceError::other(mirror_query_failed(base, addr, e)))?;
    Ok(&doc.body)
}

/// `GET <base><host>/<ns>/<type>/index.json`; `None` on 404 (the mirror lacks it).
pub(crate) fn versions(ctx: &Ctx<'_>, base: &Url, p: &Provider) -> Flow<Option<AvailableVersions>> {
    let addr = p.to_string();
    let failed =
        |e: &dyn std::fmt::Display| SourceError::other(mirror_query_failed(base, &addr, e));
    let url = index_url(base, &p.hostname, &p.namespace, &p.r#type).map_err(SourceError::other)?;
    let doc = ctx
        .get(&url, Some(&credentials_host(&url)))?
        .map_err(|e| failed(&e))?;
    match index_status(doc.status) {
        MirrorStatus::Ok => {}
        MirrorStatus::NotFound => return Ok(None),
        MirrorStatus::Unauthorized => return Err(unauthorized(&url).into()),
        MirrorStatus::Failed(e) => return Err(failed(&e).into()),
    }
    let index = MirrorIndex::parse(json_body(doc, base, &addr)?).map_err(|e| failed(&e))?;
    let flavor = ctx.set.flavor;
    Ok(Some(AvailableVersions {
        versions: index
            .versions
            .iter()
            .filter_map(|v| Version::parse_flavored(v, flavor).ok())
            .collect(),
        warnings: Vec::new(),
    }))
}

/// `GET <base><host>/<ns>/<type>/<version>.json` and the platform's archive in it.
pub(crate) fn package(
    ctx: &Ctx<'_>,
    base: &Url,
    trust_all: bool,
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Flow<SourcePackage> {
    let addr = p.to_string();
    let failed =
        |e: &dyn std::fmt::Display| SourceError::other(mirror_query_failed(base, &addr, e));
    let version = v.to_string();
    let platform = platform.to_string();
    let url = version_url(base, &p.hostname, &p.namespace, &p.r#type, &version)
        .map_err(SourceError::other)?;
    let doc = ctx
        .get(&url, Some(&credentials_host(&url)))?
        .map_err(|e| failed(&e))?;
    match index_status(doc.status) {
        MirrorStatus::Ok => {}
        MirrorStatus::NotFound => {
            return Err(SourceError::other(version_index_missing(&addr, &version)).into())
        }
        MirrorStatus::Unauthorized => return Err(unauthorized(&url).into()),
        MirrorStatus::Failed(e) => return Err(failed(&e).into()),
    }
    let parsed = MirrorVersion::parse(json_body(doc, base, &addr)?).map_err(|e| failed(&e))?;
    let not_found = || platform_missing(base, &addr, &version, &platform);
    let pkg = parsed
        .package(
            ctx.set.flavor,
            &platform,
            &doc.final_url,
            trust_all,
            not_found,
        )
        .map_err(|e| match e {
            MirrorPackageError::PlatformMissing(msg) => SourceError {
                kind: SourceErrorKind::PlatformNotSupported {
                    mirror_url: Some(base.to_string()),
                },
                message: msg,
            },
            MirrorPackageError::Query(e) => failed(&e),
        })?;
    Ok(SourcePackage::NetworkMirror {
        mirror_url: base.to_string(),
        url: pkg.url.to_string(),
        hashes: pkg.hashes,
        trust_all_hashes: trust_all,
    })
}
