//! Cutting a byte stream into multipart-upload parts. R2 requires every part but the last
//! to have the same size (and at least 5 MiB); chunks arrive in whatever sizes the network
//! gives, so they are cut here at the part boundaries. The splitter holds no bytes: the
//! caller keeps the unfinished part where it likes. The Worker keeps it in one JS buffer
//! reused for every part, because a part buffer in wasm memory (which never shrinks) kept
//! 16 MiB of an isolate's memory for its lifetime, and a fresh JS array per part left
//! 8 MiB for the garbage collector each time (`cargo xtask bench worker`).

/// The part size the Worker uses: R2's minimum is 5 MiB; bigger parts mean fewer requests.
pub const PART_SIZE: usize = 8 * 1024 * 1024;

/// Where a piece of a chunk goes: at offset `at` of the current part, `bytes` long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece<'a> {
    /// The offset in the current part.
    pub at: usize,
    /// The bytes to copy there.
    pub bytes: &'a [u8],
    /// Whether they complete the part: upload it, then the next piece starts a new one.
    pub completes: bool,
}

/// Cuts a stream into parts of exactly `part_size` bytes (the last may be shorter).
#[derive(Debug)]
pub struct PartSplitter {
    part_size: usize,
    filled: usize,
    total: u64,
}

impl PartSplitter {
    /// A splitter for parts of `part_size` bytes (at least 1).
    pub fn new(part_size: usize) -> PartSplitter {
        PartSplitter {
            part_size: part_size.max(1),
            filled: 0,
            total: 0,
        }
    }

    /// Cuts `chunk` into the pieces that go into the current part and the ones after it
    /// (more than two only when `chunk` is longer than a part).
    pub fn cut<'a>(&mut self, mut chunk: &'a [u8]) -> Vec<Piece<'a>> {
        self.total += chunk.len() as u64;
        let mut pieces = Vec::new();
        while !chunk.is_empty() {
            let take = (self.part_size - self.filled).min(chunk.len());
            let completes = self.filled + take == self.part_size;
            pieces.push(Piece {
                at: self.filled,
                bytes: &chunk[..take],
                completes,
            });
            self.filled = if completes { 0 } else { self.filled + take };
            chunk = &chunk[take..];
        }
        pieces
    }

    /// Bytes taken so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The length of the last part, still to be uploaded: the unfinished one, or an empty
    /// one if nothing at all was taken (a multipart upload needs at least one part).
    pub fn finish(&self) -> Option<usize> {
        (self.filled > 0 || self.total == 0).then_some(self.filled)
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
            // The caller's part buffer, as the Worker keeps it.
            let mut part = vec![0u8; size];
            for c in &chunks {
                for piece in s.cut(c) {
                    part[piece.at..piece.at + piece.bytes.len()].copy_from_slice(piece.bytes);
                    if piece.completes {
                        parts.push(part.clone());
                    }
                }
            }
            let whole: Vec<u8> = chunks.concat();
            prop_assert_eq!(s.total(), whole.len() as u64);
            let last = s.finish().map(|len| part[..len].to_vec());
            for p in &parts {
                prop_assert_eq!(p.len(), size);
            }
            if let Some(l) = &last {
                prop_assert!(l.len() < size);
                prop_assert!(!l.is_empty() || whole.is_empty());
            }
            let joined: Vec<u8> = parts.into_iter().chain(last).flatten().collect();
            prop_assert_eq!(joined, whole);
        }
    }

    #[test]
    fn a_chunk_longer_than_a_part_is_cut_at_every_boundary() {
        let mut s = PartSplitter::new(4);
        assert_eq!(s.cut(b"ab").len(), 1);
        let pieces = s.cut(b"cdefghij");
        let cuts: Vec<(usize, &[u8], bool)> = pieces
            .iter()
            .map(|p| (p.at, p.bytes, p.completes))
            .collect();
        assert_eq!(
            cuts,
            vec![
                (2, &b"cd"[..], true),
                (0, &b"efgh"[..], true),
                (0, &b"ij"[..], false)
            ]
        );
        assert_eq!(s.finish(), Some(2));
        assert_eq!(PartSplitter::new(4).finish(), Some(0));
    }
}
