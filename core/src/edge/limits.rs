//! How much the mirror takes from an origin and how long it waits: sizes of documents and
//! archives, deadlines for headers and bodies, a minimum rate for archive downloads, caps
//! per version and per fill, and the retry policy of idempotent origin reads. The Worker
//! keeps the clock and the bytes; every verdict is made here from the values it passes in.
//!
//! An isolate has 128 MB and a few concurrency slots: one origin sending a 200 MB document,
//! trickling a byte a second or listing hundreds of platforms must cost a bounded amount of
//! memory, time and queue work, and then give its slot back.

use super::{EdgeError, EdgeErrorKind};

/// The mirror's limits; [`Limits::default`] is what a deployment uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest document read from an origin (discovery, `versions`, download answers,
    /// `SHA256SUMS` and its signature). The largest real `versions` is well under 1 MiB.
    pub document_bytes: u64,
    /// All bytes one fill may read (every document of a version together).
    pub fill_bytes: u64,
    /// The most platforms one version may list (each costs three origin requests and an
    /// archive job); real providers list 10-20.
    pub platforms: usize,
    /// The most versions one backfill job queues.
    pub backfill_versions: usize,
    /// How long the origin may take to send a response's headers.
    pub headers_ms: u64,
    /// How long a whole document may take, headers included.
    pub document_ms: u64,
    /// The largest archive taken (pulled or uploaded).
    pub archive_bytes: u64,
    /// How long a whole archive download may take.
    pub archive_ms: u64,
    /// The slowest average rate (bytes per second) an archive download may fall to...
    pub archive_min_rate: u64,
    /// ...after this much time, which covers a slow start.
    pub archive_grace_ms: u64,
    /// Retries of an idempotent origin read after a lost connection or a 5xx.
    pub retries: u32,
    /// The first retry's delay; each later one doubles it.
    pub retry_base_ms: u64,
    /// How long a pull may still run in a request's `waitUntil` once its client left
    /// (Cloudflare ends such work 30 s after; the rest is margin to stop cleanly): one
    /// that would take longer hands itself to the queue (`held::must_hand_off`; one whose
    /// client cannot be seen leaving must fit in it at every moment).
    pub unattended_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            document_bytes: 4 << 20,
            fill_bytes: 32 << 20,
            platforms: 64,
            backfill_versions: 1000,
            headers_ms: 10_000,
            document_ms: 30_000,
            archive_bytes: 2 << 30,
            // Queue consumers get 15 minutes of wall time.
            archive_ms: 14 * 60_000,
            archive_min_rate: 64 << 10,
            archive_grace_ms: 10_000,
            // Terraform's provider downloads retry twice by default.
            retries: 2,
            retry_base_ms: 250,
            unattended_ms: 20_000,
        }
    }
}

