//! How generated types are made: no generated function takes more than six parameters, so a
//! record or parameter type with more required values is made from an init struct that names
//! each one (`TreasuryRate::from(TreasuryRateInit { .. })`), and the values a type checks reach
//! its check function as one tuple.

use mrds_emit::{FileSet, all as generate};
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

/// Every record and parameter type of the real spec with more required values than a function
/// takes is made from an init struct naming each of them, and only them: read from the model
/// and the generated source, so the test holds for whatever records the spec has. (The
/// `many_required` fixture is compiled and used by name in the explicit run.)
#[test]
fn a_type_with_many_required_values_is_made_by_name() {
    let root = mrds_tests::workspace_root();
    let api = mrds_spec::load_spec(&root.join("spec")).expect("the spec loads");
    let files = generate(&api).unwrap();
    let source = |path: &str| {
        let text = files.get(path).unwrap_or_else(|| panic!("no {path}"));
        syn::parse_file(text).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (records, params) = (
        source("crates/mrds-model/src/records.rs"),
        source("crates/mrds-model/src/params.rs"),
    );
    let mut types: Vec<(&syn::File, String, Vec<String>)> = Vec::new();
    for r in &api.records {
        let required: Vec<String> = (r.fields.iter())
            .filter(|f| !f.optional)
            .map(|f| f.ident.trim_start_matches("r#").to_string())
            .collect();
        if required.len() > MAX_PARAMS {
            types.push((&records, r.name.clone(), required));
        }
    }
    for e in &api.endpoints {
        let required: Vec<String> = (e.params.iter())
            .filter(|p| p.required)
            .map(|p| p.ident.trim_start_matches("r#").to_string())
            .collect();
        if required.len() > MAX_PARAMS {
            types.push((&params, e.names.params_type.clone(), required));
        }
    }
    for (file, name, required) in types {
        let init = mrds_spec::naming::init_type(&name);
        let fields = (file.items.iter())
            .find_map(|item| match item {
                syn::Item::Struct(s) if s.ident == init => Some(&s.fields),
                _ => None,
            })
            .unwrap_or_else(|| {
                panic!(
                    "`{name}` has {} required values but no `{init}`",
                    required.len()
                )
            });
        let mut named: Vec<String> = (fields.iter())
            .filter_map(|f| f.ident.as_ref())
            .map(|i| i.to_string().trim_start_matches("r#").to_string())
            .collect();
        let mut expected = required.clone();
        named.sort();
        expected.sort();
        assert_eq!(
            named, expected,
            "`{init}` names the required values of `{name}`"
        );
        let is =
            |ty: &syn::Type, name: &str| matches!(ty, syn::Type::Path(p) if p.path.is_ident(name));
        let from = (file.items.iter()).any(|item| match item {
            syn::Item::Impl(i) => {
                let from_init = i.trait_.as_ref().and_then(|(path, _)| {
                    let last = path.segments.last()?;
                    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                        return None;
                    };
                    let arg = args.args.first()?;
                    Some(
                        last.ident == "From"
                            && matches!(arg, syn::GenericArgument::Type(t) if is(t, &init)),
                    )
                });
                is(&i.self_ty, &name) && from_init == Some(true)
            }
            _ => false,
        });
        assert!(from, "`{name}` is made `From<{init}>`");
    }
}
