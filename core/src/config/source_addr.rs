//! Module source addresses as Terraform 1.15 parses them (`moduleaddrs.ParseModuleSource`
//! and `ParseModuleSourceRegistry`): a local path (`./`, `../`), a module registry address
//! (`tfaddr.ParseModuleSource`: `[host/]namespace/name/system[//subdir]`), or else a remote
//! package through go-getter's shorthand detectors (`detectRemoteSourceShorthands`): a
//! forced getter (`git::`) and a `//subdir` split off, a URL with a scheme taken as it is,
//! then `github.com/`, SSH `git@host:path`, `bitbucket.org/`, `googleapis.com/`,
//! `.amazonaws.com/` and absolute file paths; any other non-empty string is a relative path
//! written without `./` (`MaybeRelativePathErr`). The one place tflock decides what a
//! `source` is and which refusal Terraform reports for it.
//!
//! OpenTofu (`Flavor::OpenTofu`) keeps the same parser with go-getter v1.8's own detectors
//! (`internal/getmodules/getter.go`, `goGetterDetectors`) and `registry-address/v2`; the
//! few places where that changes the answer are marked "OpenTofu" below.

use crate::addrs::hostname::for_comparison;
use crate::diag::{Diagnostic, Range};
use crate::flavor::Flavor;
use crate::gotext::quote;
use crate::gotext::url::{path_clean, path_join, reencode_query, Url};

/// What a module source address is, normalised as Terraform prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceAddr {
    /// A path relative to the calling module (`./x`, `../x`, cleaned).
    Local(String),
    /// A module registry address (`registry.terraform.io/ns/name/system[//subdir]`).
    Registry(String),
    /// A go-getter package address (`git::https://h/r.git?ref=v1`, what the installer
    /// downloads) and the sub-directory within it (`""` for none).
    Remote {
        /// The package address.
        package: String,
        /// The cleaned sub-directory.
        subdir: String,
    },
}

impl std::fmt::Display for SourceAddr {
    /// The address as Terraform prints it (`ModuleSourceRemote.String`: a sub-directory
    /// goes before the package's query).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceAddr::Local(a) | SourceAddr::Registry(a) => f.write_str(a),
            SourceAddr::Remote { package, subdir } if subdir.is_empty() => f.write_str(package),
            SourceAddr::Remote { package, subdir } => match package.split_once('?') {
                Some((base, query)) => write!(f, "{base}//{subdir}?{query}"),
                None => write!(f, "{package}//{subdir}"),
            },
        }
    }
}

/// Why Terraform refuses a module source address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceAddrError {
    /// A relative path without `./` (the package address go-getter was given).
    MaybeRelativePath(String),
    /// Any other refusal, in the parser's words.
    Invalid(String),
}

impl SourceAddrError {
    /// Terraform's diagnostic for the refusal, at `at` (the `source` expression for a
    /// `module` block, the whole attribute for a test run's `module`). `registry_only`: the
    /// call also sets a `version`.
    pub fn diagnostic(&self, registry_only: bool, at: Range) -> Diagnostic {
        self.diagnostic_as(Flavor::Terraform, registry_only, at)
    }

    /// The diagnostic as `flavor` words it: OpenTofu's `ModuleCall.decodeStaticSource`
    /// (`internal/configs/module_call.go`) names itself where Terraform does.
    pub fn diagnostic_as(&self, flavor: Flavor, registry_only: bool, at: Range) -> Diagnostic {
        let product = flavor.product();
        let (summary, detail) = match self {
            SourceAddrError::MaybeRelativePath(addr) => (
                "Invalid module source address",
                format!(
                    "{product} failed to determine your intended installation method for remote module package {}.\n\nIf you intended this as a path relative to the current module, use \"./{addr}\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
                    quote(addr)
                ),
            ),
            SourceAddrError::Invalid(e) if registry_only => (
                "Invalid registry module source address",
                format!("Failed to parse module registry address: {e}.\n\n{product} assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules."),
            ),
            SourceAddrError::Invalid(e) => (
                "Invalid module source address",
                format!("Failed to parse module source address: {e}."),
            ),
        };
        Diagnostic::error(summary, detail).with_range(at)
    }
}

/// Whether `raw` is a local path (`ModuleSourceLocal`): loaded relative to its caller, not
/// installed.
pub fn is_local(raw: &str) -> bool {
    ["./", "../", ".\\", "..\\"]
        .iter()
        .any(|p| raw.starts_with(p))
}

