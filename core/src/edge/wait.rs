//! How a request gets an archive whose pull or upload runs in another isolate (writers in
//! the same isolate are joined in memory, without any bucket read).
//!
//! **Pass-through first.** A plain GET (a client that takes a streamed answer) reads the
//! archive from the origin itself instead of sleeping: the same download a pull makes (the
//! origin record's URL, the archive limits, deadlines and retries, an origin slot), hashed as
//! it passes and answered through the same tee as a cold miss (`tee`): it starts after
//! `tee::STREAM_AFTER` bytes, the last `tee::BATCH` bytes go out only once the `zh:` is the
//! signed one (and the `h1:` among those claimed), and other bytes end the answer short of
//! its declared length. Nothing of it is stored: the lease holder stays the only writer. A
//! small archive is answered whole once verified; an origin that declares no length
//! ([`passes`]) is not passed through, since the answer must carry it.
//!
//! Why the origin and not the writer's parts: an R2 multipart upload's parts cannot be read
//! before the upload completes, and a writer that also stored each part as an object of its
//! own would double its writes and storage, and its readers would still have to poll for
//! the next part. A Durable Object relaying the bytes would be a new binding and a
//! per-request cost on every miss. Reading the origin again costs origin traffic instead,
//! which [`PassThroughs::begin`] bounds: an isolate passes one archive through at most
//! [`PASS_THROUGHS_PER_ARCHIVE`] time at once, each holding one of its origin slots
//! (`held::Slots`, 8), so N waiters of one archive spread over I isolates cost at most
//! 1 + I origin reads at once (the writer's, and one per other isolate: what each isolate
//! pulling on its own would cost), never N, and an isolate's origin reads of all kinds stay
//! within its slots. An attacker repeating a GET therefore gains nothing over asking for
//! distinct cold archives.
//!
//! **Otherwise, wait.** A HEAD, a range or a revalidation (answered from the stored copy),
//! a second waiter in an isolate already passing the archive through, or one finding no
//! free slot checks the bucket with backoff ([`Waiting`]): each check costs the host a few
//! R2 operations, so checks back off exponentially, with jitter, to a cap, at most
//! [`MAX_CHECKS`] of them within [`WAIT_MS`] (about 35 instead of one every 200 ms).

use std::cell::RefCell;
use std::collections::HashMap;

use super::held::{Slot, Slots};

/// The first pause.
pub const FIRST_MS: u64 = 100;
/// The longest pause between two checks.
pub const MAX_PAUSE_MS: u64 = 5_000;
/// How long a request waits in all before giving up.
pub const WAIT_MS: f64 = 120_000.0;
/// The most checks one waiting request makes.
pub const MAX_CHECKS: u32 = 40;

/// One request's wait.
#[derive(Debug, Clone)]
pub struct Waiting {
    started: f64,
    checks: u32,
}

impl Waiting {
    /// A wait that starts at `now`.
    pub fn new(now: f64) -> Waiting {
        Waiting {
            started: now,
            checks: 0,
        }
    }

    /// The pause (ms) before the next check, or `None` when the waiter gives up: it made
    /// [`MAX_CHECKS`] checks or waited [`WAIT_MS`]. `jitter` is uniform in `[0, 1)`; it
    /// spreads waiters that started together over the second half of each pause.
    pub fn next(&mut self, now: f64, jitter: f64) -> Option<u64> {
        let left = WAIT_MS - (now - self.started);
        if self.checks >= MAX_CHECKS || left.is_nan() || left <= 0.0 {
            return None;
        }
        let base = FIRST_MS
            .saturating_mul(1u64 << self.checks.min(16))
            .min(MAX_PAUSE_MS);
        let jitter = jitter.clamp(0.0, 1.0);
        let pause = (base as f64 * (0.5 + jitter / 2.0)).min(left);
        self.checks += 1;
        Some(pause.max(1.0) as u64)
    }

    /// The checks made so far.
    pub fn checks(&self) -> u32 {
        self.checks
    }
}

/// How many pass-through reads of one archive one isolate runs at once.
pub const PASS_THROUGHS_PER_ARCHIVE: usize = 1;

