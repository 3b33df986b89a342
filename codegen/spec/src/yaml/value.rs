//! Untyped YAML values with their places (a parameter's default, a sample record), and the
//! writer of YAML text used by the tools that make specs.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::spanned::Spanned;

/// A YAML value with its place; every nested value has its own.
pub type Value = Spanned<ValueKind>;

/// What a YAML value is, by the core schema.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    /// `~`, `null` or nothing.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer or a floating-point number.
    Number(serde_json::Number),
    /// Text (any quoted scalar, and plain scalars that are nothing else).
    String(String),
    /// A sequence.
    Seq(Vec<Value>),
    /// A mapping, in the order written.
    Map(Vec<(Value, Value)>),
}

impl ValueKind {
    /// The text, when the value is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ValueKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, when the value is an integer that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            ValueKind::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    /// The boolean, when the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            ValueKind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// What kind of value this is, for messages (`an integer`, `text`, `a list`).
    pub fn describe(&self) -> &'static str {
        match self {
            ValueKind::String(_) => "text",
            ValueKind::Number(n) if n.is_i64() || n.is_u64() => "an integer",
            ValueKind::Number(_) => "a number",
            ValueKind::Bool(_) => "a boolean",
            ValueKind::Seq(_) => "a list",
            ValueKind::Map(_) => "a mapping",
            ValueKind::Null => "null",
        }
    }
}

impl<'de> Deserialize<'de> for ValueKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Any;

        impl<'de> Visitor<'de> for Any {
            type Value = ValueKind;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML value")
            }

            fn visit_unit<E>(self) -> Result<ValueKind, E> {
                Ok(ValueKind::Null)
            }

            fn visit_none<E>(self) -> Result<ValueKind, E> {
                Ok(ValueKind::Null)
            }

            fn visit_bool<E>(self, v: bool) -> Result<ValueKind, E> {
                Ok(ValueKind::Bool(v))
            }

            fn visit_i64<E>(self, v: i64) -> Result<ValueKind, E> {
                Ok(ValueKind::Number(v.into()))
            }

            fn visit_u64<E>(self, v: u64) -> Result<ValueKind, E> {
                Ok(ValueKind::Number(v.into()))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ValueKind, E> {
                serde_json::Number::from_f64(v)
                    .map(ValueKind::Number)
                    .ok_or_else(|| de::Error::custom(format!("{v} is not a finite number")))
            }

            fn visit_str<E>(self, v: &str) -> Result<ValueKind, E> {
                Ok(ValueKind::String(v.to_owned()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ValueKind, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(ValueKind::Seq(items))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ValueKind, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(ValueKind::Map(entries))
            }
        }

        d.deserialize_any(Any)
    }
}

/// Any value: what a value may be is checked against what it stands for (a parameter's type, a
/// record's fields) once the spec is resolved.
impl schemars::JsonSchema for ValueKind {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyValue".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        true.into()
    }
}

impl Serialize for ValueKind {
    /// As JSON would hold it: a mapping's keys must be text.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ValueKind::Null => s.serialize_unit(),
            ValueKind::Bool(b) => s.serialize_bool(*b),
            ValueKind::Number(n) => n.serialize(s),
            ValueKind::String(t) => s.serialize_str(t),
            ValueKind::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&item.item)?;
                }
                seq.end()
            }
            ValueKind::Map(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(&k.item, &v.item)?;
                }
                map.end()
            }
        }
    }
}

/// YAML text of a JSON value, in block style: every string double-quoted (JSON's escapes are
/// YAML's), so the text reads back as the same value. For tools that write specs.
pub fn to_string(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn scalar(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value as J;
    match value {
        J::Null => Some("null".into()),
        J::Bool(b) => Some(b.to_string()),
        J::Number(n) => Some(n.to_string()),
        J::String(s) => Some(serde_json::Value::String(s.clone()).to_string()),
        J::Array(a) if a.is_empty() => Some("[]".into()),
        J::Object(o) if o.is_empty() => Some("{}".into()),
        _ => None,
    }
}

fn write_value(out: &mut String, value: &serde_json::Value, indent: usize) {
    use serde_json::Value as J;
    let pad = " ".repeat(indent);
    match value {
        J::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&pad);
                out.push('-');
                match scalar(item) {
                    Some(text) => {
                        out.push(' ');
                        out.push_str(&text);
                        out.push('\n');
                    }
                    None => {
                        out.push('\n');
                        write_value(out, item, indent + 2);
                    }
                }
            }
        }
        J::Object(entries) if !entries.is_empty() => {
            for (key, v) in entries {
                out.push_str(&pad);
                out.push_str(&serde_json::Value::String(key.clone()).to_string());
                out.push(':');
                match scalar(v) {
                    Some(text) => {
                        out.push(' ');
                        out.push_str(&text);
                        out.push('\n');
                    }
                    None => {
                        out.push('\n');
                        write_value(out, v, indent + 2);
                    }
                }
            }
        }
        other => {
            out.push_str(&pad);
            out.push_str(&scalar(other).unwrap_or_default());
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{from_node, parse};

    fn read<T: serde::de::DeserializeOwned>(text: &str) -> T {
        from_node(&parse(0, text).unwrap().unwrap()).unwrap()
    }

    #[test]
    fn values_read_by_the_core_schema_with_places() {
        let v: Value = read("a: [1, '2', 2.5, true, ~, {b: c}]\n");
        let ValueKind::Map(entries) = &v.item else {
            panic!()
        };
        let ValueKind::Seq(items) = &entries[0].1.item else {
            panic!()
        };
        assert_eq!(items[0].as_i64(), Some(1));
        assert_eq!(items[1].as_str(), Some("2"));
        assert_eq!(items[2].describe(), "a number");
        assert_eq!(items[3].as_bool(), Some(true));
        assert_eq!(items[4].item, ValueKind::Null);
        assert_eq!(items[5].span.column, 27);
        assert_eq!(
            serde_json::to_string(&v.item).unwrap(),
            r#"{"a":[1,"2",2.5,true,null,{"b":"c"}]}"#
        );
    }

    #[test]
    fn written_yaml_reads_back_as_the_same_value() {
        let json = serde_json::json!({
            "records": { "Bar": { "doc": "a \"quoted\"\nline: x", "fields": [
                { "name": "yes", "type": "string", "optional": true, "n": 12, "x": 1.5 },
                { "name": "~", "type": "", "list": [], "map": {} }
            ] } },
            "empty": null,
            "unicode": "ünï – 字"
        });
        let text = to_string(&json);
        let back: serde_json::Value = read(&text);
        assert_eq!(back, json);
    }
}
