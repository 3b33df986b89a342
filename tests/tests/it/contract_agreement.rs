//! The contract suite's probes and the generator's judgement of a request
//! ([`mrds_spec::model::Endpoint::problems`], what the generated `validate()` decides) say the
//! same of every probe of a parameter or a rule: a probe expecting an issue finds it judged, a
//! probe expecting none finds none. Over the real spec and every fixture spec (lists of each
//! style, with and without item bounds, patterns and value sets), so a disagreement on an empty
//! value or an empty item of a list is found without compiling anything.

use mrds_probes::{Expect, Probe, Removed};
use mrds_spec::model::{Api, Endpoint, ParamId, Segment};

/// The parameter values a probe's request gives, by parameter: path segments read against the
/// template, query pairs by wire name (unknown names dropped). `None` when the path is not the
/// endpoint's (a probe of another route).
fn values(e: &Endpoint, probe: &Probe) -> Option<Vec<(ParamId, String)>> {
    let mut out = Vec::new();
    let parts: Vec<&str> = probe
        .request
        .path
        .trim_start_matches('/')
        .split('/')
        .collect();
    if parts.len() != e.path.segments.len() {
        return None;
    }
    for (segment, part) in e.path.segments.iter().zip(parts) {
        match segment {
            Segment::Literal(text) if text == part => {}
            Segment::Literal(_) => return None,
            Segment::Param { param, .. } => {
                out.push((*param, mrds_runtime::text::percent_decode(part)));
            }
        }
    }
    for (name, value) in &probe.request.query {
        if let Some(p) = e.param_named(name) {
            out.push((p.id, value.clone()));
        }
    }
    Some(out)
}

/// What the judgement of `probe`'s request misses of its expectation, if anything.
fn disagreement(api: &Api, e: &Endpoint, probe: &Probe) -> Option<String> {
    let body = match &probe.request.body {
        None => None,
        Some(sent) => Some(serde_json::from_str::<serde_json::Value>(&sent.text).ok()?),
    };
    let values = values(e, probe)?;
    let record = e.body.as_ref().map(|b| api.record(b.record));
    let problems = e.problems(record, &values, body.as_ref());
    let judged: Vec<String> = (problems.iter())
        .map(|p| format!("{} at {} ({:?}: {})", p.rule, p.param, p.got, p.reason))
        .collect();
    let missed = match &probe.expect {
        // What the judgement leaves to others: a single value given twice (the server's
        // reading), a body not of its record's shape (its decoding).
        Expect::Rejected { rule, .. } if !judged_by_the_model(e, rule) => false,
        Expect::Rejected { field, rule } => {
            !(problems.iter()).any(|p| &p.rule == rule && &p.param == field)
        }
        Expect::Accepted { param } => {
            let own = format!("{}.{param}.", e.id);
            (problems.iter()).any(|p| p.rule.starts_with(&own))
        }
        Expect::Kept { rule } => problems.iter().any(|p| &p.rule == rule),
        Expect::Records { .. } | Expect::Error { .. } => false,
    };
    missed.then(|| {
        format!(
            "{}: the probe sends {} and expects {:?}; the judgement: {judged:?}",
            probe.id,
            probe.request.target(),
            probe.expect
        )
    })
}

/// Whether the judgement of the model decides `rule` (an issue of a rule of `e`): all but the
/// repetition of a single value and the body's shape.
fn judged_by_the_model(e: &Endpoint, rule: &str) -> bool {
    let single = |p: &&mrds_spec::model::Param| p.list.is_none();
    let repeated = (e.params.iter().filter(single))
        .any(|p| rule == e.value_rule(&p.wire, mrds_spec::model::ValueCheck::Repeated));
    !repeated && rule != format!("{}.body", e.id)
}

fn disagreements(api: &Api) -> Vec<String> {
    let probes = mrds_probes::derive(api, Removed::Gone);
    (probes.iter())
        .filter_map(|probe| {
            let e = api.endpoint_named(&probe.endpoint)?;
            disagreement(api, e, probe)
        })
        .collect()
}

#[test]
fn the_probes_of_the_real_spec_are_what_the_generated_code_decides() {
    let found = disagreements(mrds_tests::real_spec());
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_probes_of_every_fixture_are_what_the_generated_code_decides() {
    let mut found = Vec::new();
    for (name, sources) in mrds_tests::fixture_specs() {
        let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{name}: {d}"));
        found.extend(
            disagreements(&api)
                .into_iter()
                .map(|d| format!("{name}: {d}")),
        );
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