/// An isolate's pass-through reads, by archive key.
#[derive(Debug, Default)]
pub struct PassThroughs {
    per_archive: RefCell<HashMap<String, Slots>>,
}

/// A running pass-through read: its place among the archive's pass-throughs and its origin
/// slot, both given back when it is dropped (or, abandoned without a drop, no longer counted
/// after the longest a pull may run, as `held::Slots` does).
#[derive(Debug)]
pub struct PassThrough {
    _archive: Slot,
    _origin: Slot,
}

impl PassThroughs {
    /// No pass-through running.
    pub fn new() -> PassThroughs {
        PassThroughs::default()
    }

    /// Whether a request for `archive_key` whose writer is another isolate reads it from the
    /// origin (`Some`, holding what that costs) or waits for the stored copy (`None`): only
    /// a client that takes a streamed answer (`streams`: a plain GET) passes it through,
    /// only at its first look (`waiting` made no check yet: a request turned away keeps
    /// waiting, so waiters queued in an isolate do not read the archive one after another),
    /// only while fewer than [`PASS_THROUGHS_PER_ARCHIVE`] pass-throughs of it run in this
    /// isolate, and only with one of the isolate's origin `slots` free at `now`
    /// (`longest_ms`: the longest a pull may run).
    pub fn begin(
        &self,
        archive_key: &str,
        (streams, waiting): (bool, &Waiting),
        slots: &Slots,
        now: f64,
        longest_ms: f64,
    ) -> Option<PassThrough> {
        if !streams || waiting.checks() > 0 {
            return None;
        }
        let mut per_archive = self.per_archive.borrow_mut();
        // Only archives being passed through are remembered.
        per_archive.retain(|_, s| s.in_use(now, longest_ms) > 0);
        let archive = per_archive
            .entry(archive_key.to_string())
            .or_insert_with(|| Slots::new(PASS_THROUGHS_PER_ARCHIVE))
            .take(now, longest_ms)?;
        let origin = slots.take(now, longest_ms)?;
        Some(PassThrough {
            _archive: archive,
            _origin: origin,
        })
    }

    /// How many pass-throughs of `archive_key` count at `now`.
    pub fn running(&self, archive_key: &str, now: f64, longest_ms: f64) -> usize {
        self.per_archive
            .borrow()
            .get(archive_key)
            .map_or(0, |s| s.in_use(now, longest_ms))
    }
}

