//! RFC 3986 reference resolution, as Go's `url.URL.ResolveReference` does it for registry
//! and mirror responses (relative URLs resolve against the final response URL).

use url::Url;

/// Resolves `reference` (relative or absolute) against `base`.
pub fn resolve(base: &Url, reference: &str) -> Result<Url, url::ParseError> {
    base.join(reference)
}

/// Why an endpoint built from a provider address was not requested.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    /// The reference does not resolve to a URL.
    #[error("{0}")]
    Parse(#[from] url::ParseError),
    /// The reference resolved outside its base (another scheme, host, port or path).
    #[error("refusing to request {url}: a provider's requests must stay under {base}")]
    OutsideBase {
        /// The resolved URL.
        url: String,
        /// The base it had to stay under.
        base: String,
    },
}

/// Resolves `reference` against `base` and keeps the result under `base` ([`is_under`]).
///
/// Registry and mirror endpoints are built from provider names; a name that switches scheme
/// (`http:/evil.example`) or climbs (`..`) would otherwise send the base's credentials
/// elsewhere. Names parsed by [`crate::addrs`] never trip this; hosts handing in unparsed
/// names (a Worker route, a hostile lock file) do.
pub fn resolve_under(base: &Url, reference: &str) -> Result<Url, EndpointError> {
    let url = resolve(base, reference)?;
    if !is_under(base, &url) {
        return Err(EndpointError::OutsideBase {
            url: url.to_string(),
            base: base.to_string(),
        });
    }
    Ok(url)
}

/// Whether `url` has `base`'s scheme, userinfo, host and port, a path inside `base`'s
/// directory, and neither query nor fragment.
pub fn is_under(base: &Url, url: &Url) -> bool {
    let dir = match base.path().rfind('/') {
        Some(i) => &base.path()[..=i],
        None => "/",
    };
    url.scheme() == base.scheme()
        && url.username() == base.username()
        && url.password() == base.password()
        && url.host() == base.host()
        && url.port_or_known_default() == base.port_or_known_default()
        && url.path().starts_with(dir)
        && url.query().is_none()
        && url.fragment().is_none()
}

/// The credentials host of a URL as `TF_TOKEN_*` and `credentials` blocks name it: the
/// lower-cased host, with `:port` when the URL gives one that is not the scheme's default.
pub fn credentials_host(url: &Url) -> String {
    let host = url.host_str().unwrap_or("").to_ascii_lowercase();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    }
}

/// True for `http:` and `https:` URLs, the only schemes Terraform downloads from.
pub fn is_http(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_against_the_directory_of_the_base() {
        let base = Url::parse("https://example.com/v1/providers/").unwrap();
        assert_eq!(
            resolve(&base, "hashicorp/null/versions").unwrap().as_str(),
            "https://example.com/v1/providers/hashicorp/null/versions"
        );
        let no_slash = Url::parse("https://example.com/v1/providers").unwrap();
        assert_eq!(
            resolve(&no_slash, "hashicorp/null/versions")
                .unwrap()
                .as_str(),
            "https://example.com/v1/hashicorp/null/versions"
        );
        assert_eq!(
            resolve(&base, "/abs/x.zip").unwrap().as_str(),
            "https://example.com/abs/x.zip"
        );
        assert_eq!(
            resolve(&base, "https://cdn.example.net/x.zip")
                .unwrap()
                .as_str(),
            "https://cdn.example.net/x.zip"
        );
        assert_eq!(
            resolve(&base, "//cdn.example.net/x.zip").unwrap().as_str(),
            "https://cdn.example.net/x.zip"
        );
    }

    #[test]
    fn endpoints_stay_under_their_base() {
        let base = Url::parse("https://app.terraform.io/api/registry/v1/providers/").unwrap();
        assert_eq!(
            resolve_under(&base, "acme/demo/versions").unwrap().as_str(),
            "https://app.terraform.io/api/registry/v1/providers/acme/demo/versions"
        );
        for escape in [
            "http:/evil.example/versions",
            "http:evil.example/versions",
            "https:/evil.example/versions",
            "https://evil.example/versions",
            "//evil.example/versions",
            "/versions",
            "../demo/versions",
            "acme/../../demo/versions",
            "%2e%2e/%2e%2e/x",
            "acme/demo?x=1",
            "acme/demo#frag",
            "\\\\evil.example/x",
            "ftp://app.terraform.io/api/registry/v1/providers/x",
            "https://app.terraform.io:8443/api/registry/v1/providers/x",
            "https://u:p@app.terraform.io/api/registry/v1/providers/x",
        ] {
            assert!(
                matches!(
                    resolve_under(&base, escape),
                    Err(EndpointError::OutsideBase { .. })
                ),
                "{escape} stayed under the base"
            );
        }
        let http = Url::parse("http://127.0.0.1:5000/v1/providers/").unwrap();
        assert!(resolve_under(&http, "https:/127.0.0.1:5000/v1/providers/a").is_err());
        // A base without a trailing slash keeps its directory, as Go resolves it.
        let no_slash = Url::parse("https://example.com/v1/providers").unwrap();
        assert!(resolve_under(&no_slash, "acme/demo/versions").is_ok());
    }

    #[test]
    fn credentials_host_keeps_only_explicit_ports() {
        let u = Url::parse("https://Mirror.Example:8443/x/").unwrap();
        assert_eq!(credentials_host(&u), "mirror.example:8443");
        let u = Url::parse("https://mirror.example:443/x/").unwrap();
        assert_eq!(credentials_host(&u), "mirror.example");
    }
}
