//! What an archive pull holds, and how each thing comes back on every path: a concurrency
//! slot, the lease on the archive's key, and its multipart upload.
//!
//! A pull ends in one of three ways, and each must leave nothing held:
//! - it runs to its end (published, refused or failed): the host settles each [`Held`]
//!   itself (deletes the lease, completes or aborts the upload), and the [`Slot`] drops;
//! - its future is dropped mid-pull (a `select` that lost, a runtime that drops cancelled
//!   work): dropping a [`Held`] records what it holds in its [`Owed`] list, which the host
//!   settles at its next chance (the next request or queue batch), and the [`Slot`] frees
//!   itself at once;
//! - its future is abandoned without being dropped (workers-rs never drops the future of a
//!   request the runtime cancelled; Cloudflare ends `waitUntil` work 30 s after the client
//!   left): no destructor runs, so a [`Slot`] counts only until the longest a pull may run
//!   ([`Slots::take`]'s `longest_ms`), the lease expires a minute after its last renewal and
//!   the upload is swept (`uploads`).
//!
//! A pull whose client left hands itself to the queue (15 minutes) rather than risk the
//! 30 s cut when it cannot finish in time ([`hand_off`]); one whose client cannot be seen
//! leaving (a HEAD, a range, a revalidation) does so whenever its rest would outlast that
//! time, since its client may be gone already ([`Client::Unseen`], [`must_hand_off`]).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::{EdgeError, EdgeErrorKind};

/// What a pull that handed itself to the queue answers the requests that joined it.
pub const HANDED_OFF: &str =
    "the client that started this pull left, and the rest continues in the background queue; retry shortly";

/// The outcome of a pull that handed itself to the queue (429: waiters retry shortly).
pub fn handed_off() -> EdgeError {
    EdgeError::new(EdgeErrorKind::Busy, HANDED_OFF)
}

/// Whether `e` is [`handed_off`]'s.
pub fn is_handed_off(e: &EdgeError) -> bool {
    e.kind == EdgeErrorKind::Busy && e.message == HANDED_OFF
}

/// Something a pull holds in the bucket that the host gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    /// The lease on `archive_key` (`keys::lease`): delete it.
    Lease {
        /// The archive the lease is on.
        archive_key: String,
    },
    /// The multipart upload `upload_id` into `archive_key`: abort it and delete its record
    /// (`keys::upload`).
    Upload {
        /// The archive being uploaded.
        archive_key: String,
        /// R2's id of the multipart upload.
        upload_id: String,
    },
}

/// What dropped pulls left for the host to give back, shared by an isolate's pulls.
#[derive(Debug, Clone, Default)]
pub struct Owed(Rc<RefCell<Vec<Release>>>);

impl Owed {
    /// An empty list.
    pub fn new() -> Owed {
        Owed::default()
    }

    /// Holds `release` until it is settled; recorded here if it is dropped unsettled.
    pub fn hold(&self, release: Release) -> Held {
        Held {
            release: Some(release),
            owed: self.clone(),
        }
    }

    /// What is owed now, emptying the list (the host gives each back).
    pub fn take(&self) -> Vec<Release> {
        std::mem::take(&mut self.0.borrow_mut())
    }

    /// Whether nothing is owed.
    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

/// One thing a pull holds; [`Held::settle`] when the pull gives it back itself.
#[derive(Debug)]
#[must_use = "dropping a Held records it as owed"]
pub struct Held {
    release: Option<Release>,
    owed: Owed,
}

impl Held {
    /// What is held.
    pub fn release(&self) -> &Release {
        self.release.as_ref().expect("a Held holds until settled")
    }

    /// The holder gives it back itself: nothing is owed. Returns what to give back.
    pub fn settle(mut self) -> Release {
        self.release.take().expect("a Held holds until settled")
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(r) = self.release.take() {
            self.owed.0.borrow_mut().push(r);
        }
    }
}

/// An isolate's cap on concurrent origin work.
#[derive(Debug)]
pub struct Slots {
    max: usize,
    next: Cell<u64>,
    taken: Rc<RefCell<Vec<(u64, f64)>>>,
}

/// Whether a slot taken at `at` still counts at `now` (a clock that went backwards frees it).
fn counts(at: f64, now: f64, longest_ms: f64) -> bool {
    at <= now && now - at < longest_ms
}

impl Slots {
    /// At most `max` slots at once.
    pub fn new(max: usize) -> Slots {
        Slots {
            max,
            next: Cell::new(0),
            taken: Rc::default(),
        }
    }

