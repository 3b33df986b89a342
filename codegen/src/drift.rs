//! The report of `cargo xtask drift`: what a client (or a proxy) saw of the service that the
//! spec does not describe ([`mrds_runtime::drift::Finding`]s, read from JSON lines), turned
//! into the spec edits that would describe it, each with the `spec-diff` check id the edit
//! will be reported as, the place in `spec/` and, where it can be written, the YAML to add.
//!
//! The findings are read against the spec as it is now: what the spec has come to describe
//! since they were written is listed as done, and what names something the spec does not have
//! (findings of another version) as a note. Findings of one thing on several endpoints, from
//! several lines or sources, are one item, their counts summed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use mrds_runtime::TextFormat;
use mrds_runtime::drift::{Finding, JsonKind, MAX_EXAMPLES, Observed, Source};

use crate::diff::ChangeKind;
use crate::model::{Api, Field, Location, Place, TypeRef, ValueCheck, ValueType};
use crate::naming;

/// The report, and how many of its items ask for an edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The text printed.
    pub text: String,
    /// Items that ask for a spec edit.
    pub edits: usize,
    /// Items the spec already describes, or that name what the spec does not have.
    pub notes: usize,
}

/// One thing observed, summed over endpoints, lines and sources.
struct Group {
    observed: Observed,
    /// Count per endpoint.
    endpoints: BTreeMap<String, u64>,
    sources: BTreeSet<Source>,
    count: u64,
    examples: Vec<String>,
}

/// What the report says of one group.
enum Item {
    /// A spec edit: what it describes, the check id, where, and the YAML or the change.
    Edit {
        headline: String,
        check: Vec<&'static str>,
        place: String,
        change: Vec<String>,
    },
    /// Nothing to do, or nothing this version can say: why.
    Note(String),
}

/// The spec edits that would describe `findings`, read against `api`.
pub fn report(api: &Api, findings: &[Finding]) -> Report {
    // By section, then by what they are about, then by kind; the whole observation last, so
    // two of one kind on one field (two rules' statuses, say) stay apart.
    type Key = (u8, String, String, &'static str, Observed);
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    for f in findings {
        let o = &f.observed;
        let subject = o
            .value_set()
            .or(o.record())
            .or(o.rule())
            .unwrap_or_default()
            .to_string();
        let part = o.field().or(o.value_set()).unwrap_or_default().to_string();
        let key = (order(o), subject, part, o.kind(), o.clone());
        let group = groups.entry(key).or_insert_with(|| Group {
            observed: f.observed.clone(),
            endpoints: BTreeMap::new(),
            sources: BTreeSet::new(),
            count: 0,
            examples: Vec::new(),
        });
        *group.endpoints.entry(f.endpoint.clone()).or_default() += f.count;
        group.sources.insert(f.source);
        group.count = group.count.saturating_add(f.count);
        for e in &f.examples {
            if group.examples.len() < MAX_EXAMPLES && !group.examples.contains(e) {
                group.examples.push(e.clone());
            }
        }
    }
    let sources: BTreeSet<Source> = findings.iter().map(|f| f.source).collect();
    let mut edits = 0;
    let mut notes = 0;
    let mut body = String::new();
    for group in groups.values() {
        let seen = seen(group);
        match item(api, group) {
            Item::Edit {
                headline,
                check,
                place,
                change,
            } => {
                edits += 1;
                let _ = writeln!(body, "\n{edits}. {headline}");
                let _ = writeln!(body, "   {seen}");
                if !check.is_empty() {
                    let ids: Vec<String> = check.iter().map(|c| format!("`{c}`")).collect();
                    let _ = writeln!(body, "   spec-diff: {}", ids.join(" or "));
                }
                let _ = writeln!(body, "   {place}");
                for line in change {
                    let _ = writeln!(body, "       {line}");
                }
            }
            Item::Note(text) => {
                notes += 1;
                let _ = writeln!(body, "\nnote: {text}\n   {seen}");
            }
        }
    }
    let source_names: Vec<&str> = sources.iter().map(|s| source_name(*s)).collect();
    let mut text = format!(
        "{} finding{}{}: {} spec edit{}{}\n",
        findings.len(),
        plural(findings.len()),
        if source_names.is_empty() {
            String::new()
        } else {
            format!(" from {}", source_names.join(" and "))
        },
        edits,
        plural(edits),
        match notes {
            0 => String::new(),
            n => format!(", {n} note{}", plural(n)),
        }
    );
    text.push_str(&body);
    if edits > 0 {
        text.push_str(
            "\nThen `cargo xtask codegen` and `cargo xtask spec-diff`: it reports each edit by the \
             check id above (and a breaking one needs a history entry's `breaking:`).\n",
        );
    } else if findings.is_empty() {
        text.push_str("Nothing was observed that the spec does not describe.\n");
    }
    Report { text, edits, notes }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Client => "the client",
        Source::Proxy => "the proxy",
        _ => "another source",
    }
}

