//! Drafts of undocumented endpoints, round trip: an endpoint is removed from a copy of the
//! spec's files; the contract suite's requests of it (derived from the full spec) go through
//! the checking proxy of the spec without it to the sample server of the full spec; the proxy
//! records them as traffic of a path no endpoint serves; `cargo xtask drift`'s report drafts
//! the endpoint from that traffic, and the draft, added to the reduced spec, loads and
//! generates. The draft is compared with the endpoint removed, fact by fact: the path template,
//! the path and query parameters (name, type, format, required), the returned record's fields
//! (name, type, optional, format, and the values of a value set), nested records included.
//!
//! The default run takes one endpoint (the first of the model with a value-set field in its
//! record, a format and an optional query parameter); the explicit run
//! ([`every_endpoint_round_trips`]) takes every endpoint the sample server answers and prints
//! the fraction recovered by kind of fact (BENCHMARKS.md, *Following the provider*):
//!
//! ```sh
//! cargo test -p mrds-tests --test it provider_drafts -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;

use mrds_runtime::drift::Observed;
use mrds_runtime::proxy::Proxy;
use mrds_spec::model::{Api, Endpoint, Field, ParamLocation, Record, TypeRef, ValueType};

use super::contract::serve;
use super::provider_proxy::KEY;

/// Facts recovered and facts compared, by kind of fact.
#[derive(Clone, Debug, Default)]
struct Recovered {
    kinds: BTreeMap<&'static str, (u32, u32)>,
    /// What was not recovered, for the message of a failure.
    missed: Vec<String>,
}

impl Recovered {
    fn fact(&mut self, kind: &'static str, recovered: bool, what: impl FnOnce() -> String) {
        let entry = self.kinds.entry(kind).or_default();
        entry.1 += 1;
        if recovered {
            entry.0 += 1;
        } else {
            self.missed.push(format!("{kind}: {}", what()));
        }
    }

    fn add(&mut self, other: &Recovered) {
        for (kind, (r, t)) in &other.kinds {
            let entry = self.kinds.entry(kind).or_default();
            entry.0 += r;
            entry.1 += t;
        }
        self.missed.extend(other.missed.iter().cloned());
    }

    fn fraction(&self) -> f64 {
        let (r, t) = (self.kinds.values()).fold((0, 0), |(r, t), (a, b)| (r + a, t + b));
        f64::from(r) / f64::from(t.max(1))
    }
}

/// The spec's files without endpoint `id` and its samples.
fn without(sources: &[(String, String)], id: &str) -> Vec<(String, String)> {
    use mrds_follow::splice::{File, apply};
    let mut splices = Vec::new();
    for (name, text) in sources {
        let file = File::new(name, text);
        for section in ["endpoints", "samples"] {
            let Some(map) = file.at(&[section]) else {
                continue;
            };
            let only = mrds_follow::splice::entries(map).len() == 1;
            match (only, file.root.as_ref()) {
                (true, Some(root)) if mrds_follow::splice::value(map, id).is_some() => {
                    splices.extend(file.remove_entry(root, section));
                }
                _ => splices.extend(file.remove_entry(map, id)),
            }
        }
    }
    apply(sources, &splices)
}

/// The type of a value as a draft can tell it: `integer`, `number`, `boolean`, `string`,
/// `record`, `any`, or `values` (a value set), with `[]` for an array.
fn field_kind(api: &Api, f: &Field) -> String {
    let kind = match &f.ty {
        TypeRef::String => "string",
        TypeRef::Integer => "integer",
        TypeRef::Number => "number",
        TypeRef::Boolean => "boolean",
        TypeRef::Any | TypeRef::Records => "any",
        TypeRef::Record(_) => "record",
        TypeRef::ValueSet(_) | TypeRef::ErrorCode => "values",
    };
    let _ = api;
    if f.array {
        format!("{kind}[]")
    } else {
        kind.into()
    }
}

fn param_kind(ty: &ValueType) -> &'static str {
    match ty {
        ValueType::Integer(_) => "integer",
        ValueType::String(_) => "string",
        ValueType::Boolean => "boolean",
        ValueType::Enum(_) => "values",
    }
}

fn param_format(ty: &ValueType) -> Option<String> {
    match ty {
        ValueType::Integer(t) => t.format.map(|_| "unix_seconds".to_string()),
        ValueType::String(t) => t.format.map(|f| f.name().to_string()),
        _ => None,
    }
}

