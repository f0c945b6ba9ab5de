//! How a request waits for another one's pull or upload of the same archive when that
//! writer runs in another isolate (writers in the same isolate are awaited without any
//! bucket read). Each check costs the host a few R2 operations, so checks back off
//! exponentially, with jitter, to a cap, and a waiter makes at most [`MAX_CHECKS`] of them
//! within [`WAIT_MS`]: about 35 checks instead of one every 200 ms (600 in two minutes).

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
}