/// Sections of the report: the envelope, records, value sets, rules.
fn order(o: &Observed) -> u8 {
    match o {
        Observed::UndeclaredEnvelopeField { .. } => 0,
        Observed::RequiredNull { record, .. }
        | Observed::RequiredMissing { record, .. }
        | Observed::WrongType { record, .. }
            if record == "envelope" =>
        {
            0
        }
        Observed::UndeclaredField { .. }
        | Observed::RequiredNull { .. }
        | Observed::RequiredMissing { .. }
        | Observed::WrongType { .. } => 1,
        Observed::UnknownValue { .. } => 2,
        Observed::RuleStricter { .. } | Observed::RuleLooser { .. } => 3,
        _ => 4,
    }
}

/// `seen 44 times by the client: 41 on stock_dividends, 3 on etf_flow; e.g. "USD", "EUR"`.
fn seen(group: &Group) -> String {
    let times = if group.count == 1 {
        "once".to_string()
    } else {
        format!("{} times", group.count)
    };
    let who: Vec<&str> = group.sources.iter().map(|s| source_name(*s)).collect();
    let on = if group.endpoints.len() == 1 {
        let endpoint = group.endpoints.keys().next().map_or("", String::as_str);
        format!(" on {endpoint}")
    } else {
        let each: Vec<String> = group
            .endpoints
            .iter()
            .map(|(e, n)| format!("{n} on {e}"))
            .collect();
        format!(": {}", each.join(", "))
    };
    let mut text = format!("seen {times} by {}{on}", who.join(" and "));
    if !group.examples.is_empty() && !matches!(group.observed, Observed::UnknownValue { .. }) {
        text.push_str(&format!("; e.g. {}", group.examples.join(", ")));
    }
    text
}

fn item(api: &Api, group: &Group) -> Item {
    match &group.observed {
        Observed::UndeclaredField { record, field } => undeclared(api, group, record, field),
        Observed::UndeclaredEnvelopeField { field } => undeclared(api, group, "envelope", field),
        Observed::UnknownValue {
            record,
            field,
            value_set,
        } => unknown_values(api, group, record, field, value_set),
        Observed::RequiredNull { record, field } => {
            not_required(api, record, field, "arrives null")
        }
        Observed::RequiredMissing { record, field } => {
            not_required(api, record, field, "is missing from answers")
        }
        Observed::WrongType {
            record,
            field,
            expected,
            got,
        } => wrong_type(api, group, record, field, *expected, *got),
        Observed::RuleStricter { rule, status } => rule_stricter(api, rule, *status),
        Observed::RuleLooser {
            rule,
            status,
            reason,
        } => rule_looser(api, group, rule.as_deref(), *status, reason.as_deref()),
        other => Item::Note(format!(
            "`{}`: a kind of finding this version does not know",
            other.kind()
        )),
    }
}

