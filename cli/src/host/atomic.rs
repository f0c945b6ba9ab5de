//! Writing files atomically: a temp file in the same directory, then a rename, so a reader
//! never sees half a file and a failure leaves the old file intact.

use std::io::Write;
use std::path::Path;

/// Replaces `path` with `bytes` atomically (mode 0644 like Terraform's lock file).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".tflock-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(path)?;
    Ok(())
}
