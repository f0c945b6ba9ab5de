//! Unicode NFC, as Go's `norm.NFC` applies it to HCL strings and provider hostnames.
//!
//! `icu_normalizer` is already linked for IDNA (through `idna`), so its tables serve both;
//! a second normalisation library would double them in the wasm package.

use std::borrow::Cow;

/// `s` in Normalization Form C.
pub fn nfc(s: &str) -> Cow<'_, str> {
    icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(s)
}

#[cfg(test)]
mod tests {
    use super::nfc;

    #[test]
    fn composes_and_reorders_like_nfc() {
        assert_eq!(nfc("e\u{301}"), "\u{e9}");
        assert_eq!(nfc("\u{212b}"), "\u{c5}"); // Angstrom sign is a singleton decomposition
        assert_eq!(nfc("a\u{323}\u{302}"), "\u{1ead}");
        assert_eq!(nfc("\u{1100}\u{1161}"), "\u{ac00}"); // Hangul jamo compose
        assert_eq!(nfc("plain ascii"), "plain ascii");
    }
}
