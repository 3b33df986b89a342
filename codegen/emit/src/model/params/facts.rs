//! The docs of a parameter type: what the struct is for and how it is made, and the facts of
//! each field (where it travels, required, default, bounds, format).

use crate::endpoint_doc::{EndpointDoc, Style};
use crate::model::MAX_ARGS;
use crate::model::init::init_docs;
use crate::with_provenance;
use mrds_spec::model::{
    Api, Endpoint, Format, IntegerFormat, ListStyle, Param, ParamLocation, ValueType,
};

/// The facts a field's doc lists: where it travels, required, default, bounds, format.
pub(super) fn field_facts(p: &Param) -> String {
    let mut facts = vec![format!(
        "`{}` in the {}",
        p.wire,
        match p.location {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
        }
    )];
    if p.required {
        facts.push("required".into());
    }
    if let Some(d) = &p.default {
        facts.push(format!("default `{}`", d.wire()));
    }
    let mut values = Vec::new();
    match &p.ty {
        ValueType::Integer(t) => {
            if t.min.is_some() || t.max.is_some() {
                values.push(mrds_runtime::range_reason(t.min, t.max).replace("must be ", ""));
            }
            if t.format == Some(IntegerFormat::UnixSeconds) {
                values.push(format!("format: {}", Format::UnixSeconds.description()));
            }
        }
        ValueType::String(t) => {
            if let Some(f) = t.format {
                values.push(format!("format: {}", f.info().description));
            }
            if let Some(pattern) = &t.pattern {
                values.push(format!("pattern `{pattern}`"));
            }
        }
        ValueType::Boolean | ValueType::Enum(_) => {}
    }
    match &p.list {
        None => facts.extend(values),
        Some(form) => {
            facts.push(match form.style {
                ListStyle::Comma => format!("a list, comma-separated (`{}=a,b`)", p.wire),
                ListStyle::Repeated => {
                    format!(
                        "a list, the parameter once per item (`{0}=a&{0}=b`)",
                        p.wire
                    )
                }
            });
            let items = mrds_runtime::items_reason(form.min_items, form.max_items);
            if !items.is_empty() {
                facts.push(items.replace("must have ", ""));
            }
            facts.push("no item is the parameter not given".into());
            if !values.is_empty() {
                facts.push(format!("each item: {}", values.join(", ")));
            }
        }
    }
    format!("{}.", facts.join("; "))
}

pub(super) fn struct_doc(api: &Api, e: &Endpoint) -> String {
    let described = EndpointDoc::new(e, Style::Rustdoc);
    let mut doc = format!(
        "Parameters of {}\n\nAnswers `data` as an array of [`crate::records::{}`].{}",
        described.head(),
        api.returns(e).name,
        described.body()
    );
    let made = if e.params.iter().filter(|p| p.required).count() > MAX_ARGS {
        init_docs(&e.names.params_type, "parameters")
    } else {
        "Made with `new` (the required parameters) and the `with_` setters".into()
    };
    doc.push_str(&format!(
        "\n\nNon-exhaustive. {made}, so a parameter added later is not a breaking change; every \
         field stays public to read and assign."
    ));
    with_provenance(doc, &e.provenance)
}