/// Compares the fields of `original` (of `a`) with those of `draft` (of `b`), nested records
/// included.
fn compare_record(a: &Api, original: &Record, b: &Api, draft: &Record, out: &mut Recovered) {
    for f in &original.fields {
        let name = format!("{}.{}", original.spec_name, f.wire);
        let d = draft.fields.iter().find(|d| d.wire == f.wire);
        out.fact("field names", d.is_some(), || name.clone());
        let Some(d) = d else {
            continue;
        };
        let (ka, kb) = (field_kind(a, f), field_kind(b, d));
        out.fact("field types", ka == kb, || {
            format!("{name}: {ka}, drafted {kb}")
        });
        out.fact("optionality", f.optional == d.optional, || {
            format!("{name}: optional {}, drafted {}", f.optional, d.optional)
        });
        let (fa, fb) = (f.format.map(|x| x.name()), d.format.map(|x| x.name()));
        out.fact("formats", fa == fb, || {
            format!("{name}: {fa:?}, drafted {fb:?}")
        });
        if let TypeRef::ValueSet(set) = f.ty {
            let values: Vec<&str> = a
                .value_set(set)
                .values
                .iter()
                .map(|v| v.wire.as_str())
                .collect();
            let drafted: Option<Vec<&str>> = match d.ty {
                TypeRef::ValueSet(s) => Some(
                    b.value_set(s)
                        .values
                        .iter()
                        .map(|v| v.wire.as_str())
                        .collect(),
                ),
                _ => None,
            };
            let fits = drafted
                .as_ref()
                .is_some_and(|d| d.iter().all(|v| values.contains(v)));
            out.fact("value sets", fits, || {
                format!("{name}: {values:?}, drafted {drafted:?}")
            });
        }
        if let (TypeRef::Record(ra), TypeRef::Record(rb)) = (&f.ty, &d.ty) {
            compare_record(a, a.record(*ra), b, b.record(*rb), out);
        }
    }
}