/// The fields of `record` (`envelope` for the envelope), and where they are written.
fn fields<'a>(api: &'a Api, record: &str) -> Option<(&'a [Field], String, Option<&'a Location>)> {
    if record == "envelope" {
        let fields = &api.envelope.fields;
        return Some((
            fields,
            "the envelope's fields (`service.envelope.fields`)".into(),
            fields.last().map(|f| &f.at),
        ));
    }
    let r = api.records.iter().find(|r| r.spec_name == record)?;
    Some((
        &r.fields,
        format!(
            "the fields of `{}` (`records.{}.fields`)",
            r.spec_name, r.spec_name
        ),
        Some(&r.at),
    ))
}

/// `spec/records.yaml:5`, the file and line of a place.
fn at(location: Option<&Location>) -> String {
    location.map_or_else(|| "spec/".to_string(), |l| format!("{}:{}", l.file, l.line))
}

fn whose(record: &str) -> String {
    if record == "envelope" {
        "the envelope".into()
    } else {
        format!("record `{record}`")
    }
}

/// `` `PITDividend` ``, or `the envelope`, after "field `x` of".
fn of(record: &str) -> String {
    if record == "envelope" {
        "the envelope".into()
    } else {
        format!("`{record}`")
    }
}

fn undeclared(api: &Api, group: &Group, record: &str, field: &str) -> Item {
    let Some((fields, list, place)) = fields(api, record) else {
        return Item::Note(format!(
            "{} gains field `{field}`, but the spec has no record `{record}` (findings of another version of the spec?)",
            whose(record)
        ));
    };
    if fields.iter().any(|f| f.wire == field) {
        return Item::Note(format!(
            "{} gains field `{field}`: the spec describes it now",
            whose(record)
        ));
    }
    let (ty, array, format) = infer(&group.examples);
    let mut yaml = format!("- {{ name: {}, type: {ty}", scalar(field));
    if array {
        yaml.push_str(", array: true");
    }
    if let Some(format) = format {
        yaml.push_str(&format!(", format: {format}"));
    }
    yaml.push_str(", optional: true, doc: TODO }");
    let mut change = vec![yaml];
    if let Err(problem) = naming::field_name(field) {
        change.push(format!(
            "# {problem}: rename it in Rust with the generator's rules"
        ));
    }
    if ty == "any" && !group.examples.is_empty() {
        change.push(
            "# the examples do not say one type: `any`, or a record of its own if it is an object"
                .into(),
        );
    }
    Item::Edit {
        headline: format!("{} gains optional field `{field}`", whose(record)),
        check: vec![ChangeKind::FieldAddedOptional.info().id],
        place: format!("{}: add to {list}:", at(place)),
        change,
    }
}

