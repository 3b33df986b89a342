//! The model crate: records, value sets, parameter types with validation, envelope, constants.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Emitted, cargo_toml, doc_attrs, ident, static_rust};
use crate::model::*;

/// Crate directory, relative to the workspace root.
pub const DIR: &str = "crates/mrds-model";

/// Adds the model crate's files to `out`.
pub fn emit(api: &Api, out: &mut Emitted) {
    let uses_regex = api.endpoints.iter().any(|e| !patterns(e).is_empty());
    out.text(format!("{DIR}/Cargo.toml"), model_cargo_toml(uses_regex));
    out.text(
        format!("{DIR}/src/support.rs"),
        static_rust(include_str!("model_support.rs")),
    );
    let files: [(&str, TokenStream); 6] = [
        ("lib.rs", lib_rs(api)),
        ("records.rs", records_rs(api)),
        ("value_sets.rs", value_sets_rs(api)),
        ("params.rs", params_rs(api)),
        ("envelope.rs", envelope_rs(api)),
        ("api.rs", api_rs(api)),
    ];
    out.crate_sources(DIR, files);
}

fn model_cargo_toml(uses_regex: bool) -> String {
    let regex: &[&str] = if uses_regex { &["regex = \"1\""] } else { &[] };
    let rest = [
        "serde = { version = \"1\", features = [\"derive\"] }",
        "serde_json = \"1\"",
    ];
    cargo_toml(
        "mrds-model",
        "Types of the Market and Reference Data Service: records, value sets, validated parameters",
        &[regex, &rest].concat(),
    )
}

fn lib_rs(api: &Api) -> TokenStream {
    let title = format!(" Types of the {}.", api.title);
    let doc = api.doc.clone();
    let version = format!(
        " Interface description version {}; every path below `{}`.",
        api.api_version, api.base_path
    );
    quote! {
        #![doc = #title]
        #![doc = ""]
        #![doc = #doc]
        #![doc = ""]
        #![doc = #version]
        #![doc = ""]
        #![doc = " - [`records`]: the records in `data`, tolerant of fields and values added later;"]
        #![doc = " - [`value_sets`]: enumerations with their wire spelling;"]
        #![doc = " - [`params`]: one parameter type per endpoint, with `validate()`;"]
        #![doc = " - [`envelope`]: the common response envelope;"]
        #![doc = " - [`api`]: version, base path, the endpoint table and the change history."]

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
        pub mod support;
        #[rustfmt::skip]
        pub mod value_sets;

        pub use envelope::Envelope;
        pub use records::*;
        pub use support::{RawParams, Request, ValidationError, ValidationIssue};
        pub use value_sets::*;
    }
}

// ---------------------------------------------------------------- records

