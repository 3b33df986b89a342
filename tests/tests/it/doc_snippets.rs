//! The snippets of the generated API in the hand-written docs (`mrds_emit::doc_snippets`, the
//! regions `snippet <name>` that `cargo xtask codegen` fills): generated from the model, so a
//! spec edited as a provider's release edits it leaves no snippet naming what is gone. The
//! doctests compile the real spec's (`docs::every_rust_snippet_is_one_the_doctests_compile`);
//! here, fast and in process, every snippet of other specs (the fixtures, an endpoint marked
//! removed, random releases of every kind) is checked against its model: every type,
//! constant, method, init struct member and field it names is one the generated crates have.

use std::collections::BTreeSet;

use mrds_emit::doc_snippets;
use mrds_follow::release::{Kind, release};
use mrds_spec::Api;
use mrds_spec::model::{Endpoint, Record};
use mrds_tests::workspace_root;

use super::random_releases::{applied, options_after, sources};

/// The names a snippet reads from the model, each checked against `api`: what is wrong.
fn inconsistencies(api: &Api, name: &str, text: &str) -> Vec<String> {
    let served: Vec<&Endpoint> = (api.endpoints.iter())
        .filter(|e| e.removed.is_none())
        .collect();
    let record = |n: &str| api.records.iter().find(|r| r.name == n);
    let required = |r: &Record| r.fields.iter().filter(|f| !f.optional).count();
    let init_of = |n: &str| n.strip_suffix("Init").map(str::to_string);
    let mut out = Vec::new();
    let mut wrong = |what: String| out.push(format!("snippet {name}: {what}\n{text}"));
    for line in text.lines().map(str::trim) {
        let Some(path) = line
            .strip_prefix("use mrds_client::model::")
            .or_else(|| line.strip_prefix("use mrds_model::"))
        else {
            continue;
        };
        let path = path.trim_end_matches(';');
        let (module, names) = path.split_once("::").unwrap_or(("", path));
        let names: Vec<&str> = names
            .trim_matches(['{', '}'])
            .split(',')
            .map(str::trim)
            .collect();
        for n in names {
            let known = match module {
                "params" => served.iter().any(|e| {
                    e.names.params_type == n
                        || (init_of(n).as_deref() == Some(e.names.params_type.as_str())
                            && e.params.iter().filter(|p| p.required).count() > 6)
                }),
                "records" => {
                    record(n).is_some()
                        || init_of(n)
                            .and_then(|r| record(&r))
                            .is_some_and(|r| required(r) > 6)
                }
                "value_sets" => api.value_sets.iter().any(|v| v.name == n),
                "api" => served.iter().any(|e| e.names.constant == n),
                _ => ["ErrorCode", "ValidationError"].contains(&n),
            };
            if !known {
                wrong(format!("`{n}` of `{module}` is not in the model"));
            }
        }
    }
    // The client's methods: `client.<method>(&..)` and `.<method>(&..)` on a line of its own.
    let methods: BTreeSet<&str> = served
        .iter()
        .flat_map(|e| [e.names.method.as_str(), e.names.stream.as_str()])
        .collect();
    let runtime = ["answer", "received_requests_of"];
    for (at, _) in text.match_indices("(&") {
        let head = &text[..at];
        let start = head
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        if head[..start].ends_with('.') {
            let method = &head[start..];
            if !methods.contains(method) && !runtime.contains(&method) {
                wrong(format!("`{method}` is not a method of a served endpoint"));
            }
        }
    }
    // An init struct names every required field of its record, in wire order.
    if let Some(at) = text.find("Init {\n") {
        let ty = text[..at]
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        let members: Vec<&str> = text[at..]
            .lines()
            .skip(1)
            .take_while(|l| !l.trim().starts_with('}'))
            .filter_map(|l| l.trim().split_once(':').map(|(m, _)| m))
            .collect();
        match record(ty) {
            Some(r) => {
                let fields: Vec<&str> = (r.fields.iter())
                    .filter(|f| !f.optional)
                    .map(|f| f.ident.as_str())
                    .collect();
                if members != fields {
                    wrong(format!(
                        "`{ty}Init` has {fields:?}, the snippet names {members:?}"
                    ));
                }
            }
            None => wrong(format!("`{ty}` is not a record")),
        }
    }
    // A field read, by its typed accessor or in an assertion, is one of a record.
    for (marker, suffix) in [("record.", "_jiff()"), ("assert_eq!(record.", ",")] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let Some(end) = rest.find(suffix) else {
                continue;
            };
            let field = &rest[..end];
            if field.contains(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#')) {
                continue;
            }
            let named = |f: &mrds_spec::model::Field| {
                f.ident == field || mrds_spec::naming::bare(&f.ident) == field
            };
            if !api.records.iter().any(|r| r.fields.iter().any(named)) {
                wrong(format!("`{field}` is not a field of a record"));
            }
        }
    }
    out
}

/// Every snippet of `api`, each checked; what is wrong.
fn check_all(api: &Api, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    for name in doc_snippets::names() {
        let text = doc_snippets::snippet(api, name).expect("a snippet of that name");
        assert!(!text.trim().is_empty(), "{what}: snippet {name} is empty");
        out.extend(
            inconsistencies(api, name, &text)
                .into_iter()
                .map(|p| format!("{what}: {p}")),
        );
    }
    out
}

