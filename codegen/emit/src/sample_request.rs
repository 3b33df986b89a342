//! The spec's sample requests written as Rust: the parameter type of an endpoint made with the
//! values of its sample request (`StockDividendsParams::new("AAPL", ...)`, or its init struct
//! past [`crate::model::MAX_ARGS`] required values), as text below a `use` of each type (the
//! READMEs' examples, the docs' snippets) or as tokens with whole paths (the client's
//! examples). One reading of a sample request for all of them, so they choose alike.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ident;
use mrds_spec::model::{Api, Endpoint, Param, ParamLocation, ValueType};

/// A value of a sample request, typed as its parameter takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleValue<'a> {
    /// Text.
    Text(&'a str),
    /// An integer.
    Integer(i64),
    /// `true` or `false`.
    Boolean(bool),
    /// A value of a value set: the set's and the variant's Rust names.
    Variant {
        /// The value set (`TimeType`).
        set: &'a str,
        /// The variant (`PaymentDate`).
        variant: &'a str,
    },
}

impl SampleValue<'_> {
    /// The value as a Rust expression, its value set named as imported (`TimeType::PaymentDate`).
    pub fn text(&self) -> String {
        match self {
            SampleValue::Text(t) => format!("{t:?}"),
            SampleValue::Integer(n) => n.to_string(),
            SampleValue::Boolean(b) => b.to_string(),
            SampleValue::Variant { set, variant } => format!("{set}::{variant}"),
        }
    }

    /// The value as tokens, its value set named below the model crate's path `model`.
    pub fn tokens(&self, model: &TokenStream) -> TokenStream {
        match self {
            SampleValue::Text(t) => quote!(#t),
            SampleValue::Integer(n) => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(#n)
            }
            SampleValue::Boolean(b) => {
                let b = format_ident!("{b}");
                quote!(#b)
            }
            SampleValue::Variant { set, variant } => {
                let (set, variant) = (ident(set), ident(variant));
                quote!(#model::value_sets::#set::#variant)
            }
        }
    }
}

/// An endpoint's sample request: every required parameter's value, and the optional ones it
/// gives.
#[derive(Clone, Debug)]
pub struct SampleRequest<'a> {
    /// The endpoint it calls.
    pub endpoint: &'a Endpoint,
    /// The required parameters with their values, in documented order.
    pub required: Vec<(&'a Param, SampleValue<'a>)>,
    /// The optional parameters the sample request gives, in documented order.
    pub optional: Vec<(&'a Param, SampleValue<'a>)>,
    /// The query parameters it sends (wire name, value as sent), in the sample's order.
    pub query: Vec<(&'a str, &'a str)>,
}

impl<'a> SampleRequest<'a> {
    /// The sample request of `e`: `None` for an endpoint removed, with a body or a list
    /// parameter (an example of a few lines), or whose sample request does not give every
    /// required parameter a value of its type.
    pub fn of(api: &'a Api, e: &'a Endpoint) -> Option<Self> {
        if e.removed.is_some() || e.body.is_some() || e.params.iter().any(|p| p.list.is_some()) {
            return None;
        }
        let samples = e.samples.as_ref()?;
        let given = |p: &Param| {
            (samples.example_values.iter())
                .find(|(id, _)| *id == p.id)
                .map(|(_, v)| v.as_str())
        };
        let value = |p: &'a Param, text: &'a str| -> Option<SampleValue<'a>> {
            Some(match &p.ty {
                ValueType::String(_) => SampleValue::Text(text),
                ValueType::Integer(_) => SampleValue::Integer(text.parse().ok()?),
                ValueType::Boolean => SampleValue::Boolean(text.parse().ok()?),
                ValueType::Enum(set) => {
                    let vs = api.value_set(set.set);
                    SampleValue::Variant {
                        set: &vs.name,
                        variant: &vs.values.iter().find(|v| v.wire == text)?.ident,
                    }
                }
            })
        };
        let mut required = Vec::new();
        let mut optional = Vec::new();
        for p in &e.params {
            match (p.required, given(p)) {
                (true, None) => return None,
                (true, Some(text)) => required.push((p, value(p, text)?)),
                (false, Some(text)) => optional.push((p, value(p, text)?)),
                (false, None) => {}
            }
        }
        let query = (samples.example_values.iter())
            .filter(|(id, _)| e.param(*id).location == ParamLocation::Query)
            .map(|(id, v)| (e.param(*id).wire.as_str(), v.as_str()))
            .collect();
        Some(Self {
            endpoint: e,
            required,
            optional,
            query,
        })
    }

    /// True when the parameter type is made from its init struct (more required values than
    /// a function takes), not with `new`.
    pub fn init(&self) -> bool {
        self.required.len() > crate::model::MAX_ARGS
    }

    /// The value the request gives the parameter `p`.
    pub fn value(&self, p: &Param) -> Option<SampleValue<'a>> {
        (self.required.iter().chain(&self.optional))
            .find(|(q, _)| q.id == p.id)
            .map(|(_, v)| *v)
    }

    /// The `use` lines the text of [`Self::text`] needs, below the model crate's path `prefix`
    /// (`mrds_model`, `mrds_client::model`): the parameter type (and its init struct), then
    /// each value set, once.
    pub fn uses(&self, prefix: &str) -> Vec<String> {
        let ty = &self.endpoint.names.params_type;
        let mut uses = vec![match self.init() {
            true => format!(
                "use {prefix}::params::{{{ty}, {}}};",
                mrds_spec::naming::init_type(ty)
            ),
            false => format!("use {prefix}::params::{ty};"),
        }];
        for (_, v) in self.required.iter().chain(&self.optional) {
            if let SampleValue::Variant { set, .. } = v {
                let line = format!("use {prefix}::value_sets::{set};");
                if !uses.contains(&line) {
                    uses.push(line);
                }
            }
        }
        uses
    }

    /// The expression making the parameters, with the required values (`StockDividendsParams::
    /// new("AAPL", ...)`), each type named as [`Self::uses`] imports it; `setters` adds the
    /// optional values the sample request gives, by their `with_` setters ([`Self::setters`]);
    /// `with` replaces the value of a parameter by an expression (a `&str` for a text).
    pub fn text(&self, with: Option<(&Param, &str)>, setters: bool) -> String {
        let ty = &self.endpoint.names.params_type;
        let value = |p: &Param, v: &SampleValue<'_>| match with {
            Some((q, x)) if q.id == p.id => x.to_string(),
            _ => v.text(),
        };
        let mut out = if self.init() {
            let members: Vec<String> = (self.required.iter())
                .map(|(p, v)| match v {
                    SampleValue::Text(_) => format!("{}: {}.into()", p.ident, value(p, v)),
                    _ => format!("{}: {}", p.ident, value(p, v)),
                })
                .collect();
            format!(
                "{ty}::from({} {{ {} }})",
                mrds_spec::naming::init_type(ty),
                members.join(", ")
            )
        } else {
            let args: Vec<String> = self.required.iter().map(|(p, v)| value(p, v)).collect();
            format!("{ty}::new({})", args.join(", "))
        };
        if setters {
            out.push_str(&self.setters(with));
        }
        out
    }

    /// The `with_` setters of the optional values the sample request gives
    /// (`.with_symbol("AAPL")`), each value as [`SampleValue::text`] writes it but that of the
    /// parameter `with` names, which is its expression.
    pub fn setters(&self, with: Option<(&Param, &str)>) -> String {
        (self.optional.iter())
            .map(|(p, v)| {
                let value = match with {
                    Some((q, x)) if q.id == p.id => x.to_string(),
                    _ => v.text(),
                };
                format!(".with_{}({value})", p.bare_ident())
            })
            .collect()
    }

    /// The expression making the parameters with every value the sample request gives (the
    /// optional ones by their setters), every type by its path below `model` (the model
    /// crate's path: `mrds_client::model`).
    pub fn tokens(&self, model: &TokenStream) -> TokenStream {
        let ty = ident(&self.endpoint.names.params_type);
        let setters = self.optional.iter().map(|(p, v)| {
            let setter = format_ident!("with_{}", p.bare_ident());
            let v = v.tokens(model);
            quote!(.#setter(#v))
        });
        if self.init() {
            let init = format_ident!(
                "{}",
                mrds_spec::naming::init_type(&self.endpoint.names.params_type)
            );
            let members = self.required.iter().map(|(p, v)| {
                let (x, t) = (ident(&p.ident), v.tokens(model));
                match v {
                    SampleValue::Text(_) => quote!(#x: #t.into()),
                    _ => quote!(#x: #t),
                }
            });
            quote!(#model::params::#ty::from(#model::params::#init { #(#members),* }) #(#setters)*)
        } else {
            let args = self.required.iter().map(|(_, v)| v.tokens(model));
            quote!(#model::params::#ty::new(#(#args),*) #(#setters)*)
        }
    }
}

/// Of the endpoints with a sample request ([`SampleRequest::of`]) that `keep` accepts, the
/// first with the most required parameters (the most telling example); `None` when there is
/// none.
pub fn best<'a>(
    api: &'a Api,
    keep: impl Fn(&SampleRequest<'a>) -> bool,
) -> Option<SampleRequest<'a>> {
    let mut found: Option<SampleRequest<'a>> = None;
    for e in &api.endpoints {
        let required = e.params.iter().filter(|p| p.required).count();
        if found.as_ref().is_some_and(|x| x.required.len() >= required) {
            continue;
        }
        if let Some(x) = SampleRequest::of(api, e).filter(&keep) {
            found = Some(x);
        }
    }
    found
}

/// Every endpoint's sample request, in the spec's order.
pub fn all(api: &Api) -> impl Iterator<Item = SampleRequest<'_>> {
    api.endpoints
        .iter()
        .filter_map(|e| SampleRequest::of(api, e))
}
