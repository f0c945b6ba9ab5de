//! Leases and multipart uploads that their writer may never finish. A pull runs to its end
//! in the background whether or not its client stays, but an isolate can still be evicted
//! mid-pull; then its lease must expire and its multipart upload (parts R2 keeps, and
//! bills, until aborted) must be found and aborted. The writer records each upload under
//! `keys::upload` and removes the record when it completes or aborts; the queue consumer
//! sweeps records older than [`stale_after_ms`] now and then ([`sweep_due`]).

use super::http::expired;
use super::limits::Limits;

/// The custom metadata field of an upload record holding the R2 upload id.
pub const UPLOAD_ID: &str = "upload-id";
/// The custom metadata field of an upload record (and a lease) holding when it began.
pub const STARTED_AT: &str = "started-at";
/// Beyond a pull's own deadline, how long before its lease or upload counts as abandoned.
pub const MARGIN_MS: f64 = 60_000.0;
/// How often one isolate's queue consumer sweeps abandoned uploads.
pub const SWEEP_EVERY_MS: f64 = 10.0 * 60_000.0;
/// The most abandoned uploads one sweep aborts (each costs two R2 operations).
pub const SWEEP_MAX: usize = 100;

/// How long a lease holds before another request may take it over: longer than any pull
/// may run, so a live writer never loses it (a shorter lease let a second writer start the
/// same download while the first was still within its deadline).
pub fn lease_ms(limits: &Limits) -> f64 {
    limits.archive_ms as f64 + MARGIN_MS
}

/// How old an upload record is before its upload counts as abandoned: its lease has
/// expired by then, so no live writer still owns it.
pub fn stale_after_ms(limits: &Limits) -> f64 {
    lease_ms(limits) + MARGIN_MS
}

/// Whether the upload recorded as begun at `started_at` (NaN: unreadable) is abandoned at
/// `now`.
pub fn abandoned(started_at: f64, now: f64, limits: &Limits) -> bool {
    expired(started_at, now, stale_after_ms(limits))
}

/// Whether an isolate whose last sweep was at `last` (`None`: never) sweeps at `now`.
pub fn sweep_due(last: Option<f64>, now: f64) -> bool {
    last.is_none_or(|last| now < last || expired(last, now, SWEEP_EVERY_MS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_outlasts_the_longest_pull_and_an_upload_outlasts_its_lease() {
        let limits = Limits::default();
        assert!(lease_ms(&limits) > limits.archive_ms as f64);
        assert!(stale_after_ms(&limits) > lease_ms(&limits));
        let start = 1_000.0;
        assert!(!abandoned(start, start + limits.archive_ms as f64, &limits));
        assert!(!abandoned(start, start + lease_ms(&limits), &limits));
        assert!(abandoned(start, start + stale_after_ms(&limits), &limits));
        assert!(
            abandoned(f64::NAN, start, &limits),
            "an unreadable record is swept"
        );
    }

    #[test]
    fn an_isolate_sweeps_at_first_then_every_ten_minutes() {
        assert!(sweep_due(None, 0.0));
        assert!(!sweep_due(Some(0.0), SWEEP_EVERY_MS - 1.0));
        assert!(sweep_due(Some(0.0), SWEEP_EVERY_MS));
        assert!(sweep_due(Some(10.0), 5.0), "a clock that went backwards");
    }
}
