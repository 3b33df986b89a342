//! Every Rust name the generator uses is decided here: casing, keyword escaping, validity.

use std::collections::BTreeSet;

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

/// Rust keywords of the 2024 edition (strict and reserved), which need `r#` as identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// Variant name reserved for the catch-all of tolerant value sets.
pub const CATCH_ALL: &str = "Unknown";

/// True for a plain ASCII identifier shape (letter or `_` first, then letters, digits, `_`).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
}

/// A Rust type name for a spec name (`PITDividend` → `PitDividend`, `SSR` → `Ssr`).
pub fn type_name(spec: &str) -> Result<String, String> {
    let name = spec.to_upper_camel_case();
    if is_identifier(&name) && !KEYWORDS.contains(&name.as_str()) {
        Ok(name)
    } else {
        Err(format!(
            "`{spec}` does not make a Rust type name (it becomes `{name}`)"
        ))
    }
}

/// The suffix of the typed-time methods (`<field>_jiff()`, `with_<param>_jiff`): a field or
/// parameter name may not end in it, so those methods never collide with the others.
pub const TYPED_TIME_SUFFIX: &str = "_jiff";

/// A Rust field or method name for a wire name, escaped with `r#` when it is a keyword
/// (`type` → `r#type`, `startTime` → `start_time`).
pub fn field_name(wire: &str) -> Result<String, String> {
    let name = wire.to_snake_case();
    if !is_identifier(&name) {
        return Err(format!(
            "`{wire}` does not make a Rust field name (it becomes `{name}`)"
        ));
    }
    if name.ends_with(TYPED_TIME_SUFFIX) {
        let what = if name == wire {
            format!("`{wire}` ends")
        } else {
            format!("`{wire}` becomes `{name}`, which ends")
        };
        return Err(format!(
            "{what} in `{TYPED_TIME_SUFFIX}`, reserved for the typed-time methods of the generated crates (feature `jiff`); rename it"
        ));
    }
    if NOT_RAW.contains(&name.as_str()) {
        return Ok(format!("{name}_"));
    }
    if KEYWORDS.contains(&name.as_str()) {
        return Ok(format!("r#{name}"));
    }
    Ok(name)
}

/// A field name from [`field_name`] without its escape (`type` for `r#type`, `self` for
/// `self_`), for the names derived from it (`with_type`, `self_jiff`).
pub fn bare(ident: &str) -> &str {
    let ident = ident.trim_start_matches("r#");
    match ident.strip_suffix('_') {
        Some(name) if NOT_RAW.contains(&name) => name,
        _ => ident,
    }
}

/// A Rust variant name for a wire value (`IPO Date` → `IpoDate`), or the explicit `rust:`
/// name when the spec gives one.
pub fn variant_name(wire: &str, explicit: Option<&str>) -> Result<String, String> {
    if let Some(name) = explicit {
        return if is_identifier(name)
            && !KEYWORDS.contains(&name)
            && name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        {
            Ok(name.to_owned())
        } else {
            Err(format!(
                "`{name}` is not a Rust variant name (an identifier starting with an uppercase letter)"
            ))
        };
    }
    let name = wire.to_upper_camel_case();
    if is_identifier(&name) && !KEYWORDS.contains(&name.as_str()) {
        Ok(name)
    } else {
        Err(format!(
            "value `{wire}` does not make a Rust variant name (it becomes `{name}`)"
        ))
    }
}

