//! The JSON Schema of the spec format (`spec/spec.schema.json`) under a full validator: a valid
//! draft-07 schema, accepted by every spec file, refusing an unknown key by its name as the
//! loader does, and flagging values of the wrong kind.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The spec's files as the loader reads them: (`spec/...` name, text).
fn spec_files() -> Vec<(String, String)> {
    mrds_spec::load::read_dir(&root().join("spec")).unwrap_or_else(|d| panic!("{d}"))
}

/// The schema, compiled: checked against draft-07's metaschema on the way.
struct Validator {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

fn validator() -> Validator {
    const URL: &str = "urn:mrds:spec.schema.json";
    let text = std::fs::read_to_string(root().join("spec/spec.schema.json"))
        .expect("spec/spec.schema.json exists: run `cargo xtask codegen`");
    let document: Value = serde_json::from_str(&text).expect("the schema is JSON");
    assert_eq!(
        document["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(URL, document)
        .expect("the schema is a resource");
    let index = compiler
        .compile(URL, &mut schemas)
        .unwrap_or_else(|e| panic!("the schema compiles: {e:#}"));
    Validator { schemas, index }
}

/// A spec file as JSON, read by the loader's own YAML reader (anchors and aliases expanded).
fn json(name: &str, text: &str) -> Value {
    mrds_spec::yaml::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every problem the schema finds in a file, one a line, with the path of the value.
fn problems(validator: &Validator, instance: &Value) -> Vec<String> {
    fn leaves(e: &boon::ValidationError<'_, '_>, out: &mut Vec<String>) {
        if e.causes.is_empty() {
            out.push(format!("{}: {}", e.instance_location, e.kind));
        }
        for cause in &e.causes {
            leaves(cause, out);
        }
    }
    let mut out = Vec::new();
    if let Err(e) = validator.schemas.validate(instance, validator.index) {
        leaves(&e, &mut out);
    }
    out
}

#[test]
fn the_schema_is_a_valid_draft_07_schema() {
    validator();
}

#[test]
fn every_spec_file_matches_the_schema() {
    let validator = validator();
    let files = spec_files();
    assert!(files.len() > 1, "the spec's files are found");
    let mut failures = Vec::new();
    for (name, text) in &files {
        for p in problems(&validator, &json(name, text)) {
            failures.push(format!("{name}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A misspelt key is flagged by the schema as the loader refuses it: both name it. The key is
/// the `summary` of the first endpoint of the first file that has one.
#[test]
fn an_unknown_key_is_refused_by_name() {
    let validator = validator();
    let files = spec_files();
    let (name, text, endpoint) = (files.iter())
        .find_map(|(name, text)| {
            let lines: Vec<&str> = text.lines().collect();
            let at = lines.iter().position(|l| l.starts_with("    summary: "))?;
            let key = lines[..at].iter().rev().find_map(|l| {
                let key = l.strip_prefix("  ")?.strip_suffix(':')?;
                (!key.starts_with(' ')).then_some(key)
            })?;
            Some((name.clone(), text.clone(), key.to_string()))
        })
        .expect("an endpoint with a summary");
    let misspelt = text.replacen("    summary: ", "    summery: ", 1);

    let found = problems(&validator, &json(&name, &misspelt));
    let expected = format!("/endpoints/{endpoint}: additionalProperties 'summery' not allowed");
    assert!(found.contains(&expected), "{expected}: {found:#?}");

    let mut sources = files.clone();
    for (n, t) in &mut sources {
        if *n == name {
            *t = misspelt.clone();
        }
    }
    let loaded = mrds_spec::load_sources(&sources).expect_err("the loader refuses it too");
    assert!(
        loaded.to_string().contains("unknown field `summery`"),
        "{loaded}"
    );
}

/// What the schema knows of values: a value of the wrong kind, a spelling that is not one, a
/// blank reason, a rule with two kinds.
#[test]
fn values_of_the_wrong_kind_are_flagged() {
    let validator = validator();
    let cases = [
        ("endpoints: { e: { method: TRACE } }", "/endpoints/e/method"),
        (
            "records: { R: { doc: d, fields: [{ name: a, type: string, doc: d, optional: maybe }] } }",
            "/records/R/fields/0/optional",
        ),
        (
            "records: { R: { doc: d, fields: [{ name: a, type: string, doc: d, format: uuid4 }] } }",
            "/records/R/fields/0/format",
        ),
        (
            "value_sets: { V: { doc: d, assumed: ' ', values: [{ value: a }] } }",
            "/value_sets/V/assumed",
        ),
        (
            "error_codes: [{ code: X, status: many, doc: d }]",
            "/error_codes/0/status",
        ),
        ("samples: { e: { missing: nothing } }", "/samples/e/missing"),
    ];
    for (text, path) in cases {
        let found = problems(&validator, &json("case", text));
        assert!(
            found.iter().any(|p| p.starts_with(&format!("{path}: "))),
            "{text}: {found:#?}"
        );
    }
    let rule = |kinds: &str| {
        format!(
            "endpoints: {{ e: {{ method: GET, path: /x, summary: s, auth: required, returns: R, rules: [{{ id: e.r, doc: d, {kinds} }}] }} }}"
        )
    };
    let one = rule("requires: { param: a, needs: b }");
    assert_eq!(
        problems(&validator, &json("one", &one)),
        Vec::<String>::new()
    );
    for bad in [
        rule(""),
        rule("requires: { param: a, needs: b }, at_least_one: [a, b]"),
    ] {
        let found = problems(&validator, &json("rule", &bad));
        assert!(
            found
                .iter()
                .any(|p| p.starts_with("/endpoints/e/rules/0: ")),
            "{bad}: {found:#?}"
        );
    }
}
