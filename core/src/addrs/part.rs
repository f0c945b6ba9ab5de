//! Provider namespace and type names (`ParseProviderPart`).

use idna::uts46::{AsciiDenyList, Hyphens, Uts46};

/// Normalizes a namespace or type name: lower-case, NFC, letters/digits/dashes only.
/// Errors are the exact texts of terraform-registry-address.
pub fn parse_provider_part(given: &str) -> Result<String, &'static str> {
    if given.is_empty() {
        return Err("must have at least one character");
    }
    if given.contains('.') {
        return Err("dots are not allowed");
    }
    if given.contains("--") {
        return Err("cannot use multiple consecutive dashes");
    }
    // x/net/idna Lookup.ToUnicode: UTS-46 mapping (lower-casing, NFC), STD3 rules,
    // hyphen checks, joiner and bidi rules.
    let (unicode, result) =
        Uts46::new().to_unicode(given.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
    match result {
        Ok(()) => Ok(unicode.into_owned()),
        Err(_) => Err(
            "must contain only letters, digits, and dashes, and may not use leading or trailing dashes",
        ),
    }
}
