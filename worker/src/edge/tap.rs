//! The client's streamed answer to a cold archive miss: the pull hands each chunk to the
//! core's [`Tee`], which decides when the answer starts and holds the last chunk back until
//! the archive is verified; this file only moves the chunks. A client that falls behind
//! by [`CLIENT_CHUNKS`] pieces, or goes away, is cut; the pull goes on.

use std::pin::Pin;
use std::task::{Context, Poll};

use std::time::Duration;

use futures_channel::{mpsc, oneshot};
use futures_util::future::{poll_fn, select, Either};
use futures_util::Stream;
use tflock_core::edge::held::Client;
use tflock_core::edge::tee::{will_open, Tee, CLIENT_CHUNKS};
use tflock_core::edge::EdgeError;
use worker::Delay;

use super::documents::now;

/// How long the end of an answer waits for a lagging client.
const FINISH_MS: u64 = 10_000;

/// What the pull sends the client.
enum Piece {
    Bytes(Vec<u8>),
    /// The archive is verified and published, and every byte was sent.
    End,
    Failed(String),
}

/// The pieces of a streamed answer. It ends cleanly only after [`Piece::End`]: a client
/// that was cut (it fell behind), or a pull that failed or vanished, ends broken, so that
/// a client never takes a short body for the archive.
pub(crate) struct Body {
    rx: mpsc::Receiver<Piece>,
    done: bool,
}

impl Stream for Body {
    type Item = Result<Vec<u8>, worker::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let next = Pin::new(&mut self.rx).poll_next(cx);
        let broken = |why: &str| {
            Some(Err(worker::Error::RustError(format!(
                "the archive was not delivered: {why}"
            ))))
        };
        Poll::Ready(match next {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Some(Piece::Bytes(b))) => Some(Ok(b)),
            Poll::Ready(Some(Piece::End)) => {
                self.done = true;
                None
            }
            Poll::Ready(Some(Piece::Failed(why))) => {
                self.done = true;
                broken(&why)
            }
            Poll::Ready(None) => {
                self.done = true;
                broken("the client fell behind, or the pull ended")
            }
        })
    }
}

/// A streamed answer, handed to the request once it starts.
pub(crate) struct Streamed {
    /// The archive's length, as the origin declared it: the answer goes out with it (a
    /// `FixedLengthStream`), so a client cut short sees a short body, never a chunked body
    /// that ends cleanly (workerd ends one cleanly even when its stream failed).
    pub length: u64,
    /// Its pieces.
    pub body: Body,
}

/// The pull's side of a streamed answer.
pub(crate) struct Tap {
    tee: Tee,
    length: Option<u64>,
    opened: Option<oneshot::Sender<Streamed>>,
    tx: Option<mpsc::Sender<Piece>>,
    /// When the client was found gone (or cut): from then on the pull runs on the
    /// `waitUntil` time Cloudflare grants after a client left.
    gone_at: Option<f64>,
    /// A pass-through (`pass.rs`): there is no stored copy to serve, so an archive too
    /// small to stream is answered whole once verified, and a client that lags is waited
    /// for (there is no pull to protect from it).
    passing: bool,
}

impl Tap {
    /// A tap that hands its answer to `opened` when it starts.
    pub fn new(opened: oneshot::Sender<Streamed>) -> Tap {
        Tap {
            tee: Tee::new(),
            length: None,
            opened: Some(opened),
            tx: None,
            gone_at: None,
            passing: false,
        }
    }

    /// Makes this the tap of a pass-through read (`pass.rs`).
    pub fn pass_through(&mut self) {
        self.passing = true;
    }

    /// Whether the client's answer was handed over (or its request gave up on it): from
    /// then on only this tap can end it.
    pub fn answered(&self) -> bool {
        self.opened.is_none()
    }

    /// Whether the client left or was cut.
    pub fn gone(&self) -> bool {
        self.gone_at.is_some()
    }

