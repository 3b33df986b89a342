//! Typed time (the `jiff` feature of the generated crates): beside the wire's plain values,
//! `new_jiff` and `with_<param>_jiff` on parameter types, `<field>_jiff()` on records, each
//! converting through the runtime's `time` module.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::MAX_ARGS;
use super::checks::value_type;
use crate::{deprecation, docs, ident};
use mrds_spec::model::{
    Endpoint, Field, Format, IntegerFormat, IntegerType, Param, StringType, TimeKind, TypeRef,
    ValueType,
};

/// The `jiff` type a time parameter takes with the `jiff` feature, the runtime function
/// turning it into the parameter's plain value, and the type's path (`jiff::Timestamp`).
fn time_writer(p: &Param) -> Option<(TokenStream, TokenStream, &'static str)> {
    let text_time = |t: &StringType| t.format?.info().time;
    if p.list.is_some() {
        // A list of times keeps its plain values.
        return None;
    }
    match &p.ty {
        ValueType::Integer(IntegerType {
            format: Some(IntegerFormat::UnixSeconds),
            ..
        }) => Some((
            quote!(mrds_runtime::time::Timestamp),
            quote!(mrds_runtime::time::unix_seconds),
            "jiff::Timestamp",
        )),
        ValueType::String(t) => match text_time(t)? {
            TimeKind::Instant => Some((
                quote!(mrds_runtime::time::Timestamp),
                quote!(mrds_runtime::time::rfc3339),
                "jiff::Timestamp",
            )),
            TimeKind::Date => Some((
                quote!(mrds_runtime::time::Date),
                quote!(mrds_runtime::time::date_text),
                "jiff::civil::Date",
            )),
        },
        _ => None,
    }
}

/// The `jiff` type a time parameter takes in `new_jiff` and its `with_<param>_jiff` setter
/// (`jiff::Timestamp`, `jiff::civil::Date`); `None` for a parameter that is not a time.
pub(crate) fn param_jiff_type(p: &Param) -> Option<&'static str> {
    time_writer(p).map(|(_, _, path)| path)
}

/// True when the parameter type of `e` has `new_jiff`: a required parameter is a time, and the
/// type has `new` (not an init struct, whose time fields are plain values).
pub(crate) fn has_new_jiff(e: &Endpoint) -> bool {
    let required: Vec<&Param> = e.params.iter().filter(|p| p.required).collect();
    required.len() <= MAX_ARGS && required.iter().any(|p| time_writer(p).is_some())
}

/// The `jiff` type `<field>_jiff()` reads one value of a field as (`jiff::civil::Date`);
/// `None` for a field that has no such accessor.
pub(crate) fn field_jiff_type(f: &Field) -> Option<&'static str> {
    time_reader(f.format?).map(|(_, _, what)| what.trim_matches('`'))
}

