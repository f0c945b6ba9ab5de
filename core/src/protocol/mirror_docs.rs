//! Writing a network mirror's documents as packages are added: `index.json` lists the
//! versions, `<version>.json` each platform's archive URL and `h1:`/`zh:` hashes. Shared by
//! `tflock providers mirror` (files) and the edge mirror Worker (R2 objects).

use serde_json::{json, Map, Value};

/// Why a mirror document could not be updated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MirrorDocError {
    /// The document is not JSON (serde_json's text), or could not be written.
    #[error("{0}")]
    Json(String),
    /// The document is JSON but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// `versions` or `archives` is not an object.
    #[error("{key:?} is not an object")]
    Section {
        /// The section's key.
        key: String,
    },
    /// A platform's archive entry is not an object.
    #[error("archive {platform:?} is not an object")]
    Archive {
        /// The platform.
        platform: String,
    },
    /// A platform's `hashes` is not a list.
    #[error("the hashes of {platform:?} are not a list")]
    Hashes {
        /// The platform.
        platform: String,
    },
}

/// The error for a package the installation source has only as an unpacked directory (a
/// filesystem mirror's unpacked layout): a mirror lists archives, so it cannot be mirrored.
pub fn unpacked_source(
    provider: &str,
    version: &str,
    platform: &str,
    product: &str,
) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::error(
        "Invalid provider package location",
        format!(
            "{product} failed to mirror {provider} v{version} for {platform} because the installation source has it only as an unpacked directory, and a mirror needs the package archive."
        ),
    )
}

fn json_error(e: serde_json::Error) -> MirrorDocError {
    MirrorDocError::Json(e.to_string())
}

/// `index.json` with `version` listed; `current` is the existing document, if any.
pub fn add_version(current: Option<&[u8]>, version: &str) -> Result<Vec<u8>, MirrorDocError> {
    let mut doc = read(current)?;
    section(&mut doc, "versions")?.insert(version.to_string(), json!({}));
    write(&doc)
}

/// `<version>.json` with `platform`'s archive at `url` (relative to the document) and its
/// hashes, replacing an earlier entry for the platform.
pub fn add_archive(
    current: Option<&[u8]>,
    platform: &str,
    url: &str,
    hashes: &[String],
) -> Result<Vec<u8>, MirrorDocError> {
    let mut doc = read(current)?;
    section(&mut doc, "archives")?.insert(
        platform.to_string(),
        json!({ "url": url, "hashes": hashes }),
    );
    write(&doc)
}

/// `<version>.json` with `hash` listed first for `platform` (an `h1:` learned after the
/// archive was listed). `None` when there is nothing to change: the hash is listed already
/// or the platform is not.
pub fn add_hash_first(
    current: &[u8],
    platform: &str,
    hash: &str,
) -> Result<Option<Vec<u8>>, MirrorDocError> {
    let mut doc = read(Some(current))?;
    let Some(entry) = section(&mut doc, "archives")?.get_mut(platform) else {
        return Ok(None);
    };
    let hashes = entry
        .as_object_mut()
        .ok_or_else(|| MirrorDocError::Archive {
            platform: platform.to_string(),
        })?
        .entry("hashes")
        .or_insert_with(|| json!([]));
    let list = hashes
        .as_array_mut()
        .ok_or_else(|| MirrorDocError::Hashes {
            platform: platform.to_string(),
        })?;
    if list.iter().any(|h| h.as_str() == Some(hash)) {
        return Ok(None);
    }
    list.insert(0, json!(hash));
    write(&doc).map(Some)
}

/// `<version>.json` with `h1` listed first for `platform`, but only if the document lists
/// `zh` for it: an `h1:` computed from an archive stands for those bytes only, and the
/// document may have been refilled with another `zh:` since. `None` when nothing changes
/// (already listed, platform absent, or another `zh:`).
pub fn add_h1_for(
    current: &[u8],
    platform: &str,
    h1: &str,
    zh: &str,
) -> Result<Option<Vec<u8>>, MirrorDocError> {
    let doc = read(Some(current))?;
    let lists_zh = doc
        .get("archives")
        .and_then(|a| a.get(platform))
        .and_then(|e| e.get("hashes"))
        .and_then(Value::as_array)
        .is_some_and(|hashes| hashes.iter().any(|h| h.as_str() == Some(zh)));
    if !lists_zh {
        return Ok(None);
    }
    add_hash_first(current, platform, h1)
}

