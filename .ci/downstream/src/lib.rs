//! What a downstream crate writes with the packaged crates: the README's examples, as a
//! library its test runs against the sample server.

use futures_util::{StreamExt, TryStreamExt};
use mrds_client::model::params::PersonCommentaryParams;
use mrds_client::{Client, Error};
use mrds_model::params::StockDividendsParams;
use mrds_model::TimeType;

/// The model crate alone: a request built, validated and turned into its query.
pub fn dividends_query() -> Result<Vec<(&'static str, String)>, mrds_model::ValidationError> {
    let params =
        StockDividendsParams::new("BRK.B", 1_700_000_000, 1_710_000_000, TimeType::PaymentDate)
            .with_limit(100);
    params.validate()?;
    Ok(params.to_query())
}

/// The client: one page, every page as a stream collected, and the stream read row by row;
/// the number of records each way.
pub async fn commentary(
    base_url: &str,
    params: &PersonCommentaryParams,
) -> Result<(usize, usize, usize), Box<dyn std::error::Error>> {
    let client = Client::builder(base_url).api_key("demo-key").build()?;
    let first = match client.person_commentary(params).await {
        Ok(page) => page,
        Err(Error::Api(e)) if e.status == 404 => return Ok((0, 0, 0)),
        Err(e) => return Err(e.into()),
    };
    let all: Vec<_> = client.person_commentary_stream(params).try_collect().await?;
    let mut rows = client.person_commentary_stream(params);
    let mut read = 0;
    while let Some(row) = rows.next().await {
        row?;
        read += 1;
    }
    Ok((first.data.len(), all.len(), read))
}
