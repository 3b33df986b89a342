//! Value sets and the fields of records and of the envelope.

use std::collections::{BTreeMap, BTreeSet};

use super::{Cx, Def, TypeNames};
use crate::ast::{self, Spanned};
use crate::model::{
    EnumType, Field, Format, IntegerFormat, IntegerType, Provenance, StringType, TypeRef, ValueSet,
    ValueSetId, ValueType, Variant,
};
use crate::naming;

/// Primitive field types.
const FIELD_PRIMITIVES: &[&str] = &["string", "integer", "number", "boolean", "any"];

impl<'a> Cx<'a> {
    pub(super) fn value_set(
        &mut self,
        id: ValueSetId,
        name: &str,
        def: &Def<'a, ast::ValueSet>,
        tolerant: bool,
    ) -> ValueSet {
        let mut values = Vec::new();
        let mut wires: BTreeSet<&str> = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        if def.values.is_empty() {
            self.err(def.values.at(), format!("value set `{name}` has no values"));
        }
        for v in def.values.iter() {
            if v.value.is_empty() {
                self.err(
                    v.value.at(),
                    format!("value set `{name}` has an empty value"),
                );
                continue;
            }
            if !wires.insert(&v.value) {
                self.err(
                    v.value.at(),
                    format!("value `{}` is listed twice in value set `{name}`", v.value),
                );
                continue;
            }
            let ident = match naming::variant_name(&v.value, v.rust.as_ref().map(|r| r.as_str())) {
                Ok(ident) => ident,
                Err(msg) => {
                    let at = v.rust.as_ref().map_or(v.value.at(), |r| r.at());
                    let d = self.err(at, format!("{msg} in value set `{name}`"));
                    Self::hint(d, "give the variant a name with `rust: SomeName`");
                    continue;
                }
            };
            if ["ALL", "WIRE"].contains(&ident.as_str()) {
                let d = self.err(v.value.at(), format!("value `{}` of `{name}` takes the variant name `{ident}`, which the generated enum uses for its list of values", v.value));
                Self::hint(d, "give the variant another name with `rust: SomeName`");
                continue;
            }
            if tolerant && ident == naming::CATCH_ALL {
                let d = self.err(v.value.at(), format!("value `{}` of `{name}` takes the variant name `{}`, reserved for values the spec does not know", v.value, naming::CATCH_ALL));
                Self::hint(d, "give the variant another name with `rust: SomeName`");
                continue;
            }
            if let Some(other) = idents.get(&ident) {
                let d = self.err(v.value.at(), format!("values `{other}` and `{}` of `{name}` both become the Rust variant `{ident}`", v.value));
                Self::hint(d, "give one of them another name with `rust: SomeName`");
                continue;
            }
            idents.insert(ident.clone(), &v.value);
            values.push(Variant {
                at: self.loc(v.at()),
                wire: v.value.to_string(),
                ident,
                doc: v.doc.clone(),
                provenance: Provenance::from_reason(v.assumed.as_ref()),
            });
        }
        ValueSet {
            id,
            at: self.loc(def.key_at()),
            name: naming::type_name(name).unwrap_or_else(|_| name.to_string()),
            spec_name: name.to_string(),
            doc: def.doc.clone(),
            provenance: Provenance::from_reason(def.assumed.as_ref()),
            tolerant,
            values,
        }
    }