fn field_type(f: &Field) -> TokenStream {
    let base = match &f.ty {
        TypeRef::String => quote!(String),
        TypeRef::Integer => quote!(i64),
        TypeRef::Number => quote!(f64),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Any => quote!(serde_json::Value),
        TypeRef::Record(n) => {
            let n = ident(n);
            quote!(crate::records::#n)
        }
        TypeRef::ValueSet(n) => {
            let n = ident(n);
            quote!(crate::value_sets::#n)
        }
        TypeRef::ErrorCode => quote!(crate::value_sets::ErrorCode),
        TypeRef::Records => quote!(T),
    };
    match (f.array, f.optional) {
        (true, _) => quote!(Vec<#base>),
        (false, true) => quote!(Option<#base>),
        (false, false) => base,
    }
}

fn format_note(format: Format) -> &'static str {
    match format {
        Format::Date => "Format: `YYYY-MM-DD`.",
        Format::Timestamp => "Format: ISO 8601 timestamp.",
        Format::TimestampMillis => "Format: ISO 8601 UTC timestamp with milliseconds and `Z`.",
        Format::DateTime => "Format: `YYYY-MM-DD HH:MM:SS`.",
        Format::Rfc3339 => "Format: RFC 3339 timestamp.",
        Format::UnixSeconds => "Format: Unix seconds (UTC).",
        Format::Uuid => "Format: UUID.",
        Format::Hex16 => "Format: 16 hexadecimal characters.",
        Format::NumericText => "Format: a decimal number carried as text.",
        Format::Url => "Format: URL.",
    }
}

fn struct_fields(fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let mut text = f.doc.clone();
            if let Some(format) = f.format {
                text = format!("{text}\n\n{}", format_note(format));
            }
            let docs = doc_attrs(&text, f.source);
            let name = ident(&f.ident);
            let ty = field_type(f);
            let wire = &f.wire;
            let mut serde = Vec::new();
            if f.ident.trim_start_matches("r#") != f.wire {
                serde.push(quote!(rename = #wire));
            }
            if f.array && f.optional {
                serde.push(quote!(default));
                serde.push(quote!(deserialize_with = "crate::support::null_as_default"));
                serde.push(quote!(skip_serializing_if = "Vec::is_empty"));
            } else if f.optional {
                serde.push(quote!(default));
                serde.push(quote!(skip_serializing_if = "Option::is_none"));
            }
            let serde = (!serde.is_empty()).then(|| quote!(#[serde(#(#serde),*)]));
            quote! {
                #docs
                #serde
                pub #name: #ty,
            }
        })
        .collect()
}

fn records_rs(api: &Api) -> TokenStream {
    let records = api.records.iter().map(|r| {
        let name = ident(&r.name);
        let text = if r.name == r.spec_name {
            r.doc.clone()
        } else {
            format!(
                "{}\n\n`{}` in the interface description.",
                r.doc, r.spec_name
            )
        };
        let docs = doc_attrs(&text, r.source);
        let fields = struct_fields(&r.fields);
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
            pub struct #name {
                #(#fields)*
            }
        }
    });
    quote! {
        //! The records of the service: the elements of `data`, and the error object.
        //!
        //! Decoding ignores fields the server adds later; value-set fields keep values the
        //! spec does not know.

        #(#records)*
    }
}

// ---------------------------------------------------------------- value sets

struct EnumSpec<'a> {
    name: &'a str,
    doc: &'a str,
    source: Source,
    tolerant: bool,
    variants: Vec<(&'a str, &'a str, Option<&'a str>, Source)>,
    extra: TokenStream,
}

fn enum_tokens(e: &EnumSpec<'_>) -> TokenStream {
    let name = ident(e.name);
    let set_name = e.name;
    let mut doc = e.doc.to_string();
    if e.tolerant {
        doc.push_str(&format!(
            "\n\nTolerant: a value the spec does not know decodes into `{name}::Unknown` with the raw text, \
             so a server adding values later does not break decoding. `FromStr` stays strict."
        ));
    } else {
        doc.push_str("\n\nStrict: a value the spec does not list is rejected.");
    }
    let docs = doc_attrs(&doc, e.source);
    let variants: Vec<_> = e.variants.iter().map(|(v, _, _, _)| ident(v)).collect();
    let wires: Vec<_> = e.variants.iter().map(|(_, w, _, _)| *w).collect();
    let variant_docs = e.variants.iter().map(|(_, w, d, s)| {
        let text = match d {
            Some(d) => format!("`{w}`: {d}"),
            None => format!("`{w}`."),
        };
        doc_attrs(&text, *s)
    });
    let extra = &e.extra;
    let quoted: Vec<String> = wires.iter().map(|w| format!("`{w}`")).collect();
    let values_reason = format!("must be one of {}", quoted.join(", "));
    // Impls the strict and tolerant forms share.
    let common = quote! {
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl crate::support::ParamValue for #name {
            fn parse_param(text: &str) -> Result<Self, (&'static str, String)> {
                text.parse().map_err(|_| ("values", #values_reason.to_string()))
            }
            fn to_param(&self) -> String {
                self.as_str().to_string()
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #extra
    };
    let from_str_err = quote! {
        crate::support::UnknownValue { set: #set_name, got: s.to_string(), expected: Self::WIRE }
    };
    if e.tolerant {
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #(#variant_docs #variants,)*
                /// A value the spec does not know, kept as received.
                Unknown(String),
            }

            impl #name {
                /// The known values, in the spec's order.
                pub const ALL: &'static [#name] = &[#(#name::#variants),*];
                /// Wire spellings of the known values, in the spec's order.
                pub const WIRE: &'static [&'static str] = &[#(#wires),*];

                /// The wire spelling.
                pub fn as_str(&self) -> &str {
                    match self {
                        #(#name::#variants => #wires,)*
                        #name::Unknown(raw) => raw,
                    }
                }

                /// True unless this is [`Self::Unknown`].
                pub fn is_known(&self) -> bool {
                    !matches!(self, #name::Unknown(_))
                }

                /// Reads a wire value, keeping an unknown one as [`Self::Unknown`].
                pub fn from_wire(s: &str) -> Self {
                    match s {
                        #(#wires => #name::#variants,)*
                        other => #name::Unknown(other.to_string()),
                    }
                }
            }

            impl std::str::FromStr for #name {
                type Err = crate::support::UnknownValue;
                /// Strict: only the values the spec lists.
                fn from_str(s: &str) -> Result<Self, Self::Err> {
                    match Self::from_wire(s) {
                        #name::Unknown(_) => Err(#from_str_err),
                        known => Ok(known),
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                    Ok(Self::from_wire(&s))
                }
            }

            #common
        }
    } else {
        quote! {
            #docs
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #(#variant_docs #variants,)*
            }

            impl #name {
                /// Every value, in the spec's order.
                pub const ALL: &'static [#name] = &[#(#name::#variants),*];
                /// Wire spellings, in the spec's order.
                pub const WIRE: &'static [&'static str] = &[#(#wires),*];

                /// The wire spelling.
                pub fn as_str(&self) -> &'static str {
                    match self {
                        #(#name::#variants => #wires,)*
                    }
                }
            }

            impl std::str::FromStr for #name {
                type Err = crate::support::UnknownValue;
                fn from_str(s: &str) -> Result<Self, Self::Err> {
                    match s {
                        #(#wires => Ok(#name::#variants),)*
                        _ => Err(#from_str_err),
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                    s.parse().map_err(|_| serde::de::Error::unknown_variant(&s, Self::WIRE))
                }
            }

            #common
        }
    }
}

fn value_sets_rs(api: &Api) -> TokenStream {
    let sets = api.value_sets.iter().map(|vs| {
        enum_tokens(&EnumSpec {
            name: &vs.name,
            doc: &vs.doc,
            source: vs.source,
            tolerant: vs.tolerant,
            variants: vs
                .values
                .iter()
                .map(|v| {
                    (
                        v.ident.as_str(),
                        v.wire.as_str(),
                        v.doc.as_deref(),
                        v.source,
                    )
                })
                .collect(),
            extra: TokenStream::new(),
        })
    });
    let variants: Vec<_> = api.error_codes.iter().map(|c| ident(&c.variant)).collect();
    let statuses = api.error_codes.iter().map(|c| c.status);
    let error_code = enum_tokens(&EnumSpec {
        name: "ErrorCode",
        doc: "Machine-readable error code of the error object, with the HTTP status it is answered with.",
        source: Source::Documented,
        tolerant: true,
        variants: api
            .error_codes
            .iter()
            .map(|c| {
                (
                    c.variant.as_str(),
                    c.code.as_str(),
                    Some(c.doc.as_str()),
                    c.source,
                )
            })
            .collect(),
        extra: quote! {
            impl ErrorCode {
                /// The HTTP status the service answers this code with (`None` for an unknown code).
                pub fn http_status(&self) -> Option<u16> {
                    match self {
                        #(ErrorCode::#variants => Some(#statuses),)*
                        ErrorCode::Unknown(_) => None,
                    }
                }
            }
        },
    });
    quote! {
        //! Value sets: enumerations with their wire spelling.
        //!
        //! Sets that appear in records are tolerant (unknown values decode into `Unknown`);
        //! sets used only by parameters are strict.

        #error_code
        #(#sets)*
    }
}

// ---------------------------------------------------------------- envelope

fn envelope_rs(api: &Api) -> TokenStream {
    let docs = doc_attrs(&api.envelope.doc, Source::Documented);
    let fields = struct_fields(&api.envelope.fields);
    quote! {
        //! The common response envelope.

        #docs
        ///
        /// `T` is the record type of the endpoint; a failure envelope is `Envelope<ErrorObject>`
        /// (its `data` repeats the error object).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct Envelope<T> {
            #(#fields)*
        }
    }
}

// ---------------------------------------------------------------- api constants

fn api_rs(api: &Api) -> TokenStream {
    let version = &api.api_version;
    let base = &api.base_path;
    let header = &api.auth.header;
    let header_doc = doc_attrs(&api.auth.doc, api.auth.source);
    let consts = api.endpoints.iter().map(|e| {
        let name = format_ident!("{}", e.const_name);
        let id = &e.id;
        let path = &e.path;
        let summary = &e.summary;
        let method = e.method.as_str();
        let auth = match e.auth {
            AuthMode::Required => quote!(Auth::Required),
            AuthMode::Optional => quote!(Auth::Optional),
        };
        let doc = format!(
            "`{method} {path}`: {summary} Parameters: [`crate::params::{}`].",
            e.params_type
        );
        let (removed, deprecated) = match &e.removed {
            Some(r) => {
                let (date, v) = (&r.date, &r.version);
                let note = format!("removed from the service on {date} ({v})");
                let since = v.trim_start_matches('v');
                (
                    quote!(Some(Removal { date: #date, version: #v })),
                    quote!(#[deprecated(since = #since, note = #note)]),
                )
            }
            None => (quote!(None), quote!()),
        };
        quote! {
            #[doc = #doc]
            #deprecated
            pub const #name: Endpoint = Endpoint {
                id: #id,
                method: #method,
                path: #path,
                summary: #summary,
                auth: #auth,
                removed: #removed,
            };
        }
    });
    let all = api
        .endpoints
        .iter()
        .map(|e| format_ident!("{}", e.const_name));
    let history = api.history.iter().map(|h| {
        let date = &h.date;
        let versions = &h.versions;
        let changes = h.changes.iter().map(|c| {
            let action = match c.action {
                ChangeAction::Added => quote!(ChangeAction::Added),
                ChangeAction::Removed => quote!(ChangeAction::Removed),
            };
            let (m, p) = (&c.method, &c.path);
            quote!(Change { action: #action, method: #m, path: #p })
        });
        quote!(HistoryEntry { date: #date, versions: &[#(#versions),*], changes: &[#(#changes),*] })
    });
    quote! {
        //! Version, base path, the endpoint table and the change history.

        /// Version of the interface description.
        pub const API_VERSION: &str = #version;
        /// The path every endpoint path is appended to.
        pub const BASE_PATH: &str = #base;
        /// The header carrying the API key.
        ///
        #header_doc
        pub const AUTH_HEADER: &str = #header;

        /// Whether an endpoint needs the API key.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Auth {
            /// A missing or unknown key is rejected with 401.
            Required,
            /// A key is accepted but not required.
            Optional,
        }

        /// When an endpoint was removed from the service.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Removal {
            /// `YYYY-MM-DD`.
            pub date: &'static str,
            /// Release tag.
            pub version: &'static str,
        }

        /// One endpoint of the service.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Endpoint {
            /// Operation id (the client and server method name).
            pub id: &'static str,
            /// HTTP method.
            pub method: &'static str,
            /// Path below [`BASE_PATH`], with `{name}` for path parameters.
            pub path: &'static str,
            /// One line.
            pub summary: &'static str,
            /// Whether the key is required.
            pub auth: Auth,
            /// Set when the change history lists the endpoint as removed.
            pub removed: Option<Removal>,
        }

        #(#consts)*

        /// Every endpoint of the spec, sorted by id.
        #[allow(deprecated)]
        pub const ENDPOINTS: &[Endpoint] = &[#(#all),*];

        /// Kind of a change in the history.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ChangeAction {
            /// The endpoint appeared.
            Added,
            /// The endpoint went away.
            Removed,
        }

        /// One endpoint added or removed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Change {
            /// Added or removed.
            pub action: ChangeAction,
            /// HTTP method.
            pub method: &'static str,
            /// Path.
            pub path: &'static str,
        }

        /// One row of the change history.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct HistoryEntry {
            /// `YYYY-MM-DD`.
            pub date: &'static str,
            /// Release tags.
            pub versions: &'static [&'static str],
            /// What changed.
            pub changes: &'static [Change],
        }

        /// The change history (endpoint additions and removals), newest first.
        pub const HISTORY: &[HistoryEntry] = &[#(#history),*];
    }
}

// ---------------------------------------------------------------- parameters

/// The regular expressions an endpoint needs: static name and pattern.
fn patterns(e: &Endpoint) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in &e.params {
        if let Some(re) = &p.pattern {
            out.push((pattern_static(&e.id, &p.wire), re.clone()));
        }
    }
    for r in &e.rules {
        if let Check::Matches { pattern, .. } = &r.check {
            out.push((format!("{}_PATTERN", shout(&r.id)), pattern.clone()));
        }
        if let Some(Condition::Matches { pattern, .. }) = &r.when {
            out.push((format!("{}_WHEN_PATTERN", shout(&r.id)), pattern.clone()));
        }
    }
    out
}

fn shout(s: &str) -> String {
    s.replace('.', "_").to_uppercase()
}

fn pattern_static(endpoint: &str, param: &str) -> String {
    format!("{}_{}_PATTERN", shout(endpoint), shout(param))
}

fn base_type(p: &Param) -> TokenStream {
    match &p.kind {
        ParamKind::String => quote!(String),
        ParamKind::Integer => quote!(i64),
        ParamKind::Boolean => quote!(bool),
        ParamKind::Enum(n) => {
            let n = ident(n);
            quote!(#n)
        }
    }
}

/// How a parameter is seen by the check function: `Option<&str>`, `Option<i64>`, ...
fn check_type(p: &Param) -> TokenStream {
    match &p.kind {
        ParamKind::String => quote!(Option<&str>),
        ParamKind::Integer => quote!(Option<i64>),
        ParamKind::Boolean => quote!(Option<bool>),
        ParamKind::Enum(_) => {
            let t = base_type(p);
            quote!(Option<&#t>)
        }
    }
}

/// `self.x` as the check function sees it.
fn check_arg_from_self(p: &Param) -> TokenStream {
    let x = ident(&p.ident);
    let always = p.required || p.default.is_some();
    match (&p.kind, always) {
        (ParamKind::String, true) => quote!(Some(self.#x.as_str())),
        (ParamKind::String, false) => quote!(self.#x.as_deref()),
        (ParamKind::Integer | ParamKind::Boolean, true) => quote!(Some(self.#x)),
        (ParamKind::Integer | ParamKind::Boolean, false) => quote!(self.#x),
        (ParamKind::Enum(_), true) => quote!(Some(&self.#x)),
        (ParamKind::Enum(_), false) => quote!(self.#x.as_ref()),
    }
}

/// A local `Option<T>` as the check function sees it.
fn check_arg_from_local(p: &Param) -> TokenStream {
    let x = ident(&p.ident);
    match &p.kind {
        ParamKind::String => quote!(#x.as_deref()),
        ParamKind::Integer | ParamKind::Boolean => quote!(#x),
        ParamKind::Enum(_) => quote!(#x.as_ref()),
    }
}

fn literal(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s.to_string()),
        Literal::Integer(n) => quote!(#n),
        Literal::Boolean(b) => quote!(#b),
        Literal::Variant(v) => {
            let (set, var) = (ident(&v.set), ident(&v.ident));
            quote!(#set::#var)
        }
    }
}

/// A pattern (for `matches!`) of one literal.
fn literal_pattern(l: &Literal) -> TokenStream {
    match l {
        Literal::String(s) => quote!(#s),
        Literal::Integer(n) => quote!(#n),
        Literal::Boolean(b) => quote!(#b),
        Literal::Variant(v) => {
            let (set, var) = (ident(&v.set), ident(&v.ident));
            quote!(#set::#var)
        }
    }
}

/// Text of a checked value for `got`.
fn got_text(p: &Param, v: &TokenStream) -> TokenStream {
    match &p.kind {
        ParamKind::String => quote!(#v.to_string()),
        ParamKind::Integer | ParamKind::Boolean => quote!(#v.to_string()),
        ParamKind::Enum(_) => quote!(#v.as_str().to_string()),
    }
}

fn range_reason(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("must be between {a} and {b}"),
        (Some(a), None) => format!("must be at least {a}"),
        (None, Some(b)) => format!("must be at most {b}"),
        (None, None) => String::new(),
    }
}

/// The per-parameter checks of one parameter; empty when it has none.
fn param_checks(e: &Endpoint, p: &Param, api: &Api) -> TokenStream {
    let x = ident(&p.ident);
    let wire = &p.wire;
    let v = quote!(v);
    let got = got_text(p, &v);
    let mut checks = Vec::new();
    if p.min.is_some() || p.max.is_some() {
        let rule = p.rule_id(&e.id, "range");
        let reason = range_reason(p.min, p.max);
        let cond = match (p.min, p.max) {
            (Some(a), Some(b)) => quote!(!(#a..=#b).contains(&v)),
            (Some(a), None) => quote!(v < #a),
            (None, Some(b)) => quote!(v > #b),
            (None, None) => unreachable!("guarded above"),
        };
        checks.push(quote! {
            if let Some(v) = #x && #cond {
                issues.push(ValidationIssue::new(#rule, #wire, #got, #reason));
            }
        });
    }
    if let Some(re) = &p.pattern {
        let rule = p.rule_id(&e.id, "pattern");
        let stat = format_ident!("{}", pattern_static(&e.id, &p.wire));
        let reason = match &p.pattern_doc {
            Some(d) => format!("must be {d} (pattern `{re}`)"),
            None => format!("must match the pattern `{re}`"),
        };
        checks.push(quote! {
            if let Some(v) = #x && !#stat.is_match(v) {
                issues.push(ValidationIssue::new(#rule, #wire, #got, #reason));
            }
        });
    }
    if let Some(format) = p.format {
        let rule = p.rule_id(&e.id, "format");
        let check = match format {
            Format::Uuid => Some((
                quote!(!crate::support::is_uuid(v)),
                "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000",
            )),
            Format::Hex16 => Some((
                quote!(!crate::support::is_hex16(v)),
                "must be 16 hexadecimal characters",
            )),
            Format::Rfc3339 => Some((
                quote!(crate::support::rfc3339_seconds(v).is_none()),
                "must be an RFC 3339 timestamp such as 2026-07-01T00:00:00Z",
            )),
            _ => None,
        };
        if let Some((cond, reason)) = check {
            checks.push(quote! {
                if let Some(v) = #x && #cond {
                    issues.push(ValidationIssue::new(#rule, #wire, #got, #reason));
                }
            });
        }
    }
    if let ParamKind::Enum(set) = &p.kind
        && let Some(vs) = api.value_set(set).filter(|vs| vs.tolerant)
    {
        let rule = p.rule_id(&e.id, "values");
        let quoted: Vec<String> = vs.values.iter().map(|v| format!("`{}`", v.wire)).collect();
        let reason = format!("must be one of {}", quoted.join(", "));
        checks.push(quote! {
            if let Some(v) = #x && !v.is_known() {
                issues.push(ValidationIssue::new(#rule, #wire, #got, #reason));
            }
        });
    }
    quote!(#(#checks)*)
}

/// An instant (Unix seconds) of a time parameter, as an `Option<i64>` expression.
fn instant(p: &Param) -> TokenStream {
    let x = ident(&p.ident);
    match p.format {
        Some(Format::Rfc3339) => quote!(#x.and_then(crate::support::rfc3339_seconds)),
        _ => quote!(#x),
    }
}

fn condition(e: &Endpoint, rule: &Rule) -> Option<TokenStream> {
    Some(match rule.when.as_ref()? {
        Condition::In { param, values } => {
            let p = e.param(param).expect("checked");
            let x = ident(&p.ident);
            let pats = values.iter().map(literal_pattern);
            quote!(matches!(#x, Some(#(#pats)|*)))
        }
        Condition::Matches { param, .. } => {
            let p = e.param(param).expect("checked");
            let x = ident(&p.ident);
            let stat = format_ident!("{}_WHEN_PATTERN", shout(&rule.id));
            quote!(#x.is_some_and(|v| #stat.is_match(v)))
        }
    })
}

/// The wire names a rule reads.
fn rule_params(rule: &Rule) -> Vec<&str> {
    let mut out: Vec<&str> = match &rule.check {
        Check::Ordered { before, after } => vec![before, after],
        Check::MaxSpan { from, to, .. } => vec![from, to],
        Check::Requires { param, needs } => vec![param, needs],
        Check::AtLeastOne(names) => names.iter().map(String::as_str).collect(),
        Check::AllowedValues { param, .. } | Check::Matches { param, .. } => vec![param],
    };
    match &rule.when {
        Some(Condition::In { param, .. } | Condition::Matches { param, .. }) => out.push(param),
        None => {}
    }
    out
}

fn rule_check(e: &Endpoint, rule: &Rule) -> TokenStream {
    let id = &rule.id;
    let doc = rule.doc.trim_end_matches('.');
    let param = |name: &str| e.param(name).expect("rule parameters are checked");
    // Conditions that must all hold for the rule to be broken, and the issue then recorded.
    let mut conds: Vec<TokenStream> = condition(e, rule).into_iter().collect();
    let push = match &rule.check {
        Check::Ordered { before, after }
        | Check::MaxSpan {
            from: before,
            to: after,
            ..
        } => {
            let (a, b) = (param(before), param(after));
            let (ia, ib) = (instant(a), instant(b));
            let (xa, xb) = (ident(&a.ident), ident(&b.ident));
            let field = &b.wire;
            let gb = got_text(b, &quote!(#xb.unwrap_or_default()));
            let before_name = &a.wire;
            conds.push(quote!(let (Some(a), Some(b)) = (#ia, #ib)));
            conds.push(match &rule.check {
                Check::MaxSpan { seconds, .. } => {
                    quote!(i128::from(b) - i128::from(a) > i128::from(#seconds))
                }
                _ => quote!(a >= b),
            });
            quote!(issues.push(ValidationIssue::new(#id, #field, #gb, format!("{} ({} is {})", #doc, #before_name, #xa.unwrap_or_default())));)
        }
        Check::Requires {
            param: dependent,
            needs,
        } => {
            let (a, b) = (param(dependent), param(needs));
            let (xa, xb) = (ident(&a.ident), ident(&b.ident));
            let field = &a.wire;
            let got = got_text(a, &quote!(v));
            conds.push(quote!(let (Some(v), None) = (#xa, #xb)));
            quote!(issues.push(ValidationIssue::new(#id, #field, #got, #doc));)
        }
        Check::AtLeastOne(names) => {
            let xs = names.iter().map(|n| ident(&param(n).ident));
            let field = &param(&names[0]).wire;
            conds.push(quote!(#(#xs.is_none())&&*));
            quote!(issues.push(ValidationIssue::new(#id, #field, "", #doc));)
        }
        Check::AllowedValues {
            param: name,
            values,
        } => {
            let p = param(name);
            let x = ident(&p.ident);
            let wire = &p.wire;
            let pats = values.iter().map(literal_pattern);
            let got = got_text(p, &quote!(v));
            conds.push(quote!(let Some(v) = #x));
            conds.push(quote!(!matches!(v, #(#pats)|*)));
            quote!(issues.push(ValidationIssue::new(#id, #wire, #got, #doc));)
        }
        Check::Matches { param: name, .. } => {
            let p = param(name);
            let x = ident(&p.ident);
            let wire = &p.wire;
            let stat = format_ident!("{}_PATTERN", shout(&rule.id));
            let got = got_text(p, &quote!(v));
            conds.push(quote!(let Some(v) = #x));
            conds.push(quote!(!#stat.is_match(v)));
            quote!(issues.push(ValidationIssue::new(#id, #wire, #got, #doc));)
        }
    };
    quote! {
        if #(#conds)&&* {
            #push
        }
    }
}

fn params_type(e: &Endpoint, api: &Api) -> TokenStream {
    let name = ident(&e.params_type);
    let record = ident(&e.returns);
    let const_name = format_ident!("{}", e.const_name);
    let method = e.method.as_str();
    let mut doc = format!("Parameters of `{method} {}`: {}", e.path, e.summary);
    if let Some(d) = &e.doc {
        doc.push_str(&format!("\n\n{d}"));
    }
    if let Some(o) = &e.ordering {
        doc.push_str(&format!("\n\nOrdering: {o}"));
    }
    doc.push_str(&format!(
        "\n\nAnswers `data` as an array of [`crate::records::{}`]. The API key is {}.",
        e.returns,
        match e.auth {
            AuthMode::Required => "required",
            AuthMode::Optional => "accepted but not required",
        }
    ));
    if !e.rules.is_empty() {
        doc.push_str("\n\nRules across parameters:");
        for r in &e.rules {
            let tag = if r.source == Source::Assumed {
                " (assumed)"
            } else {
                ""
            };
            doc.push_str(&format!("\n- `{}`: {}{tag}", r.id, r.doc));
        }
    }
    let docs = doc_attrs(&doc, e.source);
    let deprecated = e.removed.as_ref().map(|r| {
        let since = r.version.trim_start_matches('v');
        let note = format!(
            "the endpoint was removed from the service on {} ({})",
            r.date, r.version
        );
        quote!(#[deprecated(since = #since, note = #note)])
    });
    let allow_deprecated = e.removed.as_ref().map(|_| quote!(#[allow(deprecated)]));

    let fields = e.params.iter().map(|p| {
        let x = ident(&p.ident);
        let base = base_type(p);
        let ty = if p.required || p.default.is_some() {
            base
        } else {
            quote!(Option<#base>)
        };
        let mut text = p.doc.clone();
        let mut facts = Vec::new();
        facts.push(format!(
            "`{}` in the {}",
            p.wire,
            if p.location == ParamLocation::Path {
                "path"
            } else {
                "query"
            }
        ));
        if p.required {
            facts.push("required".into());
        }
        if let Some(d) = &p.default {
            facts.push(format!("default `{}`", literal_text(d)));
        }
        if p.min.is_some() || p.max.is_some() {
            facts.push(range_reason(p.min, p.max).replace("must be ", ""));
        }
        if let Some(f) = p.format {
            facts.push(
                format_note(f)
                    .trim_end_matches('.')
                    .replace("Format: ", "format: "),
            );
        }
        if let Some(re) = &p.pattern {
            facts.push(format!("pattern `{re}`"));
        }
        text.push_str(&format!("\n\n{}.", facts.join("; ")));
        let docs = doc_attrs(&text, p.source);
        quote! { #docs pub #x: #ty, }
    });

    // new(): the required parameters; defaults fill the rest.
    let required: Vec<&Param> = e.params.iter().filter(|p| p.required).collect();
    let new_args = required.iter().map(|p| {
        let x = ident(&p.ident);
        match p.kind {
            ParamKind::String => quote!(#x: impl Into<String>),
            _ => {
                let t = base_type(p);
                quote!(#x: #t)
            }
        }
    });
    let new_fields = e.params.iter().map(|p| {
        let x = ident(&p.ident);
        if p.required {
            match p.kind {
                ParamKind::String => quote!(#x: #x.into()),
                _ => quote!(#x),
            }
        } else if let Some(d) = &p.default {
            let v = literal(d);
            quote!(#x: #v)
        } else {
            quote!(#x: None)
        }
    });
    let setters = e.params.iter().filter(|p| !p.required).map(|p| {
        let x = ident(&p.ident);
        let setter = format_ident!("with_{}", p.ident.trim_start_matches("r#"));
        let doc = format!("Sets `{}`.", p.wire);
        let (arg, value) = match (&p.kind, p.default.is_some()) {
            (ParamKind::String, true) => (quote!(impl Into<String>), quote!(value.into())),
            (ParamKind::String, false) => (quote!(impl Into<String>), quote!(Some(value.into()))),
            (_, true) => (base_type(p), quote!(value)),
            (_, false) => (base_type(p), quote!(Some(value))),
        };
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #setter(mut self, value: #arg) -> Self {
                self.#x = #value;
                self
            }
        }
    });

    // The check function over optional views of every parameter.
    let used: std::collections::BTreeSet<&str> = e
        .rules
        .iter()
        .flat_map(rule_params)
        .chain(
            e.params
                .iter()
                .filter(|p| !param_checks(e, p, api).is_empty())
                .map(|p| p.wire.as_str()),
        )
        .collect();
    let check_params = e.params.iter().map(|p| {
        let x = if used.contains(p.wire.as_str()) {
            ident(&p.ident)
        } else {
            format_ident!("_{}", p.ident.trim_start_matches("r#"))
        };
        let t = check_type(p);
        quote!(#x: #t)
    });
    let per_param = e.params.iter().map(|p| param_checks(e, p, api));
    let rules = e.rules.iter().map(|r| rule_check(e, r));
    let from_self = e.params.iter().map(check_arg_from_self);
    let from_locals = e.params.iter().map(check_arg_from_local);

    // from_raw(): parse each parameter, then the same checks.
    let reads = e.params.iter().map(|p| {
        let x = ident(&p.ident);
        let wire = &p.wire;
        let t = base_type(p);
        let (req, rep, ty, vals) = (p.rule_id(&e.id, "required"), p.rule_id(&e.id, "repeated"), p.rule_id(&e.id, "type"), p.rule_id(&e.id, "values"));
        let rules = quote!(&crate::support::ParamRules { required: #req, repeated: #rep, ty: #ty, values: #vals });
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
    // Rules about presence: a parameter that was given but did not parse counts as given,
    // so its own issue is reported and the presence rule is not.
    let presence_drops: Vec<TokenStream> = e
        .rules
        .iter()
        .filter_map(|r| {
            let given: Vec<&str> = match &r.check {
                Check::Requires { needs, .. } => vec![needs.as_str()],
                Check::AtLeastOne(names) => names.iter().map(String::as_str).collect(),
                _ => return None,
            };
            let id = &r.id;
            let any_given = if given.len() == 1 {
                quote!(#(raw.has(#given))*)
            } else {
                quote!((#(raw.has(#given))||*))
            };
            Some(quote!(i.rule == #id && #any_given))
        })
        .collect();
    let presence = (!presence_drops.is_empty()).then(|| {
        quote! {
            issues.retain(|i| !(#(#presence_drops)||*));
        }
    });
    let always: Vec<&Param> = e
        .params
        .iter()
        .filter(|p| p.required || p.default.is_some())
        .collect();
    let build_fields = e.params.iter().map(|p| {
        let x = ident(&p.ident);
        quote!(#x)
    });
    let build = if always.is_empty() {
        quote! {
            if issues.is_empty() {
                Ok(Self { #(#build_fields),* })
            } else {
                Err(ValidationError { issues })
            }
        }
    } else {
        let xs: Vec<_> = always.iter().map(|p| ident(&p.ident)).collect();
        quote! {
            match (#(#xs),*,) {
                (#(Some(#xs)),*,) if issues.is_empty() => Ok(Self { #(#build_fields),* }),
                _ => Err(ValidationError { issues }),
            }
        }
    };

    // Query serialization, documented order, path parameters excluded.
    let query_pushes = e
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Query)
        .map(|p| {
            let x = ident(&p.ident);
            let wire = &p.wire;
            if p.required || p.default.is_some() {
                quote!(query.push((#wire, crate::support::ParamValue::to_param(&self.#x)));)
            } else {
                quote! {
                    if let Some(v) = &self.#x {
                        query.push((#wire, crate::support::ParamValue::to_param(v)));
                    }
                }
            }
        });
    let path_parts = path_builder(e);
    let default_impl = required.is_empty().then(|| {
        quote! {
            #allow_deprecated
            impl Default for #name {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    });

    quote! {
        #docs
        #deprecated
        #[derive(Clone, Debug, PartialEq)]
        pub struct #name {
            #(#fields)*
        }

        #allow_deprecated
        impl #name {
            /// The parameters with every required one given and defaults for the rest.
            pub fn new(#(#new_args),*) -> Self {
                Self { #(#new_fields),* }
            }

            #(#setters)*

            /// Checks every rule of every parameter and every rule across parameters;
            /// returns all problems at once.
            pub fn validate(&self) -> Result<(), ValidationError> {
                let mut issues = Vec::new();
                Self::check(#(#from_self,)* &mut issues);
                ValidationError::check(issues)
            }

            /// Parses and validates received parameters; reports every problem at once.
            pub fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
                let mut issues = Vec::new();
                #(#reads)*
                Self::check(#(#from_locals,)* &mut issues);
                #presence
                #build
            }

            /// The query pairs, in documented order.
            #[allow(clippy::vec_init_then_push)]
            pub fn to_query(&self) -> Vec<(&'static str, String)> {
                let mut query = Vec::new();
                #(#query_pushes)*
                query
            }

            /// The path below the base path, path parameters percent-encoded.
            pub fn path(&self) -> String {
                #path_parts
            }

            #[allow(clippy::too_many_arguments)]
            fn check(#(#check_params,)* issues: &mut Vec<ValidationIssue>) {
                #(#per_param)*
                #(#rules)*
            }
        }

        #default_impl

        #allow_deprecated
        impl Request for #name {
            type Record = crate::records::#record;
            const ENDPOINT: &'static crate::api::Endpoint = &crate::api::#const_name;
            fn validate(&self) -> Result<(), ValidationError> {
                #name::validate(self)
            }
            fn to_query(&self) -> Vec<(&'static str, String)> {
                #name::to_query(self)
            }
            fn path(&self) -> String {
                #name::path(self)
            }
            fn from_raw(raw: &RawParams) -> Result<Self, ValidationError> {
                #name::from_raw(raw)
            }
        }
    }
}

fn literal_text(l: &Literal) -> String {
    match l {
        Literal::String(s) => s.clone(),
        Literal::Integer(n) => n.to_string(),
        Literal::Boolean(b) => b.to_string(),
        Literal::Variant(v) => v.wire.clone(),
    }
}

/// Code that builds the path of one request.
fn path_builder(e: &Endpoint) -> TokenStream {
    if !e.path.contains('{') {
        let path = &e.path;
        return quote!(#path.to_string());
    }
    let mut pushes = Vec::new();
    let mut literal = String::new();
    for seg in e.path.split('/').skip(1) {
        literal.push('/');
        match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => {
                let p = e.param(name).expect("placeholders are checked");
                let x = ident(&p.ident);
                pushes.push(quote!(path.push_str(#literal);));
                pushes.push(quote!(path.push_str(&crate::support::percent_encode(&crate::support::ParamValue::to_param(&self.#x)));));
                literal.clear();
            }
            None => literal.push_str(seg),
        }
    }
    if !literal.is_empty() {
        pushes.push(quote!(path.push_str(#literal);));
    }
    quote! {
        let mut path = String::new();
        #(#pushes)*
        path
    }
}

fn params_rs(api: &Api) -> TokenStream {
    let statics = api.endpoints.iter().flat_map(patterns).map(|(name, re)| {
        let name = format_ident!("{name}");
        quote! {
            static #name: std::sync::LazyLock<regex::Regex> =
                std::sync::LazyLock::new(|| regex::Regex::new(#re).expect("the generator compiled this pattern"));
        }
    });
    let types = api.endpoints.iter().map(|e| params_type(e, api));
    let sets: std::collections::BTreeSet<&str> = api
        .endpoints
        .iter()
        .flat_map(|e| &e.params)
        .filter_map(|p| match &p.kind {
            ParamKind::Enum(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let sets = sets.into_iter().map(ident);
    let uses_sets = (sets.len() > 0).then(|| quote!(use crate::value_sets::{#(#sets),*};));
    quote! {
        //! One parameter type per endpoint: required parameters by construction, defaults from
        //! the spec, `validate()` enforcing every rule, and query parsing and serialization.

        use crate::support::{RawParams, Request, ValidationError, ValidationIssue};
        #uses_sets

        #(#statics)*

        #(#types)*
    }
}
