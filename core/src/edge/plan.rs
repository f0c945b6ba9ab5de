//! Which documents change once an archive is published, and how: a pull from the origin
//! adds the archive's `h1:` beside the signed `zh:` its `<version>.json` already lists; an
//! upload (no origin to list it) adds the archive to `<version>.json` and the version to
//! `index.json`. The host applies each [`DocUpdate`] by compare-and-swap, in order.

use super::keys;
use super::publish::Sidecar;
use crate::protocol::mirror_docs::{self, MirrorDocError};

/// One change to one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocChange {
    /// List `h1` first for `platform`, only beside the `zh` it was computed with.
    AddH1 {
        /// `os_arch`.
        platform: String,
        /// The archive's hashes.
        hashes: Sidecar,
    },
    /// List `platform`'s archive `filename` with `hashes` (replacing an earlier entry).
    AddArchive {
        /// `os_arch`.
        platform: String,
        /// The archive's file name, its URL relative to the document.
        filename: String,
        /// The hashes to list (`h1:` then `zh:`).
        hashes: Vec<String>,
    },
    /// List `version` in `index.json`.
    AddVersion {
        /// The version.
        version: String,
    },
}

/// A change and the document (bucket key) it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocUpdate {
    /// The document's key.
    pub key: String,
    /// What changes in it.
    pub change: DocChange,
}

impl DocUpdate {
    /// The document after the change, from its current bytes; `None` when nothing changes
    /// (an `h1:` already listed, or a document that no longer lists the archive's `zh:`).
    pub fn apply(&self, current: Option<&[u8]>) -> Result<Option<Vec<u8>>, MirrorDocError> {
        match &self.change {
            DocChange::AddH1 { platform, hashes } => match current {
                Some(doc) => mirror_docs::add_h1_for(doc, platform, &hashes.h1, &hashes.zh),
                // A version document is written by its fill; the h1: waits for it.
                None => Ok(None),
            },
            DocChange::AddArchive {
                platform,
                filename,
                hashes,
            } => mirror_docs::add_archive(current, platform, filename, hashes).map(Some),
            DocChange::AddVersion { version } => {
                mirror_docs::add_version(current, version).map(Some)
            }
        }
    }
}

/// The changes a plan makes to one document, in the plan's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocPlan {
    /// The document's key (its path under the mirror's root).
    pub key: String,
    /// Its changes, applied one after the other.
    pub updates: Vec<DocUpdate>,
}

impl DocPlan {
    /// The document after all its changes, from its current bytes; `None` when none of
    /// them changes anything.
    pub fn apply(&self, current: Option<&[u8]>) -> Result<Option<Vec<u8>>, MirrorDocError> {
        let mut doc: Option<Vec<u8>> = None;
        for u in &self.updates {
            if let Some(next) = u.apply(doc.as_deref().or(current))? {
                doc = Some(next);
            }
        }
        Ok(doc)
    }
}

/// `plan` gathered per document, each in the order it is first named: a host that writes
/// every document once, in this order, still never lists a version before one of its
/// archives (`tflock providers mirror` writes a directory this way).
pub fn per_document(plan: Vec<DocUpdate>) -> Vec<DocPlan> {
    let mut docs: Vec<DocPlan> = Vec::new();
    for u in plan {
        match docs.iter_mut().find(|d| d.key == u.key) {
            Some(d) => d.updates.push(u),
            None => docs.push(DocPlan {
                key: u.key.clone(),
                updates: vec![u],
            }),
        }
    }
    docs
}

/// What publishing an archive pulled from the origin changes: its `h1:` in the version's
/// document (the fill listed the platform and its signed `zh:`).
pub fn after_pull(dir: &str, version: &str, platform: &str, hashes: &Sidecar) -> Vec<DocUpdate> {
    vec![DocUpdate {
        key: keys::version(dir, version),
        change: DocChange::AddH1 {
            platform: platform.to_string(),
            hashes: hashes.clone(),
        },
    }]
}

