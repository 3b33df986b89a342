//! Init structs: how a type with more than [`super::MAX_ARGS`] required values is made (a
//! struct naming each), for records and parameter types alike.

use quote::format_ident;

/// The init struct of the record or parameter type `name` ([`mrds_spec::naming::init_type`]).
pub(super) fn init_name(name: &str) -> proc_macro2::Ident {
    format_ident!("{}", mrds_spec::naming::init_type(name))
}

/// The docs of a type made from its init struct, holding its required `what` (`fields`).
pub(super) fn init_docs(name: &str, what: &str) -> String {
    format!(
        "Made from [`{name}Init`] (the required {what}, by name: \
         `{name}::from({name}Init {{ .. }})`) and the `with_` setters"
    )
}
