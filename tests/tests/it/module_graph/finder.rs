//! The cycle finder on small crates made up for it.

use super::graph::Crate;
use super::lex::{Kind, lex};

/// The cycles of the crate of `files` (path, text), among the children of `parent`.
fn cycles(files: &[(&str, &str)], parent: &str) -> Vec<String> {
    let tree = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let parent: Vec<String> = parent
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Crate::read(&tree).unwrap().cycles(&parent)
}

#[test]
fn a_cycle_through_a_re_export_of_the_root_is_named_with_both_imports() {
    let files = [
        (
            "lib.rs",
            "mod api;\nmod validate;\npub use api::Endpoint;\n",
        ),
        (
            "api.rs",
            "//! The API.\n\nuse crate::validate::ValidationError;\npub struct Endpoint;\n",
        ),
        (
            "validate.rs",
            "pub struct ValidationError;\n\nfn f(_: &crate::Endpoint) {}\n",
        ),
    ];
    assert_eq!(
        cycles(&files, ""),
        [
            "import cycle api -> validate -> api (api.rs:3 uses crate::validate::ValidationError; \
          validate.rs:3 uses crate::Endpoint, defined in api)"
        ]
    );
}

#[test]
fn modules_that_import_one_way_make_no_cycle() {
    let files = [
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use c::C;\n"),
        ("a.rs", "use crate::{b::B, C};\n"),
        ("b.rs", "pub struct B;\nuse super::C;\n"),
        (
            "c.rs",
            "pub struct C;\n// crate::a::nothing, in a comment\nconst S: &str = \"crate::a\";\n",
        ),
    ];
    assert!(cycles(&files, "").is_empty(), "{:?}", cycles(&files, ""));
}

#[test]
fn imports_in_code_macros_tests_and_attributes_count() {
    // In code (`crate::b::f()`), through `$crate` in a macro, from a test module in its
    // own file, and in a serde attribute's string.
    for b in [
        "pub fn f() { crate::a::g(); }",
        "macro_rules! m { () => { $crate::a::g() } }",
        "#[cfg(test)]\nmod tests;",
        "#[derive(serde::Deserialize)]\nstruct S {\n    #[serde(deserialize_with = \"crate::a::g\")]\n    x: u8,\n}",
    ] {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub fn g() {}\nfn h() { crate::b::f(); }\n"),
            ("b.rs", b),
            ("b/tests.rs", "use super::super::a::g;\n"),
        ];
        let found = cycles(&files, "");
        assert_eq!(found.len(), 1, "{b}: {found:?}");
        assert!(
            found[0].starts_with("import cycle a -> b -> a (a.rs:2 uses crate::b::f; b"),
            "{found:?}"
        );
    }
}

#[test]
fn the_shortest_cycle_through_each_module_is_told_once() {
    let files = [
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        ("a.rs", "use crate::b::X;\n"),
        ("b.rs", "use crate::c::Y;\nuse crate::a::Z;\n"),
        ("c.rs", "use crate::a::W;\n"),
        ("d.rs", "use crate::a::V;\n"),
    ];
    let found = cycles(&files, "");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("import cycle a -> b -> a ("),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("import cycle a -> b -> c -> a ("),
        "{found:?}"
    );
}

#[test]
fn siblings_are_checked_through_their_parents_re_exports() {
    let files = [
        ("lib.rs", "pub mod server;\nmod json;\n"),
        (
            "server/mod.rs",
            "mod conn;\nmod pipeline;\npub use pipeline::{Shared, REQUEST_ID_HEADER};\n",
        ),
        ("server/conn/mod.rs", "mod body;\n"),
        (
            "server/conn/body.rs",
            "use super::super::REQUEST_ID_HEADER;\npub struct Tracked;\n",
        ),
        (
            "server/pipeline.rs",
            "use crate::json::Json;\nuse super::conn::body::Tracked;\npub struct Shared;\n",
        ),
        ("json.rs", "pub struct Json;\n"),
    ];
    assert!(cycles(&files, "").is_empty());
    assert_eq!(
        cycles(&files, "server"),
        [
            "import cycle in server conn -> pipeline -> conn (server/conn/body.rs:1 uses \
          super::super::REQUEST_ID_HEADER, defined in server::pipeline; server/pipeline.rs:2 \
          uses super::conn::body::Tracked)"
        ]
    );
}

#[test]
fn the_lexer_skips_comments_strings_and_characters() {
    let text = "/* crate::a /* nested */ crate::b */ let s = r#\"crate::c \"# ;\n\
                let q = '\"'; let l: &'static str = \"x\\\"crate::d\"; crate::e::f\n";
    let paths: Vec<(String, usize)> = lex(text)
        .unwrap()
        .iter()
        .filter_map(|t| match &t.kind {
            Kind::Ident(w) if w == "crate" => Some((w.clone(), t.line)),
            _ => None,
        })
        .collect();
    assert_eq!(paths, [("crate".to_string(), 2)]);
}