/// What publishing an uploaded archive changes: the archive in `<version>.json` (with the
/// hashes to list), then the version in `index.json`, so a version is never listed before
/// one of its archives.
pub fn after_upload(
    dir: &str,
    version: &str,
    platform: &str,
    filename: &str,
    listed: &[String],
) -> Vec<DocUpdate> {
    vec![
        DocUpdate {
            key: keys::version(dir, version),
            change: DocChange::AddArchive {
                platform: platform.to_string(),
                filename: filename.to_string(),
                hashes: listed.to_vec(),
            },
        },
        DocUpdate {
            key: keys::index(dir),
            change: DocChange::AddVersion {
                version: version.to_string(),
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const DIR: &str = "example.com/acme/demo";
    const FILE: &str = "terraform-provider-demo_1.0.0_linux_amd64.zip";

    fn side(h1: &str, zh: &str) -> Sidecar {
        Sidecar {
            h1: h1.into(),
            zh: zh.into(),
        }
    }

    fn apply_all(plan: &[DocUpdate], docs: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for u in plan {
            let next = u.apply(docs.get(&u.key).map(Vec::as_slice)).unwrap();
            if let Some(next) = next {
                docs.insert(u.key.clone(), next);
            }
        }
    }

    fn parsed(bytes: &[u8]) -> Value {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn a_pull_adds_its_h1_beside_its_own_zh_and_nothing_else() {
        let plan = after_pull(DIR, "1.0.0", "linux_amd64", &side("h1:a=", "zh:1"));
        assert_eq!(plan.len(), 1);
        assert_eq!(plan[0].key, "example.com/acme/demo/1.0.0.json");
        let doc = serde_json::to_vec(&json!({
            "archives": { "linux_amd64": { "url": FILE, "hashes": ["zh:1"] } }
        }))
        .unwrap();
        let mut docs = std::collections::BTreeMap::from([(plan[0].key.clone(), doc)]);
        apply_all(&plan, &mut docs);
        assert_eq!(
            parsed(&docs[&plan[0].key])["archives"]["linux_amd64"]["hashes"],
            json!(["h1:a=", "zh:1"])
        );
        // Again: nothing changes. For another zh: (a refilled document): nothing either.
        assert_eq!(plan[0].apply(Some(&docs[&plan[0].key])).unwrap(), None);
        let other = after_pull(DIR, "1.0.0", "linux_amd64", &side("h1:b=", "zh:2"));
        assert_eq!(other[0].apply(Some(&docs[&plan[0].key])).unwrap(), None);
        // No document yet: the fill writes it, the h1: waits.
        assert_eq!(plan[0].apply(None).unwrap(), None);
    }

    #[test]
    fn a_mirror_of_several_archives_writes_each_document_once_version_before_index() {
        let (h, z) = ("h1:a=".to_string(), "zh:1".to_string());
        let mut plan = Vec::new();
        for platform in ["linux_amd64", "darwin_arm64"] {
            let file = format!("terraform-provider-demo_1.0.0_{platform}.zip");
            plan.extend(after_upload(
                DIR,
                "1.0.0",
                platform,
                &file,
                &[h.clone(), z.clone()],
            ));
        }
        let docs = per_document(plan);
        let keys: Vec<&str> = docs.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "example.com/acme/demo/1.0.0.json",
                "example.com/acme/demo/index.json"
            ]
        );
        let version = parsed(&docs[0].apply(None).unwrap().unwrap());
        assert_eq!(
            version["archives"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["darwin_arm64", "linux_amd64"]
        );
        // An existing index keeps its versions.
        let before = serde_json::to_vec(&json!({ "versions": { "0.9.0": {} } })).unwrap();
        assert_eq!(
            parsed(&docs[1].apply(Some(&before)).unwrap().unwrap()),
            json!({ "versions": { "0.9.0": {}, "1.0.0": {} } })
        );
        // A pull's plan that changes nothing writes nothing.
        let noop = per_document(after_pull(
            DIR,
            "1.0.0",
            "linux_amd64",
            &side("h1:a=", "zh:1"),
        ));
        assert_eq!(noop[0].apply(None).unwrap(), None);
    }

    #[test]
    fn an_upload_lists_the_archive_then_the_version() {
        let listed = vec!["h1:a=".to_string(), "zh:1".to_string()];
        let plan = after_upload(DIR, "1.0.0", "linux_amd64", FILE, &listed);
        let keys: Vec<&str> = plan.iter().map(|u| u.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "example.com/acme/demo/1.0.0.json",
                "example.com/acme/demo/index.json"
            ]
        );
        let mut docs = std::collections::BTreeMap::new();
        apply_all(&plan, &mut docs);
        assert_eq!(
            parsed(&docs[keys[0]]),
            json!({ "archives": { "linux_amd64": { "url": FILE, "hashes": listed } } })
        );
        assert_eq!(
            parsed(&docs[keys[1]]),
            json!({ "versions": { "1.0.0": {} } })
        );
    }
}
