//! Go's `net/url` as go-getter's source detectors use it: `Parse` (which inputs it refuses,
//! with its error texts), `URL.String`, `ParseQuery` and `Values.Encode`, and `path.Clean`
//! / `path.Join`. Terraform's module source addresses are decided by these (a source is a
//! URL when `Parse` finds a scheme and no error), and their normalised form is printed.

use super::{quote, quote_bytes};

/// A parsed URL (Go's `url.URL`, the fields `String` reads).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Url {
    /// Lower-cased scheme, `""` when there is none.
    pub scheme: String,
    /// The encoded opaque part of `scheme:opaque`.
    pub opaque: String,
    /// `(username, password)` when the authority has a userinfo (unescaped bytes, as Go's
    /// strings hold any bytes).
    pub user: Option<(Vec<u8>, Option<Vec<u8>>)>,
    /// `host` or `host:port`, unescaped.
    pub host: Vec<u8>,
    /// The unescaped path.
    pub path: Vec<u8>,
    /// The path as written when that differs from its default encoding.
    pub raw_path: Vec<u8>,
    /// The authority was empty (`scheme:/path`).
    pub omit_host: bool,
    /// A `?` with nothing after it.
    pub force_query: bool,
    /// The query, still encoded.
    pub raw_query: String,
    /// The unescaped fragment.
    pub fragment: Vec<u8>,
    /// The fragment as written when that differs from its default encoding.
    pub raw_fragment: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// The text of the `s[i..]` prefix Go's `EscapeError` quotes (at most 3 bytes).
fn escape_error(s: &[u8]) -> String {
    let end = s.len().min(3);
    format!("invalid URL escape {}", quote_bytes(&s[..end]))
}

fn unescape(s: &str, mode: Mode) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut n = 0;
    let mut has_plus = false;
    while i < b.len() {
        match b[i] {
            b'%' => {
                n += 1;
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return Err(escape_error(&b[i..]));
                }
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && &b[i..i + 3] != b"%25" {
                    return Err(escape_error(&b[i..i + 3]));
                }
                if mode == Mode::Zone {
                    let v = (unhex(b[i + 1]) << 4) | unhex(b[i + 2]);
                    if &b[i..i + 3] != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(&b[i..i + 3]));
                    }
                }
                i += 3;
            }
            b'+' => {
                has_plus = mode == Mode::QueryComponent;
                i += 1;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&(c as char).to_string())
                    ));
                }
                i += 1;
            }
        }
    }
    if n == 0 && !has_plus {
        return Ok(b.to_vec());
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                out.push((unhex(b[i + 1]) << 4) | unhex(b[i + 2]));
                i += 2;
            }
            b'+' if mode == Mode::QueryComponent => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    Ok(out)
}

fn escape(s: &[u8], mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter().all(|&c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".to_string());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || (port.starts_with(':') && port[1..].bytes().all(|b| b.is_ascii_digit()))
}

fn parse_host(host: &str) -> Result<Vec<u8>, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".to_string());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let mut h = unescape(&host[..zone], Mode::Host)?;
            h.extend(unescape(&host[zone..i], Mode::Zone)?);
            h.extend(unescape(&host[i..], Mode::Host)?);
            return Ok(h);
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", quote(colon_port)));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|r| {
        r.is_ascii_alphanumeric()
            || matches!(
                r,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

type Authority = (Option<(Vec<u8>, Option<Vec<u8>>)>, Vec<u8>);

fn parse_authority(authority: &str) -> Result<Authority, String> {
    let at = authority.rfind('@');
    let host = parse_host(match at {
        Some(i) => &authority[i + 1..],
        None => authority,
    })?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_string());
    }
    let user = match userinfo.split_once(':') {
        None => (unescape(userinfo, Mode::UserPassword)?, None),
        Some((u, p)) => (
            unescape(u, Mode::UserPassword)?,
            Some(unescape(p, Mode::UserPassword)?),
        ),
    };
    Ok((Some(user), host))
}

impl Url {
    /// `url.Parse`: the error is Go's text (`parse "<url>": <why>`).
    pub(crate) fn parse(raw: &str) -> Result<Url, String> {
        let (u, frag) = match raw.split_once('#') {
            Some((u, f)) => (u, Some(f)),
            None => (raw, None),
        };
        let mut url = parse_without_fragment(u).map_err(|e| format!("parse {}: {e}", quote(u)))?;
        if let Some(f) = frag.filter(|f| !f.is_empty()) {
            let fragment =
                unescape(f, Mode::Fragment).map_err(|e| format!("parse {}: {e}", quote(raw)))?;
            url.raw_fragment = if escape(&fragment, Mode::Fragment) == f {
                String::new()
            } else {
                f.to_string()
            };
            url.fragment = fragment;
        }
        Ok(url)
    }

    /// Sets the path from its escaped form (`setPath`).
    fn set_path(&mut self, p: &str) -> Result<(), String> {
        let path = unescape(p, Mode::Path)?;
        self.raw_path = if escape(&path, Mode::Path) == p {
            Vec::new()
        } else {
            p.as_bytes().to_vec()
        };
        self.path = path;
        Ok(())
    }

    /// `EscapedPath`.
    fn escaped_path(&self) -> String {
        // A raw path of bytes that are not ASCII is never valid encoding.
        if let Some(raw) = std::str::from_utf8(&self.raw_path)
            .ok()
            .filter(|r| !r.is_empty() && valid_encoded(r.as_bytes(), Mode::Path))
        {
            if unescape(raw, Mode::Path).is_ok_and(|p| p == self.path) {
                return raw.to_string();
            }
        }
        if self.path == b"*" {
            return "*".to_string();
        }
        escape(&self.path, Mode::Path)
    }

    fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(self.raw_fragment.as_bytes(), Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }
}

fn parse_without_fragment(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_string());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or_default();
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".to_string());
        }
    }
    let mut path = rest;
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, after) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        path = after;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.set_path(path)?;
    Ok(url)
}

impl std::fmt::Display for Url {
    /// `URL.String`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&self.scheme);
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&self.opaque);
        } else {
            let authority = !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if authority && !omitted {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.push_str("//");
                }
                if let Some((name, password)) = &self.user {
                    buf.push_str(&escape(name, Mode::UserPassword));
                    if let Some(p) = password {
                        buf.push(':');
                        buf.push_str(&escape(p, Mode::UserPassword));
                    }
                    buf.push('@');
                }
                if !self.host.is_empty() {
                    buf.push_str(&escape(&self.host, Mode::Host));
                }
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() && path.split('/').next().is_some_and(|s| s.contains(':')) {
                buf.push_str("./");
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.escaped_fragment());
        }
        f.write_str(&buf)
    }
}

/// `url.ParseQuery(q)` then `Values.Encode()`: the query re-encoded with its keys sorted,
/// or Go's error (a `;` anywhere wins over a bad escape).
pub(crate) fn reencode_query(query: &str) -> Result<String, String> {
    let mut values: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
    let mut err: Option<String> = None;
    for key in query.split('&') {
        if key.contains(';') {
            err = Some("invalid semicolon separator in query".to_string());
            continue;
        }
        if key.is_empty() {
            continue;
        }
        let (k, v) = key.split_once('=').unwrap_or((key, ""));
        let pair = unescape(k, Mode::QueryComponent)
            .and_then(|k| Ok((k, unescape(v, Mode::QueryComponent)?)));
        match pair {
            Ok((k, v)) => match values.iter_mut().find(|(name, _)| *name == k) {
                Some((_, vs)) => vs.push(v),
                None => values.push((k, vec![v])),
            },
            Err(e) => {
                err.get_or_insert(e);
            }
        }
    }
    if let Some(e) = err {
        return Err(e);
    }
    // Go sorts the keys as byte strings.
    values.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (k, vs) in &values {
        for v in vs {
            if !out.is_empty() {
                out.push('&');
            }
            out.push_str(&escape(k, Mode::QueryComponent));
            out.push('=');
            out.push_str(&escape(v, Mode::QueryComponent));
        }
    }
    Ok(out)
}

/// Go's `path.Clean`.
pub(crate) fn path_clean(p: &str) -> String {
    if p.is_empty() {
        return ".".to_string();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    }
}

/// Go's `path.Join` of two elements.
pub(crate) fn path_join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => String::new(),
        (true, false) => path_clean(b),
        (false, true) => path_clean(a),
        (false, false) => path_clean(&format!("{a}/{b}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_as_go_does() {
        for (raw, printed) in [
            ("https://example.com/x.git", "https://example.com/x.git"),
            (
                "HTTP://Example.com/a%20b?x=1#f",
                "http://Example.com/a%20b?x=1#f",
            ),
            ("git:x", "git:x"),
            ("s3:/a", "s3:/a"),
            ("https://u:p@h:80/", "https://u:p@h:80/"),
            ("a b", "a%20b"),
        ] {
            let u = Url::parse(raw).expect(raw);
            assert_eq!(u.to_string(), printed, "{raw}");
        }
        for (raw, err) in [
            (":x", "parse \":x\": missing protocol scheme"),
            ("a:b/c", ""),
            ("x/a:b", ""),
            (
                "a\tb",
                "parse \"a\\tb\": net/url: invalid control character in URL",
            ),
            (
                "https://h:x/",
                "parse \"https://h:x/\": invalid port \":x\" after host",
            ),
            (
                "https://a b/",
                "parse \"https://a b/\": invalid character \" \" in host name",
            ),
            (
                "https://h/%zz",
                "parse \"https://h/%zz\": invalid URL escape \"%zz\"",
            ),
            (
                "https://[::1/",
                "parse \"https://[::1/\": missing ']' in host",
            ),
            (
                "https://a^b@h/",
                "parse \"https://a^b@h/\": net/url: invalid userinfo",
            ),
            (
                "1a:b",
                "parse \"1a:b\": first path segment in URL cannot contain colon",
            ),
        ] {
            match Url::parse(raw) {
                Ok(_) => assert!(err.is_empty(), "{raw} parsed"),
                Err(e) => assert_eq!(e, err, "{raw}"),
            }
        }
    }

    #[test]
    fn queries_reencode_sorted_or_fail_as_go_does() {
        assert_eq!(reencode_query("b=2&a=1&b=0").unwrap(), "a=1&b=2&b=0");
        assert_eq!(reencode_query("ref=v 1").unwrap(), "ref=v+1");
        assert_eq!(
            reencode_query("a=%zz&b;c").unwrap_err(),
            "invalid semicolon separator in query"
        );
        assert_eq!(
            reencode_query("a=%z").unwrap_err(),
            "invalid URL escape \"%z\""
        );
    }

    #[test]
    fn cleans_paths_as_go_does() {
        for (p, clean) in [
            ("", "."),
            ("a//b/./c/..", "a/b"),
            ("../a", "../a"),
            ("/../a", "/a"),
            ("a/../..", ".."),
        ] {
            assert_eq!(path_clean(p), clean, "{p}");
        }
        assert_eq!(path_join("a", "../b"), "b");
    }
}