/// The type, array flag and format a new field's examples suggest.
fn infer(examples: &[String]) -> (&'static str, bool, Option<&'static str>) {
    let values: Vec<Option<serde_json::Value>> = examples
        .iter()
        .map(|e| serde_json::from_str(e).ok())
        .collect();
    // A cut example (it ends in `…`) still shows its start.
    let kind = |text: &str, v: &Option<serde_json::Value>| -> Option<JsonKind> {
        Some(match v {
            Some(serde_json::Value::Null) => JsonKind::Null,
            Some(serde_json::Value::Bool(_)) => JsonKind::Boolean,
            Some(serde_json::Value::Number(n)) if n.is_i64() || n.is_u64() => JsonKind::Integer,
            Some(serde_json::Value::Number(_)) => JsonKind::Number,
            Some(serde_json::Value::String(_)) => JsonKind::String,
            Some(serde_json::Value::Array(_)) => JsonKind::Array,
            Some(serde_json::Value::Object(_)) => JsonKind::Object,
            None if text.starts_with('"') => JsonKind::String,
            None if text.starts_with('[') => JsonKind::Array,
            None if text.starts_with('{') => JsonKind::Object,
            None => return None,
        })
    };
    let kinds: BTreeSet<JsonKind> = examples
        .iter()
        .zip(&values)
        .filter_map(|(t, v)| kind(t, v))
        .filter(|k| *k != JsonKind::Null)
        .collect();
    let one = |kinds: &BTreeSet<JsonKind>| -> &'static str {
        match kinds.iter().copied().collect::<Vec<_>>().as_slice() {
            [JsonKind::String] => "string",
            [JsonKind::Integer] => "integer",
            [JsonKind::Integer, JsonKind::Number] | [JsonKind::Number] => "number",
            [JsonKind::Boolean] => "boolean",
            _ => "any",
        }
    };
    if kinds.len() == 1 && kinds.contains(&JsonKind::Array) {
        let elements: BTreeSet<JsonKind> = values
            .iter()
            .flatten()
            .filter_map(|v| v.as_array())
            .flatten()
            .filter_map(|e| kind("", &Some(e.clone())))
            .collect();
        return (one(&elements), true, None);
    }
    let ty = one(&kinds);
    let texts: Vec<&str> = values.iter().flatten().filter_map(|v| v.as_str()).collect();
    let format = (ty == "string" && !texts.is_empty() && texts.len() == examples.len())
        .then(|| {
            TextFormat::ALL
                .into_iter()
                .find(|f| texts.iter().all(|t| f.holds(t)))
                .map(|f| f.name())
        })
        .flatten();
    (ty, false, format)
}

fn unknown_values(api: &Api, group: &Group, record: &str, field: &str, value_set: &str) -> Item {
    let values: Vec<String> = group
        .examples
        .iter()
        .filter_map(|e| serde_json::from_str::<String>(e).ok())
        .collect();
    let more = if group.examples.len() >= MAX_EXAMPLES {
        format!("\n   (the first {MAX_EXAMPLES} values seen; there may be more)")
    } else {
        String::new()
    };
    if value_set == "ErrorCode" {
        let known: BTreeSet<&str> = api.error_codes.iter().map(|c| c.code.as_str()).collect();
        let new: Vec<&String> = values
            .iter()
            .filter(|v| !known.contains(v.as_str()))
            .collect();
        if new.is_empty() {
            return Item::Note("new error codes: the spec describes them now".into());
        }
        let names: Vec<String> = new.iter().map(|v| format!("`{v}`")).collect();
        return Item::Edit {
            headline: format!(
                "error code{} {} {} new{more}",
                plural(new.len()),
                names.join(", "),
                if new.len() == 1 { "is" } else { "are" }
            ),
            check: vec![ChangeKind::ErrorCodeAdded.info().id],
            place: format!(
                "{}: add to `error_codes` (ordered by status):",
                at(api.error_codes.last().map(|c| &c.at))
            ),
            change: new
                .iter()
                .map(|v| format!("- {{ code: {}, status: TODO, doc: TODO }}", scalar(v)))
                .collect(),
        };
    }
    let Some(set) = api.value_sets.iter().find(|s| s.spec_name == value_set) else {
        return Item::Note(format!(
            "value set `{value_set}` (field `{field}` of `{record}`) gains values, but the spec has no value set `{value_set}`"
        ));
    };
    let new: Vec<&String> = values
        .iter()
        .filter(|v| !set.values.iter().any(|known| &known.wire == *v))
        .collect();
    if new.is_empty() {
        return Item::Note(format!(
            "value set `{value_set}` gains values: the spec describes them now"
        ));
    }
    let names: Vec<String> = new.iter().map(|v| format!("`{v}`")).collect();
    let parameters = api.endpoints.iter().any(|e| {
        e.params
            .iter()
            .any(|p| matches!(&p.ty, ValueType::Enum(t) if t.set == set.id))
    });
    let mut change: Vec<String> = new
        .iter()
        .map(|v| match naming::variant_name(v, None) {
            Ok(_) => format!("- {{ value: {} }}", scalar(v)),
            Err(_) => format!(
                "- {{ value: {}, rust: TODO }}  # `{v}` does not make a Rust variant name: give it one",
                scalar(v)
            ),
        })
        .collect();
    if parameters {
        change.push(format!(
            "# `{value_set}` is a parameter's type too: old servers refuse the new values in requests \
             (breaking for servers: name it in a history entry's `breaking:`)"
        ));
    }
    Item::Edit {
        headline: format!(
            "value set `{value_set}` gains {} (field `{field}` of `{record}`){more}",
            names.join(", ")
        ),
        check: vec![ChangeKind::ValueSetValueAdded.info().id],
        place: format!(
            "{}: add to the values of `{value_set}` (`value_sets.{value_set}.values`):",
            at(Some(&set.at))
        ),
        change,
    }
}

