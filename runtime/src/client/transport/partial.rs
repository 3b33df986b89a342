//! A page whose records do not all decode. The envelope is read with each record as its raw
//! JSON, then each record decoded alone: those that decode are kept, those that do not are
//! named by their place in `data`. Only an answer whose first decoding failed pays for this.
//!
//! By default the call still fails ([`Error::Undecodable`](crate::client::Error)), and the
//! error keeps the whole body, so the records that decoded can be read from it
//! ([`UndecodableError::records`]). With
//! [`ClientBuilder::skip_undecodable_records`](crate::client::ClientBuilder::skip_undecodable_records)
//! the call returns them instead, the others left out ([`Response::skipped`]). Either way,
//! what broke each record is a drift finding (the client walks such an answer).

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::client::error::UndecodableError;
use crate::client::response::Response;

/// What the client does with a page some of whose records do not decode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Undecodable {
    /// The call fails; the error keeps the body, from which the records that decoded can be
    /// read.
    #[default]
    Fail,
    /// The call returns the records that decoded.
    Skip,
}

/// The records of a page that decoded as `R`, and the places in `data` of those that did not.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Page<R> {
    /// The records that decoded, in the order of `data`.
    pub records: Vec<R>,
    /// The indexes in `data` of the records that did not decode.
    pub failed: Vec<usize>,
    /// The envelope's `request_id`.
    pub request_id: String,
    metadata: Option<crate::JsonValue>,
    pagination: Option<crate::JsonValue>,
}

impl<R> Page<R> {
    /// The page as a call returns it: the records that decoded, the others counted in
    /// [`Response::skipped`].
    pub(crate) fn into_response(self) -> Response<R> {
        Response {
            data: self.records,
            request_id: self.request_id,
            metadata: self.metadata,
            pagination: self.pagination,
            skipped: self.failed.len(),
        }
    }
}

/// The envelope with each record as its raw JSON.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    success: bool,
    request_id: String,
    #[serde(borrow)]
    data: &'a RawValue,
    #[serde(default)]
    metadata: Option<crate::JsonValue>,
    #[serde(default)]
    pagination: Option<crate::JsonValue>,
}

/// The page of `body` read record by record as `R`, when it is a successful envelope whose
/// `data` holds records (an array, or one object) of which some decode.
pub(crate) fn read_page<R: DeserializeOwned>(body: &[u8]) -> Option<Page<R>> {
    let envelope: RawEnvelope<'_> = serde_json::from_slice(body).ok()?;
    if !envelope.success {
        return None;
    }
    let raw = envelope.data.get();
    let items: Vec<&RawValue> = if raw.trim_start().starts_with('[') {
        serde_json::from_str(raw).ok()?
    } else {
        vec![envelope.data]
    };
    let mut records = Vec::with_capacity(items.len());
    let mut failed = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match serde_json::from_str::<R>(item.get()) {
            Ok(record) => records.push(record),
            Err(_) => failed.push(i),
        }
    }
    Some(Page {
        records,
        failed,
        request_id: envelope.request_id,
        metadata: envelope.metadata,
        pagination: envelope.pagination,
    })
}

impl UndecodableError {
    /// The whole body of the answer, when it is JSON but not the envelope the spec describes
    /// (some record of its page does not decode): what [`records`](Self::records) reads.
    pub fn body(&self) -> Option<&[u8]> {
        self.body.as_deref().map(|b| &**b)
    }

    /// The records of the page that decode as `R` (the endpoint's record type), with the
    /// places in `data` of those that do not, when the answer is a successful envelope whose
    /// records failed one by one (not its envelope): the page as far as it can be read.
    ///
    /// ```
    /// use mrds_runtime::client::Error;
    ///
    /// /// The records of a call, as far as its page decodes.
    /// fn as_far_as_it_decodes<R: serde::de::DeserializeOwned, E>(
    ///     result: Result<Vec<R>, Error<E>>,
    /// ) -> Vec<R> {
    ///     match result {
    ///         Ok(records) => records,
    ///         Err(Error::Undecodable(e)) => e.records::<R>().map(|page| page.records).unwrap_or_default(),
    ///         Err(_) => Vec::new(),
    ///     }
    /// }
    /// ```
    pub fn records<R: DeserializeOwned>(&self) -> Option<Page<R>> {
        read_page(self.body()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Row {
        n: i64,
    }

    #[test]
    fn a_page_is_read_record_by_record() {
        let body = br#"{"success":true,"request_id":"r","data":[{"n":1},{"n":null},{"n":3},{}],"pagination":{"total":9}}"#;
        let page = read_page::<Row>(body).unwrap();
        assert_eq!(page.records, [Row { n: 1 }, Row { n: 3 }]);
        assert_eq!(page.failed, [1, 3]);
        let response = page.into_response();
        assert_eq!(response.skipped, 2);
        assert_eq!(response.request_id, "r");
        assert!(response.pagination.is_some());
        let one = read_page::<Row>(br#"{"success":true,"request_id":"r","data":{"n":5}}"#).unwrap();
        assert_eq!(one.records, [Row { n: 5 }]);
        assert!(read_page::<Row>(br#"{"success":false,"request_id":"r","data":[]}"#).is_none());
        assert!(read_page::<Row>(br#"{"request_id":"r","data":[]}"#).is_none());
        assert!(read_page::<Row>(b"not json").is_none());
    }
}
