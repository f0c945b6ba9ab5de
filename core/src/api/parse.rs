//! Parsing a host's inputs with core's rules: a network mirror URL (`https:` only), a
//! registry URL (`http:` or `https:`), a flavour name, a provider package file name.

use url::Url;

pub use crate::flavor::{Flavor, UnknownFlavor};
/// The flavour of a working directory given without `-flavor`: its lock file's header and
/// its file names.
pub use crate::install::choose_flavor;
pub use crate::protocol::mirror::{mirror_base_url, option_mirror_url, InvalidMirrorOption};
pub use crate::protocol::package_name::{
    file_name as package_file_name, parse as package_file_name_parts, PackageFileName,
};

/// Why a registry URL a user typed was refused; `Display` is the text a host shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRegistryUrl {
    /// The text is not a URL (the text, the parser's reason).
    #[error("{0:?} is not a URL: {1}.")]
    NotAUrl(String, String),
    /// A scheme Terraform does not download from (the scheme).
    #[error("A registry URL must be http: or https:, not {0}:.")]
    Scheme(String),
}

/// A registry's `providers.v1` URL as a user gives it (the playground's registry field):
/// `http:` or `https:`, the only schemes Terraform downloads from.
pub fn registry_url(raw: &str) -> Result<Url, InvalidRegistryUrl> {
    let url =
        Url::parse(raw).map_err(|e| InvalidRegistryUrl::NotAUrl(raw.into(), e.to_string()))?;
    if !crate::protocol::urls::is_http(&url) {
        return Err(InvalidRegistryUrl::Scheme(url.scheme().into()));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registry_url_is_http_or_https_and_the_refusals_say_why() {
        assert_eq!(
            registry_url(" http://127.0.0.1:9/v1/providers/ ")
                .unwrap()
                .as_str(),
            "http://127.0.0.1:9/v1/providers/"
        );
        assert!(registry_url("https://r.example/v1/providers/").is_ok());
        assert_eq!(
            registry_url("ftp://r.example/").unwrap_err().to_string(),
            "A registry URL must be http: or https:, not ftp:."
        );
        assert_eq!(
            registry_url("r.example").unwrap_err().to_string(),
            "\"r.example\" is not a URL: relative URL without a base."
        );
    }
}