/// Compares endpoint `original` of `a` with its draft `draft` of `b`.
fn compare(a: &Api, original: &Endpoint, b: &Api, draft: &Endpoint) -> Recovered {
    let mut out = Recovered::default();
    let shape = |e: &Endpoint| {
        (e.path.segments.iter())
            .map(|s| match s {
                mrds_spec::model::Segment::Literal(t) => t.clone(),
                mrds_spec::model::Segment::Param { .. } => "{}".into(),
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let (sa, sb) = (shape(original), shape(draft));
    out.fact("path template", sa == sb, || format!("{sa}, drafted {sb}"));
    let path_params = |e: &Endpoint| -> Vec<&'static str> {
        (e.path.params())
            .map(|id| param_kind(&e.param(id).ty))
            .map(|k| if k == "values" { "string" } else { k })
            .collect()
    };
    let (pa, pb) = (path_params(original), path_params(draft));
    for (i, kind) in pa.iter().enumerate() {
        out.fact("path parameters", pb.get(i) == Some(kind), || {
            format!("#{i}: {kind}, drafted {:?}", pb.get(i))
        });
    }
    for p in original
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Query)
    {
        let name = format!("{}?{}", original.id, p.wire);
        let d = draft
            .param_named(&p.wire)
            .filter(|d| d.location == ParamLocation::Query);
        out.fact("query parameters", d.is_some(), || name.clone());
        let Some(d) = d else {
            continue;
        };
        let (ka, kb) = (param_kind(&p.ty), param_kind(&d.ty));
        out.fact("query parameter types", ka == kb, || {
            format!("{name}: {ka}, drafted {kb}")
        });
        let (fa, fb) = (param_format(&p.ty), param_format(&d.ty));
        out.fact("formats", fa == fb, || {
            format!("{name}: {fa:?}, drafted {fb:?}")
        });
        out.fact("optionality", p.required == d.required, || {
            format!("{name}: required {}, drafted {}", p.required, d.required)
        });
    }
    compare_record(
        a,
        a.record(original.returns),
        b,
        b.record(draft.returns),
        &mut out,
    );
    out
}

/// The round trip of endpoint `id`: what its draft recovered; with `generate`, the spec with
/// the draft generates too. `None` when the spec without the endpoint does not load (another
/// endpoint aliases an anchor of it).
async fn round_trip(id: &str, generate: bool) -> Option<Recovered> {
    let api = mrds_tests::real_spec();
    let original = api.endpoints.iter().find(|e| e.id == id).unwrap();
    // The proxy of the spec without the endpoint, in front of the full sample server.
    let mut app = mrds_mock::APP;
    let kept: Vec<mrds_runtime::Endpoint> = (app.endpoints.iter())
        .filter(|e| e.id != id)
        .copied()
        .collect();
    app.endpoints = kept.leak();
    let sample = serve(mrds_mock::router(mrds_server::StaticKeys::new([KEY]))).await;
    let proxy = Proxy::builder(&app, format!("http://{sample}"))
        .build()
        .unwrap();
    let at = serve(proxy.router()).await;
    let options = mrds_contract::Options {
        only: vec![id.to_string()],
        ..super::provider_proxy::contract_at(at)
    };
    mrds_contract::run(api, &options)
        .await
        .expect("the suite runs");
    let findings = proxy.findings();
    assert!(
        findings
            .iter()
            .all(|f| matches!(f.observed, Observed::Undocumented { .. })),
        "{findings:#?}"
    );
    // The report of the spec without it drafts it.
    let sources = mrds_spec::load::read_dir(&mrds_tests::workspace_root().join("spec")).unwrap();
    let reduced = without(&sources, id);
    let reduced_api = mrds_spec::load_sources(&reduced).ok()?;
    let options = mrds_follow::Options {
        today: "2026-12-01".into(),
    };
    let report = mrds_follow::report(&reduced_api, &reduced, &findings, &options);
    if report.problems.is_some() {
        for (name, text) in &report.files {
            println!("{name}:\n{text}");
        }
    }
    assert_eq!(report.problems, None, "{}", report.text);
    assert_eq!(report.edits, 1, "{}", report.text);
    let draft = (report.files.iter())
        .find(|(name, _)| name.starts_with("spec/drafts/"))
        .unwrap_or_else(|| panic!("no draft: {}", report.text));
    let text = &draft.1;
    assert!(
        text.contains("assumed: &inferred \"inferred from "),
        "{text}"
    );
    let mut all = reduced.clone();
    all.push(draft.clone());
    let drafted_api = mrds_spec::load_sources(&all).unwrap_or_else(|d| panic!("{d}\n{text}"));
    if generate {
        mrds_emit::all(&drafted_api).expect("the spec with the draft generates");
    }
    let drafted = (drafted_api.endpoints.iter())
        .find(|e| !reduced_api.endpoints.iter().any(|r| r.id == e.id))
        .expect("the drafted endpoint");
    Some(compare(api, original, &drafted_api, drafted))
}

/// The first endpoint the sample server answers whose record has a value-set field and a
/// field with a format, and which has an optional query parameter; `None` when a release left
/// the spec none (the round trip of every endpoint, an explicit run, still drafts them all).
fn chosen() -> Option<&'static str> {
    let api = mrds_tests::real_spec();
    (super::provider_proxy::candidates(api))
        .map(|(e, _)| e)
        .find(|e| {
            let record = api.record(e.returns);
            record
                .fields
                .iter()
                .any(|f| matches!(f.ty, TypeRef::ValueSet(_)))
                && record.fields.iter().any(|f| f.format.is_some())
                && e.params
                    .iter()
                    .any(|p| !p.required && p.location == ParamLocation::Query)
        })
        .map(|e| e.id.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_removed_is_drafted_back_from_traffic() {
    let Some(id) = chosen() else {
        eprintln!("no served endpoint has a value-set field, a format and an optional parameter");
        return;
    };
    let recovered = round_trip(id, true)
        .await
        .expect("the spec without it loads");
    let fraction = recovered.fraction();
    assert!(
        fraction >= 0.9,
        "{id}: {:.1} % of the facts recovered: {recovered:#?}",
        fraction * 100.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "explicit: every endpoint's round trip, for BENCHMARKS.md"]
async fn every_endpoint_round_trips() {
    let api = mrds_tests::real_spec();
    let ids: Vec<String> = (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && e.body.is_none() && e.samples.is_some())
        .filter(|e| e.method == mrds_spec::model::Method::Get)
        .map(|e| e.id.clone())
        .collect();
    let mut total = Recovered::default();
    println!("| endpoint | facts | recovered |");
    println!("|---|---|---|");
    for id in &ids {
        let Some(r) = round_trip(id, false).await else {
            println!("| {id} | (its removal leaves an alias of its anchor: skipped) | |");
            continue;
        };
        let facts: u32 = r.kinds.values().map(|(_, t)| t).sum();
        println!("| {id} | {facts} | {:.1} % |", r.fraction() * 100.0);
        total.add(&r);
    }
    println!();
    println!("| fact | recovered | of | fraction |");
    println!("|---|---|---|---|");
    for (kind, (r, t)) in &total.kinds {
        println!(
            "| {kind} | {r} | {t} | {:.1} % |",
            f64::from(*r) / f64::from(*t) * 100.0
        );
    }
    println!(
        "\nall facts: {:.1} % of {} endpoints",
        total.fraction() * 100.0,
        ids.len()
    );
    println!("\nnot recovered:");
    for m in &total.missed {
        println!("- {m}");
    }
}
