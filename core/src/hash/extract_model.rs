//! What Terraform's installer leaves on disk when it unpacks a provider zip (go-getter's
//! `ZipDecompressor`), so the lock-file `h1:` can be computed without touching a disk.
//!
//! The model, per central-directory entry in order:
//! - a name with a `..` element (split on `/` or `\`) is refused: `entry contains '..': NAME`;
//! - the name is joined to the target directory, so empty and `.` elements vanish and a
//!   leading `/` does not escape (`/a` lands at `a`);
//! - directory entries (trailing `/`, or directory mode bits) only create directories;
//! - files create their parent directories and overwrite an earlier file of the same path
//!   (last write wins);
//! - a file where a directory is needed, a directory where a file is, a file named by the
//!   empty path, a NUL byte or a path element over 255 bytes is an error (the real
//!   extraction fails with an OS error there).
//!
//! Then `dirhash.HashDir` lists regular files only, so directories contribute nothing.
//! Not modelled: go-getter's `empty archive` refusal (an empty zip hashes as an empty
//! directory here), symlink entries (extracted as regular files holding the link text,
//! which is what hashing the entry's content gives).

use super::{DirHasher, FileDigest, HashError, PackageHash};

/// One central-directory entry after its content was digested.
#[derive(Debug, Clone)]
pub(crate) struct DigestedEntry {
    pub name: Vec<u8>,
    pub is_dir: bool,
    pub digest: FileDigest,
}

/// A path some entry creates: a directory above it (or the directory entry itself), or
/// the file it writes.
struct Made {
    path: Vec<u8>,
    entry: usize,
    file: Option<FileDigest>,
}

fn contains_dot_dot(name: &[u8]) -> bool {
    name.split(|&b| b == b'/' || b == b'\\').any(|e| e == b"..")
}

fn show(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}

/// The `h1:` of the directory Terraform extracts from these entries (lock-file form).
///
/// Unpacking in entry order fails at the first entry that needs a directory where an
/// earlier entry put a file, or the reverse; until then a path keeps the kind its first
/// creator gave it. So every path created is listed once, sorted (one shared sort, no map
/// type), and each entry asks what the path's first creator was.
pub(crate) fn extracted_h1(entries: &[DigestedEntry]) -> Result<PackageHash, HashError> {
    let mut made: Vec<Made> = Vec::new();
    // Per entry, the error its name alone earns, or its directories and file.
    let mut plans: Vec<Result<Vec<Vec<u8>>, HashError>> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let plan = plan_entry(e);
        if let Ok(dirs) = &plan {
            for dir in dirs {
                made.push(Made {
                    path: dir.clone(),
                    entry: i,
                    file: None,
                });
            }
            if !e.is_dir {
                made.push(Made {
                    path: file_path(e),
                    entry: i,
                    file: Some(e.digest),
                });
            }
        }
        plans.push(plan);
    }
    // Stable by path: each path's creations stay in entry order, the first one first.
    crate::collections::sort_by(&mut made, |a, b| a.path.cmp(&b.path));
    let first = |path: &[u8]| -> Option<&Made> {
        let at = made.partition_point(|m| m.path.as_slice() < path);
        made.get(at).filter(|m| m.path == path)
    };
    for (i, (e, plan)) in entries.iter().zip(plans).enumerate() {
        let dirs = plan?;
        let conflict = |detail: &str| HashError::ExtractConflict {
            name: show(&e.name),
            detail: detail.to_owned(),
        };
        for dir in &dirs {
            if first(dir).is_some_and(|m| m.entry < i && m.file.is_some()) {
                return Err(conflict(&format!(
                    "{:?} is a file, not a directory",
                    show(dir)
                )));
            }
        }
        if !e.is_dir && first(&file_path(e)).is_some_and(|m| m.entry < i && m.file.is_none()) {
            return Err(conflict("a directory of that name exists"));
        }
    }
    // No conflict: a file path was only ever written as a file; the last write wins.
    let mut d = DirHasher::new();
    for (k, m) in made.iter().enumerate() {
        let last_of_path = made.get(k + 1).is_none_or(|n| n.path != m.path);
        if let (true, Some(digest)) = (last_of_path, m.file) {
            d.add_raw(&m.path, digest);
        }
    }
    d.finish()
}

/// The name's elements once joined to the target directory.
fn parts(e: &DigestedEntry) -> Vec<&[u8]> {
    e.name
        .split(|&b| b == b'/')
        .filter(|p| !p.is_empty() && *p != b".")
        .collect()
}

fn file_path(e: &DigestedEntry) -> Vec<u8> {
    parts(e).join(&b'/')
}

