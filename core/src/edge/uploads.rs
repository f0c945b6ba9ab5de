//! Leases and multipart uploads that their writer may never finish. A pull runs to its end
//! in the background whether or not its client stays, but an isolate can still be evicted
//! mid-pull (and Cloudflare ends `waitUntil` work 30 s after the client left); then its
//! lease must expire soon and its multipart upload (parts R2 keeps, and bills, until
//! aborted) must be found and aborted. The writer records each upload under
//! `keys::upload` and removes the record when it completes or aborts; the queue consumer
//! sweeps records older than [`stale_after_ms`] now and then ([`sweep_due`]).

use super::http::expired;
use super::limits::Limits;

/// The custom metadata field of an upload record holding the R2 upload id.
pub const UPLOAD_ID: &str = "upload-id";
/// The custom metadata field of an upload record (and a lease) holding when it began.
pub const STARTED_AT: &str = "started-at";
/// Beyond a pull's own deadline and its lease, how long before its upload counts as
/// abandoned.
pub const MARGIN_MS: f64 = 60_000.0;
/// How often one isolate's queue consumer sweeps abandoned uploads.
pub const SWEEP_EVERY_MS: f64 = 10.0 * 60_000.0;
/// The most abandoned uploads one sweep aborts (each costs two R2 operations).
pub const SWEEP_MAX: usize = 100;

/// How long a lease holds after it was taken or last renewed before another request may
/// take it over. Its writer renews it every [`RENEW_EVERY_MS`] while it streams, so a live
/// pull keeps it however long it runs, and one whose isolate was evicted (or whose
/// `waitUntil` time ran out) frees it within a minute.
pub const LEASE_MS: f64 = 60_000.0;
/// How often a writer renews its lease.
pub const RENEW_EVERY_MS: f64 = 20_000.0;

/// Whether a writer that renewed its lease at `renewed_at` renews it at `now`.
pub fn renew_due(renewed_at: f64, now: f64) -> bool {
    now < renewed_at || expired(renewed_at, now, RENEW_EVERY_MS)
}

/// Whether an isolate's requests still join its pull of an archive that was last heard from
/// at `beat_at` (a chunk staged, a look at another isolate's lease) at `now`: not after
/// [`LEASE_MS`] of silence, when its lease may be taken over too. A pull the runtime cut
/// (its `waitUntil` time ran out) never ends, and would otherwise be joined, and waited for
/// in vain, until [`stale_after_ms`] passed.
pub fn heard_from(beat_at: f64, now: f64) -> bool {
    !expired(beat_at, now, LEASE_MS)
}

/// How old an upload record is before its upload counts as abandoned: older than any
/// pull may run (its record is not renewed), with its lease expired by then.
pub fn stale_after_ms(limits: &Limits) -> f64 {
    limits.archive_ms as f64 + LEASE_MS + MARGIN_MS
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
    fn a_renewed_lease_never_expires_and_an_upload_outlasts_the_longest_pull() {
        // A writer a whole renewal late still holds its lease.
        assert!(!expired(0.0, 2.0 * RENEW_EVERY_MS, LEASE_MS));
        assert!(!renew_due(0.0, RENEW_EVERY_MS - 1.0));
        assert!(renew_due(0.0, RENEW_EVERY_MS));
        assert!(renew_due(10.0, 5.0), "a clock that went backwards");
        let limits = Limits::default();
        assert!(stale_after_ms(&limits) > limits.archive_ms as f64 + LEASE_MS);
        let start = 1_000.0;
        assert!(!abandoned(
            start,
            start + limits.archive_ms as f64 + LEASE_MS,
            &limits
        ));
        assert!(abandoned(start, start + stale_after_ms(&limits), &limits));
        assert!(
            abandoned(f64::NAN, start, &limits),
            "an unreadable record is swept"
        );
    }

    #[test]
    fn a_pull_silent_for_a_lease_time_is_no_longer_joined() {
        assert!(heard_from(0.0, LEASE_MS - 1.0));
        assert!(!heard_from(0.0, LEASE_MS), "as its lease may be taken over");
        assert!(!heard_from(f64::NAN, 0.0), "an unreadable time is silence");
    }

    #[test]
    fn an_isolate_sweeps_at_first_then_every_ten_minutes() {
        assert!(sweep_due(None, 0.0));
        assert!(!sweep_due(Some(0.0), SWEEP_EVERY_MS - 1.0));
        assert!(sweep_due(Some(0.0), SWEEP_EVERY_MS));
        assert!(sweep_due(Some(10.0), 5.0), "a clock that went backwards");
    }
}
