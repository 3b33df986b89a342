//! Noticing by walking an answer's JSON: every value's type against its field's, so it finds
//! what makes decoding fail too (a required field `null` or missing, a number arriving as a
//! text). A pass of its own over the bytes: the client walks the answers it could not decode
//! and the error answers; a proxy, which decodes nothing, walks every answer.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use super::ctx::{Ctx, Expect, MapShape};
use super::json::JsonKind;
use super::notes::{Noticed, Owner, What};
use crate::JsonValue;
use crate::shapes::{FieldShape, FieldType, Shapes};

/// What the answer of `endpoint` with HTTP `status` holds that `shapes` does not describe:
/// fields the envelope or a record does not declare, values outside a field's value set,
/// required fields `null` or missing, values of another JSON type than their field's
/// (a number arriving as a string), values out of their field's format, whole numbers written
/// as decimals (`12.0`, `1e3`: kept as spelt) and integers past the 64-bit range in integer
/// fields. A 2xx answer's `data` is read as the endpoint's records, any other's as error
/// objects.
///
/// Never fails: a body that is not JSON, or stops being JSON part way, yields what was
/// noticed before that point. An endpoint `shapes` does not know yields nothing.
pub fn check_answer(shapes: &'static Shapes, endpoint: &str, status: u16, body: &[u8]) -> Noticed {
    let returns = if (200..300).contains(&status) {
        shapes.returns(endpoint)
    } else {
        shapes
            .returns(endpoint)
            .map(|_| shapes.error_object)
            .filter(|&r| r < shapes.records.len())
    };
    let Some(returns) = returns else {
        return Noticed::new(shapes);
    };
    let ctx = Ctx::new(shapes, returns);
    let mut de = serde_json::Deserializer::from_slice(body);
    let _ = Walk {
        expect: Expect::Envelope,
        ctx: &ctx,
    }
    .deserialize(&mut de);
    ctx.notes.into_inner().with_status(status)
}

/// One value, read as `expect`.
struct Walk<'c> {
    expect: Expect<'static>,
    ctx: &'c Ctx,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// What the JSON type of a value says of it.
enum Verdict {
    /// As the spec says; look inside an object or array with this shape.
    Fits(Inside),
    /// Not as the spec says, and noticed; `Some(entry)` when the value is wanted as the
    /// example of that entry.
    Differs(Option<usize>),
    /// Not read as anything.
    Skip,
}

enum Inside {
    Nothing,
    Object(MapShape),
    Elements(Expect<'static>),
}

/// The JSON type a field's value must have (`None`: any).
fn expected(ty: FieldType) -> Option<JsonKind> {
    Some(match ty {
        FieldType::String | FieldType::ValueSet(_) => JsonKind::String,
        FieldType::Integer => JsonKind::Integer,
        FieldType::Number => JsonKind::Number,
        FieldType::Boolean => JsonKind::Boolean,
        FieldType::Any => return None,
        FieldType::Record(_) | FieldType::Records => JsonKind::Object,
    })
}

/// Whether a value of kind `got` reads as `want`: a whole number is a number too.
fn fits(want: JsonKind, got: JsonKind) -> bool {
    want == got || (want == JsonKind::Number && got == JsonKind::Integer)
}

impl Walk<'_> {
    /// Judges a value of kind `got` against what it is read as.
    fn judge(&self, got: JsonKind) -> Verdict {
        let ctx = self.ctx;
        let (owner, field, element) = match self.expect {
            Expect::Envelope => {
                return match got {
                    JsonKind::Object => Verdict::Fits(Inside::Object(ctx.envelope())),
                    _ => Verdict::Skip,
                };
            }
            Expect::Watch { .. } | Expect::Object(_) => return Verdict::Skip,
            Expect::Field { owner, field } => (owner, field, false),
            Expect::Element { owner, field } => (owner, field, true),
        };
        if got == JsonKind::Null && !element {
            if field.optional || (field.ty == FieldType::Any && !field.array) {
                return Verdict::Fits(Inside::Nothing);
            }
            return self.note(What::Null, owner, field);
        }
        if field.array && !element {
            if got == JsonKind::Array {
                return Verdict::Fits(Inside::Elements(Expect::Element { owner, field }));
            }
            let expected = JsonKind::Array;
            return self.note(What::Type { expected, got }, owner, field);
        }
        let Some(expected) = expected(field.ty) else {
            return Verdict::Fits(Inside::Nothing);
        };
        if !fits(expected, got) {
            return self.note(What::Type { expected, got }, owner, field);
        }
        match ctx.object(field.ty) {
            Some(shape) => Verdict::Fits(Inside::Object(shape)),
            None => Verdict::Fits(Inside::Nothing),
        }
    }