/// Parses a module `source` as Terraform does; `registry_only` when the call sets a
/// `version` (then only a registry address is accepted).
pub fn parse_source_addr(raw: &str, registry_only: bool) -> Result<SourceAddr, SourceAddrError> {
    parse_source_addr_as(raw, registry_only, Flavor::Terraform)
}

/// Parses a module `source` as `flavor` does (OpenTofu: `addrs.ParseModuleSource` and
/// `ParseModuleSourceRegistry` in `internal/addrs/module_source.go`).
pub fn parse_source_addr_as(
    raw: &str,
    registry_only: bool,
    flavor: Flavor,
) -> Result<SourceAddr, SourceAddrError> {
    if registry_only {
        if is_local(raw) {
            return Err(SourceAddrError::Invalid(format!(
                "can't use local directory {} as a module registry address",
                quote(raw)
            )));
        }
        return parse_registry(raw, flavor)
            .map(SourceAddr::Registry)
            .map_err(SourceAddrError::Invalid);
    }
    if is_local(raw) {
        let clean = path_clean(&raw.replace('\\', "/"));
        return Ok(SourceAddr::Local(if clean.starts_with("../") {
            clean
        } else {
            format!("./{clean}")
        }));
    }
    // Whatever is not a valid registry address is a remote one; the registry parser's
    // error is never shown here.
    if let Ok(addr) = parse_registry(raw, flavor) {
        return Ok(SourceAddr::Registry(addr));
    }
    parse_remote(raw, flavor)
}

/// go-getter's `SourceDirSubdir` with the sub-directory cleaned: `//` after any `://` and
/// before any `?` splits it off, and a query after it moves back onto the package.
fn split_subdir(given: &str) -> (String, String) {
    let stop = given.find('?').unwrap_or(given.len());
    let offset = given[..stop].find("://").map_or(0, |i| i + 3);
    let Some(i) = given[offset..stop].find("//") else {
        return (given.to_string(), String::new());
    };
    let i = i + offset;
    let mut package = given[..i].to_string();
    let mut subdir = &given[i + 2..];
    if let Some(q) = subdir.find('?') {
        package.push_str(&subdir[q..]);
        subdir = &subdir[..q];
    }
    let subdir = if subdir.is_empty() {
        String::new()
    } else {
        path_clean(subdir)
    };
    (package, subdir)
}

fn registry_name_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let edge = |c: &u8| c.is_ascii_alphanumeric();
    (1..=64).contains(&b.len())
        && b.first().is_some_and(edge)
        && b.last().is_some_and(edge)
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
}

/// `tfaddr.ParseModuleSource`: the normalised address, or the parser's error text.
/// OpenTofu's `regaddr.ParseModuleSource` (`registry-address/v2`, `module.go`) differs only
/// in its default host, `registry.opentofu.org`.
fn parse_registry(raw: &str, flavor: Flavor) -> Result<String, String> {
    let (package, subdir) = split_subdir(raw);
    if subdir.starts_with("../") {
        return Err(format!(
            "subdirectory path {} leads outside of the module package",
            quote(&subdir)
        ));
    }
    let mut parts: Vec<&str> = package.split('/').collect();
    if parts.len() != 3 && parts.len() != 4 {
        return Err("a module registry source address must have either three or four slash-separated components".to_string());
    }
    let mut host = flavor.default_registry_host().to_string();
    if parts.len() == 4 {
        host = for_comparison(parts[0]).map_err(|_| {
            if parts[0].contains("--") {
                format!("invalid module registry hostname {}; internationalized domain names must be given as direct unicode characters, not in punycode", quote(parts[0]))
            } else {
                format!("invalid module registry hostname {}", quote(parts[0]))
            }
        })?;
        if !host.contains('.') {
            return Err(
                "invalid module registry hostname: must contain at least one dot".to_string(),
            );
        }
        parts.remove(0);
    }
    if host == "github.com" || host == "bitbucket.org" {
        return Err(format!("can't use {} as a module registry host, because it's reserved for installing directly from version control repositories", quote(&host)));
    }
    let (namespace, name, system) = (parts[0], parts[1], parts[2]);
    if !registry_name_ok(namespace) {
        if namespace.contains('.') {
            return Err("source address must have three more components after the hostname: the namespace, the name, and the target system".to_string());
        }
        return Err(format!("invalid namespace {}: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix", quote(namespace)));
    }
    if !registry_name_ok(name) {
        return Err(format!("invalid module name {}: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix", quote(name)));
    }
    let system_ok = (1..=64).contains(&system.len())
        && system
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !system_ok {
        if system.contains('?') {
            return Err(
                "module registry addresses may not include a query string portion".to_string(),
            );
        }
        return Err(format!(
            "invalid target system {}: must be between one and 64 ASCII letters or digits",
            quote(system)
        ));
    }
    let mut out = format!("{host}/{namespace}/{name}/{system}");
    if !subdir.is_empty() {
        out.push_str("//");
        out.push_str(&subdir);
    }
    Ok(out)
}

