//! `bench-server generated|baseline ADDR`: serves dividends for the wrk benchmark
//! (`bench/server.sh`), on one worker thread so the load generator has the other core.
//!
//! - `generated`: the generated router (key check, raw query parsing, validation, envelope,
//!   request id, tracing) over an implementation that returns fixed records;
//! - `baseline`: a hand-written axum handler that answers the same bytes with no key check,
//!   no parsing and no validation.

use std::future::Future;

use mrds_model::params::*;
use mrds_model::records::*;
use mrds_server::axum::Router;
use mrds_server::axum::http::header;
use mrds_server::axum::routing::get;
use mrds_server::{Api, ApiError, RequestContext, StaticKeys};

/// Fixed dividends; every other endpoint answers with the sample data.
struct Fixed {
    dividends: Vec<PitDividend>,
    samples: mrds_mock::Mock,
}

macro_rules! delegate {
    ($($name:ident: $params:ident => $record:ty),* $(,)?) => {$(
        fn $name(
            &self,
            ctx: RequestContext,
            params: $params,
        ) -> impl Future<Output = Result<Vec<$record>, ApiError>> + Send {
            self.samples.$name(ctx, params)
        }
    )*};
}

impl Api for Fixed {
    delegate! {
        company_detail: CompanyDetailParams => CompanyProfile,
        equity_offering: EquityOfferingParams => EquityOffering,
        etf_flow: EtfFlowParams => EtfFlow,
        forex_historical: ForexHistoricalParams => ForexBar,
        leverage_ratio: LeverageRatioParams => LeverageRatio,
        market_kline: MarketKlineParams => Candle,
        nand_flash_spot_price: NandFlashSpotPriceParams => NandSpotPrice,
        non_us_kline: NonUsKlineParams => NonUsBar,
        perp_kline: PerpKlineParams => Candle,
        person_commentary: PersonCommentaryParams => PersonCommentary,
        research_units: ResearchUnitsParams => ResearchUnit,
        screener_events: ScreenerEventsParams => ScreenerEvent,
        ssr: SsrParams => Ssr,
        treasury_rates: TreasuryRatesParams => TreasuryRate,
    }

    async fn stock_dividends(
        &self,
        _ctx: RequestContext,
        _params: StockDividendsParams,
    ) -> Result<Vec<PitDividend>, ApiError> {
        Ok(self.dividends.clone())
    }
}

fn baseline() -> Router {
    let body = serde_json::to_vec(&mrds_model::Envelope {
        success: true,
        request_id: "req_000000000000000000".into(),
        data: mrds_bench::dividends(),
        error: None,
        metadata: None,
        pagination: None,
    })
    .expect("records serialize");
    let body: &'static [u8] = body.leak();
    Router::new().route(
        "/api/v1/stocks/dividends",
        get(move || async move { ([(header::CONTENT_TYPE, "application/json")], body) }),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (app, addr) = match args.as_slice() {
        [mode, addr] if mode == "generated" => (
            mrds_server::router(
                Fixed {
                    dividends: mrds_bench::dividends(),
                    samples: mrds_mock::Mock::new(),
                },
                StaticKeys::new([mrds_bench::KEY]),
            ),
            addr,
        ),
        [mode, addr] if mode == "baseline" => (baseline(), addr),
        _ => {
            eprintln!("usage: bench-server generated|baseline HOST:PORT");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime starts");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .expect("address is free");
        mrds_server::axum::serve(listener, app)
            .await
            .expect("server runs");
    });
}
