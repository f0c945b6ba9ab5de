//! Opening a whole module: the files of a dropped folder or `.zip` (paths relative to it) →
//! the configuration files of the root and its subdirectories, the lock file, and every other
//! file with the reason Terraform's loader leaves it out (the reason comes from the core).

use tflock_core::api::module::ignore_reason;
use tflock_core::api::SortedMap;
use tflock_core::Flavor;

/// What a folder or archive holds, sorted for the page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Opened {
    /// Configuration files as `(path, text)`, `modules/vpc/main.tf` for subdirectories.
    pub files: Vec<(String, String)>,
    /// The root's `.terraform.lock.hcl`, when present.
    pub lock: Option<String>,
    /// Files left out, as `(path, reason)`.
    pub ignored: Vec<(String, String)>,
}

/// Sorts `entries` (`(path, bytes)`) into a module: a single top folder every path shares is
/// dropped (the folder itself, or a zip made of one), `.terraform/` (what `init` installed)
/// is skipped, and each directory's names are judged by the core as Terraform's loader does.
pub fn open(entries: Vec<(String, Vec<u8>)>, flavor: Flavor) -> Opened {
    let entries: Vec<(String, Vec<u8>)> = entries
        .into_iter()
        .map(|(p, b)| (p.replace('\\', "/").trim_start_matches("./").to_string(), b))
        .filter(|(p, _)| !p.is_empty() && !p.ends_with('/'))
        .collect();
    let top = common_top(entries.iter().map(|(p, _)| p.as_str()));
    let mut dirs: SortedMap<String, Vec<(String, Vec<u8>)>> = SortedMap::new();
    let mut out = Opened::default();
    for (path, bytes) in entries {
        let path = path[top.len()..].to_string();
        if path.starts_with(".terraform/") || path.contains("/.terraform/") {
            out.ignored.push((
                path,
                "inside .terraform/: what terraform init installed".into(),
            ));
            continue;
        }
        let (dir, name) = match path.rsplit_once('/') {
            Some((d, n)) => (d.to_string(), n.to_string()),
            None => (String::new(), path.clone()),
        };
        dirs.entry(dir).or_default().push((name, bytes));
    }
    for (dir, files) in dirs.iter() {
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        for (name, bytes) in files {
            let path = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            if dir.is_empty() && name == ".terraform.lock.hcl" {
                out.lock = Some(String::from_utf8_lossy(bytes).into_owned());
                continue;
            }
            match ignore_reason(name, &names, flavor) {
                Some(reason) => out.ignored.push((path, reason)),
                None => out
                    .files
                    .push((path, String::from_utf8_lossy(bytes).into_owned())),
            }
        }
    }
    out.ignored.sort();
    out
}

/// `"name/"` when every path starts with the same folder, else `""`.
fn common_top<'a>(mut paths: impl Iterator<Item = &'a str>) -> String {
    let Some(first) = paths.next() else {
        return String::new();
    };
    let Some((top, _)) = first.split_once('/') else {
        return String::new();
    };
    let prefix = format!("{top}/");
    if paths.all(|p| p.starts_with(&prefix)) {
        prefix
    } else {
        String::new()
    }
}

/// The entries of a `.zip` (files only), or why it cannot be read.
pub fn unzip(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    use std::io::Read as _;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("not a readable zip archive: {e}"))?;
    let mut out = Vec::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).map_err(|e| format!("zip entry {i}: {e}"))?;
        if f.is_dir() {
            continue;
        }
        let name = f
            .name()
            .map_err(|e| format!("zip entry {i}: {e}"))?
            .to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data)
            .map_err(|e| format!("{name}: {e}"))?;
        out.push((name, data));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(p: &str, t: &str) -> (String, Vec<u8>) {
        (p.to_string(), t.as_bytes().to_vec())
    }

    #[test]
    fn a_folder_becomes_module_files_lock_and_ignored_files() {
        let o = open(
            vec![
                e("infra/main.tf", "a"),
                e("infra/main_override.tf", "b"),
                e("infra/.terraform.lock.hcl", "lock"),
                e("infra/README.md", "r"),
                e("infra/main.tf~", "old"),
                e("infra/modules/vpc/main.tf", "v"),
                e("infra/modules/vpc/notes.txt", "n"),
                e("infra/.terraform/providers/x", "p"),
            ],
            Flavor::Terraform,
        );
        let files: Vec<&str> = o.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            files,
            ["main.tf", "main_override.tf", "modules/vpc/main.tf"]
        );
        assert_eq!(o.lock.as_deref(), Some("lock"));
        let ignored: Vec<&str> = o.ignored.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            ignored,
            [
                ".terraform/providers/x",
                "README.md",
                "main.tf~",
                "modules/vpc/notes.txt"
            ]
        );
        assert!(o.ignored[2].1.contains("backup"), "{:?}", o.ignored[2]);
    }
}
