//! A repository's own test data as real-world input (`modules-under=PATH` in
//! `tests/real-world-repos.txt`): Terraform's `internal/configs/testdata` holds the edge cases
//! its parser was written against. Its directories named `*-files` hold one case per file, so each
//! file is copied into a directory of its own and compared as a module; every other directory
//! with a configuration file is a module as it stands.

use std::path::Path;

use anyhow::Result;

use super::scan;

/// The module directories (relative to `copy`) under `under`, after splitting `*-files`
/// directories into `<dir>.split/<file>/` ones.
pub fn module_dirs(copy: &Path, under: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    visit(copy, under, under, &mut out)?;
    out.sort();
    Ok(out)
}

fn visit(copy: &Path, under: &str, rel: &str, out: &mut Vec<String>) -> Result<()> {
    let dir = copy.join(rel);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(());
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    // Only the test data's own case folders (`invalid-files`), not modules named so deeper down.
    let split = rel
        .strip_prefix(under)
        .and_then(|r| r.strip_prefix('/'))
        .is_some_and(|n| !n.contains('/') && n.ends_with("-files"));
    let mut has_config = false;
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let kind = e.file_type()?;
        if kind.is_dir() && !kind.is_symlink() {
            visit(copy, under, &format!("{rel}/{name}"), out)?;
            continue;
        }
        let config = scan::is_config_file(&name);
        if split && (config || scan::is_test_file(&name)) {
            let case = format!("{rel}.split/{}", name.replace('.', "_"));
            std::fs::create_dir_all(copy.join(&case))?;
            std::fs::copy(e.path(), copy.join(&case).join(&name))?;
            out.push(case);
        } else if config {
            has_config = true;
        }
    }
    if has_config && !split {
        out.push(rel.to_string());
    }
    Ok(())
}
