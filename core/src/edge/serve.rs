//! What the mirror answers to a document or archive request, from what the host found:
//! the stored copy and when it was filled, whether the host is pulled through, a
//! remembered "not found", and how a fill went. Pure decisions over values; the host reads
//! the bucket, asks the clock, runs the fill and renders the [`Answer`].

use super::http::{expired, DOCUMENT_TTL_MS};
use super::{EdgeError, EdgeErrorKind};

/// What the host does with a document request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Serve the stored copy as it is (a hit).
    Stored,
    /// Serve the stored copy, marked stale with this reason (the origin failed or the
    /// mirror is busy).
    Stale(String),
    /// Ask the origin (a miss, or the stored copy is due for a refresh), then decide again
    /// with [`after_fill`].
    Fill,
    /// Serve what the fill just stored (a miss answered).
    Filled,
    /// 404 with this text; `remember` when it is the origin's answer, to be kept for
    /// [`super::http::MISS_TTL_MS`] (see `edge::misses`).
    NotFound {
        /// The text for the client.
        message: String,
        /// Whether the host remembers it.
        remember: bool,
    },
    /// 429: the isolate is at its cap of origin work and has nothing to serve instead.
    TooBusy,
    /// An error answer with its status.
    Error(EdgeError),
}

/// The first decision for a document: `filled_at` is when the stored copy was filled
/// (`None`: no copy; NaN: unreadable, which counts as due), `pull` whether its host is
/// pulled through, `miss` a remembered origin "not found" for it.
pub fn document(
    filled_at: Option<f64>,
    pull: Result<(), EdgeError>,
    miss: Option<&str>,
    now: f64,
) -> Answer {
    match (filled_at, pull) {
        // A host no longer pulled through keeps serving what it has, and never refreshes.
        (Some(_), Err(_)) => Answer::Stored,
        (Some(at), Ok(())) if !expired(at, now, DOCUMENT_TTL_MS) => Answer::Stored,
        (None, Err(e)) => Answer::Error(e),
        (None, Ok(())) => match miss {
            Some(message) => Answer::NotFound {
                message: message.to_string(),
                remember: false,
            },
            None => Answer::Fill,
        },
        (Some(_), Ok(())) => Answer::Fill,
    }
}

/// The decision when a fill is due but the isolate has no slot for origin work.
pub fn busy(has_stored: bool) -> Answer {
    if has_stored {
        Answer::Stale(busy_error().message)
    } else {
        Answer::TooBusy
    }
}

/// The decision once the fill ran: a failure of the origin (unreachable, too slow) serves
/// the stored copy marked stale; a refusal (bad signature, re-published release) never
/// does; the origin's "not found" is remembered.
pub fn after_fill(has_stored: bool, result: Result<(), EdgeError>) -> Answer {
    match result {
        Ok(()) => Answer::Filled,
        Err(e) => match (has_stored, e.kind) {
            (true, EdgeErrorKind::OriginFailed | EdgeErrorKind::TimedOut) => {
                Answer::Stale(e.message)
            }
            (_, EdgeErrorKind::NotFound) => Answer::NotFound {
                message: e.message,
                remember: true,
            },
            (_, EdgeErrorKind::Busy) => Answer::TooBusy,
            _ => Answer::Error(e),
        },
    }
}

/// The decision for an archive: stored archives are served whatever the host's setting
/// (they were verified when stored); otherwise it is pulled, if its host is pulled through.
pub fn archive(stored: bool, pull: Result<(), EdgeError>) -> Answer {
    match (stored, pull) {
        (true, _) => Answer::Stored,
        (false, Ok(())) => Answer::Fill,
        (false, Err(e)) => Answer::Error(e),
    }
}

/// The decision once an archive pull ended (`Filled`: serve the stored archive).
pub fn after_pull(result: Result<(), EdgeError>) -> Answer {
    match result {
        Ok(()) => Answer::Filled,
        Err(e) if e.kind == EdgeErrorKind::Busy => Answer::TooBusy,
        Err(e) if e.kind == EdgeErrorKind::NotFound => Answer::NotFound {
            message: e.message,
            remember: false,
        },
        Err(e) => Answer::Error(e),
    }
}

