//! The snippets of the model crate's types: typed time (`new_jiff`, `<field>_jiff()`), a
//! parameter type's `validate()` and `to_query()`, and a record's init struct.

use mrds_spec::model::{Api, Field, ParamLocation, Record, TypeRef};

use super::{MODEL, imports, page_size, paragraph, rust};
use crate::model::MAX_ARGS;
use crate::model::jiff::{field_jiff_type, has_new_jiff, param_jiff_type};
use crate::sample_request::{self, SampleValue};

/// A record's required field that `<field>_jiff()` reads as one `jiff` value, and that type.
fn time_field(record: &Record) -> Option<(&Field, &'static str)> {
    (record.fields.iter())
        .filter(|f| !f.optional && !f.array)
        .find_map(|f| Some((f, field_jiff_type(f)?)))
}

/// `docs/downstream.md`, *Depending on the crates*: the parameters of an endpoint with a
/// required time parameter made with `new_jiff` and validated, and a record's time field read
/// with its typed accessor; either alone where the spec has only one of them.
pub(super) fn typed_time(api: &Api) -> String {
    let request = sample_request::best(api, |x| has_new_jiff(x.endpoint));
    // The record of that endpoint when it has a time field, else the first record that does.
    let record = (request.iter())
        .map(|x| api.returns(x.endpoint))
        .chain(&api.records)
        .find_map(|r| Some((r, time_field(r)?)));
    if request.is_none() && record.is_none() {
        return paragraph(
            "The spec has no time parameter and no time field: nothing for the `jiff` \
                feature to type here.\n",
        );
    }
    let mut uses = Vec::new();
    let mut body = String::new();
    if let Some(x) = &request {
        uses.extend(x.uses(MODEL));
        let args: Vec<String> = (x.required.iter())
            .map(|(p, v)| match (param_jiff_type(p), v) {
                (Some(ty), SampleValue::Integer(n)) if ty == "jiff::Timestamp" => {
                    format!("{ty}::from_second({n})?")
                }
                (Some(ty), SampleValue::Text(t)) => format!("{t:?}.parse::<{ty}>()?"),
                _ => v.text(),
            })
            .map(|arg| format!("        {arg},\n"))
            .collect();
        body.push_str(&format!(
            "    // The time parameters as `jiff` values, the others as with `new`:\n\
             \x20   let params = {}::new_jiff(\n{}    ){};\n\
             \x20   params.validate()?;\n",
            x.endpoint.names.params_type,
            args.concat(),
            x.setters(None)
        ));
    }
    let mut argument = String::new();
    if let Some((r, (f, ty))) = record {
        uses.push(format!("use {MODEL}::records::{};", r.name));
        argument = format!("record: &{}", r.name);
        body.push_str(&format!(
            "    // The records come back with typed accessors:\n\
             \x20   let value: {ty} = record.{}_jiff()?;\n\
             \x20   println!(\"{{value}}\");\n",
            mrds_spec::naming::bare(&f.ident)
        ));
    }
    let code = format!(
        "// mrds-client = {{ version = \"0.1\", features = [\"jiff\"] }}, jiff = \"0.2\"\n\
         {}\n\n\
         fn typed_time({argument}) -> Result<(), Box<dyn std::error::Error>> {{\n\
         {body}\
         \x20   Ok(())\n\
         }}\n",
        imports(uses),
    );
    rust("rust", &code)
}

/// `docs/downstream.md`, *Using the model crate*: the parameters of the crates' README
/// example's endpoint with its page size set, validated, as query pairs.
pub(super) fn model_query(api: &Api) -> String {
    let Some(x) = crate::example_request(api) else {
        return paragraph(
            "The spec has no endpoint whose sample request gives every required parameter: \
                no parameters to show here.\n",
        );
    };
    let e = x.endpoint;
    // The first pair of the query (in documented order) when a required parameter makes it.
    let first = (e.params.iter())
        .find(|p| p.location == ParamLocation::Query)
        .filter(|p| p.required)
        .and_then(|p| x.query.iter().find(|(wire, _)| *wire == p.wire));
    let shown = match first {
        Some((wire, value)) => format!("[({wire:?}, {value:?}), ...]"),
        None => "the query pairs, in documented order".to_string(),
    };
    let code = format!(
        "{uses}\n\n\
         fn query() -> Result<Vec<(&'static str, String)>, mrds_client::model::ValidationError> {{\n\
         \x20   let params = {params}{size};\n\
         \x20   params.validate()?; // every problem at once, each naming its rule id\n\
         \x20   Ok(params.to_query()) // {shown}\n\
         }}\n",
        uses = imports(x.uses(MODEL)),
        params = x.text(None, true),
        size = page_size(&x).unwrap_or_default(),
    );
    rust("rust", &code)
}

