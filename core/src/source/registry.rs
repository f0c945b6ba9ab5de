//! The origin registry: service discovery (or a `host` block), `versions`, `download`, and
//! the `SHA256SUMS` document and signature the download answer names.

use url::Url;

use super::answers::{AvailableVersions, SourceError, SourceErrorKind, SourcePackage};
use super::conversation::{settle, Ctx, Flow, Halt, Io};
use crate::addrs::{Platform, Provider};
use crate::protocol::discovery::{discovery_url, Discovery, DiscoveryError};
use crate::protocol::registry::{
    download_path, platform_not_supported, provider_not_known, query_failed, status_error,
    versions_path, DownloadResponse, VersionsResponse,
};
use crate::protocol::urls::resolve_under;
use crate::version::Version;

/// The `providers.v1` base of `hostname`, discovered once per set.
fn providers_base(ctx: &mut Ctx<'_>, hostname: &str) -> Flow<Url> {
    let result = match ctx.set.discovered.get(hostname) {
        Some(done) => done.clone(),
        None => {
            let fresh = settle(discover(ctx, hostname))?;
            ctx.set
                .discovered
                .insert(hostname.to_string(), fresh.clone());
            fresh
        }
    };
    Ok(result.map_err(|m| host_error(hostname, m))?)
}

fn discover(ctx: &Ctx<'_>, hostname: &str) -> Flow<Url, DiscoveryError> {
    let failed = Halt::Failed;
    let discovery = match ctx.set.cli_config.host_override(hostname) {
        Some(d) => d.map_err(failed)?,
        None => {
            let url = discovery_url(hostname).map_err(failed)?;
            let doc = ctx
                .get(&url, Some(hostname))?
                .map_err(|error| DiscoveryError::Connect {
                    hostname: hostname.to_string(),
                    error,
                })
                .map_err(failed)?;
            match doc.status {
                200 => Discovery::parse(&doc.body, &doc.final_url),
                404 => Discovery::parse(b"{}", &doc.final_url),
                _ => Err(DiscoveryError::Status(doc.status_text.clone())),
            }
            .map_err(failed)?
        }
    };
    discovery
        .providers_v1(hostname, ctx.set.flavor)
        .map_err(failed)
}

fn host_error(hostname: &str, error: DiscoveryError) -> SourceError {
    let kind = match &error {
        DiscoveryError::NoProviders { other_version, .. } => SourceErrorKind::HostNoProviders {
            hostname: hostname.to_string(),
            other_version: *other_version,
        },
        _ => SourceErrorKind::Other,
    };
    SourceError {
        kind,
        message: error.to_string(),
    }
}

/// Terraform and OpenTofu speak plugin protocols 5 and 6; versions listing only others
/// are not installable and are skipped.
fn protocols_compatible(protocols: &[String]) -> bool {
    protocols.is_empty()
        || protocols.iter().any(|p| {
            let major = p.split('.').next().unwrap_or("");
            major == "5" || major == "6"
        })
}

/// One installable version of the origin's listing and the platforms it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CatalogEntry {
    pub(crate) version: Version,
    pub(crate) platforms: Vec<Platform>,
}

/// The installable versions and the registry's warnings.
pub(crate) type Catalog = (Vec<CatalogEntry>, Vec<String>);

/// `GET <base><ns>/<type>/versions`.
pub(crate) fn versions(ctx: &mut Ctx<'_>, p: &Provider) -> Flow<AvailableVersions> {
    let (entries, warnings) = fetch_catalog(ctx, p)?;
    Ok(AvailableVersions {
        versions: entries.into_iter().map(|e| e.version).collect(),
        warnings,
    })
}

/// `GET <base><ns>/<type>/versions`, keeping each installable version's platforms (which
/// Terraform ignores; a mirror lists them) and the registry's warnings.
pub(crate) fn catalog(ctx: &mut Ctx<'_>, p: &Provider) -> Io<Result<Catalog, SourceError>> {
    settle(fetch_catalog(ctx, p))
}

