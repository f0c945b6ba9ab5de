//! Go's `dirhash.Hash1` over a set of named files, built incrementally.

use super::{HashError, PackageHash, SCHEME_H1};
use sha2::{Digest, Sha256};

/// A file's SHA-256 digest.
pub type FileDigest = [u8; 32];

/// SHA-256 of one file's content, fed in chunks (so hosts never hold a whole file).
#[derive(Debug, Clone, Default)]
pub struct ContentHasher(Sha256);

impl ContentHasher {
    /// A hasher for an empty file.
    pub fn new() -> ContentHasher {
        ContentHasher(Sha256::new())
    }

    /// Adds the next bytes of the content.
    pub fn update(&mut self, chunk: &[u8]) {
        self.0.update(chunk);
    }

    /// The digest of everything added.
    pub fn finish(self) -> FileDigest {
        self.0.finalize().into()
    }

    /// The digest of `content` in one go.
    pub fn digest(content: &[u8]) -> FileDigest {
        Sha256::digest(content).into()
    }
}

/// Collects `(name, digest)` pairs and produces the `h1:` hash of the set, as Go's
/// `dirhash.Hash1`: names sorted bytewise, one `hex(sha256)  name\n` line each, the `h1:`
/// value is base64 of the SHA-256 of those lines.
///
/// Names are slash-separated relative paths as raw bytes (Go strings need not be UTF-8).
/// Duplicate names are kept and listed twice, as Go does when handed a list with repeats.
#[derive(Debug, Clone, Default)]
pub struct DirHasher {
    files: Vec<(Vec<u8>, FileDigest)>,
}

impl DirHasher {
    /// An empty set (whose hash is that of an empty directory).
    pub fn new() -> DirHasher {
        DirHasher::default()
    }

    /// Adds a file by name and content digest.
    pub fn add(&mut self, name: &str, digest: FileDigest) {
        self.files.push((name.as_bytes().to_vec(), digest));
    }

    /// Adds a file whose name is raw bytes (e.g. a non-UTF-8 zip entry name).
    pub fn add_raw(&mut self, name: &[u8], digest: FileDigest) {
        self.files.push((name.to_vec(), digest));
    }

    /// Adds a file by name and whole content.
    pub fn add_bytes(&mut self, name: &str, content: &[u8]) {
        self.add(name, ContentHasher::digest(content));
    }

    /// Number of files added.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The Hash1 summary text (the lines that get hashed), for diagnostics and tests.
    pub fn summary(&self) -> Result<Vec<u8>, HashError> {
        let mut order: Vec<&(Vec<u8>, FileDigest)> = self.files.iter().collect();
        // Go sorts the names only; equal names keep no particular order but their lines
        // are identical anyway only when contents agree, so sort by (name, digest) is a
        // deterministic stand-in that gives Go's bytes whenever Go's are deterministic.
        crate::collections::sort(&mut order);
        let mut out = Vec::with_capacity(order.len() * 100);
        for (name, digest) in order {
            if name.contains(&b'\n') {
                return Err(HashError::NewlineInName);
            }
            out.extend_from_slice(hex::encode(digest).as_bytes());
            out.extend_from_slice(b"  ");
            out.extend_from_slice(name);
            out.push(b'\n');
        }
        Ok(out)
    }

    /// The `h1:` hash of the set.
    pub fn finish(&self) -> Result<PackageHash, HashError> {
        let summary = self.summary()?;
        let sum = Sha256::digest(&summary);
        let value = crate::gotext::base64::encode(&sum);
        Ok(PackageHash::from_parts(SCHEME_H1, &value))
    }
}

/// The `h1:` hash of an unpacked package given as in-memory `(relative path, content)` pairs.
pub fn hash_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<PackageHash, HashError> {
    let mut d = DirHasher::new();
    for (name, content) in files {
        d.add_bytes(name, content);
    }
    d.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_directory_is_sha256_of_nothing() {
        assert_eq!(
            hash_files([]).unwrap().as_str(),
            "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }

    const NULL_PLACEHOLDER: &[u8] =
        b"# This is just a placeholder file for discovery testing, not a real provider plugin.\n";

    #[test]
    fn null_provider_placeholder_matches_terraform_testdata() {
        assert_eq!(
            hex::encode(ContentHasher::digest(NULL_PLACEHOLDER)),
            "1c705b4eb296bde8abd99a75e9df466cbafcbc6e201ff77658787245f76f5343"
        );
        let h = hash_files([("terraform-provider-null", NULL_PLACEHOLDER)]).unwrap();
        assert_eq!(
            h.as_str(),
            "h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g="
        );
        let h = hash_files([("terraform-provider-null.exe", NULL_PLACEHOLDER)]).unwrap();
        assert_eq!(
            h.as_str(),
            "h1:kGhswZiaZEZCbem7JPB+GCzba57SfLtNV20LNIBP1CU="
        );
    }

    #[test]
    fn two_file_vector_summary_and_hash() {
        let mut d = DirHasher::new();
        // Added out of order: Hash1 sorts.
        d.add_bytes("sub/b", b"world");
        d.add_bytes("a.txt", b"hello\n");
        assert_eq!(
            String::from_utf8(d.summary().unwrap()).unwrap(),
            "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a.txt\n\
             486ea46224d1bb4fb680f34f7c9ad96a8f24ec88be73ea8e5a6c65260e9cb8a7  sub/b\n"
        );
        assert_eq!(
            d.finish().unwrap().as_str(),
            "h1:isfzfqhWUqIYrvO+Uqez4TjYu7JCnKvLsUL778ilnJE="
        );
    }

    #[test]
    fn directory_entry_counts_as_an_empty_file_in_archive_form() {
        let h = hash_files([
            ("sub/", &b""[..]),
            ("a.txt", b"hello\n"),
            ("sub/b", b"world"),
        ]);
        assert_eq!(
            h.unwrap().as_str(),
            "h1:yIBEDdBMcmQ95KfeH0nHpC3G0Cboli1NcZ1a4I2RGHA="
        );
    }

    #[test]
    fn newline_in_a_name_is_an_error() {
        let err = hash_files([("a\nb", &b"x"[..])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "dirhash: filenames with newlines are not supported"
        );
    }

    #[test]
    fn incremental_content_equals_one_shot() {
        let mut c = ContentHasher::new();
        c.update(b"hel");
        c.update(b"lo\n");
        assert_eq!(c.finish(), ContentHasher::digest(b"hello\n"));
    }
}
