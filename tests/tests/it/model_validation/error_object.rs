//! A `ValidationError` as the service's error object (one detail per issue, the wire code, a
//! singular message for one issue), and its `breaks()` and display.

use mrds_model::params::{MarketKlineParams, StockDividendsParams};
use mrds_model::{ErrorCode, TimeType, ValidationError, ValidationIssue};

use super::{T0, raw, rules};

#[test]
fn validation_error_to_error_object() {
    let q = format!(
        "symbol=BRK_B&start_time={}&end_time={T0}&time_type=RECORD_DATE&limit=0",
        T0 + 10
    );
    let e = StockDividendsParams::from_raw(&raw(&q)).unwrap_err();
    assert_eq!(e.issues.len(), 3);
    let obj: mrds_model::ErrorObject = e.to_error_object();
    assert_eq!(obj.code, ErrorCode::InvalidParameter);
    assert_eq!(obj.code.http_status(), Some(400));
    assert_eq!(obj.message, "3 invalid parameters");
    assert_eq!(obj.details.len(), e.issues.len());
    for (detail, issue) in obj.details.iter().zip(&e.issues) {
        assert_eq!(detail.field, issue.field);
        assert_eq!(detail.got, issue.got);
        assert!(
            detail.reason.contains(issue.rule),
            "reason `{}` does not name `{}`",
            detail.reason,
            issue.rule
        );
        assert!(detail.reason.contains(&issue.reason));
        assert_eq!(detail.reason, issue.detail_reason());
    }
    assert_eq!(obj.details[0].field, "symbol");
    assert_eq!(obj.details[0].got, "BRK_B");
    assert!(
        obj.details[0]
            .reason
            .contains("stock_dividends.symbol.pattern")
    );
    assert_eq!(obj.details[2].field, "end_time");
    assert_eq!(obj.details[2].got, T0.to_string());
    assert!(
        obj.details[2]
            .reason
            .contains("stock_dividends.range_order")
    );
    assert_eq!(obj.docs_url, None);
    assert_eq!(obj.hint, None);
    assert!(obj.examples.is_empty() && obj.suggestions.is_empty());

    // As JSON: the wire code, one details entry per issue, nothing empty.
    let json = serde_json::to_value(&obj).unwrap();
    assert_eq!(json["code"], "INVALID_PARAMETER");
    assert_eq!(json["details"].as_array().unwrap().len(), 3);
    assert_eq!(json["details"][1]["field"], "limit");
    assert_eq!(json["details"][1]["got"], "0");
    assert!(
        json["details"][1]["reason"]
            .as_str()
            .unwrap()
            .contains("stock_dividends.limit.range")
    );
    let members: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(members, ["code", "details", "message"], "{json}");

    // One issue: singular message; a missing parameter has an empty `got`.
    let e = MarketKlineParams::from_raw(&raw("trading_pair=US_SPOT_AAPL_USD")).unwrap_err();
    let obj: mrds_model::ErrorObject = e.to_error_object();
    assert_eq!(obj.message, "1 invalid parameter");
    assert_eq!(obj.details.len(), 1);
    assert_eq!(obj.details[0].field, "interval");
    assert_eq!(obj.details[0].got, "");
    assert!(
        obj.details[0]
            .reason
            .contains("market_kline.interval.required")
    );
}

#[test]
fn validation_error_breaks_and_display() {
    let e = StockDividendsParams::new("BRK_B", T0 + 10, T0, TimeType::RecordDate)
        .with_limit(0)
        .validate()
        .unwrap_err();
    assert!(e.breaks("stock_dividends.symbol.pattern"));
    assert!(e.breaks("stock_dividends.limit.range"));
    assert!(e.breaks("stock_dividends.range_order"));
    assert!(!e.breaks("stock_dividends.limit"));
    assert!(!e.breaks("stock_dividends.time_type.values"));
    assert!(!e.breaks("non_us_kline.range_order"));
    let text = e.to_string();
    for issue in &e.issues {
        assert!(text.contains(issue.rule), "{text}");
        assert!(text.contains(&*issue.field), "{text}");
    }
    assert!(ValidationError::check(Vec::new()).is_ok());
    assert_eq!(
        rules(ValidationError::check(vec![ValidationIssue::new(
            "x.y.range",
            "y",
            "0",
            "must be positive"
        )])),
        ["x.y.range"]
    );
}
