//! When and how often a request is tried again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// HTTP statuses answered by a retry (when retries are left): 429, 502, 503, 504.
pub const RETRY_STATUSES: &[u16] = &[429, 502, 503, 504];

/// When and how often a request is tried again.
///
/// A request is retried after HTTP 429, 502, 503 or 504, after a failed connection, a
/// connection reset before the response was complete, and a timed-out attempt (unless
/// `ClientBuilder::retry_timeouts(false)`), at most [`max_retries`](Self::max_retries) times
/// and within the call's deadline (`ClientBuilder::deadline`). The wait before retry `n`
/// (from 1) is `initial_backoff * 2^(n-1)`, capped at [`max_backoff`](Self::max_backoff), of
/// which a random part (up to half) is dropped so clients do not retry in step. A
/// `Retry-After` header (seconds or an HTTP date) replaces that wait, capped at
/// `max_backoff` as well. Other failures are not retried.
///
/// A retry is made only when its longest wait ([`max_delay`](Self::max_delay), the backoff
/// before jitter) ends before the deadline: the jitter changes how long a retry waits, never
/// whether it is made, so a call with the same settings against the same timing makes the
/// same attempts and ends with the same error on every run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt; `0` turns retrying off.
    pub max_retries: u32,
    /// Wait before the first retry, before jitter.
    pub initial_backoff: Duration,
    /// Longest wait before any retry, including one asked for by `Retry-After`.
    pub max_backoff: Duration,
    /// Send a call that is not idempotent (a `POST` the spec does not mark `idempotent`)
    /// with an `Idempotency-Key` header, one random key per call, and retry it like a read.
    /// Off by default: such a call is then retried only when its connection failed before
    /// anything was sent. Turn it on only for a service that honours the key (a repeated key
    /// answers the first call's result instead of acting twice).
    pub idempotency_keys: bool,
}

impl Default for RetryPolicy {
    /// Three retries, waits from 250 ms doubling, at most 30 s.
    fn default() -> Self {
        Self {
            max_retries: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(30),
            idempotency_keys: false,
        }
    }
}

impl RetryPolicy {
    /// No retries: every request is tried once.
    pub fn none() -> Self {
        Self {
            max_retries: 0,
            ..Self::default()
        }
    }

    /// The wait before retry number `retry` (1 for the first), `Retry-After` taking
    /// precedence over the computed backoff: [`max_delay`](Self::max_delay) less a random
    /// part of up to half of it (none with `Retry-After`).
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let full = self.max_delay(retry, retry_after);
        if retry_after.is_some() {
            return full;
        }
        Duration::try_from_secs_f64(full.as_secs_f64() * (1.0 - jitter() / 2.0)).unwrap_or(full)
    }

    /// The longest wait before retry number `retry` (1 for the first): the `Retry-After`
    /// asked for, or the backoff before jitter, capped at [`max_backoff`](Self::max_backoff).
    /// A retry is made only when this wait ends before the call's deadline, so whether a call
    /// is retried never depends on the jitter.
    pub fn max_delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_backoff);
        }
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }
}

/// A key for one call that is not idempotent: 128 bits, as 32 hexadecimal digits.
pub(crate) fn idempotency_key() -> String {
    let high = (jitter() * (1u64 << 53) as f64) as u64;
    let low = (jitter() * (1u64 << 53) as f64) as u64;
    format!("{high:016x}{low:016x}")
}

/// A number in `[0, 1)`, different on every call. Seeded by the standard library's
/// per-process random hash keys, a counter and the clock: enough to spread retries.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    hasher.write_u32(nanos);
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_bounds() {
        let policy = RetryPolicy::default();
        for retry in 1..=8 {
            let full = (policy.initial_backoff * 2u32.pow(retry - 1)).min(policy.max_backoff);
            let wait = policy.delay(retry, None);
            assert!(
                wait <= full && wait >= full / 2,
                "retry {retry}: {wait:?} of {full:?}"
            );
        }
        assert_eq!(
            policy.delay(1, Some(Duration::from_secs(5))),
            Duration::from_secs(5)
        );
        assert_eq!(
            policy.delay(1, Some(Duration::from_secs(500))),
            policy.max_backoff
        );
        assert_eq!(RetryPolicy::none().max_retries, 0);
    }

    #[test]
    fn the_longest_wait_is_the_backoff_before_jitter() {
        let policy = RetryPolicy::default();
        for retry in 1..=8 {
            let longest = policy.max_delay(retry, None);
            let full = (policy.initial_backoff * 2u32.pow(retry - 1)).min(policy.max_backoff);
            assert_eq!(longest, full);
            for _ in 0..20 {
                assert!(policy.delay(retry, None) <= longest);
            }
        }
        let asked = Some(Duration::from_secs(2));
        assert_eq!(policy.max_delay(3, asked), Duration::from_secs(2));
        assert_eq!(policy.delay(3, asked), Duration::from_secs(2));
    }
}
