//! The model crate: records, value sets, parameter types with validation, the envelope and
//! the error object, the endpoint table. One module per generated file.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Emitted, cargo_toml, example_request, inner_docs, prose, readme, runtime_dependency};
use mrds_spec::model::{Api, Format};

mod api;
mod checks;
mod envelope;
mod init;
pub(crate) mod jiff;
mod params;
mod records;
mod shapes;

mod value_sets;

/// The most parameters a generated function takes. A record or parameter type with more
/// required values is made from an init struct that names them (`records::init_struct`).
pub(crate) const MAX_ARGS: usize = 6;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-model";

/// Adds the model crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(format!("{DIR}/Cargo.toml"), cargo(api));
    out.text(format!("{DIR}/README.md"), readme_md(api));
    let files: [(&str, TokenStream); 7] = [
        ("lib.rs", lib_rs(api)),
        ("records.rs", records::file(api)),
        ("value_sets.rs", value_sets::file(api)),
        ("params.rs", params::file(api)),
        ("envelope.rs", envelope::file(api)),
        ("api.rs", api::file(api)),
        ("shapes.rs", shapes::file(api)),
    ];
    out.crate_sources(DIR, files);
}

fn cargo(api: &Api) -> String {
    let features: &[&str] = if !api.patterns().is_empty() {
        &["patterns"]
    } else {
        &[]
    };
    let runtime = runtime_dependency(features);
    let mut toml = cargo_toml(
        "mrds-model",
        "Types of the Market and Reference Data Service: records, value sets, validated parameters",
        &[
            &runtime,
            "serde = { version = \"1\", features = [\"derive\"] }",
        ],
    );
    // No JSON library: the types are serde's (a `type: any` field is the runtime's
    // `JsonValue`), so a downstream team picks its own, and the model crate builds without one.
    toml.push_str(
        "\n# For the README's example, which decodes an answer.\n[dev-dependencies]\n\
         serde_json = \"1\"\n",
    );
    toml
}

/// The README: what the crate holds, an example (a request of the spec's samples, built and
/// validated, and an answer decoded), and the `jiff` feature.
fn readme_md(api: &Api) -> String {
    let example = example_request(api);
    let record = example
        .as_ref()
        .map(|x| api.returns(x.endpoint).name.as_str())
        .or_else(|| api.records.first().map(|r| r.name.as_str()));
    let mut code = String::new();
    if let Some(x) = &example {
        code.push_str(&format!(
            "{}\n\n\
             // A request: the required parameters by construction, defaults for the rest.\n\
             let params = {};\n\
             // Every rule of the spec, every problem at once.\n\
             match params.validate() {{\n\
             \x20   Ok(()) => println!(\"{} {{}}?{{:?}}\", params.path(), params.to_query()),\n\
             \x20   Err(e) => println!(\"invalid: {{e}}\"),\n\
             }}\n\n",
            x.uses("mrds_model").join("\n"),
            x.text(None, false),
            x.endpoint.method.as_str()
        ));
    }
    if let Some(record) = record {
        code.push_str(&format!(
            "// An answer: the envelope around the endpoint's records.\n\
             let body = r#\"{{\"success\": true, \"request_id\": \"req-1\", \"data\": []}}\"#;\n\
             let answer: mrds_model::Envelope<mrds_model::records::{record}> = serde_json::from_str(body)?;\n\
             assert!(answer.success && answer.data.is_empty());\n\
             # Ok::<(), serde_json::Error>(())\n"
        ));
    }
    let body = format!(
        "Types of the {} (interface description version {}): the records the endpoints answer \
         with, the value sets, one parameter type per endpoint with `validate()` (every rule of \
         the spec), the response envelope, the endpoint table and the change history. No HTTP \
         and no JSON library: it depends on serde and `mrds-runtime` only, so a crate that reads \
         or writes the service's JSON adds the serde format it likes (`serde_json` below) and \
         nothing else.\n\n```rust\n{code}```",
        prose(&api.title),
        api.api_version
    );
    let features = "## Typed time (feature `jiff`)\n\n\
         Times travel as plain values (`i64` Unix seconds, RFC 3339 and date text), and the \
         types keep them. With `features = [\"jiff\"]` they also get `jiff` methods: \
         `new_jiff` (the required time parameters as `jiff::Timestamp`, or `jiff::civil::Date` \
         for dates) and `with_<param>_jiff` setters on the parameter types, and \
         `<field>_jiff()` accessors on the records (a `jiff::Timestamp`, `jiff::civil::Date` or \
         `jiff::civil::DateTime`, or the error of a field that does not hold one). The feature \
         only adds methods, so turning it on never breaks a build.";
    readme("mrds-model", &body, features)
}

fn lib_rs(api: &Api) -> TokenStream {
    let docs = inner_docs(&format!(
        "## Reference\n\nThe {}: {}\n\nInterface description version {}; every path below `{}`.\n\n\
         - [`records`]: the records in `data`, tolerant of fields and values added later;\n\
         - [`value_sets`]: enumerations with their wire spelling;\n\
         - [`params`]: one parameter type per endpoint, with `validate()`;\n\
         - [`envelope`]: the common response envelope;\n\
         - [`api`]: version, base path, the endpoint table and the change history;\n\
         - [`shapes`]: the answers as the spec describes them, as data (what the client \
         notices drift against).\n\n\
         What does not depend on the spec (parsing and checking parameters, the error shapes \
         the server and client share) is in [`runtime`] (`mrds-runtime`).",
        api.title,
        prose(&api.doc),
        api.api_version,
        api.base_path
    ));
    quote! {
        #![doc = include_str!("../README.md")]
        #docs

        #![warn(missing_docs)]

        // Generated modules are formatted by the generator (prettyplease), not by rustfmt.
        #[rustfmt::skip]
        pub mod api;
        #[rustfmt::skip]
        pub mod envelope;
        #[rustfmt::skip]
        pub mod params;
        #[rustfmt::skip]
        pub mod records;
        #[rustfmt::skip]
        pub mod shapes;
        #[rustfmt::skip]
        pub mod value_sets;

        pub use envelope::Envelope;
        pub use mrds_runtime as runtime;
        pub use mrds_runtime::{RawParams, Request, ValidationError, ValidationIssue};
        pub use records::*;
        pub use value_sets::*;
    }
}

/// The sentence documenting a field's format.
pub(super) fn format_note(format: Format) -> String {
    format!("Format: {}.", format.description())
}
