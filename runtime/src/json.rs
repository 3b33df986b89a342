//! [`JsonValue`]: any JSON value, for what the spec leaves open (`type: any`); and
//! [`null_as_default`], a record field's `null` read as its default, and [`whole_number`] and its
//! kin, an integer field of an answer read as leniently as JSON allows.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// Any JSON value: a field whose content the spec leaves open (`type: any`, such as the
/// envelope's `metadata` and `pagination`), kept as it came.
///
/// A plain serde type, so the model crate needs no JSON library of its own: it decodes from
/// and encodes to any serde format, and converts to and from `serde_json::Value` through
/// serde (`serde_json::to_value(&v)`, `serde_json::from_value(v)`). An object's keys are kept
/// sorted, as `serde_json::Value` keeps them by default; `Display` writes compact JSON text.
///
/// ```
/// use mrds_runtime::JsonValue;
///
/// let pagination = JsonValue::from_iter([("has_more", JsonValue::Bool(false))]);
/// assert_eq!(pagination.get("has_more").and_then(JsonValue::as_bool), Some(false));
/// assert!(pagination.get("total").is_none());
/// assert_eq!(pagination.to_string(), r#"{"has_more":false}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum JsonValue {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number from 0 up.
    Unsigned(u64),
    /// A whole number below 0.
    Negative(i64),
    /// Any other number.
    Float(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object, its keys sorted.
    Object(BTreeMap<String, JsonValue>),
}