impl Limits {
    /// The defaults with the `name=value` pairs of `setting` (`TFLOCK_LIMITS`, comma
    /// separated; names are the fields') applied. An unknown name or a value that is no
    /// number is refused, naming it.
    pub fn parse(setting: Option<&str>) -> Result<Limits, String> {
        let mut limits = Limits::default();
        for pair in setting
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let bad = || format!("TFLOCK_LIMITS: {pair:?} is not name=number");
            let (name, value) = pair.split_once('=').ok_or_else(bad)?;
            let n: u64 = value.trim().parse().map_err(|_| bad())?;
            let small = || usize::try_from(n).map_err(|_| bad());
            match name.trim() {
                "document_bytes" => limits.document_bytes = n,
                "fill_bytes" => limits.fill_bytes = n,
                "platforms" => limits.platforms = small()?,
                "backfill_versions" => limits.backfill_versions = small()?,
                "headers_ms" => limits.headers_ms = n,
                "document_ms" => limits.document_ms = n,
                "archive_bytes" => limits.archive_bytes = n,
                "archive_ms" => limits.archive_ms = n,
                "archive_min_rate" => limits.archive_min_rate = n,
                "archive_grace_ms" => limits.archive_grace_ms = n,
                "retries" => limits.retries = u32::try_from(n).map_err(|_| bad())?,
                "retry_base_ms" => limits.retry_base_ms = n,
                "unattended_ms" => limits.unattended_ms = n,
                other => return Err(format!("TFLOCK_LIMITS: no limit is called {other:?}")),
            }
        }
        Ok(limits)
    }

    /// The refusal of a version listing `count` platforms, past [`Limits::platforms`].
    pub fn check_platforms(&self, what: &str, count: usize) -> Result<(), EdgeError> {
        if count <= self.platforms {
            return Ok(());
        }
        Err(EdgeError::new(
            EdgeErrorKind::Refused,
            format!(
                "the origin lists {count} platforms for {what}; this mirror takes at most {} per version",
                self.platforms
            ),
        ))
    }

    /// The guard of a document body whose request started at `started_ms`.
    pub fn document(&self, url: &str, started_ms: f64) -> BodyGuard {
        BodyGuard {
            what: url.to_string(),
            kind: "document",
            started_ms,
            max_bytes: self.document_bytes,
            deadline_ms: started_ms + self.document_ms as f64,
            rate: None,
            read: 0,
        }
    }

    /// The guard of an archive download that started at `started_ms`.
    pub fn archive(&self, url: &str, started_ms: f64) -> BodyGuard {
        BodyGuard {
            what: url.to_string(),
            kind: "archive",
            started_ms,
            max_bytes: self.archive_bytes,
            deadline_ms: started_ms + self.archive_ms as f64,
            rate: Some((self.archive_grace_ms as f64, self.archive_min_rate as f64)),
            read: 0,
        }
    }

    /// How long to wait before attempt `attempt + 1` (0 is the first retry) of a read that
    /// failed with `failure`, or `None` to give up. `jitter` in `[0, 1)` spreads retries
    /// of many clients over half the delay.
    pub fn retry_after(&self, attempt: u32, failure: Failure, jitter: f64) -> Option<u64> {
        let retryable = match failure {
            Failure::Connection => true,
            Failure::Status(s) => matches!(s, 429 | 500 | 502 | 503 | 504),
        };
        if !retryable || attempt >= self.retries {
            return None;
        }
        let full = self.retry_base_ms.saturating_mul(1 << attempt.min(16));
        let jitter = jitter.clamp(0.0, 1.0);
        Some((full as f64 * (0.5 + jitter / 2.0)) as u64)
    }
}

/// Why an origin read failed, as far as retrying is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The connection failed or was lost before the answer was read whole.
    Connection,
    /// The origin answered with this status.
    Status(u16),
}

/// The running count of one origin body against its size, deadline and rate.
#[derive(Debug, Clone)]
pub struct BodyGuard {
    what: String,
    kind: &'static str,
    started_ms: f64,
    max_bytes: u64,
    deadline_ms: f64,
    /// (grace, bytes per second) for archives.
    rate: Option<(f64, f64)>,
    read: u64,
}

impl BodyGuard {
    /// Checks a declared `Content-Length` before reading anything.
    pub fn declared(&self, length: Option<u64>) -> Result<(), EdgeError> {
        match length {
            Some(n) if n > self.max_bytes => Err(self.too_large(n)),
            _ => Ok(()),
        }
    }

    /// Counts `n` more bytes, read at `now_ms`.
    pub fn chunk(&mut self, n: usize, now_ms: f64) -> Result<(), EdgeError> {
        self.read = self.read.saturating_add(n as u64);
        if self.read > self.max_bytes {
            return Err(self.too_large(self.read));
        }
        if now_ms > self.next_deadline() {
            return Err(self.too_slow(now_ms));
        }
        Ok(())
    }

    /// How long the next chunk may take from `now_ms` before [`BodyGuard::expired`].
    pub fn wait_ms(&self, now_ms: f64) -> u64 {
        (self.next_deadline() - now_ms).max(0.0).ceil() as u64
    }

    /// The error for a body whose next chunk did not come within [`BodyGuard::wait_ms`].
    pub fn expired(&self, now_ms: f64) -> EdgeError {
        self.too_slow(now_ms)
    }

    /// Bytes read so far.
    pub fn read(&self) -> u64 {
        self.read
    }

    /// The moment the body fails: its deadline, or for archives the moment the average
    /// rate since the grace period would fall below the minimum.
    fn next_deadline(&self) -> f64 {
        match self.rate {
            Some((grace, rate)) if rate > 0.0 => self
                .deadline_ms
                .min(self.started_ms + grace + self.read as f64 * 1000.0 / rate),
            _ => self.deadline_ms,
        }
    }

    fn too_large(&self, n: u64) -> EdgeError {
        EdgeError::new(
            EdgeErrorKind::OriginFailed,
            format!(
                "the origin's {} {} has more than {} bytes ({n} so far), the mirror's limit",
                self.kind, self.what, self.max_bytes
            ),
        )
    }