/// `parseModuleSourceRemote`: the package address go-getter's detectors make of `raw`,
/// with its sub-directory (`ModuleSourceRemote.String`).
fn parse_remote(raw: &str, flavor: Flavor) -> Result<SourceAddr, SourceAddrError> {
    let (package, mut subdir) = split_subdir(raw);
    if subdir.starts_with("../") {
        return Err(SourceAddrError::Invalid(format!(
            "subdirectory path {} leads outside of the module package",
            quote(&subdir)
        )));
    }
    let detected = detect(&package, flavor)?;
    let (package, more) = split_subdir(&detected);
    if !more.is_empty() {
        subdir = if subdir.is_empty() {
            path_clean(&more)
        } else {
            path_join(&more, &subdir)
        };
        if subdir.starts_with("../") {
            return Err(SourceAddrError::Invalid(format!(
                "detected subdirectory path {} of {} leads outside of the module package",
                quote(&subdir),
                quote(&package)
            )));
        }
    }
    Ok(SourceAddr::Remote { package, subdir })
}

/// A forced getter (`^([A-Za-z0-9]+)::(.+)$`; `.` stops at a line break) and the rest.
fn forced(src: &str) -> (&str, &str) {
    let n = src.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let rest = src[n..].strip_prefix("::").unwrap_or_default();
    if n > 0 && !rest.is_empty() && !rest.contains('\n') {
        (&src[..n], rest)
    } else {
        ("", src)
    }
}

type Detected = Result<Option<String>, SourceAddrError>;
type Detector = fn(&str) -> Detected;

/// `detectRemoteSourceShorthands`; for OpenTofu go-getter's `Detect` (`detect.go`) over
/// `goGetterDetectors`, the same loop with its own final refusal and two detectors that
/// differ (GCS and SSH, below). go-getter's GitHub detector behind OpenTofu's
/// `withoutQueryParams` gives what Terraform's does. Its BitBucket detector asks
/// `api.bitbucket.org` which SCM a repository uses; tflock makes no network call and
/// answers as for a Git repository, what the API says for every repository since
/// BitBucket dropped Mercurial.
fn detect(src: &str, flavor: Flavor) -> Result<String, SourceAddrError> {
    let (force, rest) = forced(src);
    let (get_src, mut subdir) = split_subdir(rest);
    if Url::parse(&get_src).is_ok_and(|u| !u.scheme.is_empty()) {
        return Ok(src.to_string());
    }
    let (git_ssh, gcs): (Detector, Detector) = match flavor {
        Flavor::Terraform => (detect_git_ssh, detect_gcs),
        Flavor::OpenTofu => (detect_git_ssh_gogetter, detect_gcs_gogetter),
    };
    let detectors: [Detector; 6] = [
        detect_github,
        git_ssh,
        detect_bitbucket,
        gcs,
        detect_s3,
        detect_abs_path,
    ];
    for d in detectors {
        let Some(result) = d(&get_src)? else {
            continue;
        };
        let (detect_force, result) = forced(&result);
        let (result, detect_subdir) = split_subdir(result);
        if !detect_subdir.is_empty() {
            subdir = if subdir.is_empty() {
                detect_subdir
            } else {
                path_join(&detect_subdir, &subdir)
            };
        }
        let mut result = result;
        if !subdir.is_empty() {
            let mut u = Url::parse(&result)
                .map_err(|e| SourceAddrError::Invalid(format!("Error parsing URL: {e}")))?;
            u.path.extend_from_slice(b"//");
            u.path.extend_from_slice(subdir.as_bytes());
            u.raw_path = u.path.clone();
            result = u.to_string();
        }
        let force = if force.is_empty() {
            detect_force
        } else {
            force
        };
        return Ok(if force.is_empty() {
            result
        } else {
            format!("{force}::{result}")
        });
    }
    // go-getter's `Detect` words the refusal of a source no detector takes (only an
    // empty one: the file detector takes any other) differently.
    let what = match flavor {
        Flavor::Terraform => "address",
        Flavor::OpenTofu => "string",
    };
    Err(SourceAddrError::Invalid(format!(
        "invalid source {what}: {src}"
    )))
}

fn invalid(e: String) -> SourceAddrError {
    SourceAddrError::Invalid(e)
}

