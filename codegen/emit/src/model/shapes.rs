//! `shapes.rs`: the spec's description of the answers as data (`mrds_runtime::shapes::Shapes`):
//! the envelope's and every record's fields with their JSON types, the value sets' wire values
//! and the record of each endpoint. `PROTOCOL` carries it, so a client (or a proxy) of the spec
//! notices what the service's answers hold that the spec does not describe; the walking is the
//! runtime's.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use mrds_runtime::shapes::FieldType;

use mrds_spec::model::{Api, Field, Format, shapes};

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
        let ty = match shapes::field_type(api, f) {
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
