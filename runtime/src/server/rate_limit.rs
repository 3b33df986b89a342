//! The optional per-caller rate limit: a token bucket per API key (or per peer address for
//! requests without an accepted key), kept as one number per caller (GCRA, the generic cell
//! rate algorithm: the time at which the caller's bucket is full again).

use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasher;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How many requests one caller may make: `burst` at once, then one every `1/rate`.
///
/// ```
/// use mrds_runtime::server::RateLimit;
/// let limit = RateLimit::per_second(20).burst(40); // 20/s sustained, bursts of 40
/// assert_eq!(limit.interval().as_millis(), 50);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    interval: Duration,
    burst: u32,
}

impl RateLimit {
    /// `requests` per `period`, with a burst of `requests` (at least 1 of each).
    pub fn new(requests: u32, period: Duration) -> Self {
        let requests = requests.max(1);
        Self {
            interval: (period / requests).max(Duration::from_nanos(1)),
            burst: requests,
        }
    }

    /// `requests` per second, with a burst of `requests`.
    pub fn per_second(requests: u32) -> Self {
        Self::new(requests, Duration::from_secs(1))
    }

    /// `requests` per minute, with a burst of `requests`.
    pub fn per_minute(requests: u32) -> Self {
        Self::new(requests, Duration::from_secs(60))
    }

    /// Sets how many requests may arrive at once after a quiet period (at least 1).
    #[must_use]
    pub fn burst(mut self, burst: u32) -> Self {
        self.burst = burst.max(1);
        self
    }

    /// The sustained interval between two requests.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// The burst size.
    pub fn burst_size(&self) -> u32 {
        self.burst
    }
}

impl fmt::Display for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per_second = 1e9 / self.interval.as_nanos() as f64;
        write!(f, "{per_second:.3}/s, burst {}", self.burst)
    }
}

/// Who a request is counted against.
#[derive(Clone, Copy, Debug)]
pub enum Caller<'a> {
    /// An accepted API key (only a hash of it is kept).
    Key(&'a str),
    /// The peer address of a request without an accepted key.
    Peer(IpAddr),
}

const SHARDS: usize = 16;

/// The state of a [`RateLimit`]: per caller, the instant its bucket is full again. Callers
/// whose bucket is full are forgotten, so memory is bounded by the callers seen within one
/// burst's refill time. Keys are kept as 64-bit keyed hashes, never as text.
pub struct RateLimiter {
    limit: RateLimit,
    start: Instant,
    hasher: std::hash::RandomState,
    shards: [Mutex<Shard>; SHARDS],
}

#[derive(Default)]
struct Shard {
    /// Caller hash → theoretical arrival time (nanoseconds since `start`).
    full_at: HashMap<u64, u64>,
    sweep_at: usize,
}

impl RateLimiter {
    /// An empty limiter enforcing `limit`.
    pub fn new(limit: RateLimit) -> Self {
        Self {
            limit,
            start: Instant::now(),
            hasher: std::hash::RandomState::new(),
            shards: std::array::from_fn(|_| Mutex::default()),
        }
    }

    /// The limit enforced.
    pub fn limit(&self) -> RateLimit {
        self.limit
    }

    /// Counts one request of `caller`: `Err(retry_after)` when it is over the limit (the
    /// request is then not counted).
    pub fn check(&self, caller: Caller<'_>) -> Result<(), Duration> {
        let id = match caller {
            Caller::Key(key) => self.hasher.hash_one((0u8, key)),
            Caller::Peer(ip) => self.hasher.hash_one((1u8, ip)),
        };
        let now = self.start.elapsed().as_nanos() as u64;
        self.check_at(id, now).map_err(Duration::from_nanos)
    }

    fn check_at(&self, id: u64, now: u64) -> Result<(), u64> {
        let interval = self.limit.interval.as_nanos() as u64;
        let tolerance = interval.saturating_mul(u64::from(self.limit.burst));
        let mut shard = self.shards[(id % SHARDS as u64) as usize]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let full_at = shard.full_at.get(&id).copied().unwrap_or(now).max(now);
        let next = full_at.saturating_add(interval);
        if next > now.saturating_add(tolerance) {
            return Err(next - tolerance - now);
        }
        shard.full_at.insert(id, next);
        if shard.full_at.len() > shard.sweep_at {
            shard.full_at.retain(|_, full_at| *full_at > now);
            shard.sweep_at = (shard.full_at.len() * 2).max(1024);
        }
        Ok(())
    }
}

impl fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimiter")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn bursts_then_one_per_interval() {
        // 10 per second (one per 100 ms), bursts of 3.
        let limiter = RateLimiter::new(RateLimit::per_second(10).burst(3));
        for _ in 0..3 {
            assert_eq!(limiter.check_at(1, 0), Ok(()));
        }
        assert_eq!(limiter.check_at(1, 0), Err(100 * MS));
        assert_eq!(limiter.check_at(1, 40 * MS), Err(60 * MS));
        // Another caller has its own bucket.
        assert_eq!(limiter.check_at(2, 40 * MS), Ok(()));
        assert_eq!(limiter.check_at(1, 100 * MS), Ok(()));
        assert_eq!(limiter.check_at(1, 100 * MS), Err(100 * MS));
        // After a quiet period the whole burst is back, not more.
        for _ in 0..3 {
            assert_eq!(limiter.check_at(1, 10_000 * MS), Ok(()));
        }
        assert!(limiter.check_at(1, 10_000 * MS).is_err());
    }

    #[test]
    fn full_buckets_are_forgotten() {
        let limiter = RateLimiter::new(RateLimit::per_second(1000));
        for id in 0..100_000u64 {
            limiter.check_at(id, id * MS).unwrap();
        }
        let kept: usize = limiter
            .shards
            .iter()
            .map(|s| s.lock().unwrap().full_at.len())
            .sum();
        // Callers seen in the last second (1,000) plus what a shard keeps before its sweep.
        assert!(kept < 20_000, "{kept}");
    }

    #[test]
    fn keys_and_peers_and_limits() {
        let limiter = RateLimiter::new(RateLimit::per_minute(1));
        assert!(limiter.check(Caller::Key("k")).is_ok());
        let retry = limiter.check(Caller::Key("k")).unwrap_err();
        assert!(retry > Duration::from_secs(59) && retry <= Duration::from_secs(60));
        assert!(limiter.check(Caller::Peer([127, 0, 0, 1].into())).is_ok());
        assert_eq!(RateLimit::new(0, Duration::ZERO).burst_size(), 1);
        assert_eq!(
            RateLimit::per_second(4).burst(10).to_string(),
            "4.000/s, burst 10"
        );
    }
}
