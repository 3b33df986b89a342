//! `params`: a query string and path parameters, for one endpoint (the first byte picks it),
//! through the generated parameter type.
//!
//! Input: the endpoint byte, the path parameters' values (decoded, as the router hands them
//! over; separated by `0xFE`) up to `0xFF`, then the raw query string.
//!
//! Properties:
//!
//! - every rule id a refusal names is one of the endpoint's;
//! - the generator judges the request as the generated code does (`Endpoint::problems` of
//!   the resolved model names the same rules as `from_raw`, when no parameter is repeated);
//! - what `from_raw` accepts, the client's `validate()` accepts, and the client's request of
//!   it (`to_query()` and `path()` percent-encoded as the client sends them, a valid URI) is
//!   read back by `from_raw` as the same parameters (the same `to_query()` and `path()`);
//! - for the parameters as received without their checks (`from_raw_unchecked`: values out
//!   of range, rules broken), the client's `validate()` and the server's `from_raw` of the
//!   client's request refuse them alike, naming the same rules.

use std::fmt::Debug;

use mrds_runtime::text::percent_encode;
use mrds_runtime::{RawParams, Request, ValidationError};
use mrds_spec::model::ParamLocation;

use super::endpoints::{self, path_names, path_params};
use super::{Input, rule_ids};

pub fn params(data: &[u8]) {
    let mut input = Input::new(data);
    let typed = endpoints::pick(input.byte());
    let path = input.until(0xFF);
    let query = String::from_utf8_lossy(input.rest());
    let mut raw = RawParams::from_query_string(&query);
    let values = path.split(|&b| b == 0xFE);
    for (name, value) in path_names(typed.endpoint.path).into_iter().zip(values) {
        // The router matches a segment only when it is not empty.
        if !value.is_empty() {
            raw = raw.with_path(name, String::from_utf8_lossy(value));
        }
    }
    (typed.params)(&raw);
}

/// The checks of one request of `P`'s endpoint: [`judged`], [`read_back`], [`agreed`].
pub(super) fn check<P: Request + Debug>(raw: &RawParams) {
    judged::<P>(raw);
    read_back::<P>(raw);
    agreed::<P>(raw);
}

/// A refusal names the endpoint's own rules, the rules the generator's judgement names.
pub(super) fn judged<P: Request + Debug>(raw: &RawParams) {
    let id = P::ENDPOINT.id;
    let server = P::from_raw(raw);
    if let Err(error) = &server {
        assert!(!error.issues.is_empty(), "{id}: a refusal names an issue");
        for issue in &error.issues {
            let own = issue
                .rule
                .strip_prefix(id)
                .is_some_and(|rest| rest.starts_with('.'));
            assert!(own, "{id}: a refusal names `{}`", issue.rule);
        }
    }
    the_generator_agrees(id, raw, &server);
}

/// Encoded and decoded: what `from_raw` accepts, `validate()` accepts, and the client's
/// request of it is read back as the same parameters; the parameters as read without their
/// checks are read back the same way, by the server's reading without checks.
pub(super) fn read_back<P: Request + Debug>(raw: &RawParams) {
    let id = P::ENDPOINT.id;
    let unchecked = P::from_raw_unchecked(raw);
    if let Ok(accepted) = &P::from_raw(raw) {
        if let Err(e) = accepted.validate() {
            panic!("{id}: from_raw accepts {raw:?}, validate() refuses it: {e:?}");
        }
        round_trip(accepted);
        match &unchecked {
            Some(Ok(read)) => assert_same(read, accepted, "read without its checks"),
            Some(Err(e)) => panic!("{id}: accepted, yet refused without its checks: {e:?}"),
            None => {}
        }
    }
    if let Some(Ok(value)) = &unchecked {
        let (target, sent) = sent(value);
        match P::from_raw_unchecked(&sent) {
            Some(Ok(back)) => assert_same(&back, value, "read back without its checks"),
            other => panic!("{id}: {value:?} sent as `{target}` is read back as {other:?}"),
        }
    }
}

