//! The sample server's answers: the selection engine's records ([`crate::samples`]), decoded,
//! with "no set matches" answered 404 `RESOURCE_NOT_FOUND`.

use serde_json::Value;

use crate::ErrorBody;
use crate::samples::{self, Given, Samples};
use crate::server::ServerError;

/// The records answering `given`, decoded into `T`.
pub fn answer<T: serde::de::DeserializeOwned, E: ErrorBody>(
    samples: &Samples,
    given: &Given<'_>,
) -> Result<Vec<T>, ServerError<E>> {
    select(samples, given)?
        .into_iter()
        .map(|record| {
            serde_json::from_value(record)
                .map_err(|e| ServerError::internal(format!("a sample record does not decode: {e}")))
        })
        .collect()
}

/// The records answering `given`, as JSON values ([`samples::select`]); no matching set of an
/// endpoint answering 404 then is [`ServerError::not_found`].
pub fn select<E: ErrorBody>(
    samples: &Samples,
    given: &Given<'_>,
) -> Result<Vec<Value>, ServerError<E>> {
    samples::select(samples, given).map_err(|e| ServerError::not_found(e.message))
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::ErrorKind;
    use crate::samples::Set;
    use crate::test_object::Object;

    static BY_SYMBOL: Samples = Samples {
        not_found_when_missing: true,
        first_of: &[],
        contains: &[],
        echo: &[],
        filter: &[],
        range: None,
        order: None,
        latest_without: &[],
        limit: None,
        offset: None,
        sets: &[Set {
            when: &[("symbol", &["AAPL"])],
            records: r#"[{"symbol":"AAPL"}]"#,
        }],
        parsed: OnceLock::new(),
    };

    #[test]
    fn no_matching_set_is_a_404_and_records_decode() {
        let given = |s: &str| vec![("symbol", Some(s.to_owned()))];
        let err = select::<Object>(&BY_SYMBOL, &given("ZZZZ")).unwrap_err();
        assert_eq!(err.kind(), Some(ErrorKind::ResourceNotFound));
        let records: Vec<serde_json::Value> =
            answer::<_, Object>(&BY_SYMBOL, &given("AAPL")).unwrap();
        assert_eq!(records, [serde_json::json!({ "symbol": "AAPL" })]);
    }
}
