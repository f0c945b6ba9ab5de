//! `providers mirror` over an existing mirror: an archive already in the directory stands
//! in for its download when it is the archive the source announced, so a second run over
//! an unchanged mirror downloads nothing (hashicorp/terraform#28333).

use crate::hash::{PackageHash, ZipHashes};

/// Whether the archive already in the mirror (hashed by the host) is the package the
/// source announced: its `zh:` (SHA-256) is the announced one (a registry's `shasum`, a
/// mirror's `zh:`). The planner then authenticates it as it would a download (the signed
/// `SHA256SUMS`), so a reused file is held to the signed hash, not to the mirror's own
/// index. Without an announced `zh:` there is nothing to compare, and it is downloaded.
pub fn mirrored_archive_matches(existing: &ZipHashes, announced: Option<&PackageHash>) -> bool {
    announced.is_some_and(|zh| zh.is_zh() && *zh == existing.zh)
}

/// The line `providers mirror` prints about the packages it did not download, if any.
pub fn mirror_reuse_summary(reused: usize, downloaded: usize) -> Option<String> {
    (reused > 0).then(|| {
        format!(
            "- Skipped {reused} package(s) already in the mirror (their checksums match the signed ones); downloaded {downloaded}"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hashes(zh: char) -> ZipHashes {
        ZipHashes {
            h1: PackageHash::parse(&format!("h1:{}=", "a".repeat(43))).expect("h1"),
            zh: PackageHash::parse(&format!("zh:{}", zh.to_string().repeat(64))).expect("zh"),
            h1_archive: PackageHash::parse(&format!("h1:{}=", "b".repeat(43))).expect("h1"),
        }
    }

    #[test]
    fn an_archive_is_reused_only_when_its_zh_is_the_announced_one() {
        let existing = hashes('c');
        assert!(mirrored_archive_matches(&existing, Some(&existing.zh)));
        let other = hashes('d').zh;
        assert!(!mirrored_archive_matches(&existing, Some(&other)));
        assert!(!mirrored_archive_matches(&existing, None));
        assert!(!mirrored_archive_matches(&existing, Some(&existing.h1)));
    }

    #[test]
    fn the_summary_counts_skipped_and_downloaded_packages_and_is_silent_without_skips() {
        assert_eq!(
            mirror_reuse_summary(3, 1).as_deref(),
            Some("- Skipped 3 package(s) already in the mirror (their checksums match the signed ones); downloaded 1")
        );
        assert_eq!(mirror_reuse_summary(0, 4), None);
    }
}
