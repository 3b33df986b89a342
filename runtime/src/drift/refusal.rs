//! [`Refusal`]: what the service's refusal of a request says (its error code, the rule it
//! names, its reason), as a proxy and a client read it for a `rule.looser` finding.

use super::json::cut;
use crate::ValidationIssue;

/// The most characters of the service's reason kept in a `rule.looser` finding.
pub const MAX_REASON: usize = 200;

/// What a refusal of the service says: its error code, the rule its details name (the
/// `[rule <id>]` the spec's servers end a reason with) and its reason (the first detail's,
/// else the message).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refusal {
    /// The error code (`INVALID_PARAMETER`).
    pub code: Option<String>,
    /// The rule id the details name.
    pub rule: Option<String>,
    /// The reason, cut to [`MAX_REASON`] characters.
    pub reason: Option<String>,
}

impl Refusal {
    /// What the body of a refusal says; nothing of a body that is not JSON.
    pub fn read(body: &[u8]) -> Self {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Self::default();
        };
        let error = &value["error"];
        let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
        let mut refusal = Refusal {
            code: text(&error["code"]),
            rule: None,
            reason: text(&error["message"]),
        };
        let details = error["details"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        for (i, detail) in details.iter().enumerate() {
            let Some(reason) = detail["reason"].as_str() else {
                continue;
            };
            let (said, rule) = ValidationIssue::split_detail_reason(reason);
            if i == 0 {
                let field = detail["field"].as_str().filter(|f| !f.is_empty());
                refusal.reason = Some(match field {
                    Some(field) => format!("{field}: {said}"),
                    None => said.to_string(),
                });
            }
            if refusal.rule.is_none() {
                refusal.rule = rule.map(str::to_string);
            }
        }
        refusal.reason = refusal.reason.map(|r| cut(r, MAX_REASON));
        refusal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_its_code_rule_and_reason() {
        let body = br#"{"success":false,"error":{"code":"INVALID_PARAMETER","message":"1 invalid parameter",
            "details":[{"field":"limit","got":"3","reason":"must be even [rule bars.limit_even]"}]}}"#;
        assert_eq!(
            Refusal::read(body),
            Refusal {
                code: Some("INVALID_PARAMETER".into()),
                rule: Some("bars.limit_even".into()),
                reason: Some("limit: must be even".into()),
            }
        );
        let bare = br#"{"error":{"code":"INVALID_PARAMETER","message":"too long"}}"#;
        assert_eq!(Refusal::read(bare).reason.as_deref(), Some("too long"));
        assert_eq!(Refusal::read(b"<html>"), Refusal::default());
        let long = format!(
            r#"{{"error":{{"code":"X","message":"{}"}}}}"#,
            "é".repeat(MAX_REASON * 2)
        );
        let reason = Refusal::read(long.as_bytes()).reason.unwrap();
        assert_eq!(reason.chars().count(), MAX_REASON + 1);
    }
}