fn not_required(api: &Api, record: &str, field: &str, how: &str) -> Item {
    let Some((fields, _, _)) = fields(api, record) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}, but the spec has no record `{record}`"
        ));
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}, but the spec has no such field now"
        ));
    };
    if f.optional {
        return Item::Note(format!(
            "field `{field}` of `{record}` {how}: the spec makes it optional now"
        ));
    }
    let who = of(record);
    let mut change = vec!["optional: true".to_string()];
    if record == "envelope" {
        change.push(
            "# the generator requires some envelope fields (`success`, `request_id`, `data`): \
             those cannot be optional"
                .into(),
        );
    }
    Item::Edit {
        headline: format!("field `{field}` of {who} {how}: make it optional"),
        check: vec![ChangeKind::FieldNowOptional.info().id],
        place: format!("{}: add to the field `{field}`:", at(Some(&f.at))),
        change,
    }
}

fn wrong_type(
    api: &Api,
    group: &Group,
    record: &str,
    field: &str,
    expected: JsonKind,
    got: JsonKind,
) -> Item {
    let Some((fields, _, _)) = fields(api, record) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives as {got}, but the spec has no record `{record}`"
        ));
    };
    let Some(f) = fields.iter().find(|f| f.wire == field) else {
        return Item::Note(format!(
            "field `{field}` of `{record}` arrives as {got}, but the spec has no such field now"
        ));
    };
    let now = spec_type(api, f);
    let who = of(record);
    let numeric_texts = got == JsonKind::String
        && matches!(expected, JsonKind::Number | JsonKind::Integer)
        && !group.examples.is_empty()
        && group.examples.iter().all(|e| {
            serde_json::from_str::<String>(e).is_ok_and(|s| s.trim().parse::<f64>().is_ok())
        });
    let change = if numeric_texts {
        vec!["type: string, format: numeric_text".to_string()]
    } else {
        let ty = match got {
            JsonKind::String => "string",
            JsonKind::Integer => "integer",
            JsonKind::Number => "number",
            JsonKind::Boolean => "boolean",
            JsonKind::Array => "the element type, with `array: true`",
            JsonKind::Object | JsonKind::Null => "any (or a record of its own)",
        };
        vec![format!("type: {ty}")]
    };
    Item::Edit {
        headline: format!(
            "field `{field}` of {who} is `{now}` in the spec but arrives as {} {got}",
            article(got)
        ),
        check: vec![ChangeKind::FieldTypeChanged.info().id],
        place: format!(
            "{}: change the field `{field}` (or, if the answers are wrong, tell the provider):",
            at(Some(&f.at))
        ),
        change,
    }
}

fn article(kind: JsonKind) -> &'static str {
    match kind {
        JsonKind::Integer | JsonKind::Array | JsonKind::Object => "an",
        _ => "a",
    }
}