/// The directories `e` creates, in order (every element for a directory entry, the
/// parents for a file), or the error its name alone earns.
fn plan_entry(e: &DigestedEntry) -> Result<Vec<Vec<u8>>, HashError> {
    if contains_dot_dot(&e.name) {
        return Err(HashError::EntryContainsDotDot {
            name: show(&e.name),
        });
    }
    let parts = parts(e);
    let conflict = |detail: &str| HashError::ExtractConflict {
        name: show(&e.name),
        detail: detail.to_owned(),
    };
    // What every file system Terraform runs on refuses (extraction fails there).
    if e.name.contains(&0) {
        return Err(conflict("file names cannot contain a NUL byte"));
    }
    if parts.iter().any(|p| p.len() > 255) {
        return Err(conflict("a path element is longer than 255 bytes"));
    }
    let dirs = if e.is_dir {
        parts.len()
    } else {
        if parts.is_empty() {
            return Err(conflict("it names the package directory itself"));
        }
        parts.len() - 1
    };
    Ok((1..=dirs).map(|n| parts[..n].join(&b'/')).collect())
}

/// The `h1:` of Go's `dirhash.HashZip`: every central-directory name (directories too),
/// each hashed with the content of the last entry of that name.
pub(crate) fn archive_h1(entries: &[DigestedEntry]) -> Result<PackageHash, HashError> {
    // Entry indices ordered by name (stably, so the last of equal names ends each run),
    // then each index pointed at the last entry of its name: no map type of its own.
    let mut by_name: Vec<usize> = (0..entries.len()).collect();
    crate::collections::sort_by(&mut by_name, |&a, &b| entries[a].name.cmp(&entries[b].name));
    let mut last = vec![0usize; entries.len()];
    let mut run = 0;
    for (i, &at) in by_name.iter().enumerate() {
        let next_differs = by_name
            .get(i + 1)
            .is_none_or(|&n| entries[n].name != entries[at].name);
        if next_differs {
            for &member in &by_name[run..=i] {
                last[member] = at;
            }
            run = i + 1;
        }
    }
    let mut d = DirHasher::new();
    for (e, &l) in entries.iter().zip(&last) {
        d.add_raw(&e.name, entries[l].digest);
    }
    d.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::ContentHasher;

    fn e(name: &str, is_dir: bool, content: &[u8]) -> DigestedEntry {
        DigestedEntry {
            name: name.as_bytes().to_vec(),
            is_dir,
            digest: ContentHasher::digest(content),
        }
    }

    #[test]
    fn directory_entries_vanish_from_the_extracted_form_only() {
        let v = [
            e("sub/", true, b""),
            e("a.txt", false, b"hello\n"),
            e("sub/b", false, b"world"),
        ];
        assert_eq!(
            extracted_h1(&v).unwrap().as_str(),
            "h1:isfzfqhWUqIYrvO+Uqez4TjYu7JCnKvLsUL778ilnJE="
        );
        assert_eq!(
            archive_h1(&v).unwrap().as_str(),
            "h1:yIBEDdBMcmQ95KfeH0nHpC3G0Cboli1NcZ1a4I2RGHA="
        );
    }

    #[test]
    fn later_duplicate_wins_in_both_forms() {
        let v = [e("a", false, b"old"), e("a", false, b"new")];
        let want = crate::hash::hash_files([("a", &b"new"[..])]).unwrap();
        assert_eq!(extracted_h1(&v).unwrap(), want);
        let twice = crate::hash::hash_files([("a", &b"new"[..]), ("a", &b"new"[..])]).unwrap();
        assert_eq!(archive_h1(&v).unwrap(), twice);
    }

    #[test]
    fn archive_form_hashes_every_name_with_the_last_content_of_that_name() {
        let v = [
            e("b", false, b"b1"),
            e("a", false, b"a1"),
            e("b", false, b"b2"),
            e("c/", true, b""),
            e("a", false, b"a2"),
            e("b", false, b"b3"),
        ];
        let want = crate::hash::hash_files([
            ("b", &b"b3"[..]),
            ("a", b"a2"),
            ("b", b"b3"),
            ("c/", b""),
            ("a", b"a2"),
            ("b", b"b3"),
        ])
        .unwrap();
        assert_eq!(archive_h1(&v).unwrap(), want);
    }

    #[test]
    fn dot_dot_elements_are_refused_with_go_getter_text() {
        for name in ["../x", "a/../b", "a\\..\\b", ".."] {
            let err = extracted_h1(&[e(name, false, b"")]).unwrap_err();
            assert_eq!(err.to_string(), format!("entry contains '..': {name}"));
        }
        // Only whole elements count.
        assert!(extracted_h1(&[e("a..b/..c", false, b"")]).is_ok());
    }

    #[test]
    fn names_are_cleaned_like_filepath_join() {
        let v = [e("/abs", false, b"1"), e("./x//y/./z", false, b"2")];
        let want = crate::hash::hash_files([("abs", &b"1"[..]), ("x/y/z", b"2")]).unwrap();
        assert_eq!(extracted_h1(&v).unwrap(), want);
    }

    #[test]
    fn file_directory_conflicts_are_errors() {
        assert!(extracted_h1(&[e("a", false, b""), e("a/b", false, b"")]).is_err());
        assert!(extracted_h1(&[e("a/", true, b""), e("a", false, b"")]).is_err());
        assert!(extracted_h1(&[e("a/b", false, b""), e("a", false, b"")]).is_err());
        assert!(extracted_h1(&[e("./", false, b"")]).is_err());
        assert!(extracted_h1(&[e("./", true, b"")]).is_ok());
    }
}
