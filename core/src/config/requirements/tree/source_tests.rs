//! Module calls whose `source` the flavour's parser refuses are reported and not followed.

use crate::collections::SortedMap;
use crate::config::{load_tree, LoadOptions};
use crate::flavor::Flavor;

const MAIN: &str = r#"module "relative" {
  source = "boop/bloop"
}

module "gcs" {
  source = "googleapis.com/storage/v1/bucket/mod.zip"
}

module "pinned" {
  source  = "git::https://example.com/x.git"
  version = "1.0.0"
}

module "null_version" {
  source  = "git::https://example.com/y.git"
  version = null
}
"#;

/// The source refusals loading `MAIN` reports, as `summary @ line: detail's first line`.
fn refusals(flavor: Flavor) -> Vec<String> {
    let mut dirs: SortedMap<String, Vec<(String, Vec<u8>)>> = SortedMap::new();
    dirs.insert(
        String::new(),
        vec![("main.tf".to_string(), MAIN.as_bytes().to_vec())],
    );
    let tree = load_tree(&dirs, "", &LoadOptions::new(flavor));
    tree.diagnostics()
        .iter()
        .filter(|d| d.summary.contains("module source address"))
        .map(|d| {
            let line = d.range.as_ref().map_or(0, |r| r.start.line);
            let first = d.detail.lines().next().unwrap_or_default();
            format!("{} @ {line}: {first}", d.summary)
        })
        .collect()
}

#[test]
fn opentofu_refuses_sources_by_its_own_parser_and_in_its_own_words() {
    assert_eq!(
        refusals(Flavor::OpenTofu),
        [
            "Invalid module source address @ 2: OpenTofu failed to determine your intended installation method for remote module package \"boop/bloop\".",
            "Invalid module source address @ 6: OpenTofu failed to determine your intended installation method for remote module package \"googleapis.com/storage/v1/bucket/mod.zip\".",
            "Invalid registry module source address @ 10: Failed to parse module registry address: invalid module registry hostname \"git::https:\".",
        ]
    );
    assert_eq!(
        refusals(Flavor::Terraform),
        [
            "Invalid module source address @ 2: Terraform failed to determine your intended installation method for remote module package \"boop/bloop\".",
            "Invalid registry module source address @ 10: Failed to parse module registry address: invalid module registry hostname \"git::https:\".",
        ]
    );
}
