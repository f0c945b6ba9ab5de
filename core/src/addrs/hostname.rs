//! Service hostnames (hashicorp/terraform-svchost `ForComparison` / `ForDisplay`).
//!
//! Comparison form: ports normalized (`:443` dropped, leading zeros removed), labels given
//! in punycode (`xn--`) rejected, then IDNA UTS-46 ToASCII with STD3 rules and hyphen
//! checks (x/net/idna's `Lookup` profile). The IDNA error texts imitate x/net/idna's
//! (`idna: disallowed rune U+0021`, `idna: invalid label "..."`); which of the two Go
//! reports for unusual Unicode input is approximated (see `idna_error`).

use crate::gotext::{quote, to_lower};
use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

/// Why a hostname has no comparison form, in svchost's and x/net/idna's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostnameError {
    /// `https://...` given where a hostname belongs.
    #[error("need just a hostname and optional port number, not a full URL")]
    FullUrl,
    /// The `:port` part is not a port number.
    #[error("{0}")]
    Port(&'static str),
    /// Nothing given.
    #[error("empty string is not a valid hostname")]
    Empty,
    /// Two consecutive periods.
    #[error("hostname contains empty label (two consecutive periods)")]
    EmptyLabel,
    /// A label given in punycode.
    #[error("hostname label {} specified in punycode format; service hostnames must be given in unicode", quote(.label))]
    Punycode {
        /// The label as given.
        label: String,
    },
    /// IDNA refused the name (x/net/idna's text).
    #[error("{0}")]
    Idna(String),
}

/// Normalizes a user-given hostname (with optional `:port`) to the ASCII comparison form.
pub fn for_comparison(given: &str) -> Result<String, HostnameError> {
    let (host, port) = match given.find(':') {
        Some(i) => (&given[..i], &given[i..]),
        None => (given, ""),
    };
    let port = match normalize_port(port) {
        Ok(p) => p,
        Err(e) => {
            let lower = to_lower(host);
            if lower == "https" || lower == "http" {
                return Err(HostnameError::FullUrl);
            }
            return Err(HostnameError::Port(e));
        }
    };
    if host.is_empty() {
        return Err(HostnameError::Empty);
    }
    for label in svchost_labels(host) {
        if label.is_empty() {
            return Err(HostnameError::EmptyLabel);
        }
        if label.starts_with("xn--") {
            return Err(HostnameError::Punycode {
                label: label.to_string(),
            });
        }
    }
    let ascii = Uts46::new()
        .to_ascii(
            host.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Ignore,
        )
        .map_err(|_| HostnameError::Idna(idna_error(host)))?;
    Ok(format!("{ascii}{port}"))
}

/// The display (Unicode) form of a comparison-form hostname (`Hostname.ForDisplay`).
pub fn for_display(hostname: &str) -> String {
    let (host, port) = match hostname.find(':') {
        Some(i) => (&hostname[..i], &hostname[i..]),
        None => (hostname, ""),
    };
    if host.is_ascii() && !host.split('.').any(|l| l.starts_with("xn--")) {
        return hostname.to_string();
    }
    let (unicode, result) =
        Uts46::new().to_unicode(host.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
    match result {
        Ok(()) => format!("{unicode}{port}"),
        Err(_) => hostname.to_string(),
    }
}

/// The labels svchost checks: split on `.`, except that one trailing dot ends the walk
/// (`example.com.` and even `a..` pass this check; IDNA judges them afterwards).
fn svchost_labels(host: &str) -> Vec<&str> {
    let b = host.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let end = host[start..].find('.').map_or(b.len(), |p| start + p);
        out.push(&host[start..end]);
        start = end + 1;
        if start + 1 == b.len() && b[start] == b'.' {
            break;
        }
    }
    out
}

/// svchost's `normalizePortPortion` (Go `strconv.Atoi`: optional sign, decimal, int64).
fn normalize_port(s: &str) -> Result<String, &'static str> {
    let Some(num) = s.strip_prefix(':') else {
        return Ok(String::new());
    };
    let digits = num.strip_prefix(['+', '-']).unwrap_or(num);
    let parsed = if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        None
    } else {
        num.strip_prefix('+').unwrap_or(num).parse::<i64>().ok()
    };
    let n = parsed.ok_or("port portion contains non-digit characters")?;
    if n == 443 {
        return Ok(String::new());
    }
    if n > 65535 {
        return Err("port number is greater than 65535");
    }
    Ok(format!(":{n}"))
}