impl JsonValue {
    /// The member `key` of an object; `None` for a missing key or a value that is not an object.
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        match self {
            JsonValue::Object(members) => members.get(key),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            JsonValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is a whole number in its range.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            JsonValue::Unsigned(n) => i64::try_from(*n).ok(),
            JsonValue::Negative(n) => Some(*n),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is a whole number from 0 up.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            JsonValue::Unsigned(n) => Some(*n),
            _ => None,
        }
    }

    /// The number as an `f64` (a whole number converted, perhaps rounded), if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            JsonValue::Unsigned(n) => Some(*n as f64),
            JsonValue::Negative(n) => Some(*n as f64),
            JsonValue::Float(n) => Some(*n),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            JsonValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[JsonValue]> {
        match self {
            JsonValue::Array(elements) => Some(elements),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&BTreeMap<String, JsonValue>> {
        match self {
            JsonValue::Object(members) => Some(members),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, JsonValue::Null)
    }
}

/// The value as compact JSON text (`{"has_more":false}`), as `serde_json::Value` displays it
/// (a number at the ends of the range may take another form of the same value, `1e300` for
/// `1e+300`). A number that is not finite, which JSON cannot hold, is written `null`.
impl fmt::Display for JsonValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonValue::Null => f.write_str("null"),
            JsonValue::Bool(b) => write!(f, "{b}"),
            JsonValue::Unsigned(n) => write!(f, "{n}"),
            JsonValue::Negative(n) => write!(f, "{n}"),
            // Debug writes the shortest text that reads back as the same number, with an
            // exponent for very large and very small ones, which JSON accepts.
            JsonValue::Float(n) if n.is_finite() => write!(f, "{n:?}"),
            JsonValue::Float(_) => f.write_str("null"),
            JsonValue::String(s) => write_string(f, s),
            JsonValue::Array(elements) => {
                f.write_str("[")?;
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str("]")
            }
            JsonValue::Object(members) => {
                f.write_str("{")?;
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A JSON string: quoted, with `"`, `\` and the control characters escaped.
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    use fmt::Write;
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if u32::from(c) < 0x20 => write!(f, "\\u{:04x}", u32::from(c))?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

/// `value["key"]`: the member `key` of an object, or `null` for a missing key or a value that
/// is not an object (as `serde_json::Value` indexes).
impl std::ops::Index<&str> for JsonValue {
    type Output = JsonValue;

    fn index(&self, key: &str) -> &JsonValue {
        self.get(key).unwrap_or(&JsonValue::Null)
    }
}

/// `value[i]`: the element `i` of an array, or `null` past its end or for a value that is not
/// an array.
impl std::ops::Index<usize> for JsonValue {
    type Output = JsonValue;

    fn index(&self, i: usize) -> &JsonValue {
        self.as_array()
            .and_then(|elements| elements.get(i))
            .unwrap_or(&JsonValue::Null)
    }
}

/// An object of the given members.
impl<K: Into<String>> FromIterator<(K, JsonValue)> for JsonValue {
    fn from_iter<I: IntoIterator<Item = (K, JsonValue)>>(members: I) -> Self {
        JsonValue::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// A string.
impl From<&str> for JsonValue {
    fn from(text: &str) -> Self {
        JsonValue::String(text.to_string())
    }
}

/// A string.
impl From<String> for JsonValue {
    fn from(text: String) -> Self {
        JsonValue::String(text)
    }
}

/// `true` or `false`.
impl From<bool> for JsonValue {
    fn from(b: bool) -> Self {
        JsonValue::Bool(b)
    }
}

/// A whole number, as JSON reads one (from 0 up: `Unsigned`).
impl From<i64> for JsonValue {
    fn from(n: i64) -> Self {
        match u64::try_from(n) {
            Ok(n) => JsonValue::Unsigned(n),
            Err(_) => JsonValue::Negative(n),
        }
    }
}

/// A whole number from 0 up.
impl From<u64> for JsonValue {
    fn from(n: u64) -> Self {
        JsonValue::Unsigned(n)
    }
}

/// Any other number.
impl From<f64> for JsonValue {
    fn from(n: f64) -> Self {
        JsonValue::Float(n)
    }
}

impl Serialize for JsonValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonValue::Null => serializer.serialize_unit(),
            JsonValue::Bool(b) => serializer.serialize_bool(*b),
            JsonValue::Unsigned(n) => serializer.serialize_u64(*n),
            JsonValue::Negative(n) => serializer.serialize_i64(*n),
            JsonValue::Float(n) => serializer.serialize_f64(*n),
            JsonValue::String(s) => serializer.serialize_str(s),
            JsonValue::Array(elements) => {
                let mut seq = serializer.serialize_seq(Some(elements.len()))?;
                for element in elements {
                    seq.serialize_element(element)?;
                }
                seq.end()
            }
            JsonValue::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = JsonValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<JsonValue, E> {
        Ok(JsonValue::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<JsonValue, E> {
        Ok(JsonValue::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<JsonValue, D::Error> {
        JsonValue::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<JsonValue, E> {
        Ok(JsonValue::Bool(b))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<JsonValue, E> {
        Ok(JsonValue::Unsigned(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<JsonValue, E> {
        Ok(u64::try_from(n).map_or(JsonValue::Negative(n), JsonValue::Unsigned))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<JsonValue, E> {
        Ok(JsonValue::Float(n))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<JsonValue, E> {
        Ok(JsonValue::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<JsonValue, E> {
        Ok(JsonValue::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsonValue, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(element) = seq.next_element()? {
            elements.push(element);
        }
        Ok(JsonValue::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonValue, A::Error> {
        let mut members = BTreeMap::new();
        while let Some((key, value)) = map.next_entry::<String, JsonValue>()? {
            members.insert(key, value);
        }
        Ok(JsonValue::Object(members))
    }
}

/// Deserializes `null` as the type's default (an empty list), for tolerant decoding.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    let value: Option<T> = serde::Deserialize::deserialize(deserializer)?;
    Ok(value.unwrap_or_default())
}

/// An integer field of an answer: an integer in the range of `i64`, or a whole number written
/// as a decimal (`12.0`, `1e3`), read as the integer it names. JSON does not tell `12.0` from
/// `12` (both are the number twelve), and services written in languages whose numbers are all
/// floats send the first; the field is still an integer, so the generated records read it as
/// one. A client noticing drift is told (`field.whole_number`, with the service's spelling).
/// A number with a fraction, or past the range, is refused as before ("invalid type" /
/// "invalid value ... expected i64").
///
/// The generated records of answers use it (and [`whole_number_option`], [`whole_numbers`],
/// [`whole_numbers_or_empty`]) on their integer fields through `deserialize_with`; the records
/// of request bodies do not: a server reads the integers of a body exactly.
pub fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    Whole::deserialize(d).map(|w| w.0)
}

/// [`whole_number`] of an optional field (`null` or absent: `None`, with `#[serde(default)]`).
pub fn whole_number_option<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<i64>, D::Error> {
    Option::<Whole>::deserialize(d).map(|w| w.map(|w| w.0))
}

/// [`whole_number`] of each element of an array field.
pub fn whole_numbers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    Vec::<Whole>::deserialize(d).map(|v| v.into_iter().map(|w| w.0).collect())
}

/// [`whole_numbers`] of an optional array field: `null` (or absent, with
/// `#[serde(default)]`) is empty, as [`null_as_default`] reads it.
pub fn whole_numbers_or_empty<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<i64>, D::Error> {
    Option::<Vec<Whole>>::deserialize(d)
        .map(|v| v.unwrap_or_default().into_iter().map(|w| w.0).collect())
}

/// An integer read as [`whole_number`] reads it.
#[repr(transparent)]
struct Whole(i64);

impl<'de> Deserialize<'de> for Whole {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_i64(WholeVisitor).map(Whole)
    }
}

struct WholeVisitor;

