//! Writing files atomically: a temp file in the same directory, then a rename, so a reader
//! never sees half a file and a failure (full disk, read-only directory, a kill) leaves the
//! old file intact.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The permissions the written file gets.
#[derive(Debug, Clone, Copy)]
pub enum FileMode {
    /// Always this mode (Terraform writes its lock file 0644 whatever it was).
    Fixed(u32),
    /// The replaced file's mode, or this one for a new file.
    KeepOr(u32),
}

/// A failed write, worded like Go's `*fs.PathError` (`write <path>: no space left on device`)
/// because Terraform's messages embed that text.
#[derive(Debug)]
pub struct WriteError {
    /// The operation that failed: `open`, `write`, `sync`, `chmod` or `rename`.
    pub op: &'static str,
    /// The file being written (the target, not the temp file, so the message names it).
    pub path: PathBuf,
    /// The OS error.
    pub source: std::io::Error,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.op,
            self.path.display(),
            go_error_text(&self.source)
        )
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// An OS error as Go's `syscall.Errno` prints it: the C library's text starting lower-case,
/// without Rust's ` (os error N)`.
fn go_error_text(e: &std::io::Error) -> String {
    let Some(code) = os_error_code(e) else {
        return e.to_string();
    };
    let text = std::io::Error::from_raw_os_error(code).to_string();
    let text = text
        .strip_suffix(&format!(" (os error {code})"))
        .unwrap_or(&text);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_string(),
    }
}

/// The OS error code under `e`, which `tempfile` wraps in an error naming its temp file.
fn os_error_code(e: &std::io::Error) -> Option<i32> {
    if let Some(code) = e.raw_os_error() {
        return Some(code);
    }
    let mut next: Option<&(dyn std::error::Error + 'static)> = e.get_ref().map(|r| r as _);
    while let Some(err) = next {
        if let Some(code) = err
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
        {
            return Some(code);
        }
        next = err.source();
    }
    None
}

/// Replaces `path` with `bytes` atomically, with the permissions `mode` says.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: FileMode) -> Result<(), WriteError> {
    let fail = |op: &'static str| {
        move |source: std::io::Error| WriteError {
            op,
            path: path.to_path_buf(),
            source,
        }
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // Plain `File` calls, not `tempfile`'s: its errors hide the OS error code the message
    // needs behind one naming the temp file.
    let tmp = dir.join(temp_name());
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(fail("open"))?;
    let written = (|| {
        file.write_all(bytes).map_err(fail("write"))?;
        file.sync_all().map_err(fail("sync"))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = match mode {
                FileMode::Fixed(m) => m,
                FileMode::KeepOr(m) => {
                    std::fs::metadata(path).map_or(m, |m| m.permissions().mode())
                }
            };
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode))
                .map_err(fail("chmod"))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        std::fs::rename(&tmp, path).map_err(fail("rename"))
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A temp file name no other writer in this or another process picks at the same time.
fn temp_name() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        ".tflock-{}-{nanos:x}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_read_like_go_path_errors() {
        let e = WriteError {
            op: "write",
            path: PathBuf::from(".terraform.lock.hcl"),
            source: std::io::Error::from_raw_os_error(28),
        };
        assert_eq!(
            e.to_string(),
            "write .terraform.lock.hcl: no space left on device"
        );
        let e = WriteError {
            op: "open",
            path: PathBuf::from("x"),
            source: std::io::Error::from_raw_os_error(30),
        };
        assert_eq!(e.to_string(), "open x: read-only file system");
    }

    #[test]
    fn the_os_error_is_found_under_the_temp_file_wrapper() {
        #[derive(Debug)]
        struct Wrapped(std::io::Error);
        impl fmt::Display for Wrapped {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} at path \"/tmp/.tflock-x\"", self.0)
            }
        }
        impl std::error::Error for Wrapped {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let e = WriteError {
            op: "write",
            path: PathBuf::from("f"),
            source: std::io::Error::other(Wrapped(std::io::Error::from_raw_os_error(28))),
        };
        assert_eq!(e.to_string(), "write f: no space left on device");
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        std::fs::write(&path, b"old").expect("write");
        write_atomic(&path, b"new", FileMode::Fixed(0o644)).expect("atomic write");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("read dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("f")]);
    }
}
