//! What a team writes with the packaged crates: a company's profile and a year of its
//! dividends, from the service, through `mrds-client`. Its tests (`tests/`) run it against the
//! packaged sample server in process, as the docs say to.

use mrds_client::model::TimeType;
use mrds_client::model::params::{CompanyDetailParams, StockDividendsParams};
use mrds_client::model::records::{CompanyProfile, PitDividend};
use mrds_client::{Client, Error};

/// The service, as this crate uses it.
#[derive(Clone, Debug)]
pub struct Provider {
    client: Client,
}

impl Provider {
    /// Calls through `client` (its base URL, key, timeouts and retries).
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    /// The company's profile; `None` when the service knows no such company.
    pub async fn company(&self, symbol: &str) -> Result<Option<CompanyProfile>, Error> {
        let params = CompanyDetailParams::new().with_symbol(symbol);
        match self.client.company_detail(&params).await {
            Ok(page) => Ok(page.data.into_iter().next()),
            Err(e) if e.status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The dividends paid in `year` (UTC).
    pub async fn dividends_paid_in(
        &self,
        symbol: &str,
        year: i64,
    ) -> Result<Vec<PitDividend>, Error> {
        let (start, end) = year_bounds(year);
        let params =
            StockDividendsParams::new(symbol, start, end, TimeType::PaymentDate).with_limit(1000);
        Ok(self.client.stock_dividends(&params).await?.data)
    }
}

/// The first and the last second of `year`, UTC, as Unix seconds.
pub fn year_bounds(year: i64) -> (i64, i64) {
    let start = days_from_civil(year, 1, 1) * 86_400;
    let end = days_from_civil(year + 1, 1, 1) * 86_400 - 1;
    (start, end)
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_year_is_its_seconds() {
        assert_eq!(super::year_bounds(1970), (0, 31_535_999));
        assert_eq!(super::year_bounds(2026).0, 1_767_225_600);
    }
}