/// A field's value in a snippet: the sample record's when it has one of the field's type,
/// else a value of that type; `None` for a type a snippet does not write (a record, any JSON).
fn field_value(api: &Api, f: &Field, sample: Option<&serde_json::Value>) -> Option<String> {
    if f.array {
        return Some("Vec::new()".to_string());
    }
    let sample = sample.and_then(|s| s.get(&f.wire));
    Some(match &f.ty {
        TypeRef::String => {
            let text = sample.and_then(|v| v.as_str()).unwrap_or("text");
            format!("{text:?}.into()")
        }
        TypeRef::Integer => sample.and_then(|v| v.as_i64()).unwrap_or(1).to_string(),
        TypeRef::Number => {
            let n = sample.and_then(|v| v.as_f64()).filter(|n| n.is_finite());
            format!("{:?}", n.unwrap_or(1.0))
        }
        TypeRef::Boolean => sample
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
            .to_string(),
        TypeRef::ValueSet(id) => {
            let set = api.value_set(*id);
            let wire = sample.and_then(|v| v.as_str());
            let variant = (set.values.iter())
                .find(|v| Some(v.wire.as_str()) == wire)
                .or(set.values.first())?;
            format!("{}::{}", set.name, variant.ident)
        }
        TypeRef::Any | TypeRef::Record(_) | TypeRef::ErrorCode | TypeRef::Records => return None,
    })
}

/// `docs/maintainers.md`, *Versions, publishing and semver*: a record with more required
/// fields than a function takes, made from its init struct naming each, and one field read
/// back.
pub(super) fn init_struct(api: &Api) -> String {
    fn required(r: &Record) -> Vec<&Field> {
        r.fields.iter().filter(|f| !f.optional).collect()
    }
    let large: Vec<&Record> = (api.records.iter())
        .filter(|r| required(r).len() > MAX_ARGS)
        .collect();
    // A record one of whose endpoints' example answers gives the values.
    let sample = |r: &Record| {
        (api.endpoints.iter())
            .filter(|e| e.returns == r.id)
            .find_map(
                |e| match mrds_spec::model::samples::example_answer(api, e) {
                    Some(Ok(records)) => records.into_iter().next(),
                    _ => None,
                },
            )
    };
    let made = large.iter().find_map(|r| {
        let sample = sample(r);
        let values: Option<Vec<(&Field, String)>> = (required(r).into_iter())
            .map(|f| Some((f, field_value(api, f, sample.as_ref())?)))
            .collect();
        Some((*r, values?))
    });
    let Some((record, values)) = made else {
        let names: Vec<String> = large.iter().map(|r| format!("`{}`", r.name)).collect();
        return match names.is_empty() {
            true => paragraph(&format!(
                "(No record of the spec has more than {MAX_ARGS} required fields, so none has \
                 an init struct to show here.)"
            )),
            false => paragraph(&format!(
                "(The records with init structs, {}, hold records or any JSON value, which an \
                 example of a few lines does not make: see their documentation, `cargo doc -p \
                 mrds-model`.)",
                names.join(", ")
            )),
        };
    };
    let name = &record.name;
    let init = mrds_spec::naming::init_type(name);
    let mut uses = vec![format!("use mrds_model::records::{{{name}, {init}}};")];
    for f in &values {
        if let TypeRef::ValueSet(id) = f.0.ty
            && !f.0.array
        {
            uses.push(format!(
                "use mrds_model::value_sets::{};",
                api.value_set(id).name
            ));
        }
    }
    let members: Vec<String> = (values.iter())
        .map(|(f, v)| format!("    {}: {v},\n", f.ident))
        .collect();
    // One field read back: a number if there is one, else a plain value.
    let rank = |f: &Field| match f.ty {
        _ if f.array => None,
        TypeRef::Number => Some(0),
        TypeRef::Integer => Some(1),
        TypeRef::Boolean => Some(2),
        TypeRef::String => Some(3),
        _ => None,
    };
    let check = (values.iter())
        .filter_map(|(f, v)| Some((rank(f)?, f, v)))
        .min_by_key(|(rank, _, _)| *rank)
        .map(|(_, f, v)| {
            let v = v.trim_end_matches(".into()");
            format!("assert_eq!(record.{}, {v});\n", f.ident)
        })
        .unwrap_or_default();
    let code = format!(
        "{}\n\nlet record = {name}::from({init} {{\n{}}});\n{check}",
        imports(uses),
        members.concat()
    );
    format!(
        "{}\n{}",
        paragraph(&format!(
            "`{name}`, with {} required fields, is made so:",
            values.len()
        )),
        rust("rust", &code)
    )
}