    /// A slot at `now`, or `None` when the cap is reached. A slot not given back within
    /// `longest_ms` (the longest a pull may run) of being taken no longer counts: its
    /// holder was abandoned, never dropped.
    pub fn take(&self, now: f64, longest_ms: f64) -> Option<Slot> {
        let mut taken = self.taken.borrow_mut();
        taken.retain(|&(_, at)| counts(at, now, longest_ms));
        if taken.len() >= self.max {
            return None;
        }
        let id = self.next.get();
        self.next.set(id + 1);
        taken.push((id, now));
        Some(Slot {
            id,
            taken: Rc::clone(&self.taken),
        })
    }

    /// How many slots count at `now`.
    pub fn in_use(&self, now: f64, longest_ms: f64) -> usize {
        let taken = self.taken.borrow();
        taken
            .iter()
            .filter(|&&(_, at)| counts(at, now, longest_ms))
            .count()
    }
}

/// A slot of [`Slots`], given back when dropped.
#[derive(Debug)]
pub struct Slot {
    id: u64,
    taken: Rc<RefCell<Vec<(u64, f64)>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.taken.borrow_mut().retain(|&(id, _)| id != self.id);
    }
}

/// What a pull knows of its progress when its client has left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Bytes received so far.
    pub received: u64,
    /// The length the origin declared, if any.
    pub declared: Option<u64>,
    /// Milliseconds since the download started.
    pub elapsed_ms: f64,
}

/// Whether a pull running in a request's `waitUntil`, whose client has left, stops and
/// hands the archive to the queue: unless the rest of the download, at the rate so far,
/// ends within `budget_ms` (`Limits::unattended_ms`, under Cloudflare's 30 s), it would be
/// cut mid-way and its work lost. An unknown length or no progress yet hands off.
pub fn hand_off(p: Progress, budget_ms: f64) -> bool {
    let Some(total) = p.declared else {
        return true;
    };
    if p.received >= total {
        return false; // only hashing and publishing are left
    }
    if p.received == 0 || p.elapsed_ms <= 0.0 {
        return true;
    }
    let rate = p.received as f64 / p.elapsed_ms; // bytes per ms
    let left_ms = (total - p.received) as f64 / rate;
    left_ms > budget_ms
}

/// How often a pull whose client it cannot see leave ([`Client::Unseen`]), or whose
/// client left, checks [`hand_off`] while it waits for the origin's next bytes: a stalled
/// origin sends none, so a check only per chunk would let the runtime's cut come first.
pub const CHECK_EVERY_MS: u64 = 1_000;

/// What a pull in a request's `waitUntil` knows of the client it answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Client {
    /// Its streamed answer is open (or will open: `tee::will_open`), so its leaving will be
    /// seen: no budget applies yet.
    Seen,
    /// It left (or was cut) at this time (ms).
    Gone {
        /// When it was found gone.
        at_ms: f64,
    },
    /// Nothing shows when it leaves: a HEAD, a range or a revalidation (answered from the
    /// stored copy), or a GET of an archive too small to stream (`tee::will_open`). It may
    /// be gone at any moment, and the runtime's cut would then come `budget_ms` (plus a
    /// margin) later.
    Unseen,
}

/// Whether a pull in a request's `waitUntil` stops and hands its archive to the queue, at
/// `now_ms`, with `budget_ms` (`Limits::unattended_ms`) the time it may run once its client
/// left: never while its client is seen; a gone client's budget runs from when it left; an
/// unseen client may leave at any moment, so its pull must be able to end within the whole
/// budget at every moment (before its first byte it waits for one for the whole budget).
pub fn must_hand_off(client: Client, p: Progress, now_ms: f64, budget_ms: f64) -> bool {
    match (client, budget_left(client, now_ms, budget_ms)) {
        (_, None) => false,
        (Client::Unseen, Some(left)) => hand_off_unseen(p, left),
        (_, Some(left)) => hand_off(p, left),
    }
}

