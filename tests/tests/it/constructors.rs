//! How generated types are made: no generated function takes more than six parameters, so a
//! record or parameter type with more required values is made from an init struct that names
//! each one (`TreasuryRate::from(TreasuryRateInit { .. })`), and the values a type checks reach
//! its check function as one tuple.

use mrds_emit::{FileSet, all as generate};
use mrds_model::records::{TreasuryRate, TreasuryRateInit};
use mrds_spec::load_sources;
use syn::visit::Visit;

/// The most parameters a generated function takes (the project's rule; clippy's default is 7).
const MAX_PARAMS: usize = 6;

/// Every function and method of a file with more than [`MAX_PARAMS`] parameters.
#[derive(Default)]
struct Wide(Vec<String>);

impl Visit<'_> for Wide {
    fn visit_signature(&mut self, sig: &syn::Signature) {
        if sig.inputs.len() > MAX_PARAMS {
            self.0
                .push(format!("{} ({} parameters)", sig.ident, sig.inputs.len()));
        }
        syn::visit::visit_signature(self, sig);
    }
}

/// The crates generated from the real spec and from every fixture.
fn generated() -> Vec<(String, FileSet)> {
    let root = mrds_tests::workspace_root();
    let spec = mrds_spec::load_spec(&root.join("spec")).expect("the spec loads");
    let mut out = vec![("spec".to_string(), generate(&spec).unwrap())];
    for (name, sources) in mrds_tests::fixture_specs() {
        let api = load_sources(&sources).expect("a fixture loads");
        out.push((name, generate(&api).unwrap()));
    }
    out
}

#[test]
fn no_generated_function_takes_more_than_six_parameters() {
    let mut wide = Vec::new();
    let mut init_structs = 0;
    for (spec, files) in generated() {
        for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".rs")) {
            let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{spec}: {path}: {e}"));
            let mut visitor = Wide::default();
            visitor.visit_file(&file);
            wide.extend(visitor.0.iter().map(|f| format!("{spec}: {path}: {f}")));
            if text.contains("too_many_arguments") {
                wide.push(format!("{spec}: {path} allows too_many_arguments"));
            }
            init_structs += text.matches("Init {\n").count();
        }
    }
    assert!(wide.is_empty(), "{}", wide.join("\n"));
    // The real spec and the fixture `many_required` have types with more required values.
    assert!(init_structs >= 3, "{init_structs} init structs");
}

#[test]
fn a_record_with_many_required_fields_is_made_by_name() {
    let rate = TreasuryRate::from(TreasuryRateInit {
        date: "2026-11-20".into(),
        month1: 4.31,
        month2: 4.29,
        month3: 4.25,
        month6: 4.12,
        year1: 3.98,
        year2: 3.81,
        year3: 3.77,
        year5: 3.85,
        year7: 4.0,
        year10: 4.18,
        year20: 4.62,
        year30: 4.6,
    });
    let decoded: TreasuryRate = serde_json::from_value(serde_json::json!({
        "date": "2026-11-20", "month1": 4.31, "month2": 4.29, "month3": 4.25, "month6": 4.12,
        "year1": 3.98, "year2": 3.81, "year3": 3.77, "year5": 3.85, "year7": 4.0,
        "year10": 4.18, "year20": 4.62, "year30": 4.6
    }))
    .unwrap();
    assert_eq!(rate, decoded);
    assert_eq!(rate.year10, 4.18);
}