fn detect_github(src: &str) -> Detected {
    if !src.starts_with("github.com/") {
        return Ok(None);
    }
    let (path, query) = src.split_once('?').unwrap_or((src, ""));
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() < 3 {
        return Err(invalid(
            "GitHub URLs should be github.com/username/repo".to_string(),
        ));
    }
    let mut u = Url::parse(&format!("https://{}", parts[..3].join("/")))
        .map_err(|e| invalid(format!("error parsing GitHub URL: {e}")))?;
    u.raw_query = query.to_string();
    if !u.path.ends_with(b".git") {
        u.path.extend_from_slice(b".git");
    }
    if parts.len() > 3 {
        u.path.extend_from_slice(b"//");
        u.path.extend_from_slice(parts[3..].join("/").as_bytes());
    }
    Ok(Some(format!("git::{u}")))
}

/// `sshPattern` (`^(?:([^@]+)@)?([^:]+):/?(.+)$`): user, host and path.
fn ssh_parts(src: &str) -> Option<(&str, &str, &str)> {
    let tail = |s: &str| -> Option<(usize, usize)> {
        // `([^:]+):/?(.+)$`: the host ends at the first colon; the path is the rest (a
        // leading `/` dropped unless it is all there is) and holds no line break.
        let colon = s.find(':')?;
        if colon == 0 {
            return None;
        }
        let after = &s[colon + 1..];
        if after.is_empty() || after.contains('\n') {
            return None;
        }
        let skip = usize::from(after.len() > 1 && after.starts_with('/'));
        Some((colon, colon + 1 + skip))
    };
    if let Some(at) = src.find('@').filter(|&i| i > 0) {
        let rest = &src[at + 1..];
        if let Some((colon, path)) = tail(rest) {
            return Some((&src[..at], &rest[..colon], &rest[path..]));
        }
    }
    let (colon, path) = tail(src)?;
    Some(("", &src[..colon], &src[path..]))
}

fn detect_git_ssh(src: &str) -> Detected {
    git_ssh_with(src, "Git")
}

/// go-getter's `detectSSH` (`detect_ssh.go`) names GitHub in its query error.
fn detect_git_ssh_gogetter(src: &str) -> Detected {
    git_ssh_with(src, "GitHub")
}

fn git_ssh_with(src: &str, name: &str) -> Detected {
    if src.is_empty() {
        return Ok(None);
    }
    let Some((user, host, path)) = ssh_parts(src) else {
        return Ok(None);
    };
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    let raw_query = match query {
        Some(q) => {
            reencode_query(q).map_err(|e| invalid(format!("error parsing {name} SSH URL: {e}")))?
        }
        None => String::new(),
    };
    if user != "git" {
        return Ok(None);
    }
    let u = Url {
        scheme: "ssh".to_string(),
        user: Some((user.as_bytes().to_vec(), None)),
        host: host.as_bytes().to_vec(),
        path: path.as_bytes().to_vec(),
        raw_query,
        ..Url::default()
    };
    Ok(Some(format!("git::{u}")))
}

fn detect_bitbucket(src: &str) -> Detected {
    if !src.starts_with("bitbucket.org/") {
        return Ok(None);
    }
    let mut u = Url::parse(&format!("https://{src}"))
        .map_err(|e| invalid(format!("error parsing BitBucket URL: {e}")))?;
    if !u.path.ends_with(b".git") {
        u.path.extend_from_slice(b".git");
    }
    Ok(Some(format!("git::{u}")))
}

fn detect_gcs(src: &str) -> Detected {
    gcs_with(src, "googleapis.com/")
}

/// go-getter's `GCSDetector` (`detect_gcs.go`) wants a dot before `googleapis.com/`, so a
/// bare `googleapis.com/...` falls through to the file detector.
fn detect_gcs_gogetter(src: &str) -> Detected {
    gcs_with(src, ".googleapis.com/")
}

fn gcs_with(src: &str, needle: &str) -> Detected {
    if !src.contains(needle) {
        return Ok(None);
    }
    let parts: Vec<&str> = src.split('/').collect();
    if parts.len() < 5 {
        return Err(invalid("URL is not a valid GCS URL".to_string()));
    }
    let url = format!(
        "https://www.googleapis.com/storage/{}/{}/{}",
        parts[2],
        parts[3],
        parts[4..].join("/")
    );
    let u = Url::parse(&url).map_err(|e| invalid(format!("error parsing GCS URL: {e}")))?;
    Ok(Some(format!("gcs::{u}")))
}

