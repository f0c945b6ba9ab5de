//! The go-versions constraint tokenizer (`raw_scan.rl`), reproduced state by state.
//!
//! The Ragel machine is `op sep nums pre? meta?` over bytes. What it records when it stops
//! early is observable in error texts and in what a constraint means, so this follows
//! the generated automaton rather than a tidy grammar:
//! - stopping (end of input or an unexpected byte) inside a non-empty operator records the
//!   operator text as the separator too (the separator's start marker was never moved), so
//!   `>=` alone reports `only one space is expected after the operator ">="`;
//! - stopping right after a `.` between numbers, or right after the `-`/`+` that starts a
//!   prerelease/metadata part, keeps what was complete so far: `1.0.` scans as `1.0` and
//!   `1.0.0-` as `1.0.0`, with nothing left over;
//! - the remainder starts at the byte that could not be consumed.

use crate::Flavor;

/// Which go-versions release's scanner to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// v1.0.2 (Terraform): the separator is white space only.
    V102,
    /// v1.0.3 (OpenTofu): the separator is white space or `v`, so `v` prefixes are caught
    /// per constraint with a longer message.
    V103,
}

impl Dialect {
    pub(crate) fn for_flavor(flavor: Flavor) -> Dialect {
        match flavor {
            Flavor::Terraform => Dialect::V102,
            Flavor::OpenTofu => Dialect::V103,
        }
    }
}

/// One scanned constraint (`rawConstraint`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Raw<'a> {
    pub op: &'a str,
    pub sep: &'a str,
    /// The first three numbers as written (`""` when absent).
    pub nums: [&'a str; 3],
    /// How many numbers were written, even beyond three.
    pub num_ct: usize,
    pub pre: &'a str,
    pub meta: &'a str,
}

/// Ragel's `space`: C `isspace` in the ASCII range.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn is_op_byte(b: u8) -> bool {
    !(b.is_ascii_digit() || is_space(b) || b.is_ascii_alphabetic() || b == b'.' || b == b'*')
}

fn is_num_start(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'*' | b'x' | b'X')
}

fn is_extra_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// `*`, `x` or `X`.
pub(crate) fn is_wildcard(s: &str) -> bool {
    matches!(s, "*" | "x" | "X")
}

/// Slices `data[a..b]`. Every position we cut at is before an ASCII byte or at the end, so
/// this never lands inside a character; the fallback only guards against our own bugs.
fn cut(data: &str, a: usize, b: usize) -> &str {
    data.get(a..b).unwrap_or("")
}

/// Scans one constraint from the start of `data`; returns it and the unconsumed rest.
pub(crate) fn scan(data: &str, dialect: Dialect) -> (Raw<'_>, &str) {
    let bytes = data.as_bytes();
    let n = bytes.len();
    let is_sep = |b: u8| is_space(b) || (dialect == Dialect::V103 && b == b'v');
    let mut raw = Raw::default();
    let mut p = 0;

    // Operator.
    while p < n && is_op_byte(bytes[p]) {
        p += 1;
    }
    if p == n || !(is_sep(bytes[p]) || is_num_start(bytes[p])) {
        // Stopped in the operator's final state: both the operator and the (empty)
        // separator are finished from the same start marker.
        raw.op = cut(data, 0, p);
        raw.sep = raw.op;
        return (raw, cut(data, p, n));
    }
    raw.op = cut(data, 0, p);

    // Separator.
    let sep_start = p;
    while p < n && is_sep(bytes[p]) {
        p += 1;
    }
    raw.sep = cut(data, sep_start, p);
    if p == n || !is_num_start(bytes[p]) {
        return (raw, cut(data, p, n));
    }

    // Numbers.
    loop {
        let start = p;
        if bytes[p].is_ascii_digit() {
            while p < n && bytes[p].is_ascii_digit() {
                p += 1;
            }
        } else {
            p += 1;
        }
        if raw.num_ct < 3 {
            raw.nums[raw.num_ct] = cut(data, start, p);
        }
        raw.num_ct += 1;
        if p == n {
            return (raw, "");
        }
        match bytes[p] {
            b'.' => {
                p += 1;
                if p < n && is_num_start(bytes[p]) {
                    continue;
                }
                return (raw, cut(data, p, n));
            }
            b'-' | b'+' => break,
            _ => return (raw, cut(data, p, n)),
        }
    }

    // Prerelease.
    if bytes[p] == b'-' {
        let start = p + 1;
        p += 1;
        while p < n && is_extra_byte(bytes[p]) {
            p += 1;
        }
        raw.pre = cut(data, start, p);
        if p == n || bytes[p] != b'+' || start == p {
            // Either finished, or stopped (a `-` with nothing after it records nothing).
            return (raw, cut(data, p, n));
        }
    }

    // Metadata (p is at `+`).
    let start = p + 1;
    p += 1;
    while p < n && is_extra_byte(bytes[p]) {
        p += 1;
    }
    raw.meta = cut(data, start, p);
    (raw, cut(data, p, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(d: &str) -> (Raw<'_>, &str) {
        scan(d, Dialect::V102)
    }

    #[test]
    fn scans_a_full_constraint() {
        let (r, rest) = s(">= 1.2.3-beta.1+abc, < 2");
        assert_eq!(
            (r.op, r.sep, r.nums, r.num_ct),
            (">=", " ", ["1", "2", "3"], 3)
        );
        assert_eq!((r.pre, r.meta, rest), ("beta.1", "abc", ", < 2"));
    }

    #[test]
    fn operator_alone_records_operator_as_separator() {
        let (r, rest) = s(">=");
        assert_eq!((r.op, r.sep, rest), (">=", ">=", ""));
        let (r, rest) = s(">=a");
        assert_eq!((r.op, r.sep, rest), (">=", ">=", "a"));
    }

    #[test]
    fn dangling_dot_and_dash_keep_what_was_complete() {
        let (r, rest) = s("1.0.");
        assert_eq!((r.num_ct, rest), (2, ""));
        let (r, rest) = s("1.0.0-,2");
        assert_eq!((r.num_ct, r.pre, rest), (3, "", ",2"));
    }

    #[test]
    fn v_is_a_separator_only_in_1_0_3() {
        let (r, rest) = scan("~> v1.1", Dialect::V103);
        assert_eq!((r.sep, r.num_ct, rest), (" v", 2, ""));
        let (r, rest) = scan("~> v1.1", Dialect::V102);
        assert_eq!((r.sep, r.num_ct, rest), (" ", 0, "v1.1"));
    }
}