fn fetch_catalog(ctx: &mut Ctx<'_>, p: &Provider) -> Flow<Catalog> {
    let base = providers_base(ctx, &p.hostname)?;
    let url = resolve_under(&base, &versions_path(&p.namespace, &p.r#type))
        .map_err(SourceError::other)?;
    let addr = p.to_string();
    let doc = ctx
        .get(&url, Some(&p.hostname))?
        .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
    if doc.status == 404 {
        return Err(SourceError {
            kind: SourceErrorKind::ProviderNotKnown,
            message: provider_not_known(&p.hostname, &addr),
        }
        .into());
    }
    if let Some(err) = status_error(
        doc.status,
        &doc.status_text,
        &addr,
        &p.hostname,
        doc.had_credentials,
        || provider_not_known(&p.hostname, &addr),
    ) {
        return Err(SourceError::other(err.0).into());
    }
    let parsed = VersionsResponse::parse(&doc.body, &addr).map_err(|e| SourceError::other(e.0))?;
    let flavor = ctx.set.flavor;
    let entries = parsed
        .valid_versions()
        .filter(|e| protocols_compatible(&e.protocols))
        .filter_map(|e| {
            let version = Version::parse_flavored(&e.version, flavor).ok()?;
            let platforms = e
                .platforms
                .iter()
                .filter_map(|p| Platform::parse(&p.platform()).ok())
                .collect();
            Some(CatalogEntry { version, platforms })
        })
        .collect();
    Ok((entries, parsed.warnings.clone()))
}

/// `GET <base><ns>/<type>/<version>/download/<os>/<arch>`, then `SHA256SUMS` and its
/// signature.
pub(crate) fn package(
    ctx: &mut Ctx<'_>,
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Io<Result<SourcePackage, SourceError>> {
    settle(package_flow(ctx, p, v, platform))
}

/// [`package`] as a flow.
pub(crate) fn package_flow(
    ctx: &mut Ctx<'_>,
    p: &Provider,
    v: &Version,
    platform: &Platform,
) -> Flow<SourcePackage> {
    let (os, arch) = (platform.os.as_str(), platform.arch.as_str());
    let base = providers_base(ctx, &p.hostname)?;
    let version = v.to_string();
    let url = resolve_under(
        &base,
        &download_path(&p.namespace, &p.r#type, &version, os, arch),
    )
    .map_err(SourceError::other)?;
    let addr = p.to_string();
    let doc = ctx
        .get(&url, Some(&p.hostname))?
        .map_err(|e| SourceError::other(query_failed(&addr, e).0))?;
    if doc.status == 404 {
        return Err(SourceError {
            kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
            message: platform_not_supported(&addr, &version, &platform.to_string()),
        }
        .into());
    }
    if let Some(err) = status_error(
        doc.status,
        &doc.status_text,
        &addr,
        &p.hostname,
        doc.had_credentials,
        String::new,
    ) {
        return Err(SourceError::other(err.0).into());
    }
    let flavor = ctx.set.flavor;
    let meta = DownloadResponse::parse(&doc.body, &addr)
        .and_then(|d| d.validate(flavor, &addr, &version, os, arch, &doc.final_url))
        .map_err(|e| SourceError::other(e.0))?;
    let sha256sums = small(ctx, &meta.shasums_url)?;
    let signature = small(ctx, &meta.shasums_signature_url)?;
    Ok(SourcePackage::Registry {
        meta: Box::new(meta),
        sha256sums,
        signature,
    })
}

/// A document the download answer names (no credentials: it may live anywhere).
fn small(ctx: &Ctx<'_>, url: &Url) -> Flow<Vec<u8>> {
    let doc = ctx.get(url, None)?.map_err(SourceError::other)?;
    if doc.status != 200 {
        return Err(SourceError::other(format!(
            "{} returned from {}",
            doc.status_text,
            url.host_str().unwrap_or("")
        ))
        .into());
    }
    Ok(doc.body.clone())
}
