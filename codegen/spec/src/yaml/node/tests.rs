//! Tests of the parse: places, keys given twice, aliases and their budget, nesting, tabs.

use super::*;

fn scalar(n: &Node) -> &str {
    n.as_scalar().expect("a scalar")
}

#[test]
fn nodes_have_their_places() {
    let text = "a:\n  b: 1\n  list:\n    - x\n    - { name: y, type: z }\n";
    let root = parse(0, text).unwrap().unwrap();
    let NodeKind::Map(top) = &root.kind else {
        panic!()
    };
    assert_eq!((top[0].0.span.line, top[0].0.span.column), (1, 1));
    let NodeKind::Map(a) = &top[0].1.kind else {
        panic!()
    };
    assert_eq!(scalar(&a[0].1), "1");
    assert_eq!((a[0].1.span.line, a[0].1.span.column), (2, 6));
    assert_eq!((a[0].0.span.line, a[0].0.span.column), (2, 3));
    let NodeKind::Seq(list) = &a[1].1.kind else {
        panic!()
    };
    assert_eq!((list[0].span.line, list[0].span.column), (4, 7));
    let NodeKind::Map(item) = &list[1].kind else {
        panic!()
    };
    assert_eq!((item[1].1.span.line, item[1].1.span.column), (5, 24));
}

#[test]
fn duplicate_and_merge_keys_are_reported_with_their_paths() {
    let errors = parse(0, "a: 1\nb:\n  - {x: 1, x: 2}\n").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].message,
        "`b[0].x` is defined twice in the same mapping"
    );
    assert_eq!((errors[0].span.line, errors[0].span.column), (3, 12));
    let errors = parse(0, "base: &b {x: 1}\nc:\n  <<: *b\n").unwrap_err();
    assert!(errors[0].message.contains("`c.<<`: merge keys"));
}

#[test]
fn aliases_repeat_their_anchor_at_their_own_place() {
    let text = "a: &r text\nb: *r\nc: &m { x: [1, 2] }\nd: [*m, *r]\n";
    let root = parse(0, text).unwrap().unwrap();
    let NodeKind::Map(top) = &root.kind else {
        panic!()
    };
    assert_eq!(scalar(&top[1].1), "text");
    assert_eq!(top[1].1.span.line, 2);
    let NodeKind::Seq(d) = &top[3].1.kind else {
        panic!()
    };
    // The alias is at its own place; what it repeats keeps the anchored value's places.
    assert_eq!(d[0].kind, top[2].1.kind);
    assert_eq!((d[0].span.line, d[0].span.column), (4, 5));
    assert_eq!((top[2].1.span.line, top[2].1.span.column), (3, 4));
    let NodeKind::Map(m) = &d[0].kind else {
        panic!()
    };
    assert_eq!((m[0].1.span.line, m[0].1.span.column), (3, 12));
    assert_eq!(scalar(&d[1]), "text");
    assert_eq!((d[1].span.line, d[1].span.column), (4, 9));
}

/// Levels of aliases of aliases, each a list of nine aliases of the level before.
fn alias_bomb(levels: usize) -> String {
    let mut text = format!("a: &a [{}]\n", ["lol"; 9].join(", "));
    let names: Vec<char> = ('a'..='z').take(levels).collect();
    for pair in names.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let items = vec![format!("*{from}"); 9].join(", ");
        text.push_str(&format!("{to}: &{to} [{items}]\n"));
    }
    text
}

#[test]
fn an_alias_bomb_is_refused_at_the_alias_that_goes_over_the_budget() {
    // Six levels would expand to 9^6 scalars. As written the file has a size of 100 (a
    // mapping, six keys of 2, the first list of 37, five lists of ten): its budget is the
    // least one, 10 000, of which aliases may add 9 900. The lists of `b` add 9 * 36, those
    // of `c` 9 * 333, and each alias of `d` 3 006: the third goes over.
    let errors = parse(0, &alias_bomb(6)).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!((e.span.line, e.span.column), (4, 16));
    assert_eq!(
        e.message,
        "the alias `*c` goes over the alias budget: with its aliases expanded, this file \
         would be larger than 10000, 10 times its size as written (100; a node and a byte of \
         text count 1 each, and 10000 is always allowed)"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some(
            "the value of `&c` (line 3, column 4) has a size of 3007 expanded; an alias \
             repeats a value, it is not for multiplying one: write the value out, or anchor \
             a smaller part"
        )
    );
    // Two levels stay within it, however the file grows around them.
    assert!(parse(0, &alias_bomb(3)).is_ok());
}