impl Visitor<'_> for WholeVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("i64")
    }

    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        // 2^63: the first whole number past the range of i64.
        const PAST: f64 = 9_223_372_036_854_775_808.0;
        if v.is_finite() && v.fract() == 0.0 && (-PAST..PAST).contains(&v) {
            crate::unknown_values::whole_number();
            Ok(v as i64)
        } else {
            Err(E::invalid_type(de::Unexpected::Float(v), &self))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JsonValue;

    /// Every kind of JSON value decodes to its variant and encodes back to the same text
    /// (keys sorted, as serde_json's own value sorts them).
    #[test]
    fn integer_fields_read_whole_numbers_written_as_decimals() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Row {
            #[serde(deserialize_with = "super::whole_number")]
            n: i64,
            #[serde(default, deserialize_with = "super::whole_number_option")]
            o: Option<i64>,
            #[serde(deserialize_with = "super::whole_numbers")]
            ns: Vec<i64>,
            #[serde(default, deserialize_with = "super::whole_numbers_or_empty")]
            e: Vec<i64>,
        }
        let row: Row =
            serde_json::from_str(r#"{"n": 12.0, "o": 1e3, "ns": [1, -2.0, 3e0], "e": null}"#)
                .unwrap();
        assert_eq!(
            row,
            Row {
                n: 12,
                o: Some(1000),
                ns: vec![1, -2, 3],
                e: vec![]
            }
        );
        let row: Row = serde_json::from_str(r#"{"n": -9223372036854775808, "ns": []}"#).unwrap();
        assert_eq!((row.n, row.o), (i64::MIN, None));
        for (body, message) in [
            (
                r#"{"n": 12.5, "ns": []}"#,
                "invalid type: floating point `12.5`, expected i64",
            ),
            (
                r#"{"n": 9223372036854775808, "ns": []}"#,
                "invalid value: integer `9223372036854775808`, expected i64",
            ),
            (
                r#"{"n": 1e19, "ns": []}"#,
                "invalid type: floating point `1e+19`, expected i64",
            ),
            (
                r#"{"n": "12", "ns": []}"#,
                "invalid type: string \"12\", expected i64",
            ),
        ] {
            let e = serde_json::from_str::<Row>(body).unwrap_err().to_string();
            assert!(e.starts_with(message), "{e}");
            let plain = serde_json::from_str::<i64>(&body[6..body.len() - 11]).unwrap_err();
            assert!(plain.to_string().starts_with(message), "{plain}");
        }
    }

    #[test]
    fn decodes_and_encodes_every_kind_of_value() {
        let text = r#"{"a":[null,true,false,0,18446744073709551615,-9223372036854775808,-1.5,1e300,"x\"y"],"b":{"z":{},"y":[]}}"#;
        let value: JsonValue = serde_json::from_str(text).unwrap();
        let a = value.get("a").and_then(JsonValue::as_array).unwrap();
        assert!(a[0].is_null());
        assert_eq!(a[1].as_bool(), Some(true));
        assert_eq!(a[3], JsonValue::Unsigned(0));
        assert_eq!(a[4].as_u64(), Some(u64::MAX));
        assert_eq!(a[4].as_i64(), None, "above i64's range");
        assert_eq!(a[5].as_i64(), Some(i64::MIN));
        assert_eq!(a[6].as_f64(), Some(-1.5));
        assert_eq!(a[6].as_i64(), None, "not a whole number");
        assert_eq!(a[8].as_str(), Some("x\"y"));
        assert_eq!(
            value.get("b").and_then(|b| b.get("z")),
            Some(&JsonValue::Object(Default::default()))
        );
        // The same value as serde_json's: the same text out, and through serde both ways.
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        let out = serde_json::to_string(&value).unwrap();
        assert_eq!(out, serde_json::to_string(&theirs).unwrap());
        assert!(
            out.ends_with(r#""b":{"y":[],"z":{}}}"#),
            "keys sorted: {out}"
        );
        assert_eq!(serde_json::to_value(&value).unwrap(), theirs);
        assert_eq!(serde_json::from_value::<JsonValue>(theirs).unwrap(), value);
    }

    /// The displayed text is the JSON serde_json writes for the same value, escapes included;
    /// numbers at the ends of the range are written in another valid form, and every text
    /// reads back as the value it came from.
    #[test]
    fn displays_as_compact_json() {
        let text = "{\"a\":[null,true,0,18446744073709551615,-7,-1.5,2.0,0.1],\
                    \"s\":\"q\\\"b\\\\n\\nt\\tc\\u0001\\u001f\\b\\f\\r é\",\"o\":{\"x\":{},\"y\":[]}}";
        let value: JsonValue = serde_json::from_str(text).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(value.to_string(), theirs.to_string());
        for n in [
            1e300,
            -1e-300,
            1e15,
            1e16,
            1e-7,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
        ] {
            let text = JsonValue::Float(n).to_string();
            assert_eq!(serde_json::from_str::<f64>(&text).unwrap(), n, "{text}");
        }
        assert_eq!(
            serde_json::from_str::<JsonValue>(&value.to_string()).unwrap(),
            value
        );
        assert_eq!(JsonValue::Float(f64::NAN).to_string(), "null");
    }

    /// A value that is not an object has no members; a missing member is `None`.
    #[test]
    fn get_reads_objects_only() {
        assert_eq!(JsonValue::String("has_more".into()).get("has_more"), None);
        let object = JsonValue::from_iter([("total", JsonValue::Unsigned(3))]);
        assert_eq!(object.get("total").and_then(JsonValue::as_i64), Some(3));
        assert_eq!(object.get("has_more"), None);
        assert_eq!(object.as_object().map(|m| m.len()), Some(1));
        assert_eq!(object["total"], JsonValue::Unsigned(3));
        assert!(object["has_more"].is_null() && object["total"]["x"].is_null());
        let array = JsonValue::Array(vec![JsonValue::Bool(true)]);
        assert_eq!((array[0].as_bool(), array[1].is_null()), (Some(true), true));
    }
}
