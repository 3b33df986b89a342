//! The parameters on the wire: `from_raw` (reading received parameters, then the same checks
//! `validate` makes), `to_query` and `path` (writing them).

use proc_macro2::TokenStream;
use quote::quote;

use super::validate::{CheckValues, from_local};
use super::{literal, local};
use crate::ident;
use crate::model::checks::base_type;
use mrds_spec::model::{Endpoint, ListStyle, Operand, Param, ParamLocation, Reads, Segment};

/// `read`: read each parameter, run the same checks when `checked` (`from_raw`), build the
/// value.
pub(super) fn from_raw_body(
    e: &Endpoint,
    checked: &[&Param],
    values: Option<&CheckValues>,
) -> TokenStream {
    if e.params.is_empty() {
        return quote! {
            let _ = (raw, checked);
            Ok(Self {})
        };
    }
    let reads = e.params.iter().map(|p| {
        let x = local(p);
        let (endpoint, wire) = (&e.id, &p.wire);
        let t = base_type(p);
        let rules = quote!(mrds_runtime::param_rules!(#endpoint, #wire));
        if let Some(form) = &p.list {
            let style = match form.style {
                ListStyle::Comma => quote!(mrds_runtime::ListStyle::Comma),
                ListStyle::Repeated => quote!(mrds_runtime::ListStyle::Repeated),
            };
            return quote!(let #x: Option<Vec<#t>> = raw.list(#wire, #rules, #style, &mut issues););
        }
        let read = match (p.location, p.required) {
            (ParamLocation::Path, _) => quote!(raw.path(#wire, #rules, &mut issues)),
            (ParamLocation::Query, true) => quote!(raw.required(#wire, #rules, &mut issues)),
            (ParamLocation::Query, false) => quote!(raw.optional(#wire, #rules, &mut issues)),
        };
        match &p.default {
            Some(d) => {
                let v = literal(d);
                quote!(let #x: Option<#t> = #read.or(Some(#v));)
            }
            None => quote!(let #x: Option<#t> = #read;),
        }
    });
    let check = values.map(|values| {
        let args = values.args(checked, from_local);
        quote!(Self::check(&mut issues, #args);)
    });
    // Presence rules: a parameter that was sent but did not parse counts as given.
    let wire = |op: &Operand| match op {
        Operand::Param(id) => Some(e.param(*id).wire.as_str()),
        Operand::Field(_) => None,
    };
    let forgive = (e.rules.iter())
        .filter(|r| r.reads() == Reads::Params)
        .filter_map(|r| {
            let presence = r.requirement.presence();
            if presence.is_empty() {
                return None;
            }
            let given: Vec<&str> = presence.into_iter().map(wire).collect::<Option<_>>()?;
            let id = &r.id;
            Some(quote!(issues.forgive(#id, #(raw.has(#given))||*);))
        });
    let build_fields = e.params.iter().map(|p| {
        let (x, l) = (ident(&p.ident), local(p));
        match p.list.is_some() && !p.always() {
            true => quote!(#x: #l.unwrap_or_default()),
            false => quote!(#x: #l),
        }
    });
    let always: Vec<proc_macro2::Ident> =
        e.params.iter().filter(|p| p.always()).map(local).collect();
    let build = match always.as_slice() {
        [] => quote! {
            if issues.is_empty() {
                Ok(Self { #(#build_fields),* })
            } else {
                Err(issues.into_error())
            }
        },
        [one] => quote! {
            match #one {
                Some(#one) if issues.is_empty() => Ok(Self { #(#build_fields),* }),
                _ => Err(issues.into_error()),
            }
        },
        many => quote! {
            match (#(#many),*) {
                (#(Some(#many)),*) if issues.is_empty() => Ok(Self { #(#build_fields),* }),
                _ => Err(issues.into_error()),
            }
        },
    };
    let forgive: Vec<TokenStream> = forgive.collect();
    let checks = if check.is_none() && forgive.is_empty() {
        quote!(let _ = checked;)
    } else {
        quote! {
            if checked {
                #check
                #(#forgive)*
            }
        }
    };
    quote! {
        let mut issues = mrds_runtime::Issues::new();
        #(#reads)*
        #checks
        #build
    }
}

/// `to_query`: the query pairs in documented order, path parameters excluded.
pub(super) fn to_query_body(e: &Endpoint) -> TokenStream {
    let query: Vec<&Param> = e
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Query)
        .collect();
    // The parameters that always have a value before the first optional one (or list) start
    // the list.
    let lead = query
        .iter()
        .take_while(|p| p.always() && p.list.is_none())
        .count();
    let pair = |p: &Param| {
        let (x, wire) = (ident(&p.ident), &p.wire);
        quote!((#wire, mrds_runtime::ParamValue::to_param(&self.#x)))
    };
    let first: Vec<TokenStream> = query[..lead].iter().map(|p| pair(p)).collect();
    if lead == query.len() {
        return if first.is_empty() {
            quote!(Vec::new())
        } else {
            quote!(Vec::from([#(#first),*]))
        };
    }
    let rest = query[lead..].iter().map(|p| {
        let (x, wire) = (ident(&p.ident), &p.wire);
        if let Some(form) = &p.list {
            let style = match form.style {
                ListStyle::Comma => quote!(mrds_runtime::ListStyle::Comma),
                ListStyle::Repeated => quote!(mrds_runtime::ListStyle::Repeated),
            };
            quote!(query.extend(#style.pairs(#wire, &self.#x));)
        } else if p.always() {
            let pair = pair(p);
            quote!(query.push(#pair);)
        } else {
            quote! {
                if let Some(v) = &self.#x {
                    query.push((#wire, mrds_runtime::ParamValue::to_param(v)));
                }
            }
        }
    });
    let start = if first.is_empty() {
        quote!(Vec::new())
    } else {
        quote!(Vec::from([#(#first),*]))
    };
    quote! {
        let mut query = #start;
        #(#rest)*
        query
    }
}

/// `path`: the path with path parameters filled in and percent-encoded.
pub(super) fn path_body(e: &Endpoint) -> TokenStream {
    if e.path.is_fixed() {
        let path = e.path.to_string();
        return quote!(#path.to_string());
    }
    let mut template = String::new();
    let mut args = Vec::new();
    for s in &e.path.segments {
        template.push('/');
        match s {
            Segment::Literal(l) => template.push_str(l),
            Segment::Param { param, .. } => {
                template.push_str("{}");
                let p = e.param(*param);
                let x = ident(&p.ident);
                args.push(quote! {
                    mrds_runtime::text::percent_encode(&mrds_runtime::ParamValue::to_param(&self.#x))
                });
            }
        }
    }
    quote!(format!(#template, #(#args),*))
}
