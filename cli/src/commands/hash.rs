//! `tflock hash PATH...`: the `h1:`/`zh:` hashes of provider zips and unpacked directories.
//!
//! Zips are streamed through the core's `ZipHasher` with a fixed read buffer; if the
//! stream cannot be reconciled with the central directory (see `HashError::NeedsRandomAccess`)
//! the file is hashed again with random access, still with bounded memory. Directories are
//! walked as Go's `dirhash.HashDir` walks them (Terraform resolves the directory's own
//! symlink first; entries are listed with `lstat`, symlinks are read through).

use crate::host::package::hash_open_zip;
use anyhow::{bail, Context};
use serde::Serialize;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tflock_core::api::hash::{ContentHasher, DirHasher, PackageHash, ZipHashes};

/// Read size for files and zips.
const READ_BUF: usize = 256 * 1024;

/// Arguments of `tflock hash`.
#[derive(Debug, clap::Args)]
pub struct HashArgs {
    /// Provider zips or unpacked provider directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print one JSON document (`format_version`, `files`) instead of one hash per line.
    #[arg(long)]
    pub json: bool,
}

/// `hash -json`'s document (`print_json` adds `format_version`).
#[derive(Serialize)]
struct HashJson<'a> {
    files: &'a [Hashed],
}

/// What one path hashed to.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Hashed {
    /// A zip archive.
    Zip {
        path: String,
        /// Lock-file form (the extracted directory).
        h1: PackageHash,
        zh: PackageHash,
        /// `dirhash.HashZip` form; differs from `h1` when the zip has directory entries.
        h1_archive: PackageHash,
    },
    /// An unpacked directory.
    Directory { path: String, h1: PackageHash },
}

impl Hashed {
    /// The hashes to print, one per line, in the order the issue specifies.
    fn lines(&self) -> Vec<&PackageHash> {
        match self {
            Hashed::Zip {
                h1, zh, h1_archive, ..
            } => {
                let mut v = vec![h1, zh];
                if h1_archive != h1 {
                    v.push(h1_archive);
                }
                v
            }
            Hashed::Directory { h1, .. } => vec![h1],
        }
    }
}

/// Runs `tflock hash`.
pub fn run(args: HashArgs) -> anyhow::Result<ExitCode> {
    let mut results = Vec::new();
    let mut failed = false;
    for path in &args.paths {
        match hash_path(path) {
            Ok(h) => results.push(h),
            Err(err) => {
                eprintln!("Error: {}: {err:#}", path.display());
                failed = true;
            }
        }
    }
    if args.json {
        // One document: the paths that hashed, in argument order (the others are errors on
        // stderr).
        crate::output::print_json(&HashJson { files: &results })?;
    } else {
        let many = args.paths.len() > 1;
        for r in &results {
            let path = match r {
                Hashed::Zip { path, .. } | Hashed::Directory { path, .. } => path,
            };
            for h in r.lines() {
                if many {
                    println!("{h}  {path}");
                } else {
                    println!("{h}");
                }
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn hash_path(path: &Path) -> anyhow::Result<Hashed> {
    let meta = std::fs::metadata(path).context("cannot read")?;
    let shown = path.display().to_string();
    if meta.is_dir() {
        let h1 = hash_dir(path)?;
        return Ok(Hashed::Directory { path: shown, h1 });
    }
    let z = hash_zip_file(path)?;
    Ok(Hashed::Zip {
        path: shown,
        h1: z.h1,
        zh: z.zh,
        h1_archive: z.h1_archive,
    })
}

/// Streams the file through the core's `ZipHasher` (SHA-256 on a second thread); falls back to
/// random access when told to.
pub fn hash_zip_file(path: &Path) -> anyhow::Result<ZipHashes> {
    let mut f = File::open(path).context("cannot open")?;
    Ok(hash_open_zip(&mut f, |_| {})?)
}

/// Go's `dirhash.HashDir(dir, "", Hash1)` after resolving `dir`'s own symlinks.
pub fn hash_dir(dir: &Path) -> anyhow::Result<PackageHash> {
    let root = dir.canonicalize().context("cannot resolve")?;
    let mut files = Vec::new();
    walk(&root, b"", &mut files)?;
    let mut d = DirHasher::new();
    let mut buf = vec![0u8; READ_BUF];
    for (rel, full) in files {
        let shown = String::from_utf8_lossy(&rel).into_owned();
        let mut f = File::open(&full).with_context(|| format!("cannot open {shown}"))?;
        let mut c = ContentHasher::new();
        loop {
            let n = f
                .read(&mut buf)
                .with_context(|| format!("cannot read {shown}"))?;
            if n == 0 {
                break;
            }
            c.update(&buf[..n]);
        }
        d.add_raw(&rel, c.finish());
    }
    Ok(d.finish()?)
}

/// A file name as the bytes Go would see.
#[cfg(unix)]
fn name_bytes(name: &std::ffi::OsStr) -> anyhow::Result<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    Ok(name.as_bytes().to_vec())
}

/// A file name as the bytes Go would see.
#[cfg(not(unix))]
fn name_bytes(name: &std::ffi::OsStr) -> anyhow::Result<Vec<u8>> {
    name.to_str()
        .map(|s| s.as_bytes().to_vec())
        .ok_or_else(|| anyhow::anyhow!("file name {name:?} is not valid Unicode"))
}

/// Lists non-directories under `dir` (lstat semantics: symlinks are listed, not followed),
/// as slash-separated relative names.
fn walk(dir: &Path, prefix: &[u8], out: &mut Vec<(Vec<u8>, PathBuf)>) -> anyhow::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let mut rel = prefix.to_vec();
        if !rel.is_empty() {
            rel.push(b'/');
        }
        rel.extend(name_bytes(&e.file_name())?);
        let ty = e.file_type()?;
        if ty.is_dir() {
            walk(&e.path(), &rel, out)?;
        } else if ty.is_file() || ty.is_symlink() {
            out.push((rel, e.path()));
        } else {
            bail!("{} is not a regular file", String::from_utf8_lossy(&rel));
        }
    }
    Ok(())
}
