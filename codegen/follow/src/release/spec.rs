//! The changes of a release that traffic cannot show, written as a maintainer writes them: a
//! list parameter (with or without `min_items`), an endpoint taking a body under a value-set
//! segment, an endpoint whose template overlaps one of the spec's, an endpoint marked removed.
//! Each is an item of the release's report (its splices or its new file, the endpoint the
//! history row lists, what it breaks), so one history row acknowledges the release.

use mrds_diff::ChangeKind;
use mrds_spec::model::{Api, Endpoint, Method, Segment};

use super::{Draw, Kind};
use crate::cx::Cx;
use crate::splice::value;
use crate::{Edit, Item, scalar};

/// The item of `kind`'s change and what it changed, or `None` when the spec has no target.
pub(super) fn change(cx: &Cx<'_>, draw: &mut Draw, kind: Kind) -> Option<(String, Item)> {
    match kind {
        Kind::ListParam | Kind::ListParamMinItems => list_param(cx, draw, kind),
        Kind::EndpointWithBody => endpoint_with_body(cx, draw),
        Kind::EndpointOverlapping => endpoint_overlapping(cx, draw),
        Kind::EndpointRemoved => endpoint_removed(cx, draw),
        _ => None,
    }
}

/// Endpoints served (not removed) with a sample example, of `method`.
fn served(api: &Api, method: Method) -> Vec<&Endpoint> {
    (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && e.method == method && e.samples.is_some())
        .collect()
}

fn list_param(cx: &Cx<'_>, draw: &mut Draw, kind: Kind) -> Option<(String, Item)> {
    let endpoints: Vec<&Endpoint> = served(cx.api, Method::Get)
        .into_iter()
        .filter(|e| !draw.taken.contains(&e.id))
        .collect();
    let e = draw.pick(endpoints)?;
    let base = ["fields", "tags", "venues"][draw.below(3) as usize];
    let mut name = base.to_string();
    let mut n = 2;
    while e.param_named(&name).is_some() || !draw.take(format!("{}.{name}", e.id)) {
        name = format!("{base}_{n}");
        n += 1;
    }
    let style = ["comma", "repeated"][draw.below(2) as usize];
    let mut entries: Vec<(&str, String)> = vec![
        ("name", name.clone()),
        ("in", "query".into()),
        ("type", "string".into()),
        ("array", "true".into()),
        ("style", style.into()),
    ];
    let min = (kind == Kind::ListParamMinItems).then(|| 1 + draw.below(2));
    if let Some(min) = min {
        entries.push(("min_items", min.to_string()));
        entries.push(("max_items", "5".into()));
    }
    entries.push(("pattern", scalar("^[a-z_]{1,20}$")));
    entries.push((
        "doc",
        scalar("Narrows the answer to these parts (a list the provider added)."),
    ));
    let (file, endpoint) = cx.endpoint(&e.id)?;
    let params = value(endpoint, "params")?;
    let shown: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let edit = Edit {
        splices: vec![file.append_item(params, &entries)],
        ..Edit::new(
            format!("endpoint `{}` takes a list parameter `{name}`", e.id),
            vec![ChangeKind::ParamAddedOptional],
            format!(
                "{}: add to the parameters of `{}`:",
                cx.line(file, params),
                e.id
            ),
            vec![format!("- {{ {} }}", shown.join(", "))],
        )
    };
    let what = format!(
        "`{}.{name}`, a {style} list{}",
        e.id,
        min.map(|m| format!(" of at least {m} items"))
            .unwrap_or_default()
    );
    Some((what, Item::Edit(edit)))
}

/// A new file of the spec's endpoints directory.
fn new_file(cx: &Cx<'_>, name: &str) -> String {
    let dir = (cx.sources.first())
        .and_then(|(n, _)| n.split_once('/'))
        .map_or("spec", |(dir, _)| dir);
    format!("{dir}/endpoints/{name}.yaml")
}

/// The error codes a body needs that the spec lacks, as `error_codes:` items.
fn body_codes(api: &Api) -> Vec<String> {
    [
        (
            "PAYLOAD_TOO_LARGE",
            413,
            "The body is larger than the server takes.",
        ),
        ("UNSUPPORTED_MEDIA_TYPE", 415, "The body is not JSON."),
    ]
    .into_iter()
    .filter(|(code, ..)| !api.error_codes.iter().any(|c| c.code == *code))
    .map(|(code, status, doc)| {
        format!(
            "  - {{ code: {code}, status: {status}, doc: {} }}\n",
            scalar(doc)
        )
    })
    .collect()
}

