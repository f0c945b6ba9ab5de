//! Streaming a cold archive miss to its client while it is pulled, hashed and stored. The
//! client's answer starts once [`STREAM_AFTER`] bytes arrived (a small archive, or an origin
//! that fails early, is answered whole and with a clear error, as before); from then on each
//! chunk is handed on one step late, and the last chunk only once the archive is verified
//! ([`Tee::finish`]): a client never holds a complete archive the mirror did not verify. A
//! client that falls behind by more than the host's buffer is cut, never the pull.

/// Bytes received before the client's answer starts.
pub const STREAM_AFTER: usize = 1 << 20;
/// The client gets the archive in pieces of at least this many bytes (origin chunks are a
/// few KiB), and the last this many bytes only once the archive is verified.
pub const BATCH: usize = 64 << 10;
/// Pieces the host buffers for a client before cutting it (about 2 MiB).
pub const CLIENT_CHUNKS: usize = 16;

/// Whether a client's answer will start, for an archive whose origin declared `length`: only
/// with a declared length (the answer carries it) of at least [`STREAM_AFTER`] bytes. Until
/// it starts, such a client counts as seen (`held::Client::Seen`): once it streams, its
/// leaving shows.
pub fn will_open(length: Option<u64>) -> bool {
    length.is_some_and(|l| l >= STREAM_AFTER as u64)
}

/// What the host hands on after a chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Release {
    /// Start the client's answer now (first time only).
    pub open: bool,
    /// Pieces to hand to the client, in order.
    pub chunks: Vec<Vec<u8>>,
}

/// One pull's tee.
#[derive(Debug, Default)]
pub struct Tee {
    started: bool,
    held: Vec<u8>,
}

impl Tee {
    /// A tee that has handed nothing on yet.
    pub fn new() -> Tee {
        Tee::default()
    }

    /// Takes the next chunk of the archive; what the client gets now.
    pub fn push(&mut self, chunk: &[u8]) -> Release {
        self.held.extend_from_slice(chunk);
        let open = !self.started && self.held.len() >= STREAM_AFTER;
        self.started |= open;
        if !self.started || self.held.len() < 2 * BATCH {
            return Release {
                open,
                chunks: Vec::new(),
            };
        }
        let keep = self.held.split_off(self.held.len() - BATCH);
        let out = std::mem::replace(&mut self.held, keep);
        Release {
            open,
            chunks: vec![out],
        }
    }

    /// Whether the client's answer has started.
    pub fn started(&self) -> bool {
        self.started
    }

    /// The bytes held back, to hand on once the archive is verified and published; `None`
    /// when the answer never started (the host serves the stored archive instead).
    pub fn finish(self) -> Option<Vec<u8>> {
        self.started.then_some(self.held)
    }

    /// The whole archive, once verified, when the answer never started (an archive under
    /// [`STREAM_AFTER`]): a pass-through (`wait`), which has no stored copy to serve
    /// instead, answers with it. `None` once the answer started.
    pub fn finish_whole(self) -> Option<Vec<u8>> {
        (!self.started).then_some(self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_opens_exactly_when_will_open_says_it_will() {
        assert!(!will_open(None), "no declared length: never streamed");
        for length in [STREAM_AFTER - 1, STREAM_AFTER, STREAM_AFTER + 1] {
            let mut tee = Tee::new();
            let opened = tee.push(&vec![0; length]).open;
            assert_eq!(opened, will_open(Some(length as u64)), "{length} bytes");
        }
    }

    #[test]
    fn a_small_archive_is_never_streamed() {
        let mut tee = Tee::new();
        assert_eq!(tee.push(&[1; 1000]), Release::default());
        assert!(!tee.started());
        assert_eq!(tee.finish(), None);
        let mut tee = Tee::new();
        tee.push(&[1; 1000]);
        tee.push(&[2; 24]);
        let whole = tee.finish_whole().expect("a pass-through answers it whole");
        assert_eq!((whole.len(), whole[999], whole[1000]), (1024, 1, 2));
    }

    #[test]
    fn a_started_answer_is_never_answered_whole_again() {
        let mut tee = Tee::new();
        assert!(tee.push(&vec![0; STREAM_AFTER]).open);
        assert_eq!(tee.finish_whole(), None);
    }

    #[test]
    fn the_answer_starts_past_the_threshold_in_batches_and_its_end_waits_for_verification() {
        let mut tee = Tee::new();
        let archive: Vec<u8> = (0..3 * STREAM_AFTER).map(|i| (i % 251) as u8).collect();
        let mut sent = Vec::new();
        let mut opened_at = None;
        for (i, chunk) in archive.chunks(4096).enumerate() {
            let r = tee.push(chunk);
            if r.open {
                assert!(opened_at.is_none(), "opened twice");
                opened_at = Some((i + 1) * 4096);
            }
            for c in &r.chunks {
                assert!(opened_at.is_some(), "bytes before the answer started");
                assert!(c.len() >= BATCH, "a piece of {} bytes", c.len());
                sent.extend_from_slice(c);
            }
            // Once anything was handed on, the last BATCH bytes received are still held.
            assert!(sent.is_empty() || sent.len() + BATCH <= (i + 1) * 4096);
        }
        assert_eq!(opened_at, Some(STREAM_AFTER));
        assert!(sent.len() >= archive.len() - 2 * BATCH);
        sent.extend(tee.finish().unwrap());
        assert_eq!(sent, archive, "the pieces are the archive, in order");
    }
}