/// How long the rest of a pull may take before it must hand off, or `None` while no
/// budget applies.
fn budget_left(client: Client, now_ms: f64, budget_ms: f64) -> Option<f64> {
    match client {
        Client::Seen => None,
        Client::Gone { at_ms } => Some(budget_ms - (now_ms - at_ms)),
        Client::Unseen => Some(budget_ms),
    }
}

/// [`hand_off`] for a client that cannot be seen ([`Client::Unseen`]): before any byte
/// came, the pull may wait for the first one for the whole budget (it has no rate to
/// judge by yet), then hands off.
fn hand_off_unseen(p: Progress, budget_ms: f64) -> bool {
    if p.received == 0 && p.declared.is_some() {
        return p.elapsed_ms >= budget_ms;
    }
    hand_off(p, budget_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    /// A future that stays pending until its gate opens: an origin read in flight.
    struct Gate(Rc<Cell<bool>>);

    impl Future for Gate {
        type Output = ();
        fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
            if self.0.get() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }
    }

    /// The shape of a pull: a slot, the lease, the upload, then the origin's bytes; each
    /// settled by the pull's own end.
    async fn pull(slots: Rc<Slots>, owed: Owed, now: f64, origin: Gate) -> Option<Vec<Release>> {
        let _slot = slots.take(now, LONGEST)?;
        let lease = owed.hold(Release::Lease {
            archive_key: "k".into(),
        });
        let upload = owed.hold(Release::Upload {
            archive_key: "k".into(),
            upload_id: "u1".into(),
        });
        origin.await;
        Some(vec![upload.settle(), lease.settle()])
    }

    /// Polls `f` once (a test executor: nothing else runs).
    fn poll_once<F: Future>(f: Pin<&mut F>) -> Poll<F::Output> {
        f.poll(&mut Context::from_waker(Waker::noop()))
    }

    const LONGEST: f64 = 1_000.0;

    fn setup() -> (Rc<Slots>, Owed, Rc<Cell<bool>>) {
        (
            Rc::new(Slots::new(1)),
            Owed::new(),
            Rc::new(Cell::new(false)),
        )
    }

    #[test]
    fn a_pull_that_ends_gives_everything_back_and_owes_nothing() {
        let (slots, owed, gate) = setup();
        let mut f = Box::pin(pull(slots.clone(), owed.clone(), 0.0, Gate(gate.clone())));
        assert!(poll_once(f.as_mut()).is_pending());
        assert_eq!(slots.in_use(0.0, LONGEST), 1);
        gate.set(true);
        let Poll::Ready(Some(given_back)) = poll_once(f.as_mut()) else {
            panic!("the pull did not end");
        };
        assert_eq!(
            given_back.len(),
            2,
            "the host gives back the upload and lease"
        );
        assert_eq!(slots.in_use(0.0, LONGEST), 0);
        assert!(owed.is_empty());
    }

    #[test]
    fn a_pull_dropped_mid_download_frees_its_slot_and_owes_its_lease_and_upload() {
        let (slots, owed, gate) = setup();
        let mut f = Box::pin(pull(slots.clone(), owed.clone(), 0.0, Gate(gate)));
        assert!(poll_once(f.as_mut()).is_pending());
        assert!(slots.take(1.0, LONGEST).is_none(), "the cap of one is held");
        drop(f);
        assert_eq!(slots.in_use(1.0, LONGEST), 0, "the slot came back at once");
        assert!(slots.take(1.0, LONGEST).is_some());
        let owed_now = owed.take();
        assert_eq!(
            owed_now,
            vec![
                Release::Upload {
                    archive_key: "k".into(),
                    upload_id: "u1".into()
                },
                Release::Lease {
                    archive_key: "k".into()
                },
            ]
        );
        assert!(owed.is_empty(), "taken once");
    }

    #[test]
    fn a_pull_abandoned_without_a_drop_frees_its_slot_after_the_longest_pull() {
        // workers-rs never drops the future of a cancelled request: no destructor runs.
        let (slots, owed, gate) = setup();
        let mut f = Box::pin(pull(slots.clone(), owed.clone(), 0.0, Gate(gate)));
        assert!(poll_once(f.as_mut()).is_pending());
        std::mem::forget(f);
        assert!(
            slots.take(999.0, LONGEST).is_none(),
            "still counted within the longest pull"
        );
        assert!(
            slots.take(1_000.0, LONGEST).is_some(),
            "no longer counted after the longest pull"
        );
        // Nothing is recorded as owed: the lease expires and the sweep aborts the upload
        // (`uploads::tests`).
        assert!(owed.is_empty());
    }

    #[test]
    fn a_clock_that_went_backwards_does_not_keep_a_slot_forever() {
        let slots = Slots::new(1);
        let s = slots.take(5_000.0, LONGEST).unwrap();
        std::mem::forget(s);
        assert!(slots.take(10.0, LONGEST).is_some());
    }

    #[test]
    fn a_pull_whose_client_left_hands_off_unless_it_ends_within_the_budget() {
        let p = |received, declared, elapsed_ms| Progress {
            received,
            declared,
            elapsed_ms,
        };
        let mib = 1 << 20;
        // 10 MiB/s: 100 MiB more take 10 s.
        assert!(!hand_off(p(10 * mib, Some(110 * mib), 1_000.0), 20_000.0));
        assert!(hand_off(p(10 * mib, Some(310 * mib), 1_000.0), 20_000.0));
        assert!(!hand_off(p(5, Some(5), 1.0), 0.0), "only hashing is left");
        assert!(hand_off(p(5, None, 1.0), 1e12), "no declared length");
        assert!(hand_off(p(0, Some(5), 1_000.0), 1e12), "no progress yet");
        assert!(hand_off(p(1, Some(2), 1.0), 0.0), "no budget");
        assert!(hand_off(p(1, Some(2), 1.0), -5.0), "the budget is spent");
        assert!(is_handed_off(&handed_off()));
        assert_eq!(handed_off().status(), 429, "waiters retry");
    }

    #[test]
    fn an_unseen_client_is_held_to_the_whole_budget_at_every_moment_a_gone_one_to_what_is_left() {
        assert_eq!(budget_left(Client::Seen, 50_000.0, 20_000.0), None);
        assert_eq!(
            budget_left(Client::Gone { at_ms: 40_000.0 }, 50_000.0, 20_000.0),
            Some(10_000.0)
        );
        assert_eq!(
            budget_left(Client::Unseen, 50_000.0, 20_000.0),
            Some(20_000.0),
            "it may leave now, with the whole budget ahead"
        );
    }

    #[test]
    fn a_pull_no_client_can_be_seen_on_hands_off_once_its_rest_outlasts_the_budget() {
        let p = |received, elapsed_ms| Progress {
            received,
            declared: Some(100),
            elapsed_ms,
        };
        // Half came at once, then the origin stalled: the rate so far falls as the stall
        // goes on, and the rest (50 bytes) takes as long as the pull has run.
        assert!(!hand_off_unseen(p(50, 900.0), 1_000.0));
        assert!(
            hand_off_unseen(p(50, 1_100.0), 1_000.0),
            "stalled past the budget"
        );
        assert!(
            !hand_off_unseen(p(0, 999.0), 1_000.0),
            "waits for a first byte"
        );
        assert!(
            hand_off_unseen(p(0, 1_000.0), 1_000.0),
            "but not for longer"
        );
        let undeclared = Progress {
            received: 0,
            declared: None,
            elapsed_ms: 0.0,
        };
        assert!(
            hand_off_unseen(undeclared, 1e12),
            "no length: no end can be judged"
        );
    }

    #[test]
    fn a_seen_client_never_hands_off_and_a_gone_one_only_past_what_is_left_of_its_budget() {
        let stalled = Progress {
            received: 50,
            declared: Some(100),
            elapsed_ms: 5_000.0,
        };
        assert!(!must_hand_off(Client::Seen, stalled, 9e9, 0.0));
        // The rest takes 5 s at the rate so far.
        let gone = |at_ms| Client::Gone { at_ms };
        assert!(!must_hand_off(gone(10_000.0), stalled, 14_000.0, 10_000.0));
        assert!(must_hand_off(gone(10_000.0), stalled, 16_000.0, 10_000.0));
        assert!(!must_hand_off(Client::Unseen, stalled, 9e9, 10_000.0));
        assert!(must_hand_off(Client::Unseen, stalled, 0.0, 4_000.0));
    }
}