fn endpoint_with_body(cx: &Cx<'_>, draw: &mut Draw) -> Option<(String, Item)> {
    let api = cx.api;
    let word = draw.word();
    let segment = draw.fresh(&format!("watchlists-{word}"), |s| {
        (api.endpoints.iter()).any(|e| e.path.to_string().starts_with(&format!("/v1/{s}/")))
    });
    let tag = segment.trim_start_matches("watchlists-").to_string();
    let id = draw.fresh(&format!("{tag}_watchlist_add"), |id| {
        api.endpoint_named(id).is_some()
    });
    let tag = heck::ToUpperCamelCase::to_upper_camel_case(tag.as_str());
    let path = format!("/v1/{segment}/{{venue}}/entries");
    let example = path.replace("{venue}", "web");
    let codes = body_codes(cx.api);
    let mut text = format!(
        "# yaml-language-server: $schema=../spec.schema.json\n\
         # A watch list the provider added in a release: entries posted under a venue.\n\n\
         value_sets:\n  Rel{tag}Venue:\n    doc: Where the watch list lives.\n    values:\n      \
         - {{ value: web }}\n      - {{ value: mobile }}\n\n\
         records:\n  Rel{tag}Entry:\n    doc: An entry to watch.\n    fields:\n      \
         - {{ name: symbol, type: string, pattern: '^[A-Z]{{1,5}}$', doc: Stock symbol. }}\n      \
         - {{ name: weight, type: integer, min: 1, max: 100, doc: Weight in the list. }}\n      \
         - {{ name: note, type: string, optional: true, doc: A remark. }}\n  \
         Rel{tag}Watch:\n    doc: An entry as the watch list holds it.\n    fields:\n      \
         - {{ name: symbol, type: string, doc: Stock symbol. }}\n      \
         - {{ name: weight, type: integer, doc: Weight in the list. }}\n      \
         - {{ name: venue, type: Rel{tag}Venue, doc: Where the list lives. }}\n"
    );
    if !codes.is_empty() {
        text.push_str("\nerror_codes:\n");
        for c in &codes {
            text.push_str(c);
        }
    }
    text.push_str(&format!(
        "\nendpoints:\n  {id}:\n    method: POST\n    path: \"{path}\"\n    \
         summary: Adds an entry to a watch list.\n    auth: required\n    returns: Rel{tag}Watch\n    \
         body: Rel{tag}Entry\n    params:\n      \
         - {{ name: venue, in: path, type: Rel{tag}Venue, required: true, doc: Where the list lives. }}\n\n\
         samples:\n  {id}:\n    example: \"{example}\"\n    \
         example_body: {{ symbol: AAPL, weight: 10 }}\n    echo: {{ symbol: body.symbol, venue: venue }}\n    \
         sets:\n      - records:\n          - {{ symbol: AAPL, weight: 10, venue: web }}\n"
    ));
    let file = new_file(cx, &segment);
    let mut check = vec![
        ChangeKind::EndpointAdded,
        ChangeKind::RecordAdded,
        ChangeKind::ValueSetAdded,
    ];
    if !codes.is_empty() {
        check.push(ChangeKind::ErrorCodeAdded);
    }
    let edit = Edit {
        files: vec![(file.clone(), text)],
        history: vec![format!(
            "{{ action: added, method: POST, path: {} }}",
            scalar(&path)
        )],
        ..Edit::new(
            format!("endpoint `POST {path}` is new, taking a body"),
            check,
            format!(
                "{file}: a new file (the endpoint, its records, its value set{})",
                if codes.is_empty() {
                    ""
                } else {
                    ", the error codes a body needs that the spec lacks"
                }
            ),
            Vec::new(),
        )
    };
    Some((format!("`POST {path}` with a body"), Item::Edit(edit)))
}

