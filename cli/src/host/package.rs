//! Fetching and hashing provider packages: zips are hashed while they stream (no temp file
//! unless the caller wants to install them); directories are hashed file by file.

use super::http::Http;
use super::sha_thread::ShaThread;
use indicatif::ProgressBar;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use tflock_core::api::hash::{
    hash_zip_reader, ContentHasher, DirHasher, HashError, PackageHash, ZipHasher, ZipHashes,
    ZipLimits,
};
use tflock_core::api::{FetchedPackage, PackageDownload};

/// A fetched package, and where its bytes were kept when asked to keep them.
#[derive(Debug)]
pub struct Fetched {
    /// Hashes for the planner.
    pub package: FetchedPackage,
    /// The downloaded zip, kept for installation (a temp file deleted on drop).
    pub kept: Option<tempfile::NamedTempFile>,
    /// Where a package from the local filesystem is (an archive or a directory): it is not
    /// copied, so whoever needs its bytes later reads them here.
    pub local: Option<std::path::PathBuf>,
    /// The archive was already in the mirror being built and was not downloaded.
    pub reused: bool,
}

/// Downloads a package archive, hashing as bytes arrive. With `keep_dir`, the zip is also
/// written to a temp file there so it can be unpacked after the planner accepts it.
pub fn download(
    http: &Http,
    download: &PackageDownload,
    keep_dir: Option<&Path>,
    bar: &ProgressBar,
) -> Result<Fetched, String> {
    let u = download.url.as_str();
    let mut hasher = two_thread_hasher();
    let mut kept = match keep_dir {
        Some(dir) => Some(
            tempfile::Builder::new()
                .prefix(".tflock-download-")
                .tempfile_in(dir)
                .map_err(|e| format!("failed to open temporary file to download from {u}: {e}"))?,
        ),
        None => None,
    };
    // A zip the stream cannot reconcile is hashed afterwards with random access, the way
    // Go reads it: from the kept file, or from a second download.
    let mut handed_over = false;
    let size = http.stream(
        download,
        |chunk| {
            if !handed_over {
                match hasher.update(chunk) {
                    Err(e) if e.needs_random_access() => handed_over = true,
                    r => r.map_err(|e| e.to_string())?,
                }
            }
            if let Some(f) = kept.as_mut() {
                f.write_all(chunk).map_err(|e| e.to_string())?;
            }
            bar.inc(chunk.len() as u64);
            Ok(())
        },
        |len| {
            if let Some(len) = len {
                bar.set_length(len);
            }
        },
    )?;
    let streamed = (!handed_over).then(|| hasher.finish());
    let hashes = match streamed {
        Some(Ok(h)) => h,
        Some(Err(e)) if !e.needs_random_access() => return Err(e.to_string()),
        _ => match kept.as_mut() {
            Some(f) => random_access(f.as_file_mut()),
            None => {
                let mut f = tempfile::tempfile().map_err(|e| {
                    format!("failed to open temporary file to download from {u}: {e}")
                })?;
                let write = |chunk: &[u8]| f.write_all(chunk).map_err(|e| e.to_string());
                http.stream(download, write, |_| {})?;
                random_access(&mut f)
            }
        }
        .map_err(|e| e.to_string())?,
    };
    Ok(Fetched {
        package: archive(hashes, size)?,
        kept,
        local: None,
        reused: false,
    })
}

/// Hashes a package on the local filesystem: a zip, or an unpacked directory.
pub fn hash_local(path: &str, is_dir: bool, bar: &ProgressBar) -> Result<Fetched, String> {
    let package = if is_dir {
        FetchedPackage::Dir {
            h1: hash_dir(Path::new(path))?,
        }
    } else {
        let hashes = hash_zip_file(Path::new(path), bar)?;
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| e.to_string())?;
        archive(hashes, size)?
    };
    Ok(Fetched {
        package,
        kept: None,
        local: Some(path.into()),
        reused: false,
    })
}

/// The planner's view of an archive with these hashes and size.
pub fn archive(hashes: ZipHashes, size: u64) -> Result<FetchedPackage, String> {
    let mut sha256 = [0u8; 32];
    hex::decode_to_slice(hashes.zh.value(), &mut sha256).map_err(|e| e.to_string())?;
    Ok(FetchedPackage::Archive {
        hashes,
        sha256,
        size,
    })
}

/// The streaming hasher with SHA-256 on a second thread: inflate and SHA-256 overlap.
fn two_thread_hasher() -> ZipHasher<ShaThread> {
    ZipHasher::with_sha256(ZipLimits::default(), ShaThread::spawn())
}

/// Hashes a whole file with random access (Go's reading), from its start.
fn random_access(f: &mut File) -> Result<ZipHashes, HashError> {
    f.rewind().map_err(|e| HashError::Io(e.to_string()))?;
    hash_zip_reader(f, &ZipLimits::default())
}

/// Streams a zip file through the hasher with a fixed buffer.
pub fn hash_zip_file(path: &Path, bar: &ProgressBar) -> Result<ZipHashes, String> {
    let mut f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Ok(m) = f.metadata() {
        bar.set_length(m.len());
    }
    hash_open_zip(&mut f, |n| bar.inc(n)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Streams an open zip file through the two-thread hasher with a fixed buffer, reporting
/// the bytes read; falls back to random access when the stream cannot be reconciled with
/// the central directory.
pub fn hash_open_zip(f: &mut File, mut read: impl FnMut(u64)) -> Result<ZipHashes, HashError> {
    let mut hasher = two_thread_hasher();
    let mut buf = vec![0u8; 256 * 1024];
    let streamed = loop {
        let n = f.read(&mut buf).map_err(|e| HashError::Io(e.to_string()))?;
        if n == 0 {
            break hasher.finish();
        }
        if let Err(e) = hasher.update(&buf[..n]) {
            break Err(e);
        }
        read(n as u64);
    };
    match streamed {
        Err(e) if e.needs_random_access() => random_access(f),
        r => r,
    }
}

/// Go's `dirhash.HashDir(dir, "", Hash1)`: every regular file (and symlink, read through)
/// under `dir`, named by its slash-separated relative path; directories contribute nothing.
pub fn hash_dir(dir: &Path) -> Result<PackageHash, String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    let mut hasher = DirHasher::new();
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    let mut buf = vec![0u8; 256 * 1024];
    for (name, path) in files {
        let mut f = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut content = ContentHasher::new();
        loop {
            let n = f
                .read(&mut buf)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if n == 0 {
                break;
            }
            content.update(&buf[..n]);
        }
        hasher.add(&name, content.finish());
    }
    hasher.finish().map_err(|e| e.to_string())
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let ft = e
            .file_type()
            .map_err(|err| format!("{}: {err}", path.display()))?;
        if ft.is_dir() {
            walk(root, &path, out)?;
        } else {
            let rel = path
                .strip_prefix(root)
                .map_err(|err| err.to_string())?
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .collect::<Vec<_>>()
                .join("/");
            out.push((rel, path));
        }
    }
    Ok(())
}
