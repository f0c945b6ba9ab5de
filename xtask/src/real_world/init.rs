//! The `init` comparison: every module directory that both tools could read is initialised by
//! the real Terraform and by tflock (`init -backend=false`) against a loopback registry that
//! publishes fake, signed releases of every provider the directories require, and the lock
//! files they write are compared byte for byte.
//!
//! The registry (`tests/src/bin/fake_registry_server.rs`) offers, for each provider, every
//! version a constraint names plus the next patch, minor and major release, so constraints
//! select a real range of answers rather than the only version there is.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

/// Providers `init` installs nothing for.
const BUILTIN_HOST: &str = "terraform.io";

/// Provider address → the versions its constraints name, from requirement-tree lines
/// (`<module> provider[<address>] <constraints>`).
pub fn wanted_versions<'a>(
    lines: impl Iterator<Item = &'a str>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in lines {
        let Some(rest) = line.split_once("provider[").map(|(_, r)| r) else {
            continue;
        };
        let Some((address, constraints)) = rest.split_once(']') else {
            continue;
        };
        let parts: Vec<&str> = address.split('/').collect();
        if parts.len() != 3 || parts[0] == BUILTIN_HOST || parts[1] == "-" {
            continue;
        }
        let versions = out.entry(address.to_string()).or_default();
        for c in constraints.split(',') {
            let v = c
                .trim()
                .trim_start_matches(['>', '<', '=', '!', '~', ' '])
                .trim();
            if let Some(v) = full_version(v) {
                versions.insert(v);
            }
        }
    }
    out
}

/// `4` → `4.0.0`, `4.1` → `4.1.0`; `None` for anything that is not a version.
fn full_version(v: &str) -> Option<String> {
    let (core, pre) = match v.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (v, None),
    };
    let mut nums: Vec<u64> = core
        .split('.')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    if nums.is_empty() || nums.len() > 3 {
        return None;
    }
    nums.resize(3, 0);
    let mut s = format!("{}.{}.{}", nums[0], nums[1], nums[2]);
    if let Some(p) = pre.filter(|p| !p.is_empty()) {
        s.push('-');
        s.push_str(p);
    }
    Some(s)
}

/// The releases to publish for the named versions: each, and the next patch, minor and major.
pub fn releases(named: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if named.is_empty() {
        out.extend(["1.0.0".to_string(), "1.1.0".to_string()]);
    }
    for v in named {
        out.insert(v.clone());
        let core = v.split('-').next().unwrap_or(v);
        let n: Vec<u64> = core.split('.').filter_map(|x| x.parse().ok()).collect();
        if let [a, b, c] = n[..] {
            out.insert(format!("{a}.{b}.{}", c + 1));
            out.insert(format!("{a}.{}.0", b + 1));
            out.insert(format!("{}.0.0", a + 1));
        }
    }
    out
}

/// The running loopback registry; dropping it stops the server.
pub struct Registry {
    child: Child,
    /// Registry host → base URL.
    pub bases: BTreeMap<String, String>,
}

impl Drop for Registry {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Registry {
    /// Starts `server` (the built `fake_registry_server`) on the spec it is given.
    pub fn start(server: &Path, spec: &Path) -> Result<Registry> {
        let mut child = Command::new(server)
            .arg(spec)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {}", server.display()))?;
        let mut bases = BTreeMap::new();
        let stdout = child.stdout.take().context("stdout")?;
        for line in BufReader::new(stdout).lines() {
            let line = line?;
            if line == "ready" {
                return Ok(Registry { child, bases });
            }
            let (host, base) = line.split_once(' ').context("a `<host> <url>` line")?;
            bases.insert(host.to_string(), base.to_string());
        }
        bail!("the fake registry stopped before it was ready")
    }

    /// A CLI configuration whose `host` blocks send each registry host to the loopback server.
    pub fn cli_config(&self) -> String {
        self.bases
            .iter()
            .map(|(host, base)| {
                format!(
                    "host \"{host}\" {{\n  services = {{\n    \"providers.v1\" = \"{base}/v1/providers/\"\n  }}\n}}\n"
                )
            })
            .collect()
    }
}

/// The spec file the server reads: one line per provider with its releases.
pub fn spec(wanted: &BTreeMap<String, BTreeSet<String>>) -> String {
    wanted
        .iter()
        .map(|(address, named)| {
            let versions: Vec<String> = releases(named).into_iter().collect();
            format!("{address} {}\n", versions.join(" "))
        })
        .collect()
}

/// Copies what `init` in `rel` can read: that directory's tree, and the files of the module
/// directories its local calls reach outside it (not their trees: a call to `../..` would
/// otherwise copy the whole repository for every directory). A tree holding a symbolic
/// link is copied whole, since a link may point anywhere in the repository.
pub fn copy_reached(copy: &Path, rel: &str, reached: &[String], to: &Path) -> Result<()> {
    let root = copy.join(rel);
    if has_symlink(&root) || reached.iter().any(|d| has_symlink(&copy.join(d))) {
        return copy_tree(copy, to);
    }
    copy_tree(&root, &to.join(rel))?;
    for dir in reached {
        let into = to.join(dir);
        std::fs::create_dir_all(&into)?;
        for e in std::fs::read_dir(copy.join(dir))?.flatten() {
            if e.file_type()?.is_file() && !into.join(e.file_name()).exists() {
                std::fs::copy(e.path(), into.join(e.file_name()))?;
            }
        }
    }
    Ok(())
}

/// Whether a symbolic link is anywhere in the tree under `dir`.
fn has_symlink(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            e.file_type()
                .is_ok_and(|k| k.is_symlink() || (k.is_dir() && has_symlink(&e.path())))
        })
}

/// Copies a directory tree (files, directories, symbolic links as links).
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let (path, target): (PathBuf, PathBuf) = (e.path(), to.join(e.file_name()));
        let kind = e.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&path)?, &target)?;
        } else if kind.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_name_full_versions_and_their_neighbours_are_published() {
        let lines = [
            ". provider[registry.terraform.io/hashicorp/aws] >= 4.0, < 6",
            "module.x provider[registry.terraform.io/hashicorp/aws] ~> 5.1.2",
            ". provider[registry.terraform.io/hashicorp/null]",
            ". provider[terraform.io/builtin/terraform]",
            ". provider[registry.terraform.io/hashicorp/tls] 1.0.0-beta1",
        ];
        let w = wanted_versions(lines.into_iter());
        assert_eq!(w.len(), 3, "{w:?}");
        let aws: Vec<&str> = w["registry.terraform.io/hashicorp/aws"]
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(aws, ["4.0.0", "5.1.2", "6.0.0"]);
        let published = releases(&w["registry.terraform.io/hashicorp/aws"]);
        assert!(published.contains("5.1.3") && published.contains("5.2.0"));
        assert!(published.contains("7.0.0") && published.contains("4.1.0"));
        assert_eq!(
            releases(&w["registry.terraform.io/hashicorp/null"]).len(),
            2,
            "an unconstrained provider still has releases"
        );
        assert!(w["registry.terraform.io/hashicorp/tls"].contains("1.0.0-beta1"));
    }
}