    /// What the pull knows of its client: gone (or cut) since a time; seen while its
    /// answer streams or will (`tee::will_open`); unseen when it never will (a small
    /// archive, no declared length), as a HEAD's.
    pub fn client(&self) -> Client {
        match (self.gone_at, &self.tx) {
            (Some(at_ms), _) => Client::Gone { at_ms },
            (None, Some(_)) => Client::Seen,
            (None, None) if self.opened.is_some() && will_open(self.length) => Client::Seen,
            (None, None) => Client::Unseen,
        }
    }

    /// The length the origin declared; without one the answer is not streamed.
    pub fn set_length(&mut self, length: Option<u64>) {
        self.length = length;
    }

    /// The next chunk of the archive, as it was hashed and staged.
    pub fn push(&mut self, chunk: &[u8]) {
        for piece in self.release(chunk) {
            self.send(Piece::Bytes(piece));
        }
    }

    /// [`Tap::push`] for a pass-through: waits (up to [`FINISH_MS`] a piece) while the
    /// client lags, instead of cutting it.
    pub async fn push_waiting(&mut self, chunk: &[u8]) {
        for piece in self.release(chunk) {
            self.send_within(Piece::Bytes(piece)).await;
        }
    }

    /// Hands `chunk` to the tee, opening the client's answer when the tee says so; the
    /// pieces to send now.
    fn release(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        if self.opened.is_none() && self.tx.is_none() {
            return Vec::new(); // the client is gone, or was cut
        }
        let release = self.tee.push(chunk);
        if release.open {
            let (tx, rx) = mpsc::channel(CLIENT_CHUNKS);
            if let (Some(opened), Some(length)) = (self.opened.take(), self.length) {
                let answer = Streamed {
                    length,
                    body: Body { rx, done: false },
                };
                if opened.send(answer).is_ok() {
                    self.tx = Some(tx);
                } else {
                    self.gone_at = Some(now());
                }
            }
        }
        release.chunks
    }

    /// Ends the answer: the held-back bytes once the archive is published, a broken body
    /// otherwise (so that even a client of an undeclared length sees the failure). A client
    /// that lags here gets [`FINISH_MS`] to take them, while the pull still holds its lease.
    pub async fn finish(mut self, outcome: &Result<(), EdgeError>) {
        let tee = std::mem::take(&mut self.tee);
        match outcome {
            Ok(()) if self.passing && !tee.started() => {
                // A small archive, verified: answered whole (a pass-through has no stored
                // copy to serve instead).
                if let (Some(whole), Some(opened)) = (tee.finish_whole(), self.opened.take()) {
                    let (mut tx, rx) = mpsc::channel(CLIENT_CHUNKS);
                    let length = whole.len() as u64;
                    let sent = tx.try_send(Piece::Bytes(whole)).is_ok();
                    if sent && tx.try_send(Piece::End).is_ok() {
                        let body = Body { rx, done: false };
                        let _ = opened.send(Streamed { length, body });
                    }
                }
            }
            Ok(()) => {
                if let Some(last) = tee.finish() {
                    self.send_within(Piece::Bytes(last)).await;
                    self.send_within(Piece::End).await;
                }
            }
            Err(e) => self.send_within(Piece::Failed(e.message.clone())).await,
        }
    }

    async fn send_within(&mut self, item: Piece) {
        let Some(mut tx) = self.tx.take() else {
            return;
        };
        let ready = Box::pin(poll_fn(|cx| tx.poll_ready(cx)));
        let timer = Box::pin(Delay::from(Duration::from_millis(FINISH_MS)));
        if let Either::Left((Ok(()), _)) = select(ready, timer).await {
            if tx.start_send(item).is_ok() {
                self.tx = Some(tx);
                return;
            }
        }
        // It lagged past the wait, or went away.
        self.gone_at = Some(now());
    }

    fn send(&mut self, item: Piece) {
        if let Some(tx) = &mut self.tx {
            if tx.try_send(item).is_err() {
                // Full (a slow client) or closed (it went away): cut it, never the pull.
                self.tx = None;
                self.gone_at = Some(now());
            }
        }
    }
}