#[test]
fn the_real_specs_snippets_name_what_its_model_holds() {
    let api = mrds_tests::real_spec();
    let problems = check_all(api, "the real spec");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    // Each shows code, and the call of the READMEs' example.
    for name in doc_snippets::names() {
        let text = doc_snippets::snippet(api, name).unwrap();
        assert!(
            text.contains("```rust"),
            "snippet {name} shows no code:\n{text}"
        );
    }
    let call = mrds_emit::example_request(api).unwrap();
    let text = doc_snippets::snippet(api, "client_call").unwrap();
    for name in [
        &call.endpoint.names.method,
        &call.endpoint.names.params_type,
        &api.returns(call.endpoint).name,
    ] {
        assert!(
            text.contains(name.as_str()),
            "client_call names no `{name}`:\n{text}"
        );
    }
    assert_eq!(doc_snippets::snippet(api, "no_such_snippet"), None);
}

/// The real spec's files with the endpoint `e` marked removed, and the history row of the
/// removal (in a file of its own).
fn removing(sources: &[(String, String)], e: &Endpoint) -> Vec<(String, String)> {
    let (date, version) = ("2026-12-31", "v9.9.9");
    let mut out = sources.to_vec();
    let (_, text) = (out.iter_mut())
        .find(|(name, _)| *name == e.at.file)
        .unwrap_or_else(|| panic!("the file of `{}`", e.id));
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let path = (lines.iter().enumerate().skip(e.at.line.saturating_sub(1)))
        .find(|(_, l)| l.trim_start().starts_with("path:"))
        .map(|(i, _)| i)
        .expect("the endpoint's path line");
    let indent = lines[path].len() - lines[path].trim_start().len();
    lines.insert(
        path + 1,
        format!(
            "{}removed: {{ date: {date}, version: {version} }}",
            " ".repeat(indent)
        ),
    );
    *text = lines.join("\n") + "\n";
    out.push((
        "spec/snippet_removal.yaml".to_string(),
        format!(
            "history:\n  - date: {date}\n    versions: [{version}]\n    changes:\n      \
             - {{ action: removed, method: {}, path: \"{}\" }}\n",
            e.method.as_str(),
            e.path
        ),
    ));
    out.sort();
    out
}

/// Every endpoint the real spec's snippets call, marked removed in turn: the spec loads, and no
/// snippet names its method, its parameter type or its constant any more (each moves to
/// another endpoint, or says there is none).
#[test]
fn an_endpoint_a_snippet_calls_marked_removed_leaves_every_snippet() {
    let api = mrds_tests::real_spec();
    let sources = sources();
    let called: Vec<&Endpoint> = (api.endpoints.iter())
        .filter(|e| e.removed.is_none())
        .filter(|e| {
            doc_snippets::names().any(|n| {
                let text = doc_snippets::snippet(api, n).unwrap();
                text.contains(&format!("::{};", e.names.params_type))
                    || text.contains(&format!("{}::new", e.names.params_type))
            })
        })
        .collect();
    assert!(
        called.len() >= 2,
        "the snippets call {} endpoints",
        called.len()
    );
    for e in called {
        let edited = removing(&sources, e);
        let new = mrds_spec::load_sources(&edited)
            .unwrap_or_else(|d| panic!("`{}` marked removed does not load:\n{d}", e.id));
        assert!(
            new.endpoints
                .iter()
                .any(|n| n.id == e.id && n.removed.is_some())
        );
        let problems = check_all(&new, &format!("`{}` removed", e.id));
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
        for name in doc_snippets::names() {
            let text = doc_snippets::snippet(&new, name).unwrap();
            for gone in [
                format!(".{}(", e.names.method),
                format!("{}::", e.names.params_type),
                format!("&{},", e.names.constant),
                format!("&{})", e.names.constant),
            ] {
                assert!(
                    !text.contains(&gone),
                    "`{}` removed: snippet {name} still names `{gone}`:\n{text}",
                    e.id
                );
            }
        }
    }
}

/// The fixture specs (small, each with its own names, most without samples): every snippet
/// generates and names only what its model holds, or says there is nothing to show.
#[test]
fn every_fixture_specs_snippets_name_what_its_model_holds() {
    let mut problems = Vec::new();
    for (name, sources) in mrds_tests::fixture_specs() {
        let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{name}: {d}"));
        problems.extend(check_all(&api, &format!("fixture {name}")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A provider's release of every kind at once (fields retyped, renamed, made optional,
/// endpoints added and removed, ...), then the next release on the spec it left: the
/// snippets of each spec name only what its model holds.
#[test]
fn random_releases_leave_snippets_that_name_what_the_model_holds() {
    let mut sources = sources();
    for round in 1..=2 {
        let api = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
        let r = release(&api, &sources, &Kind::ALL, 1, &options_after(&api)).unwrap();
        sources = applied(&sources, &r);
        let new = mrds_spec::load_sources(&sources).unwrap_or_else(|d| panic!("{d}"));
        let problems = check_all(&new, &format!("release {round}: {:?}", r.changes));
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    }
}

/// Each page of the docs holds the regions of the snippets: every snippet is shown somewhere,
/// once, and what a region holds is what the model generates (the drift check's
/// `cargo xtask codegen --check` compares the whole page).
#[test]
fn every_snippet_has_its_region_in_the_docs() {
    let root = workspace_root();
    let api = mrds_tests::real_spec();
    let mut shown = Vec::new();
    for page in xtask::codegen::pages(&root).unwrap() {
        let text = std::fs::read_to_string(root.join(&page)).unwrap();
        for (_, name) in mrds_emit::regions::names(&text) {
            if let Some(snippet) = name.strip_prefix(doc_snippets::PREFIX) {
                shown.push(snippet.to_string());
            }
        }
        let filled = mrds_emit::regions::fill(&page, &text, &xtask::codegen::regions(api)).unwrap();
        assert_eq!(
            filled, text,
            "{page} is out of date: run `cargo xtask codegen`"
        );
    }
    shown.sort();
    let mut all: Vec<String> = doc_snippets::names().map(str::to_string).collect();
    all.sort();
    assert_eq!(shown, all);
}
