//! The HTTP rules the mirror answers by: single byte ranges (206/416), `If-None-Match`
//! (304), caching (archives are immutable, documents short-lived but servable stale when
//! the origin fails) and CORS for browsers and JS tools.

/// `Cache-Control` of archives: a published archive never changes.
pub const CACHE_ARCHIVE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of documents: short-lived, and usable for a day if the mirror fails.
pub const CACHE_DOCUMENT: &str = "public, max-age=60, stale-if-error=86400";
/// `Cache-Control` of a cached "not found".
pub const CACHE_MISS: &str = "public, max-age=30";
/// How long a filled document is served before the origin is asked again.
pub const DOCUMENT_TTL_MS: f64 = 5.0 * 60.0 * 1000.0;
/// How long an origin "not found" is remembered.
pub const MISS_TTL_MS: f64 = 60.0 * 1000.0;
/// The response header saying a stale document was served because the origin failed.
pub const STALE_HEADER: &str = "x-tflock-stale";

/// The CORS headers of every answer: anyone may read the mirror from a browser.
pub fn cors_headers() -> [(&'static str, &'static str); 4] {
    [
        ("access-control-allow-origin", "*"),
        ("access-control-allow-methods", "GET, HEAD, OPTIONS"),
        (
            "access-control-allow-headers",
            "authorization, range, if-none-match, content-type",
        ),
        (
            "access-control-expose-headers",
            "content-length, content-range, etag, x-tflock-stale",
        ),
    ]
}

/// What a `Range` header asks of a body of `size` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeAnswer {
    /// The whole body (no header, several ranges, or one this server ignores).
    Full,
    /// Bytes `start..=end`: answer 206 with `Content-Range: bytes start-end/size`.
    Partial {
        /// First byte.
        start: u64,
        /// Last byte, inclusive.
        end: u64,
    },
    /// No byte of the range exists: answer 416 with `Content-Range: bytes */size`.
    Unsatisfiable,
}

/// Reads a `Range` header (RFC 9110: one `bytes=` range; anything unparsable is ignored,
/// which the RFC allows).
pub fn parse_range(header: Option<&str>, size: u64) -> RangeAnswer {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return RangeAnswer::Full;
    };
    if spec.contains(',') {
        return RangeAnswer::Full;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeAnswer::Full;
    };
    let number = |s: &str| -> Option<u64> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    match (first.trim().is_empty(), number(first), number(last)) {
        // `bytes=-N`: the last N bytes.
        (true, _, Some(n)) => {
            if n == 0 || size == 0 {
                RangeAnswer::Unsatisfiable
            } else {
                RangeAnswer::Partial {
                    start: size.saturating_sub(n),
                    end: size - 1,
                }
            }
        }
        (false, Some(start), end) if last.trim().is_empty() || end.is_some() => {
            if end.is_some_and(|e| e < start) {
                return RangeAnswer::Full;
            }
            if start >= size {
                return RangeAnswer::Unsatisfiable;
            }
            let end = end.map_or(size - 1, |e| e.min(size - 1));
            RangeAnswer::Partial { start, end }
        }
        _ => RangeAnswer::Full,
    }
}

/// Whether `If-None-Match` names `etag` (weak comparison, `*` matches anything).
pub fn none_match_hits(header: Option<&str>, etag: &str) -> bool {
    let Some(header) = header else {
        return false;
    };
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let want = bare(etag);
    header
        .split(',')
        .any(|t| t.trim() == "*" || bare(t) == want)
}

/// Whether something stored at `stored_ms` is older than `ttl_ms` at `now_ms`.
pub fn expired(stored_ms: f64, now_ms: f64, ttl_ms: f64) -> bool {
    // NaN (an unreadable timestamp) counts as expired.
    (now_ms - stored_ms).partial_cmp(&ttl_ms) != Some(std::cmp::Ordering::Less)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_ranges_are_honoured_and_others_ignored() {
        use RangeAnswer::*;
        let r = |h: &str| parse_range(Some(h), 100);
        assert_eq!(parse_range(None, 100), Full);
        assert_eq!(r("bytes=0-9"), Partial { start: 0, end: 9 });
        assert_eq!(r("bytes=90-"), Partial { start: 90, end: 99 });
        assert_eq!(r("bytes=90-500"), Partial { start: 90, end: 99 });
        assert_eq!(r("bytes=-10"), Partial { start: 90, end: 99 });
        assert_eq!(r("bytes=-500"), Partial { start: 0, end: 99 });
        assert_eq!(r("bytes=100-"), Unsatisfiable);
        assert_eq!(r("bytes=-0"), Unsatisfiable);
        assert_eq!(r("bytes=5-2"), Full);
        assert_eq!(r("bytes=0-1,5-6"), Full);
        assert_eq!(r("items=0-1"), Full);
        assert_eq!(r("bytes=a-b"), Full);
        assert_eq!(r("bytes=-"), Full);
        assert_eq!(parse_range(Some("bytes=0-"), 0), Unsatisfiable);
    }

    #[test]
    fn etags_match_weakly_and_by_wildcard() {
        assert!(none_match_hits(Some("\"abc\""), "\"abc\""));
        assert!(none_match_hits(Some("W/\"abc\", \"x\""), "\"abc\""));
        assert!(none_match_hits(Some("*"), "\"abc\""));
        assert!(!none_match_hits(Some("\"abd\""), "\"abc\""));
        assert!(!none_match_hits(None, "\"abc\""));
    }

    #[test]
    fn ages_expire_at_the_ttl() {
        assert!(!expired(1000.0, 1500.0, 1000.0));
        assert!(expired(1000.0, 2000.0, 1000.0));
        assert!(expired(f64::NAN, 2000.0, 1000.0));
    }
}