/// Whether a pass-through read goes on once the origin's headers came with `declared` as
/// its `Content-Length`: only with one, which its answer carries, so a client cut short
/// sees a short body. Without one it is cut and the request waits instead.
pub fn passes(declared: Option<u64>) -> bool {
    declared.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulates a waiter that is never satisfied: its checks and total time.
    fn exhaust(jitter: f64) -> (u32, f64, Vec<u64>) {
        let mut w = Waiting::new(0.0);
        let mut now = 0.0;
        let mut pauses = Vec::new();
        while let Some(ms) = w.next(now, jitter) {
            pauses.push(ms);
            now += ms as f64;
        }
        (w.checks(), now, pauses)
    }

    #[test]
    fn pauses_double_to_a_cap_and_the_checks_are_bounded() {
        let (checks, total, pauses) = exhaust(0.999_999);
        assert_eq!(&pauses[..6], &[99, 199, 399, 799, 1599, 3199]);
        assert!(pauses.iter().all(|p| *p <= MAX_PAUSE_MS), "{pauses:?}");
        assert!(checks <= MAX_CHECKS, "{checks}");
        assert!(total <= WAIT_MS, "{total}");
        // The old loop checked every 200 ms: 600 checks in two minutes.
        assert!(checks < 40, "{checks} checks");
    }

    #[test]
    fn with_no_jitter_the_check_cap_ends_the_wait_first() {
        let (checks, total, _) = exhaust(0.0);
        assert_eq!(checks, MAX_CHECKS);
        assert!(total < WAIT_MS, "{total}");
    }

    #[test]
    fn a_wait_past_its_deadline_or_with_a_broken_clock_gives_up() {
        let mut w = Waiting::new(1000.0);
        assert!(w.next(1000.0 + WAIT_MS, 0.5).is_none());
        let mut w = Waiting::new(1000.0);
        assert!(w.next(f64::NAN, 0.5).is_none());
        let mut w = Waiting::new(0.0);
        assert_eq!(
            w.next(WAIT_MS - 10.0, 0.5),
            Some(10),
            "the last pause ends at the deadline"
        );
    }
    const LONGEST: f64 = 1_000.0;
    const KEY: &str = "h/n/t/terraform-provider-t_1.0.0_linux_amd64.zip";

    /// A request that has not waited yet.
    fn fresh() -> Waiting {
        Waiting::new(0.0)
    }

    #[test]
    fn a_request_that_started_waiting_keeps_waiting() {
        let (passes, slots) = (PassThroughs::new(), Slots::new(8));
        let mut waited = fresh();
        waited.next(0.0, 0.5).unwrap();
        assert!(passes
            .begin(KEY, (true, &waited), &slots, 0.0, LONGEST)
            .is_none());
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
            .is_some());
    }

    #[test]
    fn only_a_streamed_answer_passes_through_and_once_per_archive_and_isolate() {
        let (passes, slots) = (PassThroughs::new(), Slots::new(8));
        assert!(
            passes
                .begin(KEY, (false, &fresh()), &slots, 0.0, LONGEST)
                .is_none(),
            "a HEAD, range or revalidation waits"
        );
        let first = passes
            .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
            .unwrap();
        assert_eq!(passes.running(KEY, 0.0, LONGEST), 1);
        assert_eq!(slots.in_use(0.0, LONGEST), 1, "it holds an origin slot");
        // However many more waiters come, this isolate reads the archive once.
        for _ in 0..100 {
            assert!(passes
                .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
                .is_none());
        }
        assert_eq!(
            slots.in_use(0.0, LONGEST),
            1,
            "refused waiters hold no slot"
        );
        let other = passes.begin("h/n/t/other.zip", (true, &fresh()), &slots, 0.0, LONGEST);
        assert!(other.is_some(), "another archive is not capped by this one");
        drop(first);
        assert_eq!(passes.running(KEY, 0.0, LONGEST), 0);
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
            .is_some());
    }

    #[test]
    fn without_a_free_origin_slot_a_waiter_waits_and_keeps_no_place() {
        let (passes, slots) = (PassThroughs::new(), Slots::new(1));
        let busy = slots.take(0.0, LONGEST).unwrap();
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
            .is_none());
        assert_eq!(passes.running(KEY, 0.0, LONGEST), 0);
        drop(busy);
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
            .is_some());
    }

    #[test]
    fn an_abandoned_pass_through_stops_counting_after_the_longest_pull() {
        let (passes, slots) = (PassThroughs::new(), Slots::new(8));
        std::mem::forget(
            passes
                .begin(KEY, (true, &fresh()), &slots, 0.0, LONGEST)
                .unwrap(),
        );
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, LONGEST - 1.0, LONGEST)
            .is_none());
        assert!(passes
            .begin(KEY, (true, &fresh()), &slots, LONGEST, LONGEST)
            .is_some());
    }

    #[test]
    fn waiters_over_isolates_cost_one_origin_read_per_isolate_at_most() {
        // 1,000 GETs of one archive spread over 4 isolates, none of them the writer's.
        let isolates: Vec<(PassThroughs, Slots)> = (0..4)
            .map(|_| (PassThroughs::new(), Slots::new(8)))
            .collect();
        let reads: Vec<PassThrough> = (0..1_000)
            .filter_map(|i| {
                let (passes, slots) = &isolates[i % isolates.len()];
                passes.begin(KEY, (true, &fresh()), slots, 0.0, LONGEST)
            })
            .collect();
        assert_eq!(reads.len(), isolates.len() * PASS_THROUGHS_PER_ARCHIVE);
    }

    #[test]
    fn only_an_origin_that_declares_its_length_is_passed_through() {
        assert!(!passes(None));
        assert!(passes(Some(0)));
        assert!(
            passes(Some(5 << 30)),
            "the archive limit is the guard's to judge"
        );
    }
}
