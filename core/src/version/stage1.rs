//! Terraform's first parse stage for `version = "..."`: hashicorp/go-version 1.9.0
//! `NewConstraint`, which only decides whether the string is acceptable.
//!
//! The string is split on `,` (pieces are not trimmed); every piece must match
//! `^\s*(<=|>=|!=|~>|<|>|=|)\s*(VERSION)\s*$` where `\s` is `[\t\n\f\r ]` and VERSION is
//! go-version's `VersionRegexpRaw`; every number must then fit an `int64`. The regular
//! language is small, so it is matched by hand here rather than with a regex engine.
//!
//! VERSION = `v? D+ (. D+)* PRE? META?` where, with `C = [0-9A-Za-z~-]`:
//! PRE is `-C+(.C+)*` or `[A-Za-z~-]C*(.C+)*` (the pattern's two alternatives combined),
//! and META is `+C+(.C+)*`.

/// Whether hashicorp/go-version accepts `s` as a constraint list (`NewConstraint`).
pub fn check_config_syntax(s: &str) -> bool {
    s.split(',').all(piece_matches)
}

/// Go RE2's `\s`.
fn is_re_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

fn is_c(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'~'
}

/// `C+(\.C+)*`: non-empty, dot-separated, no empty component.
fn is_dotted(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|part| !part.is_empty() && part.bytes().all(is_c))
}

fn piece_matches(piece: &str) -> bool {
    let t = piece.trim_matches(|c: char| c.is_ascii() && is_re_space(c as u8));
    let t = ["<=", ">=", "!=", "~>", "<", ">", "="]
        .iter()
        .find_map(|op| t.strip_prefix(op))
        .unwrap_or(t);
    let t = t.trim_start_matches(|c: char| c.is_ascii() && is_re_space(c as u8));
    version_matches(t.strip_prefix('v').unwrap_or(t))
}

/// The version body after an optional `v`.
fn version_matches(s: &str) -> bool {
    let b = s.as_bytes();
    let mut p = 0;
    // D+ (. D+)*
    let mut numbers = Vec::new();
    loop {
        let start = p;
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        if p == start {
            return false;
        }
        numbers.push(&s[start..p]);
        if p + 1 < b.len() && b[p] == b'.' && b[p + 1].is_ascii_digit() {
            p += 1;
            continue;
        }
        break;
    }
    // go-version parses each number with strconv.ParseInt(s, 10, 64).
    if numbers.iter().any(|n| n.parse::<i64>().is_err()) {
        return false;
    }
    let rest = &s[p..];
    let (pre, meta) = match rest.find('+') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let pre_ok = pre.is_empty()
        || (pre.starts_with('-') && is_dotted(&pre[1..]))
        || (pre
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'~' || c == b'-')
            && is_dotted(pre));
    pre_ok && meta.is_none_or(is_dotted)
}

#[cfg(test)]
mod tests {
    use super::check_config_syntax as ok;

    #[test]
    fn accepts_what_go_version_accepts() {
        for s in [
            "1.2.3",
            ">= 1.0, < 2",
            "~>1.2",
            " ~> 1.2 ",
            "v1.2.3",
            "=  1.1.1",
            ">=\t1.0",
            "1.0beta",
            "1.0-beta.1+abc.def",
            "1.2.3.4.5",
            "~> v1.1.1",
            "1.0~rc1",
            "1-",
            "1.0-.x",
            "9223372036854775807",
        ] {
            assert!(ok(s), "{s:?} should be accepted");
        }
    }

    #[test]
    fn rejects_what_go_version_rejects() {
        for s in [
            "",
            ">= 1.0,",
            ",>= 1.0",
            "^1.0",
            "1.x",
            "1.0.*",
            "=> 1.0",
            "1.0.",
            "1..0",
            "1.0-beta..1",
            "1.0+",
            "1.0+a+b",
            ">= 1.0 < 2",
            "1.0 - 2.0",
            "\u{b}1.0",
            "9223372036854775808",
            "V1.0",
            "1.0\u{a0}",
            "garbage",
        ] {
            assert!(!ok(s), "{s:?} should be rejected");
        }
    }
}
