//! What a filled version remembers about its origin, kept next to `<version>.json` in the
//! bucket: where each platform's archive comes from, the `zh:` the verified `SHA256SUMS`
//! signs for it, and any `h1:` the origin claimed (OpenTofu's `packages`). An archive,
//! pulled or uploaded, is kept only if it passes [`OriginRecord::accept`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{EdgeError, EdgeErrorKind};
use crate::hash::ZipHashes;

/// The origin facts of one provider version, as verified when it was filled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OriginRecord {
    /// The provider address (`host/namespace/type`).
    pub provider: String,
    /// The version.
    pub version: String,
    /// How `SHA256SUMS` was authenticated (`signed by HashiCorp`, `self-signed`, ...).
    pub auth: String,
    /// The key that signed it, if one was required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// Each platform's archive.
    pub platforms: BTreeMap<String, OriginArchive>,
}

/// One platform's archive at the origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OriginArchive {
    /// The mirror's file name for it (`terraform-provider-<type>_<version>_<os>_<arch>.zip`).
    pub filename: String,
    /// The origin's download URL (fetched without credentials, like the CLI does).
    pub url: String,
    /// The signed `zh:` hash.
    pub zh: String,
    /// `h1:` hashes the origin's download answer claimed for this platform, unsigned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claimed_h1: Vec<String>,
    /// The size the origin claimed, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl OriginRecord {
    /// Reads a stored record.
    pub fn from_json(bytes: &[u8]) -> Result<OriginRecord, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// The stored form.
    pub fn to_json(&self) -> Vec<u8> {
        // A struct of strings and maps always serializes.
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }

    /// The platform whose mirror file name is `filename`.
    pub fn platform_of(&self, filename: &str) -> Option<(&str, &OriginArchive)> {
        self.platforms
            .iter()
            .find(|(_, a)| a.filename == filename)
            .map(|(p, a)| (p.as_str(), a))
    }

    /// Checks an archive for `platform` hashed as `hashes`: its `zh:` must be the signed
    /// one and, where the origin claimed `h1:` hashes, its `h1:` must be among them (an
    /// origin that lies about `h1:` is not trusted with anything). The hashes to list for
    /// the platform (`h1:` then `zh:`) on success.
    pub fn accept(&self, platform: &str, hashes: &ZipHashes) -> Result<Vec<String>, EdgeError> {
        let what = format!("{} {} for {platform}", self.provider, self.version);
        let Some(archive) = self.platforms.get(platform) else {
            return Err(EdgeError::new(
                EdgeErrorKind::NotFound,
                format!("the origin registry does not list a package of {what}"),
            ));
        };
        let zh = hashes.zh.to_string();
        if zh != archive.zh {
            return Err(EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the archive of {what} has checksum {zh}, but the signed SHA256SUMS lists {}; it was not kept",
                    archive.zh
                ),
            ));
        }
        let h1 = hashes.h1.to_string();
        let h1_archive = hashes.h1_archive.to_string();
        if !archive.claimed_h1.is_empty()
            && !archive
                .claimed_h1
                .iter()
                .any(|c| *c == h1 || *c == h1_archive)
        {
            return Err(EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the origin registry lists {} for {what}, but the archive hashes to {h1}; it was not kept",
                    archive.claimed_h1.join(", ")
                ),
            ));
        }
        Ok(vec![h1, zh])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::hash_zip;

    fn zip() -> Vec<u8> {
        // A stored zip with one file, built by hand so the test needs no zip writer.
        let name = b"terraform-provider-x";
        let data = b"binary";
        let crc = crc32(data);
        let mut out = Vec::new();
        out.extend_from_slice(&0x04034b50u32.to_le_bytes());
        out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        let cd = out.len() as u32;
        out.extend_from_slice(&0x02014b50u32.to_le_bytes());
        out.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(name);
        let cd_len = out.len() as u32 - cd;
        out.extend_from_slice(&0x06054b50u32.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
        out.extend_from_slice(&cd_len.to_le_bytes());
        out.extend_from_slice(&cd.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for b in data {
            crc ^= u32::from(*b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    fn record(zh: &str, claimed_h1: Vec<String>) -> OriginRecord {
        let mut platforms = BTreeMap::new();
        platforms.insert(
            "linux_amd64".to_string(),
            OriginArchive {
                filename: "terraform-provider-x_1.0.0_linux_amd64.zip".into(),
                url: "https://origin.example/x.zip".into(),
                zh: zh.to_string(),
                claimed_h1,
                size: None,
            },
        );
        OriginRecord {
            provider: "example.com/acme/x".into(),
            version: "1.0.0".into(),
            auth: "self-signed".into(),
            key_id: Some("ABCD".into()),
            platforms,
        }
    }

    #[test]
    fn an_archive_is_accepted_only_with_the_signed_zh_and_a_truthful_h1() {
        let hashes = hash_zip(&zip()).unwrap();
        let zh = hashes.zh.to_string();
        let h1 = hashes.h1.to_string();
        let good = record(&zh, vec![]);
        assert_eq!(
            good.accept("linux_amd64", &hashes).unwrap(),
            vec![h1.clone(), zh.clone()]
        );
        let back = OriginRecord::from_json(&good.to_json()).unwrap();
        assert_eq!(back, good);
        assert_eq!(
            back.platform_of("terraform-provider-x_1.0.0_linux_amd64.zip")
                .map(|p| p.0),
            Some("linux_amd64")
        );

        let wrong_zh = record(&format!("zh:{}", "0".repeat(64)), vec![]);
        let err = wrong_zh.accept("linux_amd64", &hashes).unwrap_err();
        assert_eq!(err.kind, EdgeErrorKind::Refused);
        assert!(
            err.message
                .contains("example.com/acme/x 1.0.0 for linux_amd64"),
            "{err}"
        );

        let lying = record(&zh, vec!["h1:AAAA".into()]);
        assert_eq!(
            lying.accept("linux_amd64", &hashes).unwrap_err().kind,
            EdgeErrorKind::Refused
        );
        let truthful = record(&zh, vec!["h1:AAAA".into(), h1]);
        assert!(truthful.accept("linux_amd64", &hashes).is_ok());

        assert_eq!(
            good.accept("windows_386", &hashes).unwrap_err().status(),
            404
        );
    }
}