    fn too_slow(&self, now_ms: f64) -> EdgeError {
        let secs = ((now_ms - self.started_ms) / 1000.0).max(0.0);
        let why = if now_ms >= self.deadline_ms {
            format!(
                "the deadline of {:.0} s passed",
                (self.deadline_ms - self.started_ms) / 1000.0
            )
        } else {
            let rate = self.rate.map_or(0.0, |r| r.1);
            format!("slower than the mirror's minimum of {rate:.0} bytes/s")
        };
        EdgeError::new(
            EdgeErrorKind::TimedOut,
            format!(
                "the origin sent {} bytes of the {} {} in {secs:.1} s: {why}",
                self.read, self.kind, self.what
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_override_named_limits_and_refuse_others() {
        let l = Limits::parse(Some("document_bytes=10, platforms=3 ,retries=0")).unwrap();
        assert_eq!(l.document_bytes, 10);
        assert_eq!(l.platforms, 3);
        assert_eq!(l.retries, 0);
        assert_eq!(l.archive_bytes, Limits::default().archive_bytes);
        assert_eq!(Limits::parse(None).unwrap(), Limits::default());
        for bad in ["speed=1", "platforms", "platforms=-1", "platforms=x"] {
            let err = Limits::parse(Some(bad)).unwrap_err();
            assert!(err.contains("TFLOCK_LIMITS"), "{err}");
        }
    }

    #[test]
    fn a_document_is_cut_at_its_size_and_its_deadline() {
        let l = Limits::parse(Some("document_bytes=100,document_ms=1000")).unwrap();
        let mut g = l.document("https://o.example/v", 0.0);
        assert!(g.declared(Some(100)).is_ok());
        let err = g.declared(Some(101)).unwrap_err();
        assert_eq!(err.status(), 502);
        assert!(err.message.contains("more than 100 bytes"), "{err}");
        assert!(g.chunk(60, 10.0).is_ok());
        let err = g.chunk(41, 20.0).unwrap_err();
        assert!(err.message.contains("https://o.example/v"), "{err}");
        let mut g = l.document("u", 0.0);
        assert_eq!(g.wait_ms(250.0), 750);
        assert_eq!(g.chunk(1, 1001.0).unwrap_err().status(), 504);
        assert_eq!(g.wait_ms(2000.0), 0);
        assert!(g.expired(1000.0).message.contains("deadline of 1 s"));
    }

    #[test]
    fn an_archive_must_keep_its_minimum_rate_after_the_grace_period() {
        let l = Limits::parse(Some(
            "archive_min_rate=1000,archive_grace_ms=2000,archive_ms=60000",
        ))
        .unwrap();
        let mut g = l.archive("z", 0.0);
        // Nothing read: the grace period is all it gets.
        assert_eq!(g.wait_ms(0.0), 2000);
        // 1000 bytes buy one more second.
        g.chunk(1000, 1500.0).unwrap();
        assert_eq!(g.wait_ms(1500.0), 1500);
        g.chunk(1, 2900.0).unwrap();
        let err = g.chunk(1, 3500.0).unwrap_err();
        assert_eq!(err.kind, EdgeErrorKind::TimedOut);
        assert!(err.message.contains("minimum of 1000 bytes/s"), "{err}");
        // A fast download still meets the total deadline.
        let mut g = l.archive("z", 0.0);
        g.chunk(1 << 30, 1.0).unwrap();
        assert_eq!(g.wait_ms(1.0), 59_999);
        assert!(g.chunk(1, 60_001.0).is_err());
        assert!(l.archive("z", 0.0).declared(Some(3 << 30)).is_err());
    }

    #[test]
    fn lost_connections_and_5xx_are_retried_with_growing_delays() {
        let l = Limits::default();
        assert_eq!(l.retry_after(0, Failure::Connection, 1.0), Some(250));
        assert_eq!(l.retry_after(0, Failure::Connection, 0.0), Some(125));
        assert_eq!(l.retry_after(1, Failure::Status(503), 1.0), Some(500));
        assert_eq!(l.retry_after(2, Failure::Status(503), 1.0), None);
        for status in [400, 401, 403, 404, 410] {
            assert_eq!(l.retry_after(0, Failure::Status(status), 0.5), None);
        }
        assert!(l.retry_after(0, Failure::Status(429), 0.5).is_some());
    }

    #[test]
    fn versions_past_the_platform_cap_are_refused_naming_the_cap() {
        let l = Limits::default();
        assert!(l.check_platforms("x 1.0.0", 64).is_ok());
        let err = l.check_platforms("x 1.0.0", 500).unwrap_err();
        assert_eq!(err.status(), 502);
        assert!(err.message.contains("500 platforms for x 1.0.0"), "{err}");
        assert!(err.message.contains("at most 64"), "{err}");
    }
}
