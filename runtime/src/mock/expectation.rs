//! How many requests a scenario must answer ([`Expectation`]): made from a number or a range
//! in Rust, read from a number or `{"at_least", "at_most"}` in the admin API's JSON.

use std::fmt;
use std::ops::{Range, RangeFrom, RangeInclusive, RangeToInclusive};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many requests a scenario must answer: exactly `n` (`2`), or a range (`1..=3`, `1..`,
/// `..=2`); made from a number or a range by [`Scenario::expect`](super::Scenario::expect). In the admin API's JSON, a
/// number or `{"at_least": 1, "at_most": 3}` (either bound may be left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expectation {
    at_least: u32,
    at_most: Option<u32>,
}

/// A number when exact, else `{"at_least": 1, "at_most": 3}`.
impl Serialize for Expectation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.at_most == Some(self.at_least) {
            return serializer.serialize_u32(self.at_least);
        }
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("at_least", &self.at_least)?;
        if let Some(most) = self.at_most {
            map.serialize_entry("at_most", &most)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Expectation {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Expectation;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of requests, or {\"at_least\": n, \"at_most\": m}")
            }

            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Expectation, E> {
                let n = u32::try_from(n).map_err(E::custom)?;
                Ok(Expectation::exactly(n))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Expectation, A::Error> {
                let mut expectation = Expectation {
                    at_least: 0,
                    at_most: None,
                };
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "at_least" => expectation.at_least = map.next_value()?,
                        "at_most" => expectation.at_most = map.next_value()?,
                        other => {
                            return Err(serde::de::Error::unknown_field(
                                other,
                                &["at_least", "at_most"],
                            ));
                        }
                    }
                }
                Ok(expectation)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl Expectation {
    /// Exactly `n` requests.
    pub fn exactly(n: u32) -> Self {
        Self {
            at_least: n,
            at_most: Some(n),
        }
    }

    /// The fewest requests expected.
    pub fn at_least(&self) -> u32 {
        self.at_least
    }

    /// The most requests expected, if there is a bound.
    pub fn at_most(&self) -> Option<u32> {
        self.at_most
    }

    /// Whether `n` requests meet it.
    pub fn is_met_by(&self, n: u32) -> bool {
        n >= self.at_least && self.at_most.is_none_or(|most| n <= most)
    }
}

/// `exactly 2 requests`, `from 1 to 3 requests`, `at least 1 request`, `at most 2 requests`.
impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let requests = |n: u32| if n == 1 { "request" } else { "requests" };
        match (self.at_least, self.at_most) {
            (least, Some(most)) if least == most => {
                write!(f, "exactly {least} {}", requests(least))
            }
            (0, Some(most)) => write!(f, "at most {most} {}", requests(most)),
            (least, Some(most)) => write!(f, "from {least} to {most} requests"),
            (least, None) => write!(f, "at least {least} {}", requests(least)),
        }
    }
}

/// A number `n`: exactly `n`.
impl From<u32> for Expectation {
    fn from(n: u32) -> Self {
        Self::exactly(n)
    }
}

impl From<RangeInclusive<u32>> for Expectation {
    fn from(range: RangeInclusive<u32>) -> Self {
        Self {
            at_least: *range.start(),
            at_most: Some(*range.end()),
        }
    }
}

impl From<Range<u32>> for Expectation {
    fn from(range: Range<u32>) -> Self {
        Self {
            at_least: range.start,
            at_most: Some(range.end.saturating_sub(1)),
        }
    }
}

impl From<RangeFrom<u32>> for Expectation {
    fn from(range: RangeFrom<u32>) -> Self {
        Self {
            at_least: range.start,
            at_most: None,
        }
    }
}

impl From<RangeToInclusive<u32>> for Expectation {
    fn from(range: RangeToInclusive<u32>) -> Self {
        Self {
            at_least: 0,
            at_most: Some(range.end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_say_what_they_expect() {
        assert_eq!(Expectation::from(2).to_string(), "exactly 2 requests");
        assert_eq!(Expectation::from(1).to_string(), "exactly 1 request");
        assert_eq!(Expectation::from(1..=3).to_string(), "from 1 to 3 requests");
        assert_eq!(Expectation::from(1..4), Expectation::from(1..=3));
        assert_eq!(Expectation::from(2..).to_string(), "at least 2 requests");
        assert_eq!(Expectation::from(..=2).to_string(), "at most 2 requests");
        assert!(Expectation::from(1..=3).is_met_by(3));
        assert!(!Expectation::from(1..=3).is_met_by(0));
        assert!(Expectation::from(1..).is_met_by(100));
    }
}
