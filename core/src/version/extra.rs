//! Ordering of prerelease and metadata strings (go-versions `VersionExtra.LessThan`).
//!
//! This is not SemVer precedence: identifiers are compared left to right, but as soon as
//! one side is on its last identifier while the other still has more, the shorter side is
//! smaller whatever the text says (`beta` < `alpha.1`). Numeric identifiers (all ASCII
//! digits, including the empty one) sort before alphanumeric ones; numerics compare by
//! length then bytes, alphanumerics by bytes.

use std::cmp::Ordering;

/// Compares two prerelease (or metadata) strings the way go-versions orders them.
pub fn cmp_extra(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (mut s1, mut s2) = (a, b);
    loop {
        match (s1.find('.'), s2.find('.')) {
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (None, None) => return cmp_ident(s1, s2),
            (Some(d1), Some(d2)) => {
                let (h1, h2) = (&s1[..d1], &s2[..d2]);
                if h1 != h2 {
                    return cmp_ident(h1, h2);
                }
                s1 = &s1[d1 + 1..];
                s2 = &s2[d2 + 1..];
            }
        }
    }
}

fn cmp_ident(a: &str, b: &str) -> Ordering {
    let numeric = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    match (numeric(a), numeric(b)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (true, true) => a
            .len()
            .cmp(&b.len())
            .then_with(|| a.as_bytes().cmp(b.as_bytes())),
        (false, false) => a.as_bytes().cmp(b.as_bytes()),
    }
}
