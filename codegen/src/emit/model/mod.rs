//! The model crate: records, value sets, parameter types with validation, the envelope and
//! the error object, the endpoint table. One module per generated file.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Emitted, cargo_toml, inner_docs, prose, runtime_dependency};
use crate::model::*;

mod api;
mod envelope;
mod params;
mod records;
mod value_sets;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-model";

/// Adds the model crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    out.text(format!("{DIR}/Cargo.toml"), cargo(api));
    let files: [(&str, TokenStream); 6] = [
        ("lib.rs", lib_rs(api)),
        ("records.rs", records::file(api)),
        ("value_sets.rs", value_sets::file(api)),
        ("params.rs", params::file(api)),
        ("envelope.rs", envelope::file(api)),
        ("api.rs", api::file(api)),
    ];
    out.crate_sources(DIR, files);
}

/// True when some parameter or rule of the spec has a regular expression.
fn uses_patterns(api: &Api) -> bool {
    api.endpoints.iter().any(|e| {
        e.params.iter().any(|p| {
            matches!(
                &p.ty,
                ParamType::String(StringType {
                    pattern: Some(_),
                    ..
                })
            )
        }) || e.rules.iter().any(|r| {
            matches!(r.check, Check::Matches { .. })
                || matches!(r.when, Some(Condition::Matches { .. }))
        })
    })
}

fn cargo(api: &Api) -> String {
    let features: &[&str] = if uses_patterns(api) {
        &["patterns"]
    } else {
        &[]
    };
    let runtime = runtime_dependency(features);
    cargo_toml(
        "mrds-model",
        "Types of the Market and Reference Data Service: records, value sets, validated parameters",
        &[
            &runtime,
            "serde = { version = \"1\", features = [\"derive\"] }",
            "serde_json = \"1\"",
        ],
    )
}

fn lib_rs(api: &Api) -> TokenStream {
    let docs = inner_docs(&format!(
        "Types of the {}.\n\n{}\n\nInterface description version {}; every path below `{}`.\n\n\
         - [`records`]: the records in `data`, tolerant of fields and values added later;\n\
         - [`value_sets`]: enumerations with their wire spelling;\n\
         - [`params`]: one parameter type per endpoint, with `validate()`;\n\
         - [`envelope`]: the common response envelope;\n\
         - [`api`]: version, base path, the endpoint table and the change history.\n\n\
         What does not depend on the spec (parsing and checking parameters, the error shapes \
         the server and client share) is in [`runtime`] (`mrds-runtime`).",
        api.title,
        prose(&api.doc),
        api.api_version,
        api.base_path
    ));
    quote! {
        #docs

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
        pub mod value_sets;

        pub use envelope::Envelope;
        pub use mrds_runtime as runtime;
        pub use mrds_runtime::{RawParams, Request, ValidationError, ValidationIssue};
        pub use records::*;
        pub use value_sets::*;
    }
}