    fn note(&self, what: What, owner: Owner, field: &FieldShape) -> Verdict {
        Verdict::Differs(self.ctx.notes.borrow_mut().observe(what, owner, field.name))
    }

    fn example(&self, entry: usize, value: JsonValue) {
        self.ctx.notes.borrow_mut().example(entry, value);
    }

    /// A scalar of kind `got`; `value` makes it, for an example.
    fn scalar<E>(self, got: JsonKind, value: impl FnOnce() -> JsonValue) -> Result<(), E> {
        if let Verdict::Differs(Some(entry)) = self.judge(got) {
            self.example(entry, value());
        }
        Ok(())
    }

    /// A text: judged, looked up in its value set and checked against its format.
    fn text<E>(self, v: &str) -> Result<(), E> {
        match self.judge(JsonKind::String) {
            Verdict::Fits(_) => {
                if let Some((owner, field)) = self.expect.single() {
                    if let FieldType::ValueSet(set) = field.ty {
                        self.ctx.check_value(set, owner, field.name, v);
                    }
                    if let Some(format) = field.format
                        && !format.holds_text(v)
                        && let Verdict::Differs(Some(entry)) =
                            self.note(What::Format(format), owner, field)
                    {
                        self.example(entry, JsonValue::String(v.into()));
                    }
                }
            }
            Verdict::Differs(Some(entry)) => self.example(entry, JsonValue::String(v.into())),
            Verdict::Differs(None) | Verdict::Skip => {}
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        if let Expect::Field {
            owner: Owner::Envelope,
            field,
        } = self.expect
            && field.name == "success"
            && !v
        {
            // A failure envelope: its `data` holds error objects.
            self.ctx.failure.set(true);
        }
        self.scalar(JsonKind::Boolean, || JsonValue::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let value = || match u64::try_from(v) {
            Ok(n) => JsonValue::Unsigned(n),
            Err(_) => JsonValue::Negative(v),
        };
        self.scalar(JsonKind::Integer, value)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.scalar(JsonKind::Integer, || JsonValue::Unsigned(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.scalar(JsonKind::Number, || JsonValue::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.text(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.scalar(JsonKind::Null, || JsonValue::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        match self.judge(JsonKind::Array) {
            Verdict::Fits(Inside::Elements(element)) => {
                let ctx = self.ctx;
                let integers = element
                    .single()
                    .is_some_and(|(_, f)| f.ty == FieldType::Integer);
                if integers {
                    while seq
                        .next_element_seed(Integer {
                            expect: element,
                            ctx,
                        })?
                        .is_some()
                    {}
                } else {
                    while seq
                        .next_element_seed(Walk {
                            expect: element,
                            ctx,
                        })?
                        .is_some()
                    {}
                }
            }
            Verdict::Differs(Some(entry)) => {
                let value = JsonValue::deserialize(SeqAccessDeserializer::new(seq))?;
                self.example(entry, value);
            }
            _ => while seq.next_element::<IgnoredAny>()?.is_some() {},
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let shape = match self.judge(JsonKind::Object) {
            Verdict::Fits(Inside::Object(shape)) => shape,
            Verdict::Differs(Some(entry)) => {
                let value = JsonValue::deserialize(MapAccessDeserializer::new(map))?;
                self.example(entry, value);
                return Ok(());
            }
            _ => {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                return Ok(());
            }
        };
        let ctx = self.ctx;
        let mut seen = vec![false; shape.record.fields.len()];
        let mut next = 0;
        while let Some(key) = map.next_key::<KeyText<'de>>()? {
            let Some(i) = shape.find(&key.0, &mut next) else {
                let entry = ctx
                    .notes
                    .borrow_mut()
                    .observe(What::Undeclared, shape.owner, &key.0);
                match entry {
                    Some(entry) => {
                        let value: JsonValue = map.next_value()?;
                        self.example(entry, value);
                    }
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                continue;
            };
            seen[i] = true;
            let field = &shape.record.fields[i];
            let expect = Expect::Field {
                owner: shape.owner,
                field,
            };
            if field.ty == FieldType::Integer && !field.array {
                map.next_value_seed(Integer { expect, ctx })?;
            } else {
                map.next_value_seed(Walk { expect, ctx })?;
            }
        }
        let mut notes = ctx.notes.borrow_mut();
        for (field, seen) in shape.record.fields.iter().zip(seen) {
            if !seen && !field.optional {
                notes.observe(What::Missing, shape.owner, field.name);
            }
        }
        Ok(())
    }
}

/// One value of an integer field, read as its text so that a number is judged as the service
/// spelt it: an integer in the 64-bit range fits (and is checked against the field's format);
/// a whole number written as a decimal (`12.0`, `1e3`) is a whole number, one past the range an
/// integer out of range, both noticed with the text as the example; a number with a fraction
/// is a number where an integer was expected. Anything else is walked as any value.
struct Integer<'c> {
    expect: Expect<'static>,
    ctx: &'c Ctx,
}

impl<'de> DeserializeSeed<'de> for Integer<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let raw = <&'de serde_json::value::RawValue>::deserialize(d)?;
        let text = raw.get().trim();
        let walk = Walk {
            expect: self.expect,
            ctx: self.ctx,
        };
        let Some((owner, field)) = self.expect.single() else {
            return Ok(());
        };
        if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            // Not a number: judged as any value (null, a text, an array...).
            let _ = walk.deserialize(&mut serde_json::Deserializer::from_str(text));
            return Ok(());
        }
        let noted = |what: What, example: JsonValue| {
            if let Verdict::Differs(Some(entry)) = walk.note(what, owner, field) {
                walk.example(entry, example);
            }
        };
        let spelt = || JsonValue::String(text.to_string());
        if let Ok(n) = text.parse::<i64>() {
            if let Some(format) = field.format
                && !format.holds_integer(n)
            {
                let number = match u64::try_from(n) {
                    Ok(n) => JsonValue::Unsigned(n),
                    Err(_) => JsonValue::Negative(n),
                };
                noted(What::Format(format), number);
            }
            return Ok(());
        }
        let integral = !text.contains(['.', 'e', 'E']);
        match text.parse::<f64>() {
            _ if integral => noted(What::OutOfRange, spelt()),
            Ok(v) if v.is_finite() && v.fract() == 0.0 => {
                if v.abs() < 9.2e18 {
                    noted(What::WholeNumber, spelt());
                } else {
                    noted(What::OutOfRange, spelt());
                }
            }
            Ok(v) => {
                let expected = JsonKind::Integer;
                let got = JsonKind::Number;
                noted(What::Type { expected, got }, JsonValue::Float(v));
            }
            Err(_) => {}
        }
        Ok(())
    }
}

/// A key as text, borrowed from the input when it can be.
struct KeyText<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for KeyText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyTextVisitor;
        impl<'de> Visitor<'de> for KeyTextVisitor {
            type Value = KeyText<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<KeyText<'de>, E> {
                Ok(KeyText(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyText<'de>, E> {
                Ok(KeyText(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<KeyText<'de>, E> {
                Ok(KeyText(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyTextVisitor)
    }
}
