//! A paging stream that stopped because a page repeated the one before it ([`PagingError`]).

use std::fmt;

/// A paging stream that stopped because a page repeated the one before it: the same records,
/// in the same order, at a further offset. The service, or a proxy or cache before it, ignores
/// the offset; going on would yield the same records again and again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PagingError {
    /// The endpoint id.
    pub endpoint: &'static str,
    /// The offset of the earlier page (its records were yielded).
    pub offset: i64,
    /// The offset whose page repeated it (its records were not yielded).
    pub repeated_at: i64,
    /// The number of records on each of the two pages.
    pub records: usize,
    /// The request id of the repeating page.
    pub request_id: String,
    /// How many attempts the call for the repeating page made.
    pub attempts: u32,
}

impl fmt::Display for PagingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "paging `{}` stopped: the page at offset {} repeats the page at offset {} \
             ({} identical records); the service or a proxy ignores the offset \
             [request {}]",
            self.endpoint, self.repeated_at, self.offset, self.records, self.request_id
        )
    }
}

impl std::error::Error for PagingError {}
