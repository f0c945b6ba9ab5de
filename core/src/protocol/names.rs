//! Adapters from the protocol models to the crate's address, version and hash parsers, so
//! every model checks strings exactly as Terraform does (`ParseHash`, `ParsePlatform`,
//! `ParseVersion`, `ParseProviderPart`, `svchost.ForComparison`).

use crate::addrs::hostname::{for_comparison, HostnameError};
use crate::addrs::{parse_provider_part, Platform};
use crate::hash::{HashParseError, PackageHash};
use crate::version::{Version, VersionError};

/// `ParseHash`: a hash string needs a scheme keyword and a colon (`h1:…`, `zh:…`, `x:`).
pub fn check_hash_str(s: &str) -> Result<(), HashParseError> {
    PackageHash::parse(s).map(|_| ())
}

/// The `h1:`/`zh:` subset of `hashes`, order kept (`PreferredHashes`).
pub fn preferred_hashes(hashes: &[String]) -> Vec<String> {
    hashes
        .iter()
        .filter(|h| h.starts_with("h1:") || h.starts_with("zh:"))
        .cloned()
        .collect()
}

/// `ParsePlatform`: `<os>_<arch>` with exactly one underscore and no white space.
pub fn split_platform(s: &str) -> Option<(&str, &str)> {
    Platform::parse(s).ok()?;
    s.split_once('_')
}

/// `ParsePlatform`'s error text for `s`, if it is not a platform.
pub fn platform_error(s: &str) -> Option<String> {
    Platform::parse(s).err().map(|e| e.to_string())
}

/// `ParseVersion` accepts `s`.
pub fn looks_like_version(s: &str) -> bool {
    Version::parse(s).is_ok()
}

/// `ParseVersion`: `(major, minor)` of `s`, or go-versions' error.
pub fn parse_version_major_minor(s: &str) -> Result<(u64, u64), VersionError> {
    Version::parse(s).map(|v| (v.major, v.minor))
}

/// A provider namespace or type segment normalised (`ParseProviderPart`).
pub fn normalize_provider_part(s: &str) -> Option<String> {
    parse_provider_part(s).ok()
}

/// A hostname in comparison form, or svchost's error.
pub fn hostname_for_comparison(s: &str) -> Result<String, HostnameError> {
    for_comparison(s)
}

/// A hostname in comparison form (`None` if invalid).
pub fn normalize_hostname(s: &str) -> Option<String> {
    for_comparison(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_strings_need_a_scheme() {
        assert!(check_hash_str("h1:foo").is_ok());
        assert!(check_hash_str("unknown:").is_ok());
        assert_eq!(
            check_hash_str(":blah").unwrap_err().to_string(),
            "hash string must start with a scheme keyword followed by a colon"
        );
        assert!(check_hash_str("").is_err());
    }

    #[test]
    fn platform_and_version_shapes() {
        assert_eq!(split_platform("linux_amd64"), Some(("linux", "amd64")));
        assert_eq!(split_platform("linux_amd64_x"), None);
        assert_eq!(
            platform_error("linux").as_deref(),
            Some("must be two words separated by an underscore")
        );
        assert!(looks_like_version("1.2.3-beta.1"));
        assert!(!looks_like_version("v1.2.3"));
        assert!(!looks_like_version("latest"));
        assert_eq!(parse_version_major_minor("5.1"), Ok((5, 1)));
    }

    #[test]
    fn hostnames_normalise_for_comparison() {
        assert_eq!(
            normalize_hostname("Example.COM").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            normalize_hostname("example.com:443").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            normalize_hostname("example.com:8443").as_deref(),
            Some("example.com:8443")
        );
        assert_eq!(normalize_hostname("bad host"), None);
    }
}
