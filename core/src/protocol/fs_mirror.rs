//! Filesystem mirror layouts (`filesystem_search.go`), as pure path functions: hosts walk
//! the directory and ask which relative paths are packages.
//!
//! - unpacked: `HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/` (a directory)
//! - packed:   `HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip` (a file)

use super::names::{
    looks_like_version, normalize_hostname, normalize_provider_part, split_platform,
};
use super::package_name::{self, file_name};
use crate::gotext::to_lower;

/// Which layout an entry uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// An extracted package directory.
    Unpacked,
    /// A zip archive.
    Packed,
}

/// A package found in a filesystem mirror.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsMirrorEntry {
    /// Hostname normalised for comparison.
    pub hostname: String,
    /// Namespace as written (validated; `-` is the legacy namespace).
    pub namespace: String,
    /// Provider type as written.
    pub type_: String,
    /// Version string.
    pub version: String,
    /// `os_arch`.
    pub platform: String,
    /// Packed or unpacked.
    pub layout: Layout,
    /// The normalised archive file name Terraform records for the package.
    pub filename: String,
}

/// The unpacked directory for a package, relative to the mirror root.
pub fn unpacked_dir(
    hostname: &str,
    namespace: &str,
    type_: &str,
    version: &str,
    platform: &str,
) -> String {
    format!("{hostname}/{namespace}/{type_}/{version}/{platform}")
}

/// The packed archive path for a package, relative to the mirror root.
pub fn packed_path(
    hostname: &str,
    namespace: &str,
    type_: &str,
    version: &str,
    platform: &str,
) -> String {
    format!(
        "{hostname}/{namespace}/{type_}/{}",
        file_name(type_, version, platform)
    )
}

/// Classifies `rel_path` (slash-separated, relative to the mirror root; `is_dir` says what
/// the host found there). `None` for anything Terraform's search would ignore.
pub fn parse_entry(rel_path: &str, is_dir: bool, default_host: &str) -> Option<FsMirrorEntry> {
    let rel_path = rel_path.trim_end_matches('/');
    let parts: Vec<&str> = rel_path.split('/').collect();
    if parts.len() < 3 {
        return None;
    }
    let (host_given, namespace, type_) = (parts[0], parts[1], parts[2]);
    if namespace != "-" {
        normalize_provider_part(namespace)?;
    }
    normalize_provider_part(type_)?;
    let hostname = normalize_hostname(host_given)?;
    if namespace == "-" && hostname != default_host {
        return None; // legacy providers only live on the default registry
    }
    match parts.len() {
        5 if is_dir => {
            let (version, platform) = (parts[3], parts[4]);
            if !looks_like_version(version) || split_platform(platform).is_none() {
                return None;
            }
            Some(FsMirrorEntry {
                hostname,
                namespace: namespace.to_string(),
                type_: type_.to_string(),
                version: version.to_string(),
                platform: platform.to_string(),
                layout: Layout::Unpacked,
                filename: file_name(type_, version, platform),
            })
        }
        4 if !is_dir => {
            // Terraform compares the file name lower-cased by `strings.ToLower` with a prefix
            // built from the type as written in the directory name.
            let name = to_lower(parts[3]);
            let parsed = package_name::parse(&name).filter(|p| p.provider_type == type_)?;
            let (version, platform) = (parsed.version, parsed.platform);
            if !looks_like_version(&version) || split_platform(&platform).is_none() {
                return None;
            }
            Some(FsMirrorEntry {
                hostname,
                namespace: namespace.to_string(),
                type_: type_.to_string(),
                version,
                platform,
                layout: Layout::Packed,
                filename: name,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEF: &str = "registry.terraform.io";

    #[test]
    fn builds_and_parses_both_layouts() {
        let dir = unpacked_dir(DEF, "hashicorp", "null", "2.0.0", "linux_amd64");
        assert_eq!(
            dir,
            "registry.terraform.io/hashicorp/null/2.0.0/linux_amd64"
        );
        let e = parse_entry(&dir, true, DEF).unwrap();
        assert_eq!(
            (e.layout, e.version.as_str(), e.platform.as_str()),
            (Layout::Unpacked, "2.0.0", "linux_amd64")
        );
        assert_eq!(e.filename, "terraform-provider-null_2.0.0_linux_amd64.zip");

        let zip = packed_path(DEF, "hashicorp", "null", "2.1.0", "linux_amd64");
        assert_eq!(
            zip,
            "registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_linux_amd64.zip"
        );
        let e = parse_entry(&zip, false, DEF).unwrap();
        assert_eq!((e.layout, e.version.as_str()), (Layout::Packed, "2.1.0"));
    }

    #[test]
    fn ignores_what_terraform_ignores() {
        // An unpacked path that is a file, a packed path that is a directory.
        assert!(parse_entry(
            "registry.terraform.io/hashicorp/null/2.0.0/linux_amd64",
            false,
            DEF
        )
        .is_none());
        assert!(parse_entry(
            "registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_linux_amd64.zip",
            true,
            DEF
        )
        .is_none());
        // Wrong prefix, missing platform, bad version, too shallow.
        assert!(parse_entry(
            "registry.terraform.io/hashicorp/null/terraform-provider-other_2.1.0_linux_amd64.zip",
            false,
            DEF
        )
        .is_none());
        assert!(parse_entry(
            "registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0.zip",
            false,
            DEF
        )
        .is_none());
        assert!(parse_entry(
            "registry.terraform.io/hashicorp/null/latest/linux_amd64",
            true,
            DEF
        )
        .is_none());
        assert!(parse_entry("registry.terraform.io/hashicorp", true, DEF).is_none());
        // Legacy namespace only on the default host.
        assert!(parse_entry("example.com/-/null/1.0.0/linux_amd64", true, DEF).is_none());
        assert!(parse_entry("registry.terraform.io/-/null/1.0.0/linux_amd64", true, DEF).is_some());
        // Packed file names are matched case-insensitively.
        let e = parse_entry(
            "Example.COM/Awesome/happy/TERRAFORM-PROVIDER-HAPPY_0.1.0_LINUX_AMD64.ZIP",
            false,
            DEF,
        )
        .unwrap();
        assert_eq!(e.hostname, "example.com");
        assert_eq!(e.filename, "terraform-provider-happy_0.1.0_linux_amd64.zip");
    }
}