/// A freshly filled `<version>.json` keeping the `h1:` hashes `old` listed for platforms
/// whose `zh:` is unchanged (they were computed from the same archive), and the platforms
/// of `new` that still lack an `h1:`.
pub fn carry_h1(old: Option<&[u8]>, new: &[u8]) -> Result<(Vec<u8>, Vec<String>), MirrorDocError> {
    let old = read(old)?;
    let mut doc = read(Some(new))?;
    let mut missing = Vec::new();
    let old_archives = old.get("archives").and_then(Value::as_object);
    for (platform, entry) in section(&mut doc, "archives")?.iter_mut() {
        let Some(hashes) = entry.get_mut("hashes").and_then(Value::as_array_mut) else {
            missing.push(platform.clone());
            continue;
        };
        let listed = |v: &Value| -> Vec<String> {
            v.get("hashes")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|h| h.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let now: Vec<String> = listed(&json!({ "hashes": hashes.clone() }));
        let before = old_archives
            .and_then(|a| a.get(platform))
            .map(listed)
            .unwrap_or_default();
        let same_zh = now
            .iter()
            .filter(|h| h.starts_with("zh:"))
            .all(|h| before.contains(h));
        if same_zh {
            for h1 in before.iter().rev().filter(|h| h.starts_with("h1:")) {
                if !now.contains(h1) {
                    hashes.insert(0, json!(h1));
                }
            }
        }
        if !hashes
            .iter()
            .any(|h| h.as_str().is_some_and(|h| h.starts_with("h1:")))
        {
            missing.push(platform.clone());
        }
    }
    Ok((write(&doc)?, missing))
}

fn read(current: Option<&[u8]>) -> Result<Map<String, Value>, MirrorDocError> {
    let Some(bytes) = current else {
        return Ok(Map::new());
    };
    match serde_json::from_slice(bytes).map_err(json_error)? {
        Value::Object(map) => Ok(map),
        _ => Err(MirrorDocError::NotAnObject),
    }
}

fn section<'a>(
    doc: &'a mut Map<String, Value>,
    key: &str,
) -> Result<&'a mut Map<String, Value>, MirrorDocError> {
    doc.entry(key)
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| MirrorDocError::Section {
            key: key.to_string(),
        })
}

fn write(doc: &Map<String, Value>) -> Result<Vec<u8>, MirrorDocError> {
    serde_json::to_vec_pretty(doc).map_err(json_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::mirror::{MirrorIndex, MirrorVersion};

    #[test]
    fn an_h1_is_listed_only_beside_the_zh_it_was_computed_with() {
        let doc = add_archive(None, "linux_amd64", "p.zip", &["zh:aa".to_string()]).unwrap();
        let with = add_h1_for(&doc, "linux_amd64", "h1:x=", "zh:aa")
            .unwrap()
            .expect("listed");
        let v: Value = serde_json::from_slice(&with).unwrap();
        assert_eq!(
            v["archives"]["linux_amd64"]["hashes"],
            json!(["h1:x=", "zh:aa"])
        );
        assert_eq!(
            add_h1_for(&doc, "linux_amd64", "h1:x=", "zh:bb").unwrap(),
            None
        );
        assert_eq!(
            add_h1_for(&doc, "darwin_arm64", "h1:x=", "zh:aa").unwrap(),
            None
        );
        assert_eq!(
            add_h1_for(&with, "linux_amd64", "h1:x=", "zh:aa").unwrap(),
            None
        );
    }

    #[test]
    fn documents_grow_and_read_back_with_the_mirror_parsers() {
        let index = add_version(None, "1.0.0").unwrap();
        let index = add_version(Some(&index), "1.1.0").unwrap();
        let parsed = MirrorIndex::parse(&index).unwrap();
        assert_eq!(parsed.versions.len(), 2);

        let hashes = vec!["h1:abc=".to_string(), "zh:00ff".to_string()];
        let doc = add_archive(None, "linux_amd64", "p_1.0.0_linux_amd64.zip", &hashes).unwrap();
        let doc = add_archive(
            Some(&doc),
            "darwin_arm64",
            "p_1.0.0_darwin_arm64.zip",
            &hashes,
        )
        .unwrap();
        let parsed = MirrorVersion::parse(&doc).unwrap();
        assert_eq!(parsed.archives.len(), 2);
        assert_eq!(parsed.archives["linux_amd64"].hashes.len(), 2);

        let zh_only = add_archive(None, "linux_amd64", "a.zip", &["zh:00".to_string()]).unwrap();
        let both = add_hash_first(&zh_only, "linux_amd64", "h1:x=")
            .unwrap()
            .unwrap();
        let parsed = MirrorVersion::parse(&both).unwrap();
        assert_eq!(
            parsed.archives["linux_amd64"].hashes,
            vec!["h1:x=", "zh:00"]
        );
        assert_eq!(add_hash_first(&both, "linux_amd64", "h1:x=").unwrap(), None);
        assert_eq!(
            add_hash_first(&both, "darwin_arm64", "h1:x=").unwrap(),
            None
        );

        let refreshed = add_archive(None, "linux_amd64", "a.zip", &["zh:00".to_string()]).unwrap();
        let refreshed = add_archive(
            Some(&refreshed),
            "darwin_arm64",
            "b.zip",
            &["zh:11".to_string()],
        )
        .unwrap();
        let (carried, missing) = carry_h1(Some(&both), &refreshed).unwrap();
        let parsed = MirrorVersion::parse(&carried).unwrap();
        assert_eq!(
            parsed.archives["linux_amd64"].hashes,
            vec!["h1:x=", "zh:00"]
        );
        assert_eq!(missing, vec!["darwin_arm64"]);
        let changed = add_archive(None, "linux_amd64", "a.zip", &["zh:22".to_string()]).unwrap();
        let (_, missing) = carry_h1(Some(&both), &changed).unwrap();
        assert_eq!(missing, vec!["linux_amd64"]);

        assert_eq!(
            add_version(Some(b"[]"), "1.0.0").unwrap_err().to_string(),
            "not a JSON object"
        );
        assert_eq!(
            add_archive(Some(br#"{"archives": 1}"#), "a_b", "u", &[])
                .unwrap_err()
                .to_string(),
            "\"archives\" is not an object"
        );
    }
}
