//! Publishing an archive so that it can never change. R2 cannot complete a multipart upload
//! conditionally, so a writer first *claims* the key: it creates the archive's hashes record
//! (`_tflock/hashes/<key>`, a [`Sidecar`]) with a conditional create, and only a writer whose
//! `zh:` equals the claimed one may complete the upload. Two writers of the same bytes are
//! harmless (the same object twice); a writer of other bytes — an uploader, or an origin
//! that re-published a release — is refused loudly and its upload aborted, whoever holds
//! the lease and however long it took.
//!
//! Documents follow the same rule: a refilled `<version>.json` may not give a platform a
//! `zh:` other than the one it listed ([`check_republished`]), since clients have written
//! it into their lock files.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{EdgeError, EdgeErrorKind};

/// The hashes of a published (or claimed) archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sidecar {
    /// Its `h1:`.
    pub h1: String,
    /// Its `zh:`.
    pub zh: String,
}

impl Sidecar {
    /// Reads a stored record; `None` when it is not one.
    pub fn from_json(bytes: &[u8]) -> Option<Sidecar> {
        serde_json::from_slice(bytes).ok()
    }

    /// The stored form.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// What a writer does after trying to claim a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is this writer's (its claim was created, or an earlier one names the same
    /// bytes): complete the upload unless the archive is already there.
    Publish,
    /// The key is claimed for other bytes: abort, and answer with this error.
    OtherBytes(EdgeError),
}

/// Who writes: it decides the words of a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// A pull from the origin registry.
    Origin,
    /// An upload.
    Upload,
}

/// The verdict for `mine` on `key`, where `existing` is the claim found when the
/// conditional create failed (`None`: it succeeded, or the record is unreadable, which
/// only the bucket's owner can cause).
pub fn settle(key: &str, existing: Option<&Sidecar>, mine: &Sidecar, writer: Writer) -> Claim {
    match existing {
        Some(theirs) if theirs.zh != mine.zh => Claim::OtherBytes(match writer {
            Writer::Origin => EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the origin re-published {key} with other bytes ({}); the mirror published it as {} and published archives never change, so the new bytes were not kept",
                    mine.zh, theirs.zh
                ),
            ),
            Writer::Upload => EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "{key} is already published with other bytes ({}); published archives never change.",
                    theirs.zh
                ),
            ),
        }),
        _ => Claim::Publish,
    }
}

/// Refuses a refilled `<version>.json` (`new`) that lists, for a platform `old` listed, a
/// `zh:` that `old` did not: the origin changed a published release. `what` names the
/// provider and version.
pub fn check_republished(what: &str, old: Option<&[u8]>, new: &[u8]) -> Result<(), EdgeError> {
    let Some(old) = old else {
        return Ok(());
    };
    let parse = |b: &[u8]| serde_json::from_slice::<Value>(b).unwrap_or(Value::Null);
    let (old, new) = (parse(old), parse(new));
    let zhs = |doc: &Value, platform: &str| -> Vec<String> {
        doc["archives"][platform]["hashes"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .filter(|h| h.starts_with("zh:"))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let Some(platforms) = new["archives"].as_object() else {
        return Ok(());
    };
    for platform in platforms.keys() {
        let before = zhs(&old, platform);
        if before.is_empty() {
            continue;
        }
        if let Some(changed) = zhs(&new, platform).iter().find(|z| !before.contains(z)) {
            return Err(EdgeError::new(
                EdgeErrorKind::Refused,
                format!(
                    "the origin re-published {what} for {platform} with other bytes: its signed SHA256SUMS now lists {changed}, where the mirror listed {}; a published release never changes, so the refreshed document was not stored",
                    before.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(zh: &str) -> Sidecar {
        Sidecar {
            h1: "h1:x=".into(),
            zh: zh.into(),
        }
    }

    #[test]
    fn a_claim_for_other_bytes_refuses_and_the_same_bytes_publish() {
        let k = "h/n/t/terraform-provider-t_1.0.0_linux_amd64.zip";
        assert_eq!(
            settle(k, None, &side("zh:a"), Writer::Origin),
            Claim::Publish
        );
        assert_eq!(
            settle(k, Some(&side("zh:a")), &side("zh:a"), Writer::Upload),
            Claim::Publish
        );
        let Claim::OtherBytes(e) = settle(k, Some(&side("zh:a")), &side("zh:b"), Writer::Origin)
        else {
            panic!("published bytes were replaced")
        };
        assert_eq!(e.kind, EdgeErrorKind::Refused);
        assert!(
            e.message.contains("re-published") && e.message.contains(k),
            "{e}"
        );
        let Claim::OtherBytes(e) = settle(k, Some(&side("zh:a")), &side("zh:b"), Writer::Upload)
        else {
            panic!("published bytes were replaced")
        };
        assert!(e.message.contains("already published"), "{e}");
        let back = Sidecar::from_json(&side("zh:a").to_json()).unwrap();
        assert_eq!(back, side("zh:a"));
        assert_eq!(Sidecar::from_json(b"nope"), None);
    }

    #[test]
    fn a_refill_may_add_platforms_and_h1_but_never_change_a_zh() {
        let doc = |pairs: &[(&str, &[&str])]| {
            let archives: serde_json::Map<String, Value> = pairs
                .iter()
                .map(|(p, h)| {
                    (
                        p.to_string(),
                        serde_json::json!({ "url": "x", "hashes": h }),
                    )
                })
                .collect();
            serde_json::to_vec(&serde_json::json!({ "archives": archives })).unwrap()
        };
        let old = doc(&[("linux_amd64", &["h1:a=", "zh:1"])]);
        let same = doc(&[("linux_amd64", &["zh:1"]), ("darwin_arm64", &["zh:2"])]);
        assert!(check_republished("p 1.0.0", Some(&old), &same).is_ok());
        assert!(check_republished("p 1.0.0", None, &same).is_ok());
        let changed = doc(&[("linux_amd64", &["zh:9"])]);
        let err = check_republished("p 1.0.0", Some(&old), &changed).unwrap_err();
        assert_eq!(err.status(), 502);
        assert!(
            err.message.contains("p 1.0.0 for linux_amd64") && err.message.contains("zh:9"),
            "{err}"
        );
    }
}
