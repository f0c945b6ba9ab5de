//! Constraint strings: go-versions `ParseRubyStyleMulti` (Terraform's second parse stage)
//! and the parsed form, an intersection of selections.

use super::error::ConstraintError;
use super::exact::{parse_num, Version};
use super::scan::{is_wildcard, scan, Dialect};
use crate::gotext::quote;
use crate::Flavor;

/// A selection operator as Terraform's ruby-style syntax spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// `=` or no operator: exactly this version (metadata included).
    Eq,
    /// `!=`: anything but exactly this version.
    Ne,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `~> M.m.p`: at least this, below the next minor release.
    PessimisticPatch,
    /// `~> M` or `~> M.m`: at least this, below the next major release.
    PessimisticMinor,
}

impl Operator {
    /// The text Terraform's canonical form writes before the version (`>= `, `` for `=`).
    pub fn canonical_prefix(self) -> &'static str {
        match self {
            Operator::Eq => "",
            Operator::Ne => "!= ",
            Operator::Gt => "> ",
            Operator::Ge => ">= ",
            Operator::Lt => "< ",
            Operator::Le => "<= ",
            Operator::PessimisticPatch | Operator::PessimisticMinor => "~> ",
        }
    }
}

/// A constraint's version as written: omitted numbers are `None` ("unconstrained").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Boundary {
    /// Major number (`None` only in degenerate scans such as `>= ,`).
    pub major: Option<u64>,
    /// Minor number, `None` when omitted.
    pub minor: Option<u64>,
    /// Patch number, `None` when omitted.
    pub patch: Option<u64>,
    /// Prerelease text (empty when absent).
    pub prerelease: String,
    /// Build metadata (empty when absent).
    pub metadata: String,
}

impl Boundary {
    /// `VersionSpec.ConstrainToZero`: omitted numbers become 0; when any number was
    /// omitted, prerelease and metadata are dropped too.
    pub fn constrain_to_zero(&self) -> Version {
        let full = self.major.is_some() && self.minor.is_some() && self.patch.is_some();
        Version {
            major: self.major.unwrap_or(0),
            minor: self.minor.unwrap_or(0),
            patch: self.patch.unwrap_or(0),
            prerelease: if full {
                self.prerelease.clone()
            } else {
                String::new()
            },
            metadata: if full {
                self.metadata.clone()
            } else {
                String::new()
            },
        }
    }
}

/// One comparison, e.g. `>= 1.2` (`constraints.SelectionSpec`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selection {
    /// The operator.
    pub op: Operator,
    /// The version it compares against.
    pub boundary: Boundary,
}

impl Selection {
    /// This selection alone in canonical form (`~> 1.2`, `>= 1.0.0`, `1.2.3`).
    pub fn canonical(&self) -> String {
        super::canonical::selection_string(self.op, &self.boundary.constrain_to_zero())
    }
}

/// A parsed constraint string: the intersection of its selections. Empty = any release.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Constraints {
    /// The selections in written order (duplicates kept, as Terraform keeps them).
    pub selections: Vec<Selection>,
}

impl Constraints {
    /// No constraints: every released version is acceptable.
    pub fn any() -> Constraints {
        Constraints::default()
    }

    /// Parses a constraint string with the go-versions release the flavour pins
    /// (Terraform 1.0.2, OpenTofu 1.0.3); the error's `Display` is that release's text.
    pub fn parse(s: &str, flavor: Flavor) -> Result<Constraints, ConstraintError> {
        parse_multi(s, Dialect::for_flavor(flavor))
    }

    /// Terraform's `VersionConstraintsString`: deduplicated, sorted, `, `-joined.
    pub fn canonical(&self) -> String {
        super::canonical::constraints_string(&self.selections)
    }

    /// Whether `v` meets every selection, with go-versions' prerelease rule.
    pub fn allows(&self, v: &Version) -> bool {
        super::meet::allows(&self.selections, v)
    }

    /// Both sets of constraints at once (Terraform concatenates the lists).
    pub fn intersect(&self, other: &Constraints) -> Constraints {
        let mut selections = self.selections.clone();
        selections.extend(other.selections.iter().cloned());
        Constraints { selections }
    }

    /// True when there are no selections at all (any release is acceptable); an
    /// unsatisfiable list such as `>= 2, < 1` is not empty in this sense.
    pub fn is_empty(&self) -> bool {
        self.selections.is_empty()
    }
}

impl std::fmt::Display for Constraints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.canonical())
    }
}

