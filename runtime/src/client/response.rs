//! What a successful call answers: the records and what the envelope said about them.

/// A successful answer: the records and what the envelope said about them.
#[derive(Clone, Debug, PartialEq)]
pub struct Response<T> {
    /// The records (`data`).
    pub data: Vec<T>,
    /// The service's identifier of the request, for support requests and logs.
    pub request_id: String,
    /// The envelope's `metadata`, as sent; nothing in the runtime reads it (the interface
    /// description does not show its content).
    pub metadata: Option<crate::JsonValue>,
    /// The envelope's `pagination`, as sent. The paging streams read its `has_more` (`false`
    /// ends the stream) and `total` (the stream ends once the next offset reaches it) when
    /// present; the interface description does not show its content, so these two keys are
    /// the project's assumption, and nothing else in it is read.
    pub pagination: Option<crate::JsonValue>,
    /// How many records of `data` did not decode and were left out: with
    /// `ClientBuilder::skip_undecodable_records` only (0 otherwise).
    pub skipped: usize,
}

impl<T> IntoIterator for Response<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.data.into_iter()
    }
}
