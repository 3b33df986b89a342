//! The Rust names of the types the spec defines: valid, unique, and clear of the names the
//! generated crates define themselves.

use std::collections::BTreeMap;

use super::{Cx, Def};
use crate::ast;
use crate::diag::Span;
use crate::naming::{
    self, CLIENT_METHODS, CONSTANTS, INIT_SUFFIX, PRELUDE, RESERVED_TYPES, SERVER_METHODS,
};

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
            .chain(PRELUDE.iter().map(|n| {
                (
                    n.to_string(),
                    format!("`{n}` of Rust's standard prelude (the generated code uses it)"),
                )
            }))
            .collect();
        let mut claim = |cx: &mut Self, rust: String, what: String, at: Span| {
            if let Some(base) = rust.strip_suffix(INIT_SUFFIX).filter(|b| !b.is_empty()) {
                let d = cx.err(
                    at,
                    format!(
                        "{what} becomes the Rust type `{rust}`; names ending in \
                         `{INIT_SUFFIX}` are kept for the init structs the generator makes \
                         (`{base}{INIT_SUFFIX}` builds a `{base}` with many required fields)"
                    ),
                );
                Self::hint(d, format!("rename it in the spec, e.g. `{base}Initial`"));
                return;
            }
            if let Some(other) = taken.get(&rust) {
                let d = cx.err(
                    at,
                    format!("{what} becomes the Rust type `{rust}`, which is already {other}"),
                );
                let hint = if other.contains("prelude") || other.contains("defines itself") {
                    "rename it in the spec"
                } else {
                    "rename one of them"
                };
                Self::hint(d, hint);
            } else {
                taken.insert(rust, what);
            }
        };
        for (name, def) in records {
            match naming::type_name(name) {
                Ok(rust) => claim(self, rust, format!("record `{name}`"), def.key_at()),
                Err(msg) => {
                    self.err(def.key_at(), msg);
                }
            }
        }
        for (name, def) in value_sets {
            match naming::type_name(name) {
                Ok(rust) => claim(self, rust, format!("value set `{name}`"), def.key_at()),
                Err(msg) => {
                    self.err(def.key_at(), msg);
                }
            }
        }
        // Endpoints: the parameter type is a type; methods and constants have scopes of their own.
        let mut methods: BTreeMap<String, String> = CLIENT_METHODS
            .iter()
            .map(|m| (m, "a method of the generated client"))
            .chain(
                SERVER_METHODS
                    .iter()
                    .map(|m| (m, "a method of the generated server trait `Api`")),
            )
            .map(|(m, what)| (m.to_string(), what.to_string()))
            .collect();
        let mut constants: BTreeMap<String, String> = CONSTANTS
            .iter()
            .map(|c| {
                (
                    c.to_string(),
                    "a constant of the generated crates".to_string(),
                )
            })
            .collect();
        for (id, def) in endpoints {
            if !naming::is_operation_id(id) {
                let d = self.err(
                    def.key_at(),
                    format!("endpoint id `{id}` is not a snake_case Rust identifier"),
                );
                Self::hint(
                    d,
                    "use lowercase words joined by `_`, e.g. `stock_dividends`",
                );
                continue;
            }
            // The Rust name: its own value when given (an error there is its), else the key's.
            let (at, at_key) = match &def.rust {
                Some(rust) => (rust.at(), rust.key_at()),
                None => (def.key_at(), def.key_at()),
            };
            let names = match naming::endpoint_names(id, def.rust.as_ref().map(|r| r.as_str())) {
                Ok(names) => names,
                Err(msg) => {
                    let d = self.err(at, msg);
                    Self::hint(d, "lowercase words joined by `_`, not a keyword");
                    continue;
                }
            };
            claim(
                self,
                names.params_type.clone(),
                format!("the parameter type of endpoint `{id}`"),
                def.key_at(),
            );
            claim(
                self,
                naming::checks_type(&names.params_type),
                format!("the checked values of endpoint `{id}`"),
                def.key_at(),
            );
            let mut method_names = vec![(names.method.clone(), "and server method")];
            if def.paging.as_ref().is_some_and(|p| p.offset.is_some()) {
                method_names.push((names.stream.clone(), "paging stream"));
            }
            for (name, what) in method_names {
                if let Some(other) = methods.get(&name) {
                    let d = self.err(at_key, format!("endpoint `{id}` makes the client {what} `{name}`, which is already {other}"));
                    Self::hint(
                        d,
                        format!(
                            "rename the endpoint, or give it another Rust name with `rust: {id}_call`"
                        ),
                    );
                } else {
                    methods.insert(name, format!("the client {what} of endpoint `{id}`"));
                }
            }
            if let Some(other) = constants.get(&names.constant) {
                let d = self.err(
                    at_key,
                    format!(
                        "endpoint `{id}` makes the constant `{}`, which is already {other}",
                        names.constant
                    ),
                );
                Self::hint(
                    d,
                    format!(
                        "rename the endpoint, or give it another Rust name with `rust: {id}_endpoint`"
                    ),
                );
            } else {
                constants.insert(names.constant, format!("the constant of endpoint `{id}`"));
            }
        }
    }
}