/// A field's type as the spec writes it (`number`, `Interval`, `string array`).
fn spec_type(api: &Api, f: &Field) -> String {
    let ty = match &f.ty {
        TypeRef::String => "string".to_string(),
        TypeRef::Integer => "integer".into(),
        TypeRef::Number => "number".into(),
        TypeRef::Boolean => "boolean".into(),
        TypeRef::Any => "any".into(),
        TypeRef::Record(id) => api.record(*id).spec_name.clone(),
        TypeRef::ValueSet(id) => api.value_set(*id).spec_name.clone(),
        TypeRef::ErrorCode => "ErrorCode".into(),
        TypeRef::Records => "records".into(),
    };
    if f.array { format!("{ty} array") } else { ty }
}

/// Where the spec writes a rule the runtime names, and the spec-diff checks relaxing or
/// tightening it is reported as.
struct RuleSite<'a> {
    at: &'a Location,
    /// `the rule`, or `the \`range\` check of \`limit\``.
    what: String,
    relaxed: Vec<ChangeKind>,
    tightened: Vec<ChangeKind>,
}

/// The site of `rule`: one of an endpoint's rules (`etf_flow.range_order`), or one of an
/// input's own checks (`equity_offering.limit.range`, `social_handles.body.handle.pattern`).
fn rule_site<'a>(api: &'a Api, rule: &str) -> Option<RuleSite<'a>> {
    for e in &api.endpoints {
        if let Some(r) = e.rules.iter().find(|r| r.id == rule) {
            return Some(RuleSite {
                at: &r.at,
                what: "the rule".into(),
                relaxed: vec![ChangeKind::RuleRelaxed, ChangeKind::RuleRemoved],
                tightened: vec![ChangeKind::RuleTightened],
            });
        }
        let Some((name, check)) = rule
            .strip_prefix(e.id.as_str())
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|r| r.rsplit_once('.'))
        else {
            continue;
        };
        let Some(check) = ValueCheck::ALL.into_iter().find(|c| c.as_str() == check) else {
            continue;
        };
        let Some(input) = api.inputs(e).named(name) else {
            continue;
        };
        let (relaxed, tightened) = own_check_kinds(input.place, check);
        return Some(RuleSite {
            at: input.at,
            what: format!("the `{}` check of `{name}`", check.as_str()),
            relaxed,
            tightened,
        });
    }
    None
}

/// The spec-diff checks that relaxing and tightening one of an input's own checks is
/// reported as.
fn own_check_kinds(place: Place, check: ValueCheck) -> (Vec<ChangeKind>, Vec<ChangeKind>) {
    use ChangeKind as K;
    let both = |k: ChangeKind| (vec![k], vec![k]);
    match (place, check) {
        (Place::Body, ValueCheck::Required) => {
            (vec![K::BodyFieldNowOptional], vec![K::BodyFieldNowRequired])
        }
        (Place::Body, _) => (
            vec![K::BodyConstraintRelaxed],
            vec![K::BodyConstraintTightened],
        ),
        (_, ValueCheck::Required) => (vec![K::ParamNowOptional], vec![K::ParamNowRequired]),
        (_, ValueCheck::Range) => (vec![K::ParamRangeWidened], vec![K::ParamRangeNarrowed]),
        (_, ValueCheck::Items) => (vec![K::ParamItemsWidened], vec![K::ParamItemsNarrowed]),
        (_, ValueCheck::Pattern) => both(K::ParamPatternChanged),
        (_, ValueCheck::Values) => (vec![K::ValueSetValueAdded], vec![K::ValueSetValueRemoved]),
        (_, ValueCheck::Format) => both(K::ParamFormatChanged),
        (_, ValueCheck::Type | ValueCheck::Repeated) => both(K::ParamTypeChanged),
    }
}

fn ids(kinds: &[ChangeKind]) -> Vec<&'static str> {
    kinds.iter().map(|k| k.info().id).collect()
}