fn detect_s3(src: &str) -> Detected {
    if !src.contains(".amazonaws.com/") {
        return Ok(None);
    }
    let parts: Vec<&str> = src.split('/').collect();
    let host: Vec<&str> = parts[0].split('.').collect();
    let rest = parts[1..].join("/");
    let url = match host.as_slice() {
        [region, _, _] => format!("https://{region}.amazonaws.com/{rest}"),
        [bucket, region, _, _] => format!("https://{region}.amazonaws.com/{bucket}/{rest}"),
        [bucket, "s3", region, _, _] => {
            format!("https://s3.{region}.amazonaws.com/{bucket}/{rest}")
        }
        _ => return Err(invalid("URL is not a valid S3 URL".to_string())),
    };
    let u = Url::parse(&url).map_err(|e| invalid(format!("error parsing S3 URL: {e}")))?;
    Ok(Some(format!("s3::{u}")))
}

fn detect_abs_path(src: &str) -> Detected {
    if src.is_empty() {
        return Ok(None);
    }
    match src.strip_prefix('/') {
        Some(rest) => Ok(Some(format!("file:///{rest}"))),
        None => Err(SourceAddrError::MaybeRelativePath(src.to_string())),
    }
}

#[cfg(test)]
mod opentofu_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(raw: &str) -> String {
        match parse_source_addr(raw, false) {
            Ok(r @ SourceAddr::Remote { .. }) => r.to_string(),
            other => panic!("{raw}: {other:?}"),
        }
    }

    fn refused(raw: &str, registry_only: bool) -> String {
        match parse_source_addr(raw, registry_only) {
            Err(SourceAddrError::Invalid(e)) => e,
            Err(SourceAddrError::MaybeRelativePath(a)) => format!("maybe relative {a}"),
            other => panic!("{raw}: {other:?}"),
        }
    }

    #[test]
    fn remote_sources_normalise_as_terraforms_installer_prints_them() {
        for (raw, want) in [
            (
                "git::https://example.com/x.git",
                "git::https://example.com/x.git",
            ),
            (
                "git@github.com:org/repo.git",
                "git::ssh://git@github.com/org/repo.git",
            ),
            (
                "foo.s3.amazonaws.com/x",
                "s3::https://s3.amazonaws.com/foo/x",
            ),
            ("/nonexistent/x", "file:///nonexistent/x"),
            (
                "github.com/org/repo//sub?ref=v1",
                "git::https://github.com/org/repo.git//sub?ref=v1",
            ),
            ("bitbucket.org/a/b", "git::https://bitbucket.org/a/b.git"),
            (
                "git::https://e.com/x.git//sub?ref=v1",
                "git::https://e.com/x.git//sub?ref=v1",
            ),
            ("github.com/a/b/c/d", "git::https://github.com/a/b.git//c/d"),
            // An escape that decodes to a lone byte is printed escaped again.
            ("github.com/a/%C3", "git::https://github.com/a/%C3.git"),
        ] {
            assert_eq!(remote(raw), want, "{raw}");
        }
    }

    #[test]
    fn locals_and_registry_addresses() {
        assert_eq!(
            parse_source_addr(".\\a\\..\\b", false),
            Ok(SourceAddr::Local("./b".into()))
        );
        assert_eq!(
            parse_source_addr("hashicorp/consul/aws//x/", false),
            Ok(SourceAddr::Registry(
                "registry.terraform.io/hashicorp/consul/aws//x".into()
            ))
        );
        assert_eq!(
            parse_source_addr("Example.COM/a/b/c", true),
            Ok(SourceAddr::Registry("example.com/a/b/c".into()))
        );
    }

    #[test]
    fn refusals_say_what_terraform_says() {
        assert_eq!(refused("m/sub", false), "maybe relative m/sub");
        assert_eq!(refused("m//sub", false), "maybe relative m");
        assert_eq!(refused("x::m", false), "maybe relative m");
        assert_eq!(refused("", false), "invalid source address: ");
        assert_eq!(
            refused("x//../../a", false),
            "subdirectory path \"../../a\" leads outside of the module package"
        );
        assert_eq!(
            refused("github.com/foo", false),
            "GitHub URLs should be github.com/username/repo"
        );
        assert_eq!(
            refused("a.b.c.amazonaws.com/b", false),
            "URL is not a valid S3 URL"
        );
        assert_eq!(
            refused("github.com/a/b/c", true),
            "can't use \"github.com\" as a module registry host, because it's reserved for installing directly from version control repositories"
        );
        assert_eq!(
            refused("./m", true),
            "can't use local directory \"./m\" as a module registry address"
        );
        assert_eq!(
            refused("a/b", true),
            "a module registry source address must have either three or four slash-separated components"
        );
    }
}
