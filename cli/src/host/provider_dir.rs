//! The working directory's provider cache, `.terraform/providers/<host>/<ns>/<type>/<v>/<os_arch>/`,
//! laid out exactly as Terraform does so `terraform init`/`tofu init` reuse it.

use std::fs::{self, File};
use std::io;
use std::path::{Component, Path, PathBuf};
use tflock_core::api::mirror::hostname_for_display as for_display;
use tflock_core::api::version::Version;
use tflock_core::api::{Platform, Provider};

/// A provider cache directory (`.terraform/providers` or a plugin cache).
#[derive(Debug, Clone)]
pub struct ProviderDir {
    root: PathBuf,
}

impl ProviderDir {
    /// The cache rooted at `root`.
    pub fn new(root: impl Into<PathBuf>) -> ProviderDir {
        ProviderDir { root: root.into() }
    }

    /// Where `p` `v` for `platform` lives.
    pub fn package_dir(&self, p: &Provider, v: &Version, platform: &Platform) -> PathBuf {
        self.root
            .join(for_display(&p.hostname))
            .join(&p.namespace)
            .join(&p.r#type)
            .join(v.to_string())
            .join(platform.to_string())
    }

    /// Takes the directory's cross-process lock (blocking) until the guard is dropped.
    pub fn lock(&self) -> Option<std::fs::File> {
        use fs2::FileExt;
        fs::create_dir_all(&self.root).ok()?;
        let f = File::create(self.root.join(".tflock.lock")).ok()?;
        f.lock_exclusive().ok()?;
        Some(f)
    }

    /// The `h1:` of an installed package, `None` when it is not installed.
    pub fn installed_h1(&self, p: &Provider, v: &Version, platform: &Platform) -> Option<String> {
        let dir = self.package_dir(p, v, platform);
        if !dir.is_dir() {
            return None;
        }
        super::package::hash_dir(&dir).ok().map(|h| h.to_string())
    }

    /// Puts `package` in place as `p` `v` `platform`, replacing what was there. The copy or
    /// extraction goes to a staging directory first, so a failure leaves the previous
    /// package (or nothing).
    pub fn install(
        &self,
        package: Package<'_>,
        p: &Provider,
        v: &Version,
        platform: &Platform,
    ) -> Result<PathBuf, String> {
        let target = self.package_dir(p, v, platform);
        let parent = target.parent().ok_or("package directory has no parent")?;
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        let staging = tempfile::Builder::new()
            .prefix(".tflock-staging-")
            .tempdir_in(parent)
            .map_err(|e| format!("{}: {e}", parent.display()))?;
        match package {
            Package::Zip(zip) => extract(zip, staging.path())?,
            Package::Dir(dir) => copy_tree(dir, staging.path())?,
        }
        replace_dir(staging.keep(), &target)?;
        Ok(target)
    }
}

/// A package to put in place: a zip archive, or an unpacked directory (filesystem mirrors,
/// the plugin cache).
#[derive(Debug, Clone, Copy)]
pub enum Package<'a> {
    /// A zip archive, unpacked into place.
    Zip(&'a Path),
    /// An unpacked package directory, copied into place.
    Dir(&'a Path),
}

/// Moves a complete staged directory into place. The target only ever exists complete: a
/// kill between the two renames leaves it absent (the next run installs again), and a
/// failed second rename puts the old directory back.
fn replace_dir(staged: PathBuf, target: &Path) -> Result<(), String> {
    let old = target.with_extension("tflock-old");
    let _ = fs::remove_dir_all(&old);
    let had_old = target.exists();
    if had_old {
        fs::rename(target, &old).map_err(|e| {
            let _ = fs::remove_dir_all(&staged);
            format!("{}: {e}", target.display())
        })?;
    }
    if let Err(e) = fs::rename(&staged, target) {
        let _ = fs::remove_dir_all(&staged);
        if had_old {
            let _ = fs::rename(&old, target);
        }
        return Err(format!("{}: {e}", target.display()));
    }
    let _ = fs::remove_dir_all(&old);
    Ok(())
}

/// Unpacks a zip under `dest`, refusing entries that would land outside it (zip-slip),
/// symlinks, and anything but regular files and directories; keeps executable bits.
pub fn extract(zip_path: &Path, dest: &Path) -> Result<(), String> {
    let file = File::open(zip_path).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| format!("zip: {e}"))?;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| format!("zip: {e}"))?;
        let name = entry.name().map_err(|e| format!("zip: {e}"))?.to_string();
        let rel = safe_relative(&name).ok_or_else(|| {
            format!("zip entry {name:?} would be extracted outside the package directory")
        })?;
        let out = dest.join(&rel);
        let mode = entry.unix_mode();
        if mode.is_some_and(|m| m & 0o170000 == 0o120000) {
            return Err(format!(
                "zip entry {name:?} is a symbolic link, which provider packages may not contain"
            ));
        }
        if entry.is_dir() {
            fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            continue;
        }
        if let Some(parent) = out.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let mut f = File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        io::copy(&mut entry, &mut f).map_err(|e| format!("{}: {e}", out.display()))?;
        set_mode(&out, mode);
    }
    Ok(())
}

fn safe_relative(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: Option<u32>) {
    use std::os::unix::fs::PermissionsExt;
    if let Some(m) = mode {
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(m & 0o777));
    }
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: Option<u32>) {}

fn copy_tree(src: &Path, dest: &Path) -> Result<(), String> {
    for entry in fs::read_dir(src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .flatten()
    {
        let from = entry.path();
        let to = dest.join(entry.file_name());
        let ft = entry.file_type().map_err(|e| e.to_string())?;
        if ft.is_dir() {
            fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
            copy_tree(&from, &to)?;
        } else {
            fs::copy(&from, &to).map_err(|e| format!("{}: {e}", to.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_names_stay_inside() {
        assert_eq!(safe_relative("a/b"), Some(PathBuf::from("a/b")));
        assert_eq!(safe_relative("./a"), Some(PathBuf::from("a")));
        assert_eq!(safe_relative("../a"), None);
        assert_eq!(safe_relative("a/../../b"), None);
        assert_eq!(safe_relative("/etc/passwd"), None);
        assert_eq!(safe_relative(""), None);
    }
}
