//! SHA-256 on a second thread, so inflating a provider zip and hashing what comes out run
//! at the same time on two cores (the core's hashers stay thread-free: they only see a
//! [`Sha256Provider`]).
//!
//! The inflating thread copies each block it hands over into a pooled buffer and queues it;
//! the SHA-256 thread keeps one running digest per computation (the zip's `zh:` and each
//! entry's file digest). The queue is bounded, so memory stays at a few buffers whatever
//! the size of the package, and a computation's `finish` waits only for its own blocks.

use std::collections::HashMap;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use tflock_core::api::hash::{CoreSha256, FileDigest, Sha256Engine, Sha256Provider};

/// Bytes gathered before a block is queued: large enough that queueing costs nothing next
/// to hashing, small enough that the two threads overlap within an entry.
const BLOCK: usize = 256 * 1024;
/// Blocks queued at most (about 2 MiB in flight).
const QUEUED: usize = 8;

/// What the inflating thread asks of the SHA-256 thread.
enum Job {
    /// More bytes for computation `id`.
    Data(u32, Vec<u8>),
    /// The digest of computation `id`, sent back on the given channel.
    Finish(u32, SyncSender<FileDigest>),
}

/// Starts SHA-256 computations that run on a thread of their own (one per provider).
pub struct ShaThread {
    jobs: SyncSender<Job>,
    spare: Arc<Mutex<Vec<Vec<u8>>>>,
    next_id: std::cell::Cell<u32>,
}

impl ShaThread {
    /// Spawns the SHA-256 thread; it ends when the provider and its computations are gone.
    pub fn spawn() -> ShaThread {
        let (jobs, queue) = sync_channel(QUEUED);
        let spare = Arc::new(Mutex::new(Vec::new()));
        let returned = Arc::clone(&spare);
        std::thread::Builder::new()
            .name("sha256".into())
            .spawn(move || run(queue, returned))
            .expect("spawning the SHA-256 thread");
        ShaThread {
            jobs,
            spare,
            next_id: std::cell::Cell::new(0),
        }
    }
}

fn run(queue: Receiver<Job>, spare: Arc<Mutex<Vec<Vec<u8>>>>) {
    let mut digests: HashMap<u32, <CoreSha256 as Sha256Provider>::Engine> = HashMap::new();
    for job in queue {
        match job {
            Job::Data(id, mut block) => {
                digests
                    .entry(id)
                    .or_insert_with(|| CoreSha256.start())
                    .update(&block);
                block.clear();
                if let Ok(mut s) = spare.lock() {
                    if s.len() < QUEUED + 2 {
                        s.push(block);
                    }
                }
            }
            Job::Finish(id, reply) => {
                let digest = digests.remove(&id).unwrap_or_else(|| CoreSha256.start());
                // The asking side may be gone (it panicked): nothing to answer then.
                let _ = reply.send(digest.finish());
            }
        }
    }
}

impl Sha256Provider for ShaThread {
    type Engine = ThreadedSha256;

    fn start(&self) -> ThreadedSha256 {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        ThreadedSha256 {
            id,
            jobs: self.jobs.clone(),
            spare: Arc::clone(&self.spare),
            block: Vec::new(),
        }
    }
}

/// One SHA-256 computation running on the provider's thread.
pub struct ThreadedSha256 {
    id: u32,
    jobs: SyncSender<Job>,
    spare: Arc<Mutex<Vec<Vec<u8>>>>,
    block: Vec<u8>,
}

impl ThreadedSha256 {
    fn send(&mut self) {
        let next = self
            .spare
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_else(|| Vec::with_capacity(BLOCK));
        let full = std::mem::replace(&mut self.block, next);
        self.jobs
            .send(Job::Data(self.id, full))
            .expect("the SHA-256 thread stopped");
    }
}

impl Sha256Engine for ThreadedSha256 {
    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            if self.block.capacity() == 0 {
                self.block.reserve_exact(BLOCK);
            }
            let take = (BLOCK - self.block.len()).min(data.len());
            self.block.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.block.len() == BLOCK {
                self.send();
            }
        }
    }

    fn finish(mut self) -> FileDigest {
        if !self.block.is_empty() {
            self.send();
        }
        let (reply, answer) = sync_channel(1);
        self.jobs
            .send(Job::Finish(self.id, reply))
            .expect("the SHA-256 thread stopped");
        answer.recv().expect("the SHA-256 thread stopped")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core(data: &[u8]) -> FileDigest {
        let mut e = CoreSha256.start();
        e.update(data);
        e.finish()
    }

    #[test]
    fn interleaved_computations_give_each_its_own_digest() {
        let sha = ShaThread::spawn();
        let a_bytes: Vec<u8> = (0..3 * BLOCK + 17).map(|i| (i % 251) as u8).collect();
        let b_bytes = b"the second computation".repeat(1000);
        let (mut a, mut b, empty) = (sha.start(), sha.start(), sha.start());
        let (mut ca, mut cb) = (a_bytes.chunks(70_001), b_bytes.chunks(333));
        loop {
            let (x, y) = (ca.next(), cb.next());
            if x.is_none() && y.is_none() {
                break;
            }
            x.into_iter().for_each(|c| a.update(c));
            y.into_iter().for_each(|c| b.update(c));
        }
        assert_eq!(b.finish(), core(&b_bytes));
        assert_eq!(a.finish(), core(&a_bytes));
        assert_eq!(empty.finish(), core(b""));
    }

    #[test]
    fn zips_hash_alike_on_one_thread_and_on_two() {
        use tflock_core::api::hash::{ZipHasher, ZipLimits};
        let mut zip = Vec::new();
        {
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(&mut zip));
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            for (name, len) in [("a", 10usize), ("big", 3 * BLOCK + 5), ("empty", 0)] {
                w.start_file(name, opts).unwrap();
                let body: Vec<u8> = (0..len).map(|i| (i * 7 % 13) as u8).collect();
                std::io::Write::write_all(&mut w, &body).unwrap();
            }
            w.finish().unwrap();
        }
        let mut one = ZipHasher::new();
        let mut two = ZipHasher::with_sha256(ZipLimits::default(), ShaThread::spawn());
        for c in zip.chunks(4099) {
            one.update(c).unwrap();
            two.update(c).unwrap();
        }
        assert_eq!(one.finish().unwrap(), two.finish().unwrap());
    }
}
