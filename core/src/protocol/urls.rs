//! RFC 3986 reference resolution, as Go's `url.URL.ResolveReference` does it for registry
//! and mirror responses (relative URLs resolve against the final response URL).

use url::Url;

/// Resolves `reference` (relative or absolute) against `base`.
pub fn resolve(base: &Url, reference: &str) -> Result<Url, url::ParseError> {
    base.join(reference)
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
}