/// The error of a request turned away by the isolate's cap of concurrent origin work.
pub fn busy_error() -> EdgeError {
    EdgeError::new(
        EdgeErrorKind::Busy,
        "the mirror is busy with other origin requests; retry shortly",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 10_000_000.0;

    fn failed(kind: EdgeErrorKind) -> EdgeError {
        EdgeError::new(kind, format!("{kind:?}"))
    }

    fn not_allowed() -> Result<(), EdgeError> {
        Err(failed(EdgeErrorKind::NotAllowed))
    }

    #[test]
    fn a_fresh_copy_is_a_hit_and_an_old_one_is_refilled() {
        let fresh = NOW - DOCUMENT_TTL_MS + 1.0;
        assert_eq!(document(Some(fresh), Ok(()), None, NOW), Answer::Stored);
        let old = NOW - DOCUMENT_TTL_MS;
        assert_eq!(document(Some(old), Ok(()), None, NOW), Answer::Fill);
        assert_eq!(document(Some(f64::NAN), Ok(()), None, NOW), Answer::Fill);
        // A remembered miss does not hide a stored copy.
        assert_eq!(document(Some(old), Ok(()), Some("gone"), NOW), Answer::Fill);
    }

    #[test]
    fn a_host_no_longer_pulled_through_serves_what_it_has_and_refuses_the_rest() {
        assert_eq!(
            document(Some(0.0), not_allowed(), None, NOW),
            Answer::Stored
        );
        assert_eq!(
            document(None, not_allowed(), Some("gone"), NOW),
            Answer::Error(failed(EdgeErrorKind::NotAllowed))
        );
    }

    #[test]
    fn a_remembered_miss_answers_404_without_asking_the_origin() {
        assert_eq!(
            document(None, Ok(()), Some("no such provider"), NOW),
            Answer::NotFound {
                message: "no such provider".into(),
                remember: false
            }
        );
        assert_eq!(document(None, Ok(()), None, NOW), Answer::Fill);
    }

    #[test]
    fn without_a_slot_a_stored_copy_is_served_stale_else_429() {
        let Answer::Stale(why) = busy(true) else {
            panic!("no stale copy")
        };
        assert!(why.contains("busy"), "{why}");
        assert_eq!(busy(false), Answer::TooBusy);
        assert_eq!(busy_error().status(), 429);
    }

    #[test]
    fn origin_failures_serve_stale_but_refusals_never_do() {
        use EdgeErrorKind::*;
        assert_eq!(after_fill(true, Ok(())), Answer::Filled);
        for kind in [OriginFailed, TimedOut] {
            assert_eq!(
                after_fill(true, Err(failed(kind))),
                Answer::Stale(format!("{kind:?}"))
            );
            assert_eq!(
                after_fill(false, Err(failed(kind))),
                Answer::Error(failed(kind))
            );
        }
        assert_eq!(
            after_fill(true, Err(failed(Refused))),
            Answer::Error(failed(Refused))
        );
        for stored in [true, false] {
            assert_eq!(
                after_fill(stored, Err(failed(NotFound))),
                Answer::NotFound {
                    message: "NotFound".into(),
                    remember: true
                }
            );
        }
        assert_eq!(after_fill(false, Err(failed(Busy))), Answer::TooBusy);
    }

    #[test]
    fn stored_archives_are_served_and_missing_ones_pulled_only_when_allowed() {
        assert_eq!(archive(true, not_allowed()), Answer::Stored);
        assert_eq!(archive(false, Ok(())), Answer::Fill);
        assert_eq!(
            archive(false, not_allowed()),
            Answer::Error(failed(EdgeErrorKind::NotAllowed))
        );
        assert_eq!(after_pull(Ok(())), Answer::Filled);
        assert_eq!(after_pull(Err(busy_error())), Answer::TooBusy);
        assert_eq!(
            after_pull(Err(failed(EdgeErrorKind::TimedOut))),
            Answer::Error(failed(EdgeErrorKind::TimedOut))
        );
        assert!(matches!(
            after_pull(Err(failed(EdgeErrorKind::NotFound))),
            Answer::NotFound {
                remember: false,
                ..
            }
        ));
    }
}
