//! Scenarios: what the in-process sample server answers the next requests of one endpoint
//! with, instead of (or after waiting, before) its sample records.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

/// What a [`MockServer`](super::MockServer) answers the next requests of one endpoint with:
/// an error status with the spec's error object, a wait, or a connection closed with no
/// answer; once it is used up, the endpoint answers with its sample records again.
///
/// A scenario is used by one request by default; [`times`](Self::times) sets how many,
/// [`always`](Self::always) makes it the endpoint's answer until
/// [`MockServer::clear_scenarios`](super::MockServer::clear_scenarios). Scenarios given for
/// one endpoint are used in the order given. A scenario answers in place of the endpoint: its
/// key and parameters are not checked (as a gateway in front of the service answers).
///
/// ```
/// use std::time::Duration;
/// use mrds_runtime::mock::Scenario;
///
/// // Two 429 RATE_LIMITED answers, each with `Retry-After: 0`.
/// let limited = Scenario::status(429).retry_after(Duration::ZERO).times(2);
/// // Every answer 500 INTERNAL_ERROR, each after 50 ms.
/// let failing = Scenario::status(500).after(Duration::from_millis(50)).always();
/// // The sample records, after 200 ms.
/// let slow = Scenario::delay(Duration::from_millis(200));
/// // The connection closed before any answer, three times.
/// let cut = Scenario::reset().times(3);
/// # let _ = (limited, failing, slow, cut);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use = "a scenario does nothing until it is given to MockServer::answer"]
pub struct Scenario {
    pub(crate) answer: Answer,
    pub(crate) delay: Duration,
    pub(crate) retry_after: Option<u64>,
    times: Times,
}

/// What a scenario answers with, after its delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The sample records, as without a scenario.
    Samples,
    /// The status, with the spec's error object of its code in the envelope.
    Status(u16),
    /// The status with an empty body, outside the envelope.
    Bare(u16),
    /// The connection closed with no answer.
    Reset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Times {
    Next(u32),
    Always,
}

impl Scenario {
    fn new(answer: Answer) -> Self {
        Self {
            answer,
            delay: Duration::ZERO,
            retry_after: None,
            times: Times::Next(1),
        }
    }

    /// Answers `status` with the spec's error object of the code the spec answers with that
    /// status (the first, in the spec's order, when several share it), in the envelope, with
    /// a request id. A 429 says `Retry-After: 1` unless [`retry_after`](Self::retry_after)
    /// says otherwise. A status no code of the spec has is refused by
    /// [`MockServer::answer`](super::MockServer::answer), naming the statuses there are;
    /// [`bare_status`](Self::bare_status) answers any error status outside the envelope.
    pub fn status(status: u16) -> Self {
        Self::new(Answer::Status(status))
    }

    /// Answers `status` (400 to 599) with an empty body and no envelope, as a proxy or load
    /// balancer in front of the service does: a 502, 503 or 504 for which the spec has no
    /// error code, say.
    pub fn bare_status(status: u16) -> Self {
        Self::new(Answer::Bare(status))
    }

    /// Waits `delay`, then answers with the sample records.
    pub fn delay(delay: Duration) -> Self {
        Self::new(Answer::Samples).after(delay)
    }

    /// Closes the connection without answering: the client sees its connection end before a
    /// response (what a reset connection, or a server that died, looks like to it).
    pub fn reset() -> Self {
        Self::new(Answer::Reset)
    }

