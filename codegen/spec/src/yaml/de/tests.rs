//! Tests of the deserializer: places, paths in messages, integer ranges, the core schema.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::*;
use crate::yaml::{Spanned, parse};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Item {
    name: Spanned<String>,
    #[serde(default)]
    count: Option<i64>,
    #[serde(default)]
    flag: bool,
    #[serde(default)]
    kind: Option<Kind>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Query,
    Path,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Top {
    items: BTreeMap<String, Spanned<Item>>,
    #[serde(default)]
    list: Vec<Spanned<u16>>,
}

fn read<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    from_node(&parse(0, text).unwrap().unwrap())
}

#[test]
fn values_keep_their_places_and_keys() {
    let top: Top = read("items:\n  a:\n    name: x\n    count: 0x10\n    flag: true\n    kind: path\nlist: [1, 2]\n").unwrap();
    let a = &top.items["a"];
    assert_eq!((a.key.line, a.key.column), (2, 3));
    assert_eq!((a.span.line, a.span.column), (3, 5));
    assert_eq!((a.name.span.line, a.name.span.column), (3, 11));
    assert_eq!(a.count, Some(16));
    assert!(a.flag);
    assert_eq!(a.kind, Some(Kind::Path));
    assert_eq!(*top.list[1], 2);
    assert_eq!(top.list[1].span.column, 11);
}

#[test]
fn errors_name_the_node_and_its_path() {
    let e = read::<Top>("items:\n  a: { name: x, cuont: 1 }\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "items.a: unknown field `cuont`, expected one of `name`, `count`, `flag`, `kind`"
    );
    assert_eq!(e.span.map(|s| (s.line, s.column)), Some((2, 17)));

    let e = read::<Top>("items:\n  a:\n    name: x\n    count: ten\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "items.a.count: invalid type: string \"ten\", expected an integer in \
         -9223372036854775808..=9223372036854775807"
    );
    assert_eq!(e.span.map(|s| (s.line, s.column)), Some((4, 12)));

    let e = read::<Top>("items:\n  a:\n    count: 1\n").unwrap_err();
    assert_eq!(e.to_string(), "items.a: missing field `name`");
    assert_eq!(e.span.map(|s| (s.line, s.column)), Some((3, 5)));

    let e = read::<Top>("items:\n  a: { name: x, kind: querry }\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "items.a.kind: unknown variant `querry`, expected `query` or `path`"
    );

    let e = read::<Top>("items: {}\nlist: [1, 70000]\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "list[1]: integer 70000 is out of range: expected 0..=65535"
    );
    assert_eq!(e.span.map(|s| (s.line, s.column)), Some((2, 11)));
}

#[test]
fn integers_out_of_range_name_the_range() {
    let error = |text: &str| {
        let e = read::<Top>(text).unwrap_err();
        (e.to_string(), e.span.map(|s| (s.line, s.column)))
    };
    let i64_range = "-9223372036854775808..=9223372036854775807";
    // Beyond 64 bits, and beyond 128.
    assert_eq!(
        error("items:\n  a: { name: x, count: 99999999999999999999 }\n"),
        (
            format!(
                "items.a.count: integer 99999999999999999999 is out of range: expected {i64_range}"
            ),
            Some((2, 24))
        )
    );
    let huge = "9".repeat(50);
    assert_eq!(
        error(&format!("items: {{}}\nlist: [{huge}]\n")).0,
        format!("list[0]: integer {huge} is out of range: expected 0..=65535")
    );
    assert_eq!(
        error("items: {}\nlist: [-1]\n").0,
        "list[0]: integer -1 is out of range: expected 0..=65535"
    );
    assert_eq!(
        error("items: {}\nlist: [0x10000]\n").0,
        "list[0]: integer 0x10000 is out of range: expected 0..=65535"
    );
    // A number with a fraction or an exponent is not an integer, whatever its value.
    assert_eq!(
        error("items:\n  a: { name: x, count: 1e30 }\n").0,
        format!("items.a.count: 1e30 is not an integer: expected an integer in {i64_range}")
    );
    assert_eq!(
        error("items: {}\nlist: [2.0]\n").0,
        "list[0]: 2.0 is not an integer: expected an integer in 0..=65535"
    );
    // The ends of a range are in it.
    let top: Top = read("items: {}\nlist: [0, 65535, 0xffff]\n").unwrap();
    assert_eq!(
        top.list.iter().map(|n| **n).collect::<Vec<_>>(),
        [0, 65535, 65535]
    );
    assert_eq!(read::<i64>("-9223372036854775808").unwrap(), i64::MIN);
    assert_eq!(read::<u64>("18446744073709551615").unwrap(), u64::MAX);
    assert_eq!(read::<i8>("-0x80").unwrap(), i8::MIN);
    assert_eq!(
        read::<i128>("-170141183460469231731687303715884105728").unwrap(),
        i128::MIN
    );
    assert_eq!(
        read::<i8>("'12'").unwrap_err().to_string(),
        "invalid type: string \"12\", expected an integer in -128..=127"
    );
}

#[test]
fn scalars_resolve_by_the_core_schema() {
    for (text, want) in [
        ("~", Resolved::Null),
        ("", Resolved::Null),
        ("True", Resolved::Bool(true)),
        ("-12", Resolved::Int(-12)),
        ("0o17", Resolved::Int(15)),
        ("18446744073709551615", Resolved::Uint(u64::MAX)),
        ("1.5e3", Resolved::Float(1500.0)),
        (".5", Resolved::Float(0.5)),
        ("1e", Resolved::Text),
        ("1.2.3", Resolved::Text),
        ("0x", Resolved::Text),
        ("12abc", Resolved::Text),
        ("yes", Resolved::Text),
    ] {
        assert_eq!(Resolved::of(text), want, "{text}");
    }
    let s: String = read("'12'").unwrap();
    assert_eq!(s, "12");
    let s: String = read("12").unwrap();
    assert_eq!(s, "12");
    assert!(read::<i64>("'12'").is_err());
}
