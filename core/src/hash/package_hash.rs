//! The `scheme:value` hash string Terraform records in lock files and mirror indexes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The `h1:` scheme: Go dirhash Hash1 of the package contents.
pub const SCHEME_H1: &str = "h1:";
/// The `zh:` scheme: SHA-256 of the `.zip` archive file.
pub const SCHEME_ZH: &str = "zh:";

/// A package hash string, `scheme:value`, as Terraform's `getproviders.Hash`.
///
/// Unknown schemes are kept (a newer Terraform may have written them); nothing about the
/// value is validated, exactly as in Terraform's `ParseHash`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackageHash(String);

/// Why a string is not a hash (`ParseHash`'s only error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("hash string must start with a scheme keyword followed by a colon")]
pub struct HashParseError;

impl PackageHash {
    /// Parses `s` with Terraform's `ParseHash` rules: a scheme (at least one character) up
    /// to and including the first colon, then any value (possibly empty).
    pub fn parse(s: &str) -> Result<PackageHash, HashParseError> {
        match s.find(':') {
            Some(i) if i > 0 => Ok(PackageHash(s.to_owned())),
            _ => Err(HashParseError),
        }
    }

    /// Builds a hash from a scheme (with its colon, e.g. `h1:`) and a value.
    pub(crate) fn from_parts(scheme: &str, value: &str) -> PackageHash {
        debug_assert!(scheme.ends_with(':') && scheme.len() > 1);
        PackageHash(format!("{scheme}{value}"))
    }

    /// The `zh:` hash of an archive whose SHA-256 digest is `digest`.
    pub fn zh_from_digest(digest: &[u8; 32]) -> PackageHash {
        PackageHash::from_parts(SCHEME_ZH, &hex::encode(digest))
    }

    /// The scheme including its colon, e.g. `h1:`.
    pub fn scheme(&self) -> &str {
        // `parse` guarantees a colon; `from_parts` too.
        let end = self.0.find(':').map_or(self.0.len(), |i| i + 1);
        &self.0[..end]
    }

    /// Everything after the first colon.
    pub fn value(&self) -> &str {
        &self.0[self.scheme().len()..]
    }

    /// The whole `scheme:value` string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is an `h1:` hash.
    pub fn is_h1(&self) -> bool {
        self.scheme() == SCHEME_H1
    }

    /// Whether this is a `zh:` hash.
    pub fn is_zh(&self) -> bool {
        self.scheme() == SCHEME_ZH
    }

    /// Whether this Terraform release knows how to check this scheme (`h1:` or `zh:`).
    pub fn is_preferred(&self) -> bool {
        self.is_h1() || self.is_zh()
    }
}

impl fmt::Display for PackageHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for PackageHash {
    type Err = HashParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PackageHash::parse(s)
    }
}

impl Serialize for PackageHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for PackageHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PackageHash::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Terraform's `PreferredHashes`: the hashes (order kept) whose scheme this version can check.
pub fn preferred_hashes(hashes: &[PackageHash]) -> Vec<PackageHash> {
    hashes
        .iter()
        .filter(|h| h.is_preferred())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_known_and_unknown_schemes() {
        for s in ["h1:foo", "zh:bar", "unknown:baz", "unknown:"] {
            assert_eq!(PackageHash::parse(s).unwrap().as_str(), s);
        }
        let h = PackageHash::parse("unknown:").unwrap();
        assert_eq!((h.scheme(), h.value()), ("unknown:", ""));
    }

    #[test]
    fn parse_rejects_missing_or_leading_colon_with_terraform_text() {
        for s in [
            "",
            "1e5f7a5f3ade7b8b1d1d59c5cea2e1a2f8d2f8c3f41962dbbe8647e222be8239",
            ":blah",
        ] {
            let err = PackageHash::parse(s).unwrap_err();
            assert_eq!(
                err.to_string(),
                "hash string must start with a scheme keyword followed by a colon"
            );
        }
    }

    #[test]
    fn scheme_is_up_to_the_first_colon() {
        let h = PackageHash::parse("h1:a:b").unwrap();
        assert_eq!((h.scheme(), h.value()), ("h1:", "a:b"));
        assert!(h.is_h1() && !h.is_zh());
    }

    #[test]
    fn ordering_is_bytewise_on_the_whole_string() {
        let mut v: Vec<PackageHash> = ["zh:a", "h1:b", "h1:B", "a:z"]
            .iter()
            .map(|s| PackageHash::parse(s).unwrap())
            .collect();
        v.sort();
        let got: Vec<&str> = v.iter().map(|h| h.as_str()).collect();
        assert_eq!(got, ["a:z", "h1:B", "h1:b", "zh:a"]);
    }

    #[test]
    fn preferred_hashes_keeps_h1_and_zh_in_order() {
        let v: Vec<PackageHash> = ["zh:1", "x:2", "h1:3", "h2:4"]
            .iter()
            .map(|s| PackageHash::parse(s).unwrap())
            .collect();
        let got: Vec<String> = preferred_hashes(&v).iter().map(|h| h.to_string()).collect();
        assert_eq!(got, ["zh:1", "h1:3"]);
    }

    #[test]
    fn serde_is_a_plain_string() {
        let h = PackageHash::parse("h1:x").unwrap();
        assert_eq!(serde_json::to_string(&h).unwrap(), "\"h1:x\"");
        let back: PackageHash = serde_json::from_str("\"zh:y\"").unwrap();
        assert!(back.is_zh());
        assert!(serde_json::from_str::<PackageHash>("\"nocolon\"").is_err());
    }
}
