//! The real `pre-commit` (PyPI) for the hook tests: pip-installed with its dependencies
//! into `<target>/pre-commit/` the first time a test needs it (`cargo xtask setup` installs
//! it beforehand, as CI does), and run as `python3 -m pre_commit` from there.

use crate::target_dir;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// The pinned release.
pub const PRE_COMMIT_VERSION: &str = "4.7.0";

/// Where the package and its dependencies are installed.
pub fn install_dir() -> PathBuf {
    target_dir().join("pre-commit")
}

static INSTALL: Mutex<()> = Mutex::new(());

/// A `pre-commit` command, installing the package first when it is missing. Panics, saying
/// what failed and how to install it, when pip cannot: the test never skips.
pub fn pre_commit() -> Command {
    let dir = install_dir();
    let marker = dir.join(format!("pre_commit-{PRE_COMMIT_VERSION}.dist-info"));
    {
        let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
        if !marker.is_dir() {
            let _ = std::fs::remove_dir_all(&dir);
            let out = Command::new("python3")
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--target",
                ])
                .arg(&dir)
                .arg(format!("pre-commit=={PRE_COMMIT_VERSION}"))
                .output();
            let ok = matches!(&out, Ok(o) if o.status.success()) && marker.is_dir();
            assert!(
                ok,
                "could not pip-install pre-commit=={PRE_COMMIT_VERSION} into {} ({}); run \
                 `cargo xtask setup`, which installs it there, or install it by hand with \
                 `python3 -m pip install --target {} pre-commit=={PRE_COMMIT_VERSION}`",
                dir.display(),
                match &out {
                    Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
                    Err(e) => e.to_string(),
                },
                dir.display()
            );
        }
    }
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pre_commit"])
        .env("PYTHONPATH", &dir)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    cmd
}
