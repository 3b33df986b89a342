//! The Rust names of the types the spec defines: valid, unique, and clear of the names the
//! generated crates define themselves.

use std::collections::BTreeMap;

use super::{Cx, Def};
use crate::ast;
use crate::load::LoadedFile;
use crate::naming;

/// Type names the generated model crate defines itself.
const RESERVED_TYPES: &[&str] = &[
    // Defined by the generated model crate itself.
    "Auth",
    "Change",
    "ChangeAction",
    "Endpoint",
    "Envelope",
    "ErrorCode",
    "HistoryEntry",
    "ParamRules",
    "ParamValue",
    "RawParams",
    "Removal",
    "Request",
    "UnknownValue",
    "ValidationError",
    "ValidationIssue",
    // Names the generated code uses unqualified.
    "Box",
    "Option",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "String",
    "Vec",
];

impl<'a> Cx<'a> {
    /// Every generated type name must be valid and unique.
    pub(super) fn type_names(
        &mut self,
        records: &BTreeMap<&'a str, Def<'a, ast::Record>>,
        value_sets: &BTreeMap<&'a str, Def<'a, ast::ValueSet>>,
        endpoints: &BTreeMap<&'a str, Def<'a, ast::Endpoint>>,
    ) {
        let mut taken: BTreeMap<String, String> = RESERVED_TYPES
            .iter()
            .map(|n| {
                (
                    n.to_string(),
                    "a type the generator defines itself".to_string(),
                )
            })
            .collect();
        let mut claim =
            |cx: &mut Self, rust: String, what: String, file: &LoadedFile, path: &str| {
                if let Some(other) = taken.get(&rust) {
                    let d = cx.err_key(
                        file,
                        path,
                        format!("{what} becomes the Rust type `{rust}`, which is already {other}"),
                    );
                    Self::hint(d, "rename one of them");
                } else {
                    taken.insert(rust, what);
                }
            };
        for (name, def) in records {
            match naming::type_name(name) {
                Ok(rust) => claim(self, rust, format!("record `{name}`"), def.file, &def.path),
                Err(msg) => {
                    self.err_key(def.file, &def.path, msg);
                }
            }
        }
        for (name, def) in value_sets {
            match naming::type_name(name) {
                Ok(rust) => claim(
                    self,
                    rust,
                    format!("value set `{name}`"),
                    def.file,
                    &def.path,
                ),
                Err(msg) => {
                    self.err_key(def.file, &def.path, msg);
                }
            }
        }
        for (id, def) in endpoints {
            if naming::is_operation_id(id) {
                claim(
                    self,
                    naming::params_type(id),
                    format!("the parameter type of endpoint `{id}`"),
                    def.file,
                    &def.path,
                );
            } else {
                let d = self.err_key(
                    def.file,
                    &def.path,
                    format!("endpoint id `{id}` is not a snake_case Rust identifier"),
                );
                Self::hint(
                    d,
                    "use lowercase words joined by `_`, e.g. `stock_dividends`",
                );
            }
        }
    }
}
