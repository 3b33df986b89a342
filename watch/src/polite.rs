//! Being polite to the service: one request at a time, at most `rate` a second (a fixed
//! interval between the starts of two requests: [`Pace`]), and a wait before trying again after
//! a 429 or a 503: the `Retry-After` the service gives (seconds or an HTTP date), else an
//! exponential backoff ([`wait_after`]). A wait holds back every later request, not only the
//! one tried again: the service asked the caller, not the endpoint, to slow down.

use std::time::{Duration, SystemTime};

use tokio::time::Instant;

/// The first wait after a 429 or 503 that gives no `Retry-After`, unless told otherwise;
/// each later one doubles.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// Longer than any run.
const YEAR: Duration = Duration::from_secs(365 * 86_400);

/// The slowest rate a run takes: one request every 1000 s.
pub const MIN_RATE: f64 = 0.001;

/// The starts of requests, at most one per interval.
#[derive(Debug)]
pub struct Pace {
    interval: Duration,
    /// The earliest start of the next request.
    next: Option<Instant>,
}

impl Pace {
    /// At most `rate` requests a second (a rate below [`MIN_RATE`], or not a number, is
    /// taken as [`MIN_RATE`]).
    pub fn new(rate: f64) -> Self {
        let rate = if rate >= MIN_RATE { rate } else { MIN_RATE };
        Self {
            interval: Duration::from_secs_f64(1.0 / rate),
            next: None,
        }
    }

    /// The interval between two starts.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// When the next request may start (now, for the first).
    pub fn next_start(&self) -> Instant {
        self.next.unwrap_or_else(Instant::now)
    }

    /// Waits until the next request may start, and takes its turn: the one after starts an
    /// interval later at the earliest. Returns the start of this one.
    pub async fn turn(&mut self) -> Instant {
        let at = self.next_start();
        tokio::time::sleep_until(at).await;
        let start = Instant::now().max(at);
        self.next = Some(start + self.interval);
        start
    }

    /// Holds back the next request until `wait` from now at the earliest (a `Retry-After`, a
    /// backoff; one past what the clock can tell holds it back a year).
    pub fn hold_off(&mut self, wait: Duration) {
        let now = Instant::now();
        let until = (now.checked_add(wait)).unwrap_or_else(|| now + YEAR);
        self.next = Some(self.next_start().max(until));
    }
}

/// How long to wait before trying again after an answer with `status`: for a 429 or a 503, its
/// `Retry-After` (`retry_after`, the header's text) when it reads, else the exponential
/// backoff of the `retry`-th try again (0 first: `first`, then twice as long each time).
/// `None` for any other status: nothing to try again.
pub fn wait_after(
    status: u16,
    retry_after: Option<&str>,
    retry: u32,
    first: Duration,
    now: SystemTime,
) -> Option<Duration> {
    if status != 429 && status != 503 {
        return None;
    }
    let asked = retry_after.and_then(|text| parse_retry_after(text, now));
    Some(asked.unwrap_or_else(|| first.saturating_mul(1 << retry.min(16))))
}

/// A `Retry-After` value: whole seconds (`120`), or an HTTP date (`Wed, 21 Oct 2026 07:28:00
/// GMT`; a date past is no wait). `None` when it is neither.
pub fn parse_retry_after(text: &str, now: SystemTime) -> Option<Duration> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Duration::from_secs(text.parse().unwrap_or(u64::MAX)));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_996_800);
        assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after(" 0 ", now), Some(Duration::ZERO));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(90));
        assert_eq!(
            parse_retry_after(&later, now),
            Some(Duration::from_secs(90))
        );
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(90));
        assert_eq!(parse_retry_after(&earlier, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("", now), None);
    }

    #[test]
    fn only_429_and_503_wait_and_back_off_exponentially_without_retry_after() {
        let now = SystemTime::UNIX_EPOCH;
        assert_eq!(wait_after(500, Some("1"), 0, FIRST_BACKOFF, now), None);
        assert_eq!(wait_after(200, None, 0, FIRST_BACKOFF, now), None);
        assert_eq!(
            wait_after(429, Some("3"), 1, FIRST_BACKOFF, now),
            Some(Duration::from_secs(3))
        );
        let backoff: Vec<_> = (0..3)
            .map(|retry| wait_after(503, Some("later"), retry, FIRST_BACKOFF, now).unwrap())
            .collect();
        assert_eq!(backoff, [1, 2, 4].map(Duration::from_secs));
    }

    #[tokio::test(start_paused = true)]
    async fn the_pace_spaces_starts_and_holds_off_after_a_wait() {
        let mut pace = Pace::new(4.0);
        let start = Instant::now();
        let mut starts = Vec::new();
        for _ in 0..3 {
            pace.turn().await;
            starts.push(start.elapsed());
        }
        assert_eq!(starts, [0, 250, 500].map(Duration::from_millis));
        pace.hold_off(Duration::from_secs(2));
        pace.turn().await;
        assert_eq!(start.elapsed(), Duration::from_millis(2500));
        // A wait shorter than the interval does not shorten it.
        pace.hold_off(Duration::ZERO);
        pace.turn().await;
        assert_eq!(start.elapsed(), Duration::from_millis(2750));
        // Nothing overflows.
        pace.hold_off(Duration::MAX);
        assert!(pace.next_start() > Instant::now() + Duration::from_secs(86_400));
        assert_eq!(Pace::new(0.0).interval(), Duration::from_secs(1000));
        assert_eq!(Pace::new(f64::NAN).interval(), Duration::from_secs(1000));
    }
}
