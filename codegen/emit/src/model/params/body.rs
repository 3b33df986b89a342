//! The checks of a parameter type with a body: `validate_body` and the runtime's `WithBody`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::local;
use super::validate::from_self;
use crate::model::checks::{body_local, rule_check, vars};
use crate::{deprecation, ident};
use mrds_spec::model::{Api, Body, Endpoint, Operand, Reads, Rule};

/// `validate_body` and the runtime's `WithBody` for an endpoint with a body: the body's own
/// checks, then the rules that read a parameter and a field of the body.
pub(super) fn body_impl(api: &Api, e: &Endpoint, body: &Body) -> TokenStream {
    let name = ident(&e.names.params_type);
    let record = api.record(body.record);
    let body_ty = ident(&record.name);
    let mixed: Vec<&Rule> = (e.rules.iter())
        .filter(|r| r.reads() == Reads::Both)
        .collect();
    let inputs = api.inputs(e);
    let var = vars(inputs);
    let checks: Vec<TokenStream> = mixed.iter().filter_map(|r| rule_check(r, &var)).collect();
    let read: BTreeSet<Operand> = mixed.iter().flat_map(|r| r.operands()).collect();
    let locals = read.iter().filter_map(|op| match *op {
        Operand::Param(id) => {
            let p = e.param(id);
            let (x, value) = (local(p), from_self(p));
            Some(quote!(let #x = #value;))
        }
        Operand::Field(_) => body_local(&inputs.get(*op)?, &quote!(body)),
    });
    let (_, allow) = deprecation(e.removed.as_ref());
    let body_rule = e.body_rule();
    quote! {
        #allow
        impl #name {
            /// Checks `body` with these parameters: every check of the body's fields and every
            /// rule across them, and the rules that read a parameter and a field of the body;
            /// every problem at once.
            pub fn validate_body(&self, body: &crate::records::#body_ty) -> Result<(), ValidationError> {
                let mut issues = mrds_runtime::Issues::new();
                mrds_runtime::BodyRecord::check(body, &mut issues);
                #(#locals)*
                #(#checks)*
                issues.finish()
            }
        }

        #allow
        impl mrds_runtime::WithBody for #name {
            type Body = crate::records::#body_ty;
            const BODY_RULE: &'static str = #body_rule;
            fn validate_body(&self, body: &Self::Body) -> Result<(), ValidationError> {
                #name::validate_body(self, body)
            }
        }
    }
}