fn rule_stricter(api: &Api, rule: &str, status: u16) -> Item {
    let Some(site) = rule_site(api, rule) else {
        return Item::Note(format!(
            "rule `{rule}` is stricter than the service (it answered {status} to requests the rule refuses), but the spec has no rule `{rule}` now"
        ));
    };
    Item::Edit {
        headline: format!(
            "rule `{rule}` is stricter than the service: the service answered {status} to requests the rule refuses"
        ),
        check: ids(&site.relaxed),
        place: format!("{}: relax or remove {}:", at(Some(site.at)), site.what),
        change: vec![
            "# or keep it, marked `assumed:` with the reason, if the service's leniency is not a promise"
                .into(),
        ],
    }
}

fn rule_looser(
    api: &Api,
    group: &Group,
    rule: Option<&str>,
    status: u16,
    reason: Option<&str>,
) -> Item {
    let because = reason.map(|r| format!(": {r}")).unwrap_or_default();
    let endpoints: Vec<&str> = group.endpoints.keys().map(String::as_str).collect();
    match rule.and_then(|r| rule_site(api, r).map(|site| (r, site))) {
        Some((rule, site)) => Item::Edit {
            headline: format!(
                "rule `{rule}` is looser than the service: it refused requests the rule accepts ({status}{because})"
            ),
            check: ids(&site.tightened),
            place: format!("{}: tighten {}:", at(Some(site.at)), site.what),
            change: vec!["# so that it refuses the requests above, as the service does".into()],
        },
        None => {
            let endpoint = api
                .endpoints
                .iter()
                .find(|e| endpoints.contains(&e.id.as_str()));
            let id = endpoint.map_or("ENDPOINT", |e| e.id.as_str());
            Item::Edit {
                headline: format!(
                    "the service refused requests the spec accepts ({status}{because}): a rule the spec does not have{}",
                    rule.map(|r| format!(" (the service names `{r}`)"))
                        .unwrap_or_default()
                ),
                check: vec![ChangeKind::RuleAdded.info().id],
                place: format!(
                    "{}: add a rule to the endpoint's `rules`:",
                    at(endpoint.map(|e| &e.at))
                ),
                change: vec![
                    format!("- id: {id}.TODO"),
                    "  doc: TODO".into(),
                    "  # and one check (ordered, max_span, requires, at_least_one, allowed_values, \
                     matches) refusing the requests above"
                        .into(),
                ],
            }
        }
    }
}

/// A YAML scalar: plain when it reads back as the same text, else double-quoted.
fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().any(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !text.starts_with(['-', '.'])
        && text.parse::<f64>().is_err()
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        text.to_string()
    } else {
        serde_json::Value::String(text.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_stay_plain_only_when_they_read_back_as_text() {
        assert_eq!(scalar("2h"), "2h");
        assert_eq!(scalar("currency"), "currency");
        assert_eq!(scalar("IPO Date"), "\"IPO Date\"");
        assert_eq!(scalar("10"), "\"10\"");
        assert_eq!(scalar("1e5"), "\"1e5\"");
        assert_eq!(scalar("yes"), "\"yes\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar(""), "\"\"");
    }

    #[test]
    fn a_new_field_takes_the_type_its_examples_say() {
        let ex = |v: &[&str]| infer(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(ex(&["\"USD\"", "\"EUR\""]), ("string", false, None));
        assert_eq!(ex(&["1", "2"]), ("integer", false, None));
        assert_eq!(ex(&["1", "2.5"]), ("number", false, None));
        assert_eq!(ex(&["true"]), ("boolean", false, None));
        assert_eq!(ex(&["[\"a\"]", "[]"]), ("string", true, None));
        assert_eq!(ex(&["\"2026-01-02\""]), ("string", false, Some("date")));
        assert_eq!(ex(&["{\"a\":1}"]), ("any", false, None));
        assert_eq!(ex(&["1", "\"a\""]), ("any", false, None));
        assert_eq!(ex(&["\"a long text cut…"]), ("string", false, None));
        assert_eq!(ex(&[]), ("any", false, None));
    }
}
