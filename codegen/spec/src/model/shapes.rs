//! The spec's description of the answers as a value of the runtime's type
//! ([`mrds_runtime::shapes::Shapes`]), what the generated model crate's `SHAPES` holds: the
//! envelope's and every record's fields with their JSON types, the value sets' wire values
//! and the record of each endpoint. Built here for tools that read answers against the spec
//! as it is in the work tree, with no generated crate (`cargo xtask drift` reading recorded
//! traffic); the emitters write the same value as code with [`field_type`].

use mrds_runtime::shapes::{
    EndpointShape, FieldShape, FieldType, RecordShape, Shapes, ValueSetShape,
};

use super::{Api, Field, TypeRef};

/// The JSON type of a field's values in the shapes: a record or a value set by its index (the
/// error codes are the set after the spec's value sets). The one mapping the generated
/// `SHAPES` (the emitters') and [`shapes`] (the same value built at run time) read.
pub fn field_type(api: &Api, f: &Field) -> FieldType {
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