/// Serialized as the canonical text (`VersionConstraintsString`).
impl serde::Serialize for Constraints {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn is_go_space(c: char) -> bool {
    c.is_whitespace()
}

/// `ParseRubyStyleMulti`.
pub(crate) fn parse_multi(s: &str, dialect: Dialect) -> Result<Constraints, ConstraintError> {
    let mut selections = Vec::new();
    let mut remain = s.trim_matches(is_go_space);
    while !remain.is_empty() {
        let (sel, new_remain) = parse_one(remain, dialect);
        let consumed = remain.get(..remain.len() - new_remain.len()).unwrap_or("");
        let sel = sel.map_err(|e| {
            ConstraintError::new(format!("invalid specification {}: {e}", quote(consumed)))
        })?;
        remain = new_remain.trim_matches(is_go_space);
        if !remain.is_empty() {
            if remain.starts_with('v') {
                return Err(ConstraintError::new(match dialect {
                    Dialect::V102 => r#"a "v" prefix should not be used"#,
                    Dialect::V103 => r#"a "v" prefix should not be used when specifying versions"#,
                }));
            }
            let Some(after) = remain.strip_prefix(',') else {
                return Err(ConstraintError::new(format!(
                    "missing comma after {}",
                    quote(consumed)
                )));
            };
            remain = after.trim_matches(is_go_space);
        }
        selections.push(sel);
    }
    Ok(Constraints { selections })
}

/// Why one selection of a constraint string is refused (go-versions' texts, which
/// [`parse_multi`] wraps with the selection it read).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum SelectionError {
    /// An operator go-versions does not know, with the one probably meant.
    #[error("invalid constraint operator {}{}", quote(.op), .meant.map(|m| format!("; did you mean \"{m}\"?")).unwrap_or_default())]
    Operator {
        /// The operator as written.
        op: String,
        /// The operator probably meant.
        meant: Option<&'static str>,
    },
    /// Spaces before the version with no operator.
    #[error("extraneous spaces at start of specification")]
    LeadingSpaces,
    /// A `v` before the version.
    #[error(r#"a "v" prefix should not be used when specifying versions"#)]
    VPrefix,
    /// More than one space after the operator.
    #[error("only one space is expected after the operator {}", quote(.0))]
    Spaces(String),
    /// Four or more numbered parts.
    #[error("too many numbered portions; only three are allowed (major, minor, patch)")]
    TooManyParts,
    /// A wildcard in a numbered part.
    #[error("can't use wildcard for {0} number; omit segments that should be unconstrained")]
    Wildcard(&'static str),
    /// A numbered part that is not a number.
    #[error("{0}")]
    Number(String),
}

/// `parseRubyStyle`: one selection from the start of `s`, and the unconsumed rest.
fn parse_one(s: &str, dialect: Dialect) -> (Result<Selection, SelectionError>, &str) {
    let (raw, remain) = scan(s, dialect);
    (check_one(&raw, dialect), remain)
}

fn check_one(raw: &super::scan::Raw<'_>, dialect: Dialect) -> Result<Selection, SelectionError> {
    let op = match raw.op {
        "=" | "" => Operator::Eq,
        "!=" => Operator::Ne,
        ">" => Operator::Gt,
        ">=" => Operator::Ge,
        "<" => Operator::Lt,
        "<=" => Operator::Le,
        "~>" if raw.num_ct == 3 => Operator::PessimisticPatch,
        "~>" => Operator::PessimisticMinor,
        other => {
            let meant = match other {
                "=<" => Some("<="),
                "=>" => Some(">="),
                _ => None,
            };
            return Err(SelectionError::Operator {
                op: other.to_string(),
                meant,
            });
        }
    };
    match raw.sep {
        "" => {}
        " " if !raw.op.is_empty() => {}
        " " => return Err(SelectionError::LeadingSpaces),
        sep => {
            if dialect == Dialect::V103 && sep.contains('v') {
                return Err(SelectionError::VPrefix);
            }
            return Err(if raw.op.is_empty() {
                SelectionError::LeadingSpaces
            } else {
                SelectionError::Spaces(raw.op.to_string())
            });
        }
    }
    if raw.num_ct > 3 {
        return Err(SelectionError::TooManyParts);
    }
    const NAMES: [&str; 3] = ["major", "minor", "patch"];
    for (i, n) in raw.nums.iter().enumerate() {
        if is_wildcard(n) {
            return Err(SelectionError::Wildcard(NAMES[i]));
        }
    }
    let mut nums = raw.nums;
    if !raw.pre.is_empty() || !raw.meta.is_empty() {
        for n in nums.iter_mut().filter(|n| n.is_empty()) {
            *n = "0";
        }
    }
    let num = |s: &str| -> Result<Option<u64>, SelectionError> {
        if s.is_empty() {
            Ok(None)
        } else {
            parse_num(s)
                .map(Some)
                .map_err(|e| SelectionError::Number(e.to_string()))
        }
    };
    Ok(Selection {
        op,
        boundary: Boundary {
            major: num(nums[0])?,
            minor: num(nums[1])?,
            patch: num(nums[2])?,
            prerelease: raw.pre.to_string(),
            metadata: raw.meta.to_string(),
        },
    })
}