/// A Rust variant name for a wire value that does not make one itself (`2h`: `V2h`; its
/// words capitalized, a `V` before a leading digit, a number after a name `taken`): the `rust:`
/// name the drift report's edits and drafts give such a value.
pub fn free_variant_name(wire: &str, taken: &BTreeSet<String>) -> String {
    let words: String = wire
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    let base = if words.starts_with(|c: char| c.is_ascii_alphabetic()) {
        words
    } else {
        format!("V{words}")
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) || variant_name("x", Some(&name)).is_err() {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// The Rust names of one endpoint, decided once (by [`endpoint_names`]) and kept in the model
/// (`Endpoint::names`).
#[derive(Clone, Debug)]
pub struct EndpointNames {
    /// Method of the server trait and the client (`stock_dividends`).
    pub method: String,
    /// The parameter type (`StockDividendsParams`).
    pub params_type: String,
    /// Its constant in the endpoint table, and its sample table (`STOCK_DIVIDENDS`).
    pub constant: String,
    /// The client's paging stream (`person_commentary_stream`), for offset-paged endpoints.
    pub stream: String,
}

/// The Rust names of an endpoint: from its id, or from its `rust:` name when given.
pub fn endpoint_names(id: &str, rust: Option<&str>) -> Result<EndpointNames, String> {
    let method = rust.unwrap_or(id);
    if !is_operation_id(method) {
        return Err(match rust {
            Some(name) => format!("`rust: {name}` is not a snake_case Rust identifier"),
            None => format!("endpoint id `{id}` is not a snake_case Rust identifier"),
        });
    }
    Ok(EndpointNames {
        method: method.to_string(),
        params_type: params_type(method),
        constant: const_name(method),
        stream: format!("{method}_stream"),
    })
}

/// Name of an endpoint's parameter type (`stock_dividends` → `StockDividendsParams`).
pub fn params_type(endpoint: &str) -> String {
    format!("{}Params", endpoint.to_upper_camel_case())
}

/// The suffix of the init structs the model crate defines beside records and parameter types
/// with more required values than a function takes (`TreasuryRateInit`). The checker refuses
/// spec type names ending in it, so an init struct never meets a type of the spec.
pub const INIT_SUFFIX: &str = "Init";

/// The init struct of the record or parameter type `name`.
pub fn init_type(name: &str) -> String {
    format!("{name}{INIT_SUFFIX}")
}

/// The struct in which the parameter type `params_type` hands its checked values to its check
/// function when they are too many to pass one by one (the checker reserves the name).
pub fn checks_type(params_type: &str) -> String {
    format!("{params_type}Checks")
}

/// Name of an endpoint's constant (`stock_dividends` → `STOCK_DIVIDENDS`).
pub fn const_name(endpoint: &str) -> String {
    endpoint.to_shouty_snake_case()
}

/// True when `id` is already a snake_case identifier usable as a method name.
pub fn is_operation_id(id: &str) -> bool {
    is_identifier(id) && id.to_snake_case() == id && !KEYWORDS.contains(&id)
}

/// Type names the generated model crate defines itself.
pub(crate) const RESERVED_TYPES: &[&str] = &[
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
];

/// The standard prelude (Rust 2024): the generated code uses these names unqualified, and a type
/// of the spec by that name would shadow them in the module that defines it.
pub(crate) const PRELUDE: &[&str] = &[
    "AsMut",
    "AsRef",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Box",
    "Clone",
    "Copy",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Methods the generated client defines besides one per endpoint.
pub(crate) const CLIENT_METHODS: &[&str] = &[
    "base_url",
    "builder",
    "clone",
    "drift",
    "retry_policy",
    "send",
    "send_with_body",
    "stream_all",
    "url_for",
];

/// Methods the generated server trait defines besides one per endpoint.
pub(crate) const SERVER_METHODS: &[&str] = &["fallback"];

/// Constants the generated crates define beside the endpoints' (the model's `api` module, the
/// sample server's `samples` module).
pub(crate) const CONSTANTS: &[&str] = &[
    "API_VERSION",
    "AUTH_HEADER",
    "BASE_PATH",
    "ENDPOINTS",
    "EXAMPLES",
    "HISTORY",
    "PROTOCOL",
];

/// Whether the Rust type name `name` is the generator's own or the prelude's: a spec name
/// becoming it is refused (a tool choosing names avoids it).
pub fn reserved_type(name: &str) -> bool {
    RESERVED_TYPES.contains(&name) || PRELUDE.contains(&name)
}

/// Whether the Rust method name `name` is one the generated client or server defines besides
/// one per endpoint: an endpoint id becoming it is refused.
pub fn reserved_method(name: &str) -> bool {
    CLIENT_METHODS.contains(&name) || SERVER_METHODS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_a_variant_name_gets_a_free_one() {
        let none = BTreeSet::new();
        assert_eq!(free_variant_name("2h", &none), "V2h");
        assert_eq!(free_variant_name("MLC 64Gb", &none), "MLC64Gb");
        assert_eq!(free_variant_name("self", &none), "Self2");
        let taken = BTreeSet::from(["V2h".to_string()]);
        assert_eq!(free_variant_name("2h", &taken), "V2h2");
    }

    #[test]
    fn names() {
        assert_eq!(type_name("PITDividend").unwrap(), "PitDividend");
        assert_eq!(type_name("SSR").unwrap(), "Ssr");
        assert_eq!(type_name("IndexBar1Min").unwrap(), "IndexBar1Min");
        assert!(type_name("1Bad").is_err());
        assert_eq!(field_name("type").unwrap(), "r#type");
        assert_eq!(field_name("yield").unwrap(), "r#yield");
        assert_eq!(bare(&field_name("type").unwrap()), "type");
        assert_eq!(bare(&field_name("self").unwrap()), "self");
        assert_eq!(bare(&field_name("start_time").unwrap()), "start_time");
        assert_eq!(field_name("self").unwrap(), "self_");
        assert_eq!(field_name("startTime").unwrap(), "start_time");
        assert!(field_name("1st").is_err());
        assert!(field_name("start_jiff").is_err());
        assert!(field_name("startJiff").is_err());
        assert_eq!(field_name("jiff").unwrap(), "jiff");
        assert_eq!(variant_name("IPO Date", None).unwrap(), "IpoDate");
        assert_eq!(
            variant_name("MLC 128Gb 16GBx8", None).unwrap(),
            "Mlc128gb16gBx8"
        );
        assert!(variant_name("1min", None).is_err());
        assert_eq!(
            variant_name("1min", Some("OneMinute")).unwrap(),
            "OneMinute"
        );
        assert!(variant_name("x", Some("lower")).is_err());
        assert_eq!(params_type("stock_dividends"), "StockDividendsParams");
        assert_eq!(const_name("index_1min"), "INDEX_1MIN");
        assert!(is_operation_id("index_1min"));
        assert!(!is_operation_id("Index"));
    }
}