fn endpoint_overlapping(cx: &Cx<'_>, draw: &mut Draw) -> Option<(String, Item)> {
    let api = cx.api;
    let word = draw.word();
    // A template of the spec with a placeholder: the same with a literal there is more
    // specific; else a literal template with a placeholder in its last segment.
    let with_param: Vec<&Endpoint> = served(api, Method::Get)
        .into_iter()
        .filter(|e| {
            e.path
                .segments
                .iter()
                .any(|s| matches!(s, Segment::Param { .. }))
        })
        .collect();
    let literal = draw.fresh(&format!("latest-{word}"), |l| {
        (api.endpoints.iter()).any(|e| e.path.to_string().contains(&format!("/{l}")))
    });
    let path = match draw.pick(with_param) {
        Some(e) => {
            let mut replaced = false;
            let segments: Vec<String> = (e.path.segments.iter())
                .map(|s| match s {
                    Segment::Param { .. } if !replaced => {
                        replaced = true;
                        literal.clone()
                    }
                    Segment::Param { name, .. } => format!("{{{name}}}"),
                    Segment::Literal(text) => text.clone(),
                })
                .collect();
            format!("/{}", segments.join("/"))
        }
        None => {
            let e = draw.pick(served(api, Method::Get))?;
            let mut segments: Vec<String> = (e.path.segments.iter())
                .map(|s| match s {
                    Segment::Param { name, .. } => format!("{{{name}}}"),
                    Segment::Literal(text) => text.clone(),
                })
                .collect();
            segments.pop();
            segments.push(format!("{{{word}_key}}"));
            format!("/{}", segments.join("/"))
        }
    };
    if api.endpoints.iter().any(|e| e.path.to_string() == path) {
        return None;
    }
    let id = draw.fresh(&format!("{word}_overlap"), |id| {
        api.endpoint_named(id).is_some()
    });
    let tag = heck::ToUpperCamelCase::to_upper_camel_case(id.as_str());
    let params: Vec<String> = (path.split('/'))
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| {
            format!(
                "      - {{ name: {name}, in: path, type: string, required: true, doc: A path segment. }}\n"
            )
        })
        .collect();
    let example = (path.split('/'))
        .map(|s| if s.starts_with('{') { "k1" } else { s })
        .collect::<Vec<_>>()
        .join("/");
    let params = if params.is_empty() {
        "    params: []\n".to_string()
    } else {
        format!("    params:\n{}", params.concat())
    };
    let text = format!(
        "# yaml-language-server: $schema=../spec.schema.json\n\
         # An endpoint the provider added whose template overlaps one of the spec's: the more\n\
         # specific template serves a request both match.\n\n\
         records:\n  Rel{tag}Latest:\n    doc: The latest figure.\n    fields:\n      \
         - {{ name: label, type: string, doc: What the figure is. }}\n      \
         - {{ name: value, type: number, doc: The figure. }}\n\n\
         endpoints:\n  {id}:\n    method: GET\n    path: \"{path}\"\n    \
         summary: The latest figure.\n    auth: required\n    returns: Rel{tag}Latest\n{params}\n\
         samples:\n  {id}:\n    example: \"{example}\"\n    sets:\n      \
         - records:\n          - {{ label: latest, value: 1.5 }}\n"
    );
    let file = new_file(cx, &id.replace('_', "-"));
    let edit = Edit {
        files: vec![(file.clone(), text)],
        history: vec![format!(
            "{{ action: added, method: GET, path: {} }}",
            scalar(&path)
        )],
        ..Edit::new(
            format!("endpoint `GET {path}` is new, overlapping a template of the spec"),
            vec![ChangeKind::EndpointAdded, ChangeKind::RecordAdded],
            format!("{file}: a new file"),
            Vec::new(),
        )
    };
    Some((format!("`GET {path}`, overlapping"), Item::Edit(edit)))
}

fn endpoint_removed(cx: &Cx<'_>, draw: &mut Draw) -> Option<(String, Item)> {
    let api = cx.api;
    // Not one the history lists on the release's date (added by this day's release).
    let listed = |e: &Endpoint| {
        (api.history.iter().filter(|h| h.date == cx.today()))
            .flat_map(|h| &h.changes)
            .any(|c| c.method == e.method && c.path == e.path.to_string())
    };
    let candidates: Vec<&Endpoint> = (api.endpoints.iter())
        .filter(|e| e.removed.is_none() && !draw.taken.contains(&e.id) && !listed(e))
        .collect();
    // Never the last endpoint served.
    if candidates.len() < 2 {
        return None;
    }
    let e = draw.pick(candidates)?;
    draw.take(e.id.clone());
    let (file, endpoint) = cx.endpoint(&e.id)?;
    let version = crate::draft::next_version(api);
    let removal = format!("{{ date: {}, version: {version} }}", cx.today());
    let edit = Edit {
        splices: vec![file.insert_entry(
            endpoint,
            &["paging", "returns", "auth"],
            "removed",
            &removal,
        )],
        history: vec![format!(
            "{{ action: removed, method: {}, path: {} }}",
            e.method,
            scalar(&e.path.to_string())
        )],
        ..Edit::new(
            format!("endpoint `{}` is removed by the provider", e.id),
            vec![ChangeKind::EndpointMarkedRemoved],
            format!("{}: mark it removed:", cx.line(file, endpoint)),
            vec![format!("removed: {removal}")],
        )
    };
    Some((format!("`{}` removed", e.id), Item::Edit(edit)))
}
