//! `required_version`: hashicorp/go-version 1.9.0's `Constraints.Check` against a released
//! Terraform version, which is what `terraform init` compares every module's
//! `required_version` with. go-version is not go-versions: `~> 1` means `>= 1.0.0`, a
//! constraint may have more than three numbers, and prerelease constraints are refused by
//! Terraform before any check (`Invalid required_version constraint`).

/// A released core version (`1.15.5`): what the constraints are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoreVersion {
    /// Major, minor and patch.
    pub parts: [i64; 3],
}

impl CoreVersion {
    /// The Terraform release whose behaviour tflock follows.
    pub const TERRAFORM: CoreVersion = CoreVersion { parts: [1, 15, 5] };

    /// Parses `MAJOR.MINOR.PATCH` (a release: no prerelease, no metadata).
    pub fn parse(s: &str) -> Option<CoreVersion> {
        let mut it = s.split('.');
        let mut parts = [0i64; 3];
        for p in &mut parts {
            let n = it.next()?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            *p = n.parse().ok()?;
        }
        it.next().is_none().then_some(CoreVersion { parts })
    }
}

impl std::fmt::Display for CoreVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c] = self.parts;
        write!(f, "{a}.{b}.{c}")
    }
}

/// What checking one `required_version` string found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreCheck {
    /// Every piece holds for the version.
    Met,
    /// Some piece does not hold.
    Unmet,
    /// These pieces (as written, spaces kept: Terraform prints `Constraint.String()`) name
    /// a prerelease, which Terraform refuses instead of checking.
    Prerelease(Vec<String>),
}

/// Checks `constraint` (already accepted by [`super::check_config_syntax`]) against `core`.
pub fn check_core_version(constraint: &str, core: CoreVersion) -> CoreCheck {
    let pieces: Vec<(&str, Op, GoVersion)> = constraint
        .split(',')
        .filter_map(|piece| parse_piece(piece).map(|(op, v)| (piece, op, v)))
        .collect();
    let pre: Vec<String> = pieces
        .iter()
        .filter(|(_, _, v)| v.pre)
        .map(|(p, _, _)| p.to_string())
        .collect();
    if !pre.is_empty() {
        return CoreCheck::Prerelease(pre);
    }
    if pieces.iter().all(|(_, op, c)| holds(*op, core, c)) {
        CoreCheck::Met
    } else {
        CoreCheck::Unmet
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Pessimistic,
}

/// A constraint's version: its numbers padded to three (`segments`), how many were
/// written (`si`), and whether it names a prerelease.
#[derive(Debug)]
struct GoVersion {
    segments: Vec<i64>,
    si: usize,
    pre: bool,
}

fn is_re_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ')
}

fn parse_piece(piece: &str) -> Option<(Op, GoVersion)> {
    let t = piece.trim_matches(is_re_space);
    let (op, rest) = [
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("!=", Op::Ne),
        ("~>", Op::Pessimistic),
        ("<", Op::Lt),
        (">", Op::Gt),
        ("=", Op::Eq),
    ]
    .iter()
    .find_map(|(s, op)| t.strip_prefix(s).map(|r| (*op, r)))
    .unwrap_or((Op::Eq, t));
    let rest = rest.trim_start_matches(is_re_space);
    let body = rest.strip_prefix('v').unwrap_or(rest);
    let numbers_end = numbers_end(body);
    let segs: Vec<i64> = body[..numbers_end]
        .split('.')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let si = segs.len();
    let mut segments = segs;
    while segments.len() < 3 {
        segments.push(0);
    }
    let after = &body[numbers_end..];
    let pre_part = after.split('+').next().unwrap_or_default();
    Some((
        op,
        GoVersion {
            segments,
            si,
            pre: !pre_part.is_empty(),
        },
    ))
}

/// Where `D+(.D+)*` ends (a dot only continues it when a digit follows).
fn numbers_end(s: &str) -> usize {
    let b = s.as_bytes();
    let mut p = 0;
    loop {
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        if p + 1 < b.len() && b[p] == b'.' && b[p + 1].is_ascii_digit() {
            p += 1;
        } else {
            return p;
        }
    }
}

/// go-version's `Compare` of a release against a constraint without prerelease: numbers
/// compared pairwise, the longer one's extra numbers counting only when not zero.
fn compare(v: &[i64], c: &[i64]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    for i in 0..v.len().max(c.len()) {
        match (v.get(i), c.get(i)) {
            (Some(a), Some(b)) if a != b => return a.cmp(b),
            (Some(_), Some(_)) => {}
            (None, _) => {
                return if c[i..].iter().all(|x| *x == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Less
                }
            }
            (_, None) => {
                return if v[i..].iter().all(|x| *x == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
        }
    }
    Ordering::Equal
}

fn holds(op: Op, core: CoreVersion, c: &GoVersion) -> bool {
    use std::cmp::Ordering::*;
    let v = &core.parts[..];
    let ord = compare(v, &c.segments);
    match op {
        Op::Eq => ord == Equal,
        Op::Ne => ord != Equal,
        Op::Gt => ord == Greater,
        Op::Lt => ord == Less,
        Op::Ge => ord != Less,
        Op::Le => ord != Greater,
        Op::Pessimistic => {
            let cs = c.segments.len();
            ord != Less
                && cs <= v.len()
                && (0..c.si.saturating_sub(1)).all(|i| v[i] == c.segments[i])
                && c.segments[cs - 1] <= v[cs - 1]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(c: &str) -> CoreCheck {
        check_core_version(c, CoreVersion::TERRAFORM)
    }

    #[test]
    fn go_version_semantics_for_a_release() {
        for c in [
            ">= 1.0",
            "~> 1.15",
            "~> 1",
            "~> 1.15.0",
            "1.15.5",
            "v1.15.5",
            "= 1.15.5+meta",
            "1.15.5.0",
            "!= 1.15.4",
            "> 1.15.4, < 2",
            "<= 1.15.5",
            ">= 0.12, < 2.0.0",
        ] {
            assert_eq!(check(c), CoreCheck::Met, "{c}");
        }
        for c in [
            "< 1.0",
            "~> 0.11",
            "~> 1.14.0",
            "~> 1.15.5.0",
            "= 1.15.4",
            "!= 1.15.5",
            "> 1.15.5",
            ">= 1.16",
            "~> 1.16",
            "1.15.5.1",
        ] {
            assert_eq!(check(c), CoreCheck::Unmet, "{c}");
        }
    }

    #[test]
    fn prerelease_pieces_are_named_as_written() {
        assert_eq!(
            check("~> 1.0, >= 1.2.0-beta"),
            CoreCheck::Prerelease(vec![" >= 1.2.0-beta".to_string()])
        );
        assert_eq!(
            check("1.0beta"),
            CoreCheck::Prerelease(vec!["1.0beta".to_string()])
        );
        assert_eq!(check(">= 1.0+meta"), CoreCheck::Met);
    }

    #[test]
    fn core_versions_parse_as_releases_only() {
        assert_eq!(CoreVersion::parse("1.5.7").unwrap().to_string(), "1.5.7");
        for bad in ["1.5", "1.5.7-rc1", "v1.5.7", "1.5.7.1", "", "1..7"] {
            assert_eq!(CoreVersion::parse(bad), None, "{bad}");
        }
    }
}
