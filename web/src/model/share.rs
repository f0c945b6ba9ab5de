//! The share link: the files, the lock text and the flavour, deflated and written URL-safe
//! base64 into the page's fragment (`#s=...`), so a link reproduces the view and nothing is
//! sent to a server (browsers never send the fragment).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::io::{Read as _, Write as _};

/// The fragment's prefix; other fragments are left alone.
pub const PREFIX: &str = "#s=";

/// Largest inflated state accepted from a link, so a crafted link cannot exhaust memory.
const MAX_STATE: u64 = 64 << 20;

/// Everything a link carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shared {
    /// Configuration files as `(name, content)`, in the page's order.
    pub files: Vec<(String, String)>,
    /// The lock file text of panel 3.
    pub lock: String,
    /// `terraform` or `opentofu`.
    pub flavor: String,
    /// The wanted platforms (panel 3's coverage, panel 5's Lock); absent in older links.
    #[serde(default = "default_platforms")]
    pub platforms: String,
}

/// The platforms a page starts with.
pub fn default_platforms() -> String {
    "linux_amd64 darwin_arm64".to_string()
}

/// The fragment (with [`PREFIX`]) for `state`.
pub fn encode(state: &Shared) -> String {
    let json = serde_json::to_vec(state).unwrap_or_default();
    let mut enc = DeflateEncoder::new(Vec::new(), Compression::best());
    // Writing into a Vec cannot fail.
    let _ = enc.write_all(&json);
    let bytes = enc.finish().unwrap_or_default();
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// The state in `fragment` (`#s=...`); `None` for another fragment, an error text for a
/// damaged link.
pub fn decode(fragment: &str) -> Option<Result<Shared, String>> {
    let data = fragment.strip_prefix(PREFIX)?;
    Some(decode_data(data))
}

fn decode_data(data: &str) -> Result<Shared, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| format!("the link's data is not URL-safe base64: {e}"))?;
    let mut json = Vec::new();
    DeflateDecoder::new(bytes.as_slice())
        .take(MAX_STATE)
        .read_to_end(&mut json)
        .map_err(|e| format!("the link's data does not inflate: {e}"))?;
    serde_json::from_slice(&json)
        .map_err(|e| format!("the link's data is not a playground state: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> Shared {
        Shared {
            files: vec![
                (
                    "main.tf".into(),
                    "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n".into(),
                ),
                ("modules/vpc/main.tf".into(), "# ünïcode ✓\n".into()),
            ],
            lock: "# lock\n".into(),
            flavor: "opentofu".into(),
            platforms: "linux_arm64".into(),
        }
    }

    #[test]
    fn a_state_survives_the_round_trip() {
        let s = state();
        let frag = encode(&s);
        assert!(frag.starts_with(PREFIX));
        let data = &frag[PREFIX.len()..];
        assert!(
            data.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{frag}"
        );
        assert_eq!(decode(&frag), Some(Ok(s)));
    }

    #[test]
    fn repeated_text_compresses() {
        let mut s = state();
        s.files = (0..200)
            .map(|i| {
                (
                    format!("f{i}.tf"),
                    "resource \"null_resource\" \"x\" {}\n".repeat(5),
                )
            })
            .collect();
        let raw = serde_json::to_vec(&s).unwrap().len();
        assert!(encode(&s).len() * 5 < raw, "{} vs {raw}", encode(&s).len());
    }

    #[test]
    fn a_link_without_platforms_gets_the_default() {
        let json = br#"{"files":[],"lock":"","flavor":"terraform"}"#;
        let mut enc = DeflateEncoder::new(Vec::new(), Compression::best());
        enc.write_all(json).unwrap();
        let frag = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(enc.finish().unwrap()));
        assert_eq!(
            decode(&frag).unwrap().unwrap().platforms,
            default_platforms()
        );
    }

    #[test]
    fn other_and_damaged_fragments() {
        assert_eq!(decode("#section"), None);
        assert!(matches!(decode("#s=***"), Some(Err(e)) if e.contains("base64")));
        assert!(matches!(decode("#s=AAAA"), Some(Err(_))));
    }
}
