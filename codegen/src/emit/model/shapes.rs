//! `shapes.rs`: the spec's description of the answers as data (`mrds_runtime::shapes::Shapes`):
//! the envelope's and every record's fields with their JSON types, the value sets' wire values
//! and the record of each endpoint. `PROTOCOL` carries it, so a client (or a proxy) of the spec
//! notices what the service's answers hold that the spec does not describe; the walking is the
//! runtime's.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use mrds_runtime::shapes::{
    EndpointShape, FieldShape, FieldType, RecordShape, Shapes, ValueSetShape,
};

use crate::model::{Api, Field, Format, TypeRef};

pub(super) fn file(api: &Api) -> TokenStream {
    let envelope = fields(api, &api.envelope.fields);
    let envelope = quote!(RecordShape::new("envelope", &[#(#envelope),*]));
    let records = api.records.iter().map(|r| {
        let name = &r.spec_name;
        let fields = fields(api, &r.fields);
        quote!(RecordShape::new(#name, &[#(#fields),*]))
    });
    let sets = api.value_sets.iter().map(|vs| {
        let name = &vs.spec_name;
        let values = vs.values.iter().map(|v| &v.wire);
        quote!(ValueSetShape { name: #name, values: &[#(#values),*] })
    });
    let codes = api.error_codes.iter().map(|c| &c.code);
    let endpoints = api.endpoints.iter().map(|e| {
        let id = &e.id;
        let returns = Literal::usize_unsuffixed(e.returns.index());
        quote!(EndpointShape { id: #id, returns: #returns })
    });
    let error_object = Literal::usize_unsuffixed(api.errors.object.index());
    quote! {
        //! The spec's description of the answers, as data: the envelope's fields, every
        //! record's fields (wire name, JSON type, array, optional, format), the values of the value
        //! sets (the error codes as the set `ErrorCode`) and the record each endpoint answers
        //! with. [`crate::api::PROTOCOL`] carries it: the client reads every answer against
        //! it to notice what the service sends that the spec does not describe
        //! (`mrds_runtime::drift`).

        use mrds_runtime::shapes::{EndpointShape, FieldShape, FieldType, RecordShape, Shapes, ValueSetShape};

        /// The answers of the service as the spec describes them.
        pub static SHAPES: Shapes = Shapes {
            envelope: #envelope,
            records: &[#(#records),*],
            value_sets: &[#(#sets,)* ValueSetShape { name: "ErrorCode", values: &[#(#codes),*] }],
            endpoints: &[#(#endpoints),*],
            error_object: #error_object,
        };
    }
}

/// The shapes of some fields.
fn fields<'a>(api: &'a Api, fields: &'a [Field]) -> impl Iterator<Item = TokenStream> + 'a {
    fields.iter().map(move |f| {
        let name = &f.wire;
        let ty = match field_type(api, f) {
            FieldType::String => quote!(FieldType::String),
            FieldType::Integer => quote!(FieldType::Integer),
            FieldType::Number => quote!(FieldType::Number),
            FieldType::Boolean => quote!(FieldType::Boolean),
            FieldType::Any => quote!(FieldType::Any),
            FieldType::Record(i) => {
                let i = Literal::usize_unsuffixed(i);
                quote!(FieldType::Record(#i))
            }
            FieldType::ValueSet(i) => {
                let i = Literal::usize_unsuffixed(i);
                quote!(FieldType::ValueSet(#i))
            }
            FieldType::Records => quote!(FieldType::Records),
        };
        let array = f.array.then(|| quote!(.array()));
        let optional = f.optional.then(|| quote!(.optional()));
        let format = f.format.map(|format| {
            let format = format_tokens(format);
            quote!(.format(#format))
        });
        quote!(FieldShape::new(#name, #ty) #array #optional #format)
    })
}

/// The JSON type of a field's values in the shapes: a record or a value set by its index (the
/// error codes are the set after the spec's value sets). The one mapping the generated
/// `SHAPES` and [`shapes`] (the same value built at run time) read.
fn field_type(api: &Api, f: &Field) -> FieldType {
    match f.ty {
        TypeRef::String => FieldType::String,
        TypeRef::Integer => FieldType::Integer,
        TypeRef::Number => FieldType::Number,
        TypeRef::Boolean => FieldType::Boolean,
        TypeRef::Any => FieldType::Any,
        TypeRef::Record(id) => FieldType::Record(id.index()),
        TypeRef::ValueSet(id) => FieldType::ValueSet(id.index()),
        TypeRef::ErrorCode => FieldType::ValueSet(api.value_sets.len()),
        TypeRef::Records => FieldType::Records,
    }
}

/// The shapes of `api`'s answers as a value, what the generated `SHAPES` holds: for a tool
/// that reads answers against the spec as it is in the work tree (`cargo xtask drift` reading
/// recorded traffic), with no generated crate. Its names are leaked: built once a run.
pub fn shapes(api: &Api) -> &'static Shapes {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let fields = |fields: &[Field]| -> &'static [FieldShape] {
        let shapes: Vec<FieldShape> = fields
            .iter()
            .map(|f| {
                let mut shape = FieldShape::new(leak(&f.wire), field_type(api, f));
                if f.array {
                    shape = shape.array();
                }
                if f.optional {
                    shape = shape.optional();
                }
                if let Some(format) = f.format {
                    shape = shape.format(format);
                }
                shape
            })
            .collect();
        shapes.leak()
    };
    let records: Vec<RecordShape> = (api.records.iter())
        .map(|r| RecordShape::new(leak(&r.spec_name), fields(&r.fields)))
        .collect();
    let mut sets: Vec<ValueSetShape> = (api.value_sets.iter())
        .map(|vs| ValueSetShape {
            name: leak(&vs.spec_name),
            values: vs
                .values
                .iter()
                .map(|v| leak(&v.wire))
                .collect::<Vec<_>>()
                .leak(),
        })
        .collect();
    sets.push(ValueSetShape {
        name: "ErrorCode",
        values: (api.error_codes.iter())
            .map(|c| leak(&c.code))
            .collect::<Vec<_>>()
            .leak(),
    });
    let endpoints: Vec<EndpointShape> = (api.endpoints.iter())
        .map(|e| EndpointShape {
            id: leak(&e.id),
            returns: e.returns.index(),
        })
        .collect();
    Box::leak(Box::new(Shapes {
        envelope: RecordShape::new("envelope", fields(&api.envelope.fields)),
        records: records.leak(),
        value_sets: sets.leak(),
        endpoints: endpoints.leak(),
        error_object: api.errors.object.index(),
    }))
}

/// `mrds_runtime::Format::Text(mrds_runtime::TextFormat::Date)`: a format as code.
fn format_tokens(format: Format) -> TokenStream {
    match format {
        Format::Text(text) => {
            let variant = format_ident!("{}", format!("{text:?}"));
            quote!(mrds_runtime::Format::Text(mrds_runtime::TextFormat::#variant))
        }
        other => {
            let variant = format_ident!("{}", format!("{other:?}"));
            quote!(mrds_runtime::Format::#variant)
        }
    }
}
