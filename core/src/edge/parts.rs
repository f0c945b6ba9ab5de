//! Cutting a byte stream into multipart-upload parts. R2 requires every part but the last
//! to have the same size (and at least 5 MiB); chunks arrive in whatever sizes the network
//! gives, so they are regrouped here into exact parts, holding at most one part in memory.

/// The part size the Worker uses: R2's minimum is 5 MiB; bigger parts mean fewer requests.
pub const PART_SIZE: usize = 8 * 1024 * 1024;

/// Regroups chunks into parts of exactly `part_size` bytes (the last may be shorter).
#[derive(Debug)]
pub struct PartSplitter {
    part_size: usize,
    buf: Vec<u8>,
    total: u64,
}

impl PartSplitter {
    /// A splitter for parts of `part_size` bytes (at least 1).
    pub fn new(part_size: usize) -> PartSplitter {
        let part_size = part_size.max(1);
        PartSplitter {
            part_size,
            buf: Vec::with_capacity(part_size.min(PART_SIZE)),
            total: 0,
        }
    }

    /// Takes a chunk; returns the parts it completed, each exactly `part_size` bytes.
    pub fn push(&mut self, mut chunk: &[u8]) -> Vec<Vec<u8>> {
        self.total += chunk.len() as u64;
        let mut done = Vec::new();
        while !chunk.is_empty() {
            let room = self.part_size - self.buf.len();
            let take = room.min(chunk.len());
            self.buf.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
            if self.buf.len() == self.part_size {
                done.push(std::mem::replace(
                    &mut self.buf,
                    Vec::with_capacity(self.part_size.min(PART_SIZE)),
                ));
            }
        }
        done
    }

    /// Bytes taken so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The last part: what is left (empty only if nothing at all was pushed, since a
    /// multipart upload needs at least one part).
    pub fn finish(self) -> Option<Vec<u8>> {
        (!self.buf.is_empty() || self.total == 0).then_some(self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parts_are_equal_and_reassemble_the_stream(
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..30),
            size in 1usize..17,
        ) {
            let mut s = PartSplitter::new(size);
            let mut parts = Vec::new();
            for c in &chunks {
                parts.extend(s.push(c));
            }
            let whole: Vec<u8> = chunks.concat();
            prop_assert_eq!(s.total(), whole.len() as u64);
            let last = s.finish();
            for p in &parts {
                prop_assert_eq!(p.len(), size);
            }
            if let Some(l) = &last {
                prop_assert!(l.len() <= size);
                prop_assert!(!l.is_empty() || whole.is_empty());
            }
            let joined: Vec<u8> = parts.into_iter().chain(last).flatten().collect();
            prop_assert_eq!(joined, whole);
        }
    }
}
