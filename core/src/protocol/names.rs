//! Small string checks shared by the protocol models, standing in for the full parsers of
//! `addrs`/`version`/`hash` where only the shape of a string matters.

/// `ParseHash`: a hash string needs a scheme keyword and a colon (`h1:…`, `zh:…`, `x:`).
pub fn check_hash_str(s: &str) -> Result<(), String> {
    match s.find(':') {
        Some(i) if i > 0 => Ok(()),
        _ => Err("hash string must start with a scheme keyword followed by a colon".to_string()),
    }
}

/// The `h1:`/`zh:` subset of `hashes`, order kept (`PreferredHashes`).
pub fn preferred_hashes(hashes: &[String]) -> Vec<String> {
    hashes
        .iter()
        .filter(|h| h.starts_with("h1:") || h.starts_with("zh:"))
        .cloned()
        .collect()
}

/// `<os>_<arch>`: exactly one underscore with non-empty lower-case letters/digits on both sides.
pub fn split_platform(s: &str) -> Option<(&str, &str)> {
    let (os, arch) = s.split_once('_')?;
    let ok = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    (ok(os) && ok(arch)).then_some((os, arch))
}

/// A semantic version as provider packages use it: `MAJOR.MINOR.PATCH[-pre][+build]`.
pub fn looks_like_version(s: &str) -> bool {
    let core_end = s.find(['-', '+']).unwrap_or(s.len());
    let parts: Vec<&str> = s[..core_end].split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && s[core_end..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
}

/// A provider namespace or type segment normalised to lower case (`ParseProviderPart` shape:
/// letters, digits and dashes, not starting or ending with a dash).
pub fn normalize_provider_part(s: &str) -> Option<String> {
    let ok = !s.is_empty()
        && !s.starts_with('-')
        && !s.ends_with('-')
        && s.chars().all(|c| c.is_alphanumeric() || c == '-');
    ok.then(|| s.to_lowercase())
}

/// A hostname for comparison: lower-cased, with an optional `:port` (`svchost.ForComparison`
/// for ASCII names; internationalised names are lower-cased only).
pub fn normalize_hostname(s: &str) -> Option<String> {
    let (host, port) = match s.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    let host_ok = !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
    let port_ok = match port {
        None => true,
        Some(p) => {
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok()
        }
    };
    if !(host_ok && port_ok) {
        return None;
    }
    let host = host.to_lowercase();
    // svchost drops the default HTTPS port.
    Some(match port {
        Some(p) if p != "443" => format!("{host}:{p}"),
        _ => host,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_strings_need_a_scheme() {
        assert!(check_hash_str("h1:foo").is_ok());
        assert!(check_hash_str("unknown:").is_ok());
        assert!(check_hash_str(":blah").is_err());
        assert!(check_hash_str("").is_err());
    }

    #[test]
    fn platform_and_version_shapes() {
        assert_eq!(split_platform("linux_amd64"), Some(("linux", "amd64")));
        assert_eq!(split_platform("linux_amd64_x"), None);
        assert_eq!(split_platform("Linux_amd64"), None);
        assert!(looks_like_version("1.2.3-beta.1"));
        assert!(!looks_like_version("1.2"));
        assert!(!looks_like_version("v1.2.3"));
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
