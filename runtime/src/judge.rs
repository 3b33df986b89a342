//! How the spec judges a request, endpoint by endpoint: the generated parameter type's parsing
//! and validation ([`Request::from_raw`]) and, for an endpoint with a body, the body's checks
//! ([`WithBody::validate_body`]), exactly as the generated server runs them. The generated
//! sample-data crate lists one [`RequestCheck`] per endpoint (its `APP.requests`), and the
//! checking proxy compares their judgement with the service's answer.

use std::fmt;

use crate::{BodyRecord, Endpoint, Issues, RawParams, Request, ValidationError, WithBody};

/// What the spec says of one request, past the key check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// A server generated from the spec accepts it.
    Accepted,
    /// A server generated from the spec refuses it with 400 `INVALID_PARAMETER`, naming these
    /// rule ids (each once, in the order of the issues).
    Refused(Vec<&'static str>),
    /// The spec's server would refuse it before any rule (a body not declared as JSON: 415),
    /// or it cannot be judged (a path that does not decode): no rule is at stake.
    NotJudged,
}

impl Judgement {
    /// The judgement a generated parameter type's reading gives (`from_raw`, and with a body
    /// `validate_body`): accepted, or refused naming each rule of its issues once.
    pub fn of(result: Result<(), ValidationError>) -> Self {
        match result {
            Ok(()) => Judgement::Accepted,
            Err(error) => {
                let mut rules: Vec<&'static str> = Vec::new();
                for issue in &error.issues {
                    if !rules.contains(&issue.rule) {
                        rules.push(issue.rule);
                    }
                }
                Judgement::Refused(rules)
            }
        }
    }
}

/// How the spec judges the requests of one endpoint: its parameter type's checks. The
/// generated sample-data crate lists one per endpoint (its `APP.requests`, made with the
/// model crate's `visit_requests`), so an endpoint added to the spec is judged with no code
/// written.
#[derive(Clone, Copy)]
pub struct RequestCheck {
    endpoint: &'static Endpoint,
    judge: fn(&RawParams, Option<&[u8]>) -> Judgement,
}

impl fmt::Debug for RequestCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestCheck")
            .field("endpoint", &self.endpoint.id)
            .finish_non_exhaustive()
    }
}

impl RequestCheck {
    /// The checks of `P`'s endpoint, which takes no body: `P::from_raw` (a body sent anyway is
    /// ignored, as the generated server ignores it).
    pub fn of<P: Request>() -> Self {
        Self {
            endpoint: P::ENDPOINT,
            judge: |raw, _| Judgement::of(P::from_raw(raw).map(drop)),
        }
    }

    /// The checks of `P`'s endpoint, which takes a JSON body: the body parsed as `P::Body`
    /// (else the issue of `P::BODY_RULE`), then the parameters and the body checked together,
    /// every issue of both at once, as the generated server does.
    pub fn with_body<P: WithBody>() -> Self {
        Self {
            endpoint: P::ENDPOINT,
            judge: judge_with_body::<P>,
        }
    }

    /// The endpoint whose requests these are.
    pub fn endpoint(&self) -> &'static Endpoint {
        self.endpoint
    }

    /// The spec's judgement of a request of the endpoint with the parameters `raw` (query and
    /// path) and `body`: the bytes of a body declared JSON (`Content-Type: application/json`),
    /// `None` for a request without one or with a body of another type.
    pub fn judge(&self, raw: &RawParams, body: Option<&[u8]>) -> Judgement {
        (self.judge)(raw, body)
    }
}

fn judge_with_body<P: WithBody>(raw: &RawParams, body: Option<&[u8]>) -> Judgement {
    // Not declared JSON: the server answers 415 before any rule.
    let Some(bytes) = body else {
        return Judgement::NotJudged;
    };
    let body = match serde_json::from_slice::<P::Body>(bytes) {
        Ok(body) => body,
        Err(_) => return Judgement::Refused(vec![P::BODY_RULE]),
    };
    let result = match P::from_raw(raw) {
        Ok(params) => params.validate_body(&body),
        Err(mut error) => {
            let mut issues = Issues::new();
            body.check(&mut issues);
            error.issues.extend(issues.as_slice().iter().cloned());
            Err(error)
        }
    };
    Judgement::of(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Auth, ParamRules, ValidationIssue};

    const ENDPOINT: Endpoint = Endpoint {
        id: "rows",
        method: crate::Method::Get,
        path: "/v1/rows",
        summary: "Rows.",
        auth: Auth::Required,
        removed: None,
        idempotent: true,
    };

    /// `limit` (1 to 10) and `from` before `to`.
    #[derive(Debug)]
    struct Rows;

    const LIMIT: &ParamRules = crate::param_rules!("rows", "limit");

    impl Request for Rows {
        type Record = ();
        const ENDPOINT: &'static Endpoint = &ENDPOINT;
        fn validate(&self) -> Result<(), ValidationError> {
            Ok(())
        }
        fn to_query(&self) -> Vec<(&'static str, String)> {
            Vec::new()
        }
        fn path(&self) -> String {
            ENDPOINT.path.to_string()
        }
        fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
            let mut issues = Issues::new();
            let limit: Option<i64> = raw.optional("limit", LIMIT, &mut issues);
            if limit.is_some_and(|l| !(1..=10).contains(&l)) {
                issues.push(ValidationIssue::new(
                    "rows.limit.range",
                    "limit",
                    "",
                    "out of range",
                ));
            }
            let from: Option<i64> = raw.optional("from", LIMIT, &mut issues);
            let to: Option<i64> = raw.optional("to", LIMIT, &mut issues);
            if let (Some(from), Some(to)) = (from, to)
                && from >= to
            {
                issues.push(ValidationIssue::new(
                    "rows.range_order",
                    "from",
                    "",
                    "after to",
                ));
                issues.push(ValidationIssue::new(
                    "rows.range_order",
                    "to",
                    "",
                    "before from",
                ));
            }
            issues.finish().map(|()| Rows)
        }
    }

    #[test]
    fn a_request_is_judged_by_the_parameter_types_checks() {
        let check = RequestCheck::of::<Rows>();
        assert_eq!(check.endpoint().id, "rows");
        let judge = |query: &str| check.judge(&RawParams::from_query_string(query), None);
        assert_eq!(judge("limit=3"), Judgement::Accepted);
        assert_eq!(
            judge("limit=30"),
            Judgement::Refused(vec!["rows.limit.range"])
        );
        // A rule broken twice is named once; every rule broken is named.
        assert_eq!(
            judge("limit=0&from=5&to=1"),
            Judgement::Refused(vec!["rows.limit.range", "rows.range_order"])
        );
        assert_eq!(
            judge("limit=x"),
            Judgement::Refused(vec!["rows.limit.type"])
        );
    }
}