/// Imitates x/net/idna's error for a host UTS-46 rejected. Go maps the whole string
/// first and reports the first disallowed rune (`idna: disallowed rune U+XXXX`); then it
/// validates each mapped label (`idna: invalid label "<mapped label>"`); bidi failures come
/// last and quote the whole mapped string. Rust's idna does not say which rule failed, so
/// for non-ASCII input this is inferred by probing single characters and labels (exact for
/// ASCII input, checked against x/net/idna in `addrs_match_x_net_idna`).
fn idna_error(host: &str) -> String {
    let uts = Uts46::new();
    let fails = |s: &str| {
        uts.to_ascii(
            s.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Allow,
            DnsLength::Ignore,
        )
        .is_err()
    };
    for c in host.chars() {
        let disallowed = if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '-' || c == '.')
        } else {
            // A rune that fails in every context (alone, after a Latin letter, after a
            // Devanagari virama for joiners, after an Arabic letter for bidi) is disallowed.
            ["", "a", "\u{915}\u{94d}", "\u{628}"]
                .iter()
                .all(|prefix| fails(&format!("{prefix}{c}")))
        };
        if disallowed {
            return format!("idna: disallowed rune U+{:04X}", c as u32);
        }
    }
    // The UTS-46 mapping of each rune on its own (runes that only fail in context, such as
    // joiners and combining marks, stay as they are), then NFC, as Go maps before it
    // validates.
    let mapped: String = if host.is_ascii() {
        host.to_ascii_lowercase()
    } else {
        let per_rune: String = host
            .chars()
            .map(|c| {
                let one = c.to_string();
                match uts.to_unicode(one.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow) {
                    (m, Ok(())) => m.into_owned(),
                    _ => one,
                }
            })
            .collect();
        crate::nfc::nfc(&per_rune).into_owned()
    };
    let label = mapped.split('.').find(|l| {
        uts.to_ascii(
            l.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Ignore,
        )
        .is_err()
    });
    match label {
        // In a right-to-left label, joiners and edge hyphens fail before the bidi rule.
        Some(l)
            if l.is_ascii()
                || !has_rtl(l)
                || l.contains(['\u{200c}', '\u{200d}'])
                || l.starts_with('-')
                || l.ends_with('-') =>
        {
            format!("idna: invalid label {}", quote(l))
        }
        _ => format!("idna: invalid label {}", quote(&mapped)),
    }
}

/// Hebrew, Arabic and related right-to-left blocks (where bidi rules come into play).
fn has_rtl(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c as u32, 0x0590..=0x08ff | 0xfb1d..=0xfdff | 0xfe70..=0xfeff | 0x10800..=0x10fff | 0x1e800..=0x1efff)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_case_ports_and_unicode() {
        assert_eq!(
            for_comparison("Registry.Terraform.IO").as_deref(),
            Ok("registry.terraform.io")
        );
        assert_eq!(
            for_comparison("example.com:443").as_deref(),
            Ok("example.com")
        );
        assert_eq!(
            for_comparison("localhost:08080").as_deref(),
            Ok("localhost:8080")
        );
        assert_eq!(
            for_comparison("münchen.de").as_deref(),
            Ok("xn--mnchen-3ya.de")
        );
        assert_eq!(for_display("xn--mnchen-3ya.de:8080"), "münchen.de:8080");
    }

    #[test]
    fn rejects_like_svchost() {
        let e = |s: &str| for_comparison(s).unwrap_err().to_string();
        assert_eq!(
            e("example.com:x"),
            "port portion contains non-digit characters"
        );
        assert_eq!(
            e("https:"),
            "need just a hostname and optional port number, not a full URL"
        );
        assert_eq!(e("example.com:65536"), "port number is greater than 65535");
        assert_eq!(e(":80"), "empty string is not a valid hostname");
        assert_eq!(
            e("a..b"),
            "hostname contains empty label (two consecutive periods)"
        );
        assert_eq!(
            e("xn--mnchen-3ya.de"),
            "hostname label \"xn--mnchen-3ya\" specified in punycode format; service hostnames must be given in unicode"
        );
        assert_eq!(e("badhost!"), "idna: disallowed rune U+0021");
        assert_eq!(e("-bad.com"), "idna: invalid label \"-bad\"");
    }
}
