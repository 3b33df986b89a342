//! One value of a query or path parameter ([`ParamValue`]): read from its wire text, and
//! written back to it; for text, integers (one spelling each) and booleans. And how a list of
//! values travels in a query ([`ListStyle`]).

/// A value that travels as one query or path parameter.
pub trait ParamValue: Sized {
    /// Parses the wire text; the error is the rule suffix (`type`, `values`) and the reason.
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)>;
    /// The wire text.
    fn to_param(&self) -> String;
    /// False for a value a tolerant value set keeps although the spec does not list it.
    fn is_known(&self) -> bool {
        true
    }
}

impl ParamValue for String {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        Ok(text.to_string())
    }
    fn to_param(&self) -> String {
        self.clone()
    }
}

/// Integers have one spelling: `0|-?[1-9][0-9]*`, decimal, in the range of `i64`. No `+`,
/// no leading zeros, no `-0`, no spaces, no other base: every integer has exactly one
/// accepted spelling, which is the one [`to_param`](ParamValue::to_param) writes, so a value
/// round-trips exactly and two requests for the same value are the same text (one cache key).
impl ParamValue for i64 {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits.as_bytes()),
            None => (false, text.as_bytes()),
        };
        let canonical = match digits {
            [] => false,
            [b'0'] => !negative,
            [first, rest @ ..] => {
                (b'1'..=b'9').contains(first) && rest.iter().all(u8::is_ascii_digit)
            }
        };
        if !canonical {
            return Err((
                "type",
                "must be a decimal integer written as `0|-?[1-9][0-9]*` (no `+`, leading zeros or spaces)"
                    .to_string(),
            ));
        }
        // Accumulated negatively, so that i64::MIN, whose magnitude is past i64::MAX, fits.
        let value = digits.iter().try_fold(0i64, |value, &digit| {
            value.checked_mul(10)?.checked_sub(i64::from(digit - b'0'))
        });
        let value = match (value, negative) {
            (Some(value), true) => Some(value),
            (Some(value), false) => value.checked_neg(),
            (None, _) => None,
        };
        value.ok_or_else(|| {
            (
                "type",
                "must be an integer between -9223372036854775808 and 9223372036854775807"
                    .to_string(),
            )
        })
    }
    fn to_param(&self) -> String {
        self.to_string()
    }
}

impl ParamValue for bool {
    fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(("type", "must be `true` or `false`".to_string())),
        }
    }
    fn to_param(&self) -> String {
        self.to_string()
    }
}

/// How a list parameter travels in the query: the spec's `style:`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ListStyle {
    /// One parameter, the items separated by commas: `fields=a,b`. An item is not empty and
    /// holds no comma; `fields=` is no item.
    Comma,
    /// The parameter once per item: `fields=a&fields=b`.
    Repeated,
}

impl ListStyle {
    /// Every style, in the order messages list them.
    pub const ALL: [ListStyle; 2] = [ListStyle::Comma, ListStyle::Repeated];

    /// The spec's spelling (`comma`).
    pub const fn name(self) -> &'static str {
        match self {
            ListStyle::Comma => "comma",
            ListStyle::Repeated => "repeated",
        }
    }

    /// The query pairs of a list parameter `name` holding `items` (none for no item): what
    /// the generated `to_query` writes.
    pub fn pairs<T: ParamValue>(
        self,
        name: &'static str,
        items: &[T],
    ) -> Vec<(&'static str, String)> {
        match self {
            _ if items.is_empty() => Vec::new(),
            ListStyle::Comma => {
                let texts: Vec<String> = items.iter().map(ParamValue::to_param).collect();
                vec![(name, texts.join(","))]
            }
            ListStyle::Repeated => items.iter().map(|v| (name, v.to_param())).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_per_integer() {
        for (text, value) in [
            ("0", 0),
            ("5", 5),
            ("-5", -5),
            ("1700000000", 1_700_000_000),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
        ] {
            assert_eq!(i64::parse_param(text), Ok(value), "{text}");
            assert_eq!(value.to_param(), text, "round trip");
        }
        for text in [
            "", "-", "+5", "05", "00", "-0", "-05", " 5", "5 ", "5\t", "1e3", "0x10", "5.0", "١٢",
            "--5", "+-5",
        ] {
            let (rule, reason) = i64::parse_param(text).unwrap_err();
            assert_eq!(rule, "type");
            assert!(reason.contains("0|-?[1-9][0-9]*"), "{text:?}: {reason}");
        }
        for text in [
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
        ] {
            let (_, reason) = i64::parse_param(text).unwrap_err();
            assert!(reason.contains("between"), "{text}: {reason}");
        }
    }
}
