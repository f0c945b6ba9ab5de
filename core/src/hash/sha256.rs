//! The SHA-256 the zip hashers run on: the core's own, or one a host supplies.
//!
//! SHA-256 is most of the work of hashing a provider zip. A native build of the core gets
//! the CPU's SHA extensions through `sha2`; WebAssembly cannot reach them, so a wasm host
//! that has a native digest at hand (Node's `crypto`) plugs it in here instead.

use super::FileDigest;
use sha2::Digest;

/// An incremental SHA-256 computation.
pub trait Sha256Engine {
    /// Adds the next bytes.
    fn update(&mut self, data: &[u8]);
    /// The digest of everything added.
    fn finish(self) -> FileDigest;
}

/// Starts SHA-256 computations; the hashers call it once per zip and once per entry.
pub trait Sha256Provider {
    /// The computation this provider starts.
    type Engine: Sha256Engine;
    /// A fresh computation over no bytes.
    fn start(&self) -> Self::Engine;
}

/// The core's own SHA-256 (the `sha2` crate), the default everywhere.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoreSha256;

impl Sha256Provider for CoreSha256 {
    type Engine = sha2::Sha256;

    fn start(&self) -> sha2::Sha256 {
        sha2::Sha256::new()
    }
}

impl Sha256Engine for sha2::Sha256 {
    fn update(&mut self, data: &[u8]) {
        Digest::update(self, data);
    }

    fn finish(self) -> FileDigest {
        self.finalize().into()
    }
}
