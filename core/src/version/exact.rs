//! Exact versions: go-versions `Version` and `ParseVersion`.
//!
//! The `semver` crate's `Prerelease`/`BuildMetadata` reject strings go-versions accepts
//! (leading zeros such as `1.0.0-01`, empty identifiers such as `1.0.0-a..b`) and order
//! prereleases differently (`beta` < `alpha.1` here), so versions are our own type.

use super::error::VersionError;
use super::extra::cmp_extra;
use super::scan::{scan, Dialect};
use crate::Flavor;
use std::cmp::Ordering;
use std::fmt;

/// A version as Terraform's provider installer sees it (`versions.Version`).
///
/// Equality and hashing include the build metadata (`1.0.0` != `1.0.0+abc`), as go-versions'
/// exact sets do. [`Ord`] agrees with that equality: it orders by precedence
/// ([`Version::cmp_precedence`], which ignores metadata) and breaks ties between metadata
/// variants with the prerelease-style comparison of the metadata strings (the tie-break
/// Terraform uses when it sorts constraint boundaries). Use `cmp_precedence` for
/// "newer than" questions.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Version {
    /// Major number.
    pub major: u64,
    /// Minor number.
    pub minor: u64,
    /// Patch number.
    pub patch: u64,
    /// Prerelease text after `-`, without the dash (empty for a release).
    pub prerelease: String,
    /// Build metadata after `+`, without the plus (empty when absent).
    pub metadata: String,
}

impl Version {
    /// A release version `major.minor.patch`.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            prerelease: String::new(),
            metadata: String::new(),
        }
    }

    /// Parses an exact version with Terraform's rules (`versions.ParseVersion`, go-versions
    /// 1.0.2): `1` means 1.0.0, `-pre` and `+meta` are optional, operators, `v` prefixes,
    /// spaces and wildcards are errors with go-versions' texts.
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        Version::parse_flavored(s, Flavor::Terraform)
    }

    /// [`Version::parse`] for a given product (OpenTofu uses go-versions 1.0.3, whose
    /// scanner treats `v` like a separator; only some error texts differ).
    pub fn parse_flavored(s: &str, flavor: Flavor) -> Result<Version, VersionError> {
        parse_exact(s, Dialect::for_flavor(flavor))
    }

    /// True when the version has a prerelease part.
    pub fn is_prerelease(&self) -> bool {
        !self.prerelease.is_empty()
    }

    /// The version without its build metadata (`Version.Comparable`).
    pub fn without_metadata(&self) -> Version {
        Version {
            metadata: String::new(),
            ..self.clone()
        }
    }

    /// Precedence order, ignoring metadata: numbers, then a release above its
    /// prereleases, then the go-versions prerelease comparison.
    pub fn cmp_precedence(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(
                || match (self.prerelease.is_empty(), other.prerelease.is_empty()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Greater,
                    (false, true) => Ordering::Less,
                    (false, false) => cmp_extra(&self.prerelease, &other.prerelease),
                },
            )
    }

    /// Same precedence (`Version.Same`): equal apart from metadata.
    pub fn same(&self, other: &Version) -> bool {
        self.cmp_precedence(other) == Ordering::Equal
    }

    /// True for `0.0.0` with no prerelease or metadata (`versions.Unspecified`), which
    /// go-versions never counts as a member of a constraint-derived set.
    pub fn is_unspecified(&self) -> bool {
        *self == Version::default()
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_precedence(other)
            .then_with(|| cmp_extra(&self.metadata, &other.metadata))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `Version.String()`: `M.m.p[-pre][+meta]`.
impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.prerelease.is_empty() {
            write!(f, "-{}", self.prerelease)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Version {
    type Err = VersionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse(s)
    }
}

/// Serialized as `Version.String()`.
impl serde::Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Deserialized with [`Version::parse`] (Terraform's rules).
impl<'de> serde::Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Version::parse(&s).map_err(serde::de::Error::custom)
    }
}

fn is_go_space(c: char) -> bool {
    c.is_whitespace()
}

/// `constraints.ParseExactVersion` followed by the conversion to a `Version`.
fn parse_exact(vs: &str, dialect: Dialect) -> Result<Version, VersionError> {
    let err = |m: String| Err(VersionError::new(m));
    if vs.trim_matches(is_go_space).is_empty() {
        return err("empty specification".into());
    }
    let (raw, remain) = scan(vs, dialect);
    match raw.op.trim_matches(is_go_space) {
        ">" | ">=" | "<" | "<=" | "!" | "!=" | "~>" | "^" | "~" => {
            return err(format!(
                "can't use constraint operator {}; an exact version is required",
                crate::gotext::quote(raw.op)
            ))
        }
        "" => {
            if !raw.sep.is_empty() {
                if raw.sep.contains('v') {
                    return err(r#"a "v" prefix should not be used"#.into());
                }
                return err("extraneous spaces at start of specification".into());
            }
        }
        _ => {
            return err(format!(
                "invalid sequence {} at start of specification",
                crate::gotext::quote(raw.op)
            ))
        }
    }
    if !remain.is_empty() {
        let remain = remain.trim_matches(is_go_space);
        return err(if remain.is_empty() {
            "extraneous spaces at end of specification".into()
        } else if vs.starts_with('v') {
            r#"a "v" prefix should not be used"#.into()
        } else if remain.starts_with(',') || remain.starts_with('|') {
            "can't specify multiple versions; a single exact version is required".into()
        } else if remain.starts_with('-') {
            "can't specify version range; a single exact version is required".into()
        } else if vs.trim_matches(is_go_space).starts_with(remain) {
            "invalid specification; required format is three positive integers separated by periods"
                .into()
        } else {
            format!("invalid characters {}", crate::gotext::quote(remain))
        });
    }
    if raw.num_ct > 3 {
        return err(
            "too many numbered portions; only three are allowed (major, minor, patch)".into(),
        );
    }
    let mut nums = raw.nums;
    for n in nums.iter_mut().skip(raw.num_ct) {
        *n = "0";
    }
    const NAMES: [&str; 3] = ["major", "minor", "patch"];
    for (i, n) in nums.iter().enumerate() {
        if super::scan::is_wildcard(n) {
            return err(format!(
                "can't use wildcard for {} number; an exact version is required",
                NAMES[i]
            ));
        }
    }
    Ok(Version {
        major: parse_num(nums[0])?,
        minor: parse_num(nums[1])?,
        patch: parse_num(nums[2])?,
        prerelease: raw.pre.to_string(),
        metadata: raw.meta.to_string(),
    })
}

/// A scanned decimal number. go-versions panics when it overflows a `uint64`; we return an
/// error instead (Terraform's first parse stage already rejects numbers above `i64::MAX`).
pub(crate) fn parse_num(s: &str) -> Result<u64, VersionError> {
    s.parse::<u64>()
        .map_err(|_| VersionError::new(format!("version number {s} is too large")))
}