    pub(super) fn fields(
        &mut self,
        fields: &[Spanned<ast::Field>],
        types: &TypeNames<'_>,
        owner: Owner<'_>,
    ) -> Vec<Field> {
        let mut out = Vec::new();
        let mut wires = BTreeSet::new();
        let mut idents: BTreeMap<String, &str> = BTreeMap::new();
        for f in fields {
            if !wires.insert(f.name.as_str()) {
                self.err(f.name.at(), format!("field `{}` is listed twice", f.name));
                continue;
            }
            let ident = match naming::field_name(&f.name) {
                Ok(ident) => ident,
                Err(msg) => {
                    self.err(f.name.at(), msg);
                    continue;
                }
            };
            if let Some(other) = idents.get(&ident) {
                let d = self.err(
                    f.name.at(),
                    format!(
                        "fields `{other}` and `{}` both become the Rust field `{ident}`",
                        f.name
                    ),
                );
                Self::hint(
                    d,
                    "wire names must stay distinct once turned into snake_case",
                );
                continue;
            }
            idents.insert(ident.clone(), &f.name);
            let ty = match f.ty.as_str() {
                "string" => TypeRef::String,
                "integer" => TypeRef::Integer,
                "number" => TypeRef::Number,
                "boolean" => TypeRef::Boolean,
                "any" => TypeRef::Any,
                "records" if owner == Owner::Envelope => TypeRef::Records,
                "ErrorCode" => TypeRef::ErrorCode,
                other if types.records.contains_key(other) => TypeRef::Record(types.records[other]),
                other if types.value_sets.contains_key(other) => {
                    TypeRef::ValueSet(types.value_sets[other])
                }
                other => {
                    let d = self.err(
                        f.ty.at(),
                        format!("unknown type `{other}` for field `{}`", f.name),
                    );
                    let mut candidates: Vec<&str> = FIELD_PRIMITIVES.to_vec();
                    candidates.extend(types.records.keys().copied());
                    candidates.extend(types.value_sets.keys().copied());
                    candidates.push("ErrorCode");
                    Self::suggest(d, other, candidates);
                    if d.hint.is_none() {
                        Self::hint(
                            d,
                            "a field type is string, integer, number, boolean, any, ErrorCode, a record or a value set",
                        );
                    }
                    continue;
                }
            };
            if let Some(format) = &f.format {
                let ok = match **format {
                    Format::UnixSeconds => ty == TypeRef::Integer,
                    _ => ty == TypeRef::String,
                };
                if !ok {
                    self.err(
                        format.at(),
                        format!(
                            "format `{}` does not fit field `{}` of type `{}`",
                            format.name(),
                            f.name,
                            f.ty
                        ),
                    );
                }
            }
            let checks = self.field_checks(f, &ty, owner, types);
            out.push(Field {
                at: self.loc(f.at()),
                wire: f.name.to_string(),
                ident,
                ty,
                array: f.array,
                optional: f.optional,
                boxed: false,
                format: f.format.as_ref().map(|f| **f),
                checks,
                doc: f.doc.clone(),
                provenance: Provenance::from_reason(f.assumed.as_ref()),
            });
        }
        out
    }

    /// The checks of a field of a request body (its range, pattern, format or values, as a
    /// parameter of the same type would carry them); a constraint anywhere else is reported.
    fn field_checks(
        &mut self,
        f: &Spanned<ast::Field>,
        ty: &TypeRef,
        owner: Owner<'_>,
        types: &TypeNames<'_>,
    ) -> Option<ValueType> {
        let name = f.name.as_str();
        let constraint = f.constraints().first_checked();
        let Owner::Record { name: record, body } = owner else {
            if let Some(at) = constraint {
                self.err(at, format!("field `{name}` of the envelope has a constraint; constraints apply to fields of a request body"));
            }
            return None;
        };
        if !body {
            if let Some(at) = constraint {
                let d = self.err(at, format!("field `{name}` has a constraint, but record `{record}` is not the body of any endpoint"));
                Self::hint(
                    d,
                    "constraints (min, max, pattern) are checked on request bodies; the records of answers are read as they come",
                );
            }
            return None;
        }
        let before = self.errors.len();
        let format = f.format.as_ref().map(|f| **f);
        let mut checks = match (ty, f.array) {
            (_, true) => None,
            (TypeRef::Integer, _) => Some(ValueType::Integer(IntegerType {
                min: None,
                max: None,
                format: (format == Some(Format::UnixSeconds)).then_some(IntegerFormat::UnixSeconds),
            })),
            (TypeRef::String, _) => {
                let string_format = match format {
                    None => None,
                    Some(Format::Text(f)) => Some(f),
                    Some(other) => {
                        if let Some(at) = f.format.as_ref().map(Spanned::at) {
                            let d = self.err(at, format!("format `{}` of body field `{name}` is not one a request is checked against", other.name()));
                            Self::hint(
                                d,
                                "a request body's text fields take rfc3339, uuid, hex16 or date; describe others in the doc, or with a pattern",
                            );
                        }
                        None
                    }
                };
                Some(ValueType::String(StringType {
                    pattern: None,
                    pattern_doc: None,
                    format: string_format,
                }))
            }
            (TypeRef::Boolean, _) => Some(ValueType::Boolean),
            (TypeRef::ValueSet(id), _) => Some(ValueType::Enum(EnumType {
                set: *id,
                name: types.value_set_names[id.index()].clone(),
                // A set a record field uses keeps values the spec does not know.
                tolerant: true,
                values: types.value_set_wires[id.index()].clone(),
            })),
            _ => None,
        };
        let kind = if f.array {
            "is a list".to_string()
        } else {
            format!("is of type `{}`", f.ty.as_str())
        };
        self.constraints(
            &format!("field `{name}`"),
            f.constraints(),
            checks.as_mut(),
            &kind,
        );
        (self.errors.len() == before).then_some(checks).flatten()
    }
}

/// What a list of fields belongs to: the envelope, or a record (a request body or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owner<'a> {
    /// The common envelope (it may hold the `records` field).
    Envelope,
    /// A record.
    Record {
        /// Its name in the spec.
        name: &'a str,
        /// The body of a request: its fields carry checks.
        body: bool,
    },
}