#[test]
fn the_alias_budget_grows_with_the_file() {
    // A value of size 1 001 repeated by 20 aliases adds 20 000 to a file of size 1 027: the
    // tenth alias goes over its budget of 10 270. With 2 003 more written (a key and a
    // value), the budget of 30 300 holds all twenty.
    let value = "x".repeat(1000);
    let aliases = "*v, ".repeat(20);
    let small = format!("a: &v {value}\nb: [{aliases}]\n");
    let errors = parse(0, &small).unwrap_err();
    assert!(
        errors[0].message.starts_with("the alias `*v` goes over"),
        "{errors:?}"
    );
    assert_eq!((errors[0].span.line, errors[0].span.column), (2, 41));
    let large = format!("{small}c: {}\n", "y".repeat(2000));
    assert!(parse(0, &large).is_ok());
}

#[test]
fn an_alias_inside_its_own_anchor_is_an_error() {
    let errors = parse(0, "a: &x [1, *x]\n").unwrap_err();
    assert_eq!(
        errors[0].message,
        "the alias `*x` is inside the value of its own anchor `&x`"
    );
    assert_eq!((errors[0].span.line, errors[0].span.column), (1, 11));
}

#[test]
fn nesting_is_limited_to_max_depth() {
    let flow = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deepest = parse(0, &flow(MAX_DEPTH)).unwrap().unwrap();
    // The deepest tree allowed deserializes (by recursion) on a test thread's stack.
    let value: crate::yaml::Value = crate::yaml::from_node(&deepest).unwrap();
    drop(value);

    let errors = parse(0, &flow(MAX_DEPTH + 1)).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "nested deeper than 128 levels");
    assert_eq!((errors[0].span.line, errors[0].span.column), (1, 129));

    // Block lists nest as deep (and are refused at the same level) on one line.
    let block = format!("{}x\n", "- ".repeat(MAX_DEPTH + 1));
    let errors = parse(0, &block).unwrap_err();
    assert_eq!(errors[0].message, "nested deeper than 128 levels");
    assert_eq!((errors[0].span.line, errors[0].span.column), (1, 257));
    assert!(parse(0, &format!("{}x\n", "- ".repeat(MAX_DEPTH))).is_ok());

    // An alias counts the levels of its anchor's value where it stands.
    let anchored = format!("a: &deep {}\n", flow(MAX_DEPTH - 1));
    assert!(parse(0, &format!("{anchored}b: *deep\n")).is_ok());
    let errors = parse(0, &format!("{anchored}b: [*deep]\n")).unwrap_err();
    assert_eq!(
        errors[0].message,
        "nested deeper than 128 levels: the alias `*deep` puts the 127 levels of its \
         anchor's value below 2 levels"
    );
    assert_eq!((errors[0].span.line, errors[0].span.column), (2, 5));
}

#[test]
fn a_tab_in_the_indentation_is_named_at_its_place() {
    let errors = parse(0, "a:\n  b:\n\tc: 2\n").unwrap_err();
    assert_eq!(
        errors[0].message,
        "a tab character: YAML indents with spaces, never tabs"
    );
    assert_eq!((errors[0].span.line, errors[0].span.column), (3, 1));
    // A key given twice is not about tabs, whatever its name and its line hold.
    let errors = parse(0, "table: 1\ntable: '\t'\n").unwrap_err();
    assert_eq!(
        errors[0].message,
        "`table` is defined twice in the same mapping"
    );
}

#[test]
fn blank_text_is_no_document_and_two_documents_are_an_error() {
    assert_eq!(parse(0, "# only a comment\n").unwrap(), None);
    assert!(parse(0, "a: 1\n---\nb: 2\n").is_err());
    assert!(parse(0, "a: [1,\n").is_err());
    let errors = parse(0, "a:\n  - { x: 1, y: 'a}'\n  - { z: 2 }\nb: 3\n").unwrap_err();
    assert_eq!(
        errors[0].hint.as_deref(),
        Some("the `{` of the mapping at line 2, column 5 is never closed")
    );
}