    /// Waits `delay` before answering (or closing the connection).
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The `Retry-After` of a status answer, in whole seconds (a part of a second counts as
    /// one); `Duration::ZERO` says `Retry-After: 0`, which a client honouring it retries at
    /// once.
    pub fn retry_after(mut self, after: Duration) -> Self {
        self.retry_after = Some(after.as_secs() + u64::from(after.subsec_nanos() > 0));
        self
    }

    /// Used by the next `n` requests of the endpoint (`0`: by none).
    pub fn times(mut self, n: u32) -> Self {
        self.times = Times::Next(n);
        self
    }

    /// Used by every request of the endpoint, until the scenarios are cleared.
    pub fn always(mut self) -> Self {
        self.times = Times::Always;
        self
    }

    /// The `Retry-After` the answer says: the one set, or 1 s on a 429.
    pub(crate) fn retry_after_secs(&self) -> Option<u64> {
        match self.answer {
            Answer::Status(429) => Some(self.retry_after.unwrap_or(1)),
            _ => self.retry_after,
        }
    }
}

/// Why [`MockServer::answer`](super::MockServer::answer) refused a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The endpoint is not one of the server's spec.
    UnknownEndpoint {
        /// The endpoint's id.
        endpoint: String,
    },
    /// [`Scenario::status`] with a status no error code of the spec has.
    NoErrorCode {
        /// The status asked for.
        status: u16,
        /// The statuses the spec's error codes have, with their codes (`429 RATE_LIMITED`).
        available: Vec<String>,
    },
    /// [`Scenario::bare_status`] with a status that is not an error status (400 to 599).
    NotAnErrorStatus {
        /// The status asked for.
        status: u16,
    },
    /// [`Scenario::retry_after`] on a scenario that answers no status.
    RetryAfterWithoutStatus,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::UnknownEndpoint { endpoint } => write!(
                f,
                "`{endpoint}` is not an endpoint of this sample server's spec"
            ),
            ScenarioError::NoErrorCode { status, available } => write!(
                f,
                "the spec has no error code answered with {status}; the statuses with a code are {} \
                 (Scenario::bare_status answers any error status outside the envelope)",
                available.join(", ")
            ),
            ScenarioError::NotAnErrorStatus { status } => write!(
                f,
                "{status} is not an error status: Scenario::bare_status takes 400 to 599"
            ),
            ScenarioError::RetryAfterWithoutStatus => write!(
                f,
                "Retry-After goes with a status answer (Scenario::status or bare_status), not a \
                 delay or a reset"
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The scenarios of every endpoint, by endpoint id, each endpoint's in the order given.
#[derive(Debug, Default)]
pub(crate) struct Plans(Mutex<HashMap<&'static str, VecDeque<Scenario>>>);

impl Plans {
    /// Adds `scenario` after the ones `endpoint` has.
    pub fn push(&self, endpoint: &'static str, scenario: Scenario) {
        if scenario.times == Times::Next(0) {
            return;
        }
        let mut plans = self.0.lock().unwrap_or_else(|e| e.into_inner());
        plans.entry(endpoint).or_default().push_back(scenario);
    }

    /// The scenario the next request of `endpoint` gets, if any (counted as used).
    pub fn next(&self, endpoint: &str) -> Option<Scenario> {
        let mut plans = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let queue = plans.get_mut(endpoint)?;
        let front = queue.front_mut()?;
        let scenario = front.clone();
        match &mut front.times {
            Times::Always => {}
            Times::Next(n) => {
                *n -= 1;
                if *n == 0 {
                    queue.pop_front();
                }
            }
        }
        Some(scenario)
    }

    /// Forgets every scenario.
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_used_in_order_as_many_times_as_said() {
        let plans = Plans::default();
        plans.push("a", Scenario::status(429).times(2));
        plans.push("a", Scenario::reset().times(0));
        plans.push("a", Scenario::status(500));
        plans.push("b", Scenario::delay(Duration::from_millis(5)).always());
        let plans = &plans;
        let answers =
            |id: &'static str| std::iter::from_fn(move || plans.next(id).map(|s| s.answer));
        assert_eq!(
            answers("a").collect::<Vec<_>>(),
            [
                Answer::Status(429),
                Answer::Status(429),
                Answer::Status(500)
            ]
        );
        assert_eq!(plans.next("a"), None);
        assert!(answers("b").take(5).all(|a| a == Answer::Samples));
        plans.clear();
        assert_eq!(plans.next("b"), None);
    }

    #[test]
    fn retry_after_is_whole_seconds_and_a_429_says_one() {
        assert_eq!(Scenario::status(429).retry_after_secs(), Some(1));
        assert_eq!(Scenario::status(500).retry_after_secs(), None);
        let zero = Scenario::status(429).retry_after(Duration::ZERO);
        assert_eq!(zero.retry_after_secs(), Some(0));
        let part = Scenario::bare_status(503).retry_after(Duration::from_millis(1500));
        assert_eq!(part.retry_after_secs(), Some(2));
    }
}
