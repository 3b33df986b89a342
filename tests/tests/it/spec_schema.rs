//! The JSON Schema of the spec format (`spec/spec.schema.json`, from `mrds_spec::ast`):
//! what `cargo xtask codegen` writes, a valid draft-07 schema, accepted by every spec file,
//! named by every spec file for editors, and refusing an unknown key by its name.

use std::path::Path;

use mrds_emit::schema;
use serde_json::Value;

fn spec_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// The spec's files as the loader reads them: (`spec/...` name, text).
fn spec_files() -> Vec<(String, String)> {
    mrds_spec::load::read_dir(&spec_dir()).unwrap_or_else(|d| panic!("{d}"))
}

/// The schema, compiled: checked against draft-07's metaschema on the way.
struct Validator {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

fn validator() -> Validator {
    const URL: &str = "urn:mrds:spec.schema.json";
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(URL, schema::document())
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
fn the_schema_is_what_the_generator_writes() {
    let written = std::fs::read_to_string(spec_dir().join("spec.schema.json"))
        .expect("spec/spec.schema.json exists: run `cargo xtask codegen`");
    assert!(
        written == schema::text(),
        "spec/spec.schema.json is out of date: run `cargo xtask codegen`"
    );
    assert_eq!(schema::PATH, "spec/spec.schema.json");
    let document: Value = serde_json::from_str(&written).unwrap();
    // Compiling checks it against draft-07's metaschema.
    validator();
    assert_eq!(
        document["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
}

#[test]
fn every_spec_file_matches_the_schema() {
    let validator = validator();
    let files = spec_files();
    assert!(files.len() > 10, "the spec's files are found");
    let mut failures = Vec::new();
    for (name, text) in &files {
        for p in problems(&validator, &json(name, text)) {
            failures.push(format!("{name}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// yaml-language-server (VS Code's YAML extension, and the editors that run it) reads the
/// schema a file names on its first line.
#[test]
fn every_spec_file_names_the_schema_on_its_first_line() {
    for (name, text) in spec_files() {
        names_the_schema(&name, &text);
    }
}

/// A file a maintainer adds names the schema too: the release series' files are what a
/// maintainer writes, and its scratch copy runs the test above over them.
#[test]
fn files_the_release_series_adds_name_the_schema() {
    // In the scratch copy of the release series, its files are the spec's, checked above.
    if crate::follow::followed() {
        return;
    }
    let added = crate::follow::added_files();
    assert!(!added.is_empty(), "the release series adds files");
    for (name, text) in added {
        names_the_schema(&name, &text);
    }
}

/// Panics unless the first line of `text` (the file `spec/...` `name`) names
/// `spec/spec.schema.json` by its path from the file.
fn names_the_schema(name: &str, text: &str) {
    let root = spec_dir();
    let first = text.lines().next().unwrap_or_default();
    let target = first
        .strip_prefix("# yaml-language-server: $schema=")
        .unwrap_or_else(|| {
            panic!(
                "{name}: the first line is `# yaml-language-server: $schema=<path>`, not `{first}`"
            )
        });
    let rel = name.strip_prefix("spec/").unwrap();
    let dir = root.join(rel).parent().unwrap().to_path_buf();
    let named = std::fs::canonicalize(dir.join(target))
        .unwrap_or_else(|e| panic!("{name}: `{target}`: {e}"));
    assert_eq!(
        named,
        std::fs::canonicalize(root.join("spec.schema.json")).unwrap(),
        "{name}: the schema is named by its path from the file"
    );
}

/// A misspelt key is flagged by the schema as the loader refuses it: both name it.
#[test]
fn an_unknown_key_is_refused_by_name() {
    let validator = validator();
    let (name, text) = spec_files()
        .into_iter()
        .find(|(name, _)| name == "spec/endpoints/equity.yaml")
        .expect("the equity endpoints");
    let misspelt = text.replacen("    summary: ", "    summery: ", 1);
    assert_ne!(misspelt, text);

    let found = problems(&validator, &json(&name, &misspelt));
    assert!(
        found.contains(
            &"/endpoints/stock_dividends: additionalProperties 'summery' not allowed".to_owned()
        ),
        "{found:#?}"
    );

    let mut sources = spec_files();
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