/// With the `jiff` feature: `new_jiff` (as `new`, the required time parameters typed) when a
/// required parameter is a time, and `with_<param>_jiff` beside the setter of every optional
/// one. The names cannot collide: every other method is fixed (`new`, `validate`, ...) or
/// starts with `with_` followed by a parameter's name, and the checker reserves parameter
/// names ending in `_jiff`.
pub(super) fn param_methods(e: &Endpoint) -> TokenStream {
    let (_, allow) = deprecation(e.removed.as_ref());
    let required: Vec<&Param> = e.params.iter().filter(|p| p.required).collect();
    let new_jiff = has_new_jiff(e).then(|| {
        let args = required.iter().map(|p| {
            let x = ident(&p.ident);
            match (time_writer(p), &p.ty) {
                (Some((ty, _, _)), _) => quote!(#x: #ty),
                (None, ValueType::String(_)) if p.list.is_none() => {
                    quote!(#x: impl Into<String>)
                }
                (None, _) => {
                    let t = value_type(p);
                    quote!(#x: #t)
                }
            }
        });
        let values = required.iter().map(|p| {
            let x = ident(&p.ident);
            match time_writer(p) {
                Some((_, write, _)) => quote!(#write(#x)),
                None => quote!(#x),
            }
        });
        let typed: Vec<String> = required
            .iter()
            .filter(|p| time_writer(p).is_some())
            .map(|p| format!("`{}`", p.wire))
            .collect();
        let doc = docs(&format!(
            "As [`new`](Self::new), with {} as `jiff` values (feature `jiff`).",
            typed.join(", ")
        ));
        quote! {
            #doc
            pub fn new_jiff(#(#args),*) -> Self {
                Self::new(#(#values),*)
            }
        }
    });
    let setters: Vec<TokenStream> = e
        .params
        .iter()
        .filter(|p| !p.required)
        .filter_map(|p| {
            let (ty, write, _) = time_writer(p)?;
            let setter = format_ident!("with_{}", p.bare_ident());
            let typed = format_ident!("with_{}_jiff", p.bare_ident());
            let doc = docs(&format!(
                "Sets `{}` from a `jiff` value (feature `jiff`).",
                p.wire
            ));
            Some(quote! {
                #doc
                #[must_use]
                pub fn #typed(self, value: #ty) -> Self {
                    self.#setter(#write(value))
                }
            })
        })
        .collect();
    if new_jiff.is_none() && setters.is_empty() {
        return TokenStream::new();
    }
    let name = ident(&e.names.params_type);
    quote! {
        #[cfg(feature = "jiff")]
        #allow
        impl #name {
            #new_jiff
            #(#setters)*
        }
    }
}

/// The `jiff` type of a time field, the runtime function that reads it, and its name in docs.
fn time_reader(format: Format) -> Option<(TokenStream, TokenStream, &'static str)> {
    let time = match format {
        Format::Text(f) => f.info().time,
        _ => None,
    };
    Some(match (format, time) {
        (_, Some(TimeKind::Date)) => (
            quote!(mrds_runtime::time::Date),
            quote!(mrds_runtime::time::parse_date),
            "`jiff::civil::Date`",
        ),
        (Format::DateTime, _) => (
            quote!(mrds_runtime::time::DateTime),
            quote!(mrds_runtime::time::parse_date_time),
            "`jiff::civil::DateTime`",
        ),
        (Format::Timestamp | Format::TimestampMillis, _) | (_, Some(TimeKind::Instant)) => (
            quote!(mrds_runtime::time::Timestamp),
            quote!(mrds_runtime::time::parse_timestamp),
            "`jiff::Timestamp`",
        ),
        (Format::UnixSeconds, _) => (
            quote!(mrds_runtime::time::Timestamp),
            quote!(mrds_runtime::time::from_unix_seconds),
            "`jiff::Timestamp`",
        ),
        (Format::Text(_) | Format::NumericText | Format::Url, None) => return None,
    })
}

/// With the `jiff` feature, one `<field>_jiff()` accessor per date or time field: the field
/// parsed into its `jiff` type. The names cannot collide: the checker reserves field and
/// parameter names ending in `_jiff`, and every other method of a record is `new` or starts
/// with `with_`.
pub(super) fn record_methods(name: &str, generics: &TokenStream, fields: &[Field]) -> TokenStream {
    let accessors: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let (ty, read, what) = time_reader(f.format?)?;
            let x = ident(&f.ident);
            let method = format_ident!("{}_jiff", mrds_spec::naming::bare(&f.ident));
            let integer = f.ty == TypeRef::Integer;
            let (ret, body) = match (f.array, f.optional, integer) {
                (true, _, false) => (
                    quote!(Vec<#ty>),
                    quote!(self.#x.iter().map(String::as_str).map(#read).collect()),
                ),
                (true, _, true) => (
                    quote!(Vec<#ty>),
                    quote!(self.#x.iter().copied().map(#read).collect()),
                ),
                (false, true, false) => (
                    quote!(Option<#ty>),
                    quote!(self.#x.as_deref().map(#read).transpose()),
                ),
                (false, true, true) => {
                    (quote!(Option<#ty>), quote!(self.#x.map(#read).transpose()))
                }
                (false, false, false) => (ty, quote!(#read(&self.#x))),
                (false, false, true) => (ty, quote!(#read(self.#x))),
            };
            let doc = docs(&format!(
                "`{}` as a {what} (feature `jiff`); an error when the field does not hold one \
                 ({}).",
                f.wire,
                super::format_note(f.format?)
                    .trim_start_matches("Format: ")
                    .trim_end_matches('.')
            ));
            Some(quote! {
                #doc
                pub fn #method(&self) -> Result<#ret, mrds_runtime::time::TimeError> {
                    #body
                }
            })
        })
        .collect();
    if accessors.is_empty() {
        return TokenStream::new();
    }
    let ty = ident(name);
    quote! {
        #[cfg(feature = "jiff")]
        impl #generics #ty #generics {
            #(#accessors)*
        }
    }
}