/// The client and the server agree on every rule: the client's `validate()` of the
/// parameters (as read without their checks: values out of range, rules broken) and the
/// server's `from_raw` of the request the client sends for them accept and refuse alike,
/// naming the same rules.
pub(super) fn agreed<P: Request + Debug>(raw: &RawParams) {
    let id = P::ENDPOINT.id;
    let Some(Ok(value)) = P::from_raw_unchecked(raw) else {
        return;
    };
    let client = value.validate();
    let (_, sent) = sent(&value);
    let back = P::from_raw(&sent);
    assert_eq!(
        rules_of(&client),
        rules_of(&back),
        "{id}: the client's validate() and the server's from_raw of what the client sends \
         disagree on {value:?} (sent as {sent:?})"
    );
    if let Ok(back) = &back {
        assert_same(back, &value, "read back");
    }
}

/// The request a client sends for `p`: the URI's path and query as text, and the parameters
/// the server reads from it.
fn sent<P: Request + Debug>(p: &P) -> (String, RawParams) {
    let query: Vec<String> = p
        .to_query()
        .iter()
        .map(|(name, value)| format!("{}={}", percent_encode(name), percent_encode(value)))
        .collect();
    let query = query.join("&");
    let path = p.path();
    let target = format!("{}{path}?{query}", mrds_model::api::BASE_PATH);
    if let Err(e) = target.parse::<mrds_server::axum::http::Uri>() {
        panic!(
            "{}: the client's request `{target}` is no URI: {e}",
            P::ENDPOINT.id
        );
    }
    let Some(path_params) = path_params(P::ENDPOINT.path, &path) else {
        panic!(
            "{}: the path `{path}` does not fill {}",
            P::ENDPOINT.id,
            P::ENDPOINT.path
        );
    };
    let mut raw = RawParams::from_query_string(&query);
    for (name, value) in path_params {
        raw = raw.with_path(name, value);
    }
    (target, raw)
}

/// `accepted`, sent as the client sends it, is read back by the server as the same
/// parameters; and from decoded pairs too.
fn round_trip<P: Request + Debug>(accepted: &P) {
    let id = P::ENDPOINT.id;
    let (target, raw) = sent(accepted);
    match P::from_raw(&raw) {
        Ok(back) => assert_same(&back, accepted, "read back from the client's request"),
        Err(e) => panic!("{id}: {accepted:?} sent as `{target}` is refused: {e:?}"),
    }
    let mut pairs = RawParams::from_pairs(accepted.to_query());
    for (name, value) in raw.path_pairs() {
        pairs = pairs.with_path(name, value);
    }
    match P::from_raw(&pairs) {
        Ok(back) => assert_same(&back, accepted, "read back from decoded pairs"),
        Err(e) => panic!("{id}: {accepted:?} as decoded pairs is refused: {e:?}"),
    }
}

/// Two values of `P` are the same parameters: the same query and path.
fn assert_same<P: Request + Debug>(got: &P, expected: &P, how: &str) {
    assert!(
        got.to_query() == expected.to_query() && got.path() == expected.path(),
        "{}: {how}: {got:?} is not {expected:?}",
        P::ENDPOINT.id
    );
}

/// The resolved model's judgement of the request (`Endpoint::problems`, what the generator
/// checks the samples' example requests and the contract suite's predictions with) names the
/// rules `from_raw` names. A parameter given twice is refused by `from_raw` alone (the model
/// reads each once), so such a request is not compared.
fn the_generator_agrees<T>(id: &str, raw: &RawParams, server: &Result<T, ValidationError>) {
    let Some(endpoint) = crate::real_spec().endpoint_named(id) else {
        panic!("`{id}` is in the generated table but not in the spec");
    };
    let mut given = Vec::new();
    let pairs = raw
        .query_pairs()
        .map(|pair| (ParamLocation::Query, pair))
        .chain(raw.path_pairs().map(|pair| (ParamLocation::Path, pair)));
    for (location, (name, value)) in pairs {
        let Some(param) = endpoint
            .param_named(name)
            .filter(|p| p.location == location)
        else {
            continue;
        };
        if given.iter().any(|(p, _)| *p == param.id) {
            return;
        }
        given.push((param.id, value.to_string()));
    }
    let mut model: Vec<String> = endpoint
        .problems(None, &given, None)
        .into_iter()
        .map(|p| p.rule)
        .collect();
    model.sort_unstable();
    model.dedup();
    let generated = rules_of(server);
    assert_eq!(
        generated, model,
        "{id}: from_raw (left) and the generator's judgement (right) disagree on {raw:?}"
    );
}

/// The rule ids a result names (none when it is `Ok`).
fn rules_of<T>(result: &Result<T, ValidationError>) -> Vec<&'static str> {
    match result {
        Ok(_) => Vec::new(),
        Err(e) => rule_ids(e),
    }
}
