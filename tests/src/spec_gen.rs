//! Specs produced from a small grammar, for the property test of the generator: whatever spec
//! the checker accepts must generate crates that compile without warnings.
//!
//! The grammar draws names from pools that hold what is hard for a generator: Rust keywords,
//! names the generated code uses for its own items and locals, separators and near-collisions
//! (`aB` and `a_b`), next to ordinary names; it draws every parameter kind and format, every
//! rule kind (over parameters that fit it, with or without a condition), paging, recursive
//! records and prose that markdown would read as code. One spec in three also draws from the
//! pools of what the checker must reject (prelude and reserved names, unicode, names that make
//! no identifier, path segments of other routers' syntax, ...), so both sides are exercised. A
//! seed fixes the whole spec, so a failure is reproduced from its seed alone.

use serde_json::{Map as Mapping, Value};

/// A small deterministic random source (xorshift64*); the same seed gives the same spec.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` in 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// One of the texts `items`.
    pub fn word(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

/// Parameter and field names that must compile: ordinary ones, keywords, and the names the
/// generated code uses for its own locals and methods.
const NAMES: &[&str] = &[
    "symbol",
    "start_time",
    "end_time",
    "id",
    "kind",
    "day",
    "code",
    "note",
    "type",
    "match",
    "ref",
    "fn",
    "async",
    "self",
    "crate",
    "super",
    "gen",
    "try",
    "loop",
    "raw",
    "issues",
    "query",
    "value",
    "v",
    "p_raw",
    "p_v",
    "ctx",
    "params",
    "shared",
    "request",
    "check",
    "new",
    "validate",
    "path",
    "from_raw",
    "to_query",
    "with_limit",
    "with_day",
    "day_at",
    "jiff",
    "jiff_day",
    "default",
    "x-y",
    "a.b",
    "aB",
    "a b",
];

/// Formats of text fields: every time format, and others.
const STRING_FIELD_FORMATS: &[&str] = &[
    "date",
    "timestamp",
    "timestamp_millis",
    "date_time",
    "rfc3339",
    "uuid",
    "url",
];

/// Endpoint ids that must compile, named like the generated code's own items among them.
const IDS: &[&str] = &[
    "bars",
    "points",
    "notes",
    "check",
    "new",
    "validate",
    "path",
    "router",
    "handle",
    "openapi",
    "issues",
    "query",
    "shared",
    "run",
    "mock",
    "app",
    "samples",
    "get",
    "visit_requests",
    "not_implemented",
];

/// Type names that must compile.
const TYPES: &[&str] = &[
    "Bar",
    "Node",
    "Link",
    "Point",
    "Sample",
    "Ssr",
    "PITDividend",
    "Bar2",
    "NotImplemented",
    "RequestVisitor",
];

/// Values of value sets that must compile (`1min` takes a `rust:` name).
const VALUES: &[&str] = &[
    "a", "b", "fast", "slow", "1min", "IPO Date", "all", "ALL", "x-y", "WIRE",
];

/// Literal path segments that must be accepted.
const SEGMENTS: &[&str] = &["bars", "b-c", "d.e", "f_g", "h~i", "v2"];

/// What the checker must reject, by where it is drawn.
const BAD_NAMES: &[&str] = &[
    "héllo",
    "名前",
    "1st",
    "__",
    "a_b",
    "self_",
    "r#x",
    "day_jiff",
    "new_jiff",
    "startJiff",
];
const BAD_IDS: &[&str] = &[
    "builder",
    "send",
    "stream_all",
    "base_url",
    "clone",
    "drift",
    "examples",
    "api_version",
    "history",
    "match",
    "Bars",
    "bars_stream",
    "raw",
    "fallback",
];
const BAD_TYPES: &[&str] = &[
    "Into",
    "Default",
    "Option",
    "Vec",
    "Future",
    "Request",
    "Envelope",
    "RawParams",
    "ErrorCode",
    "ÜberKind",
    "BarsParams",
    "ErrorObject",
];
const BAD_VALUES: &[&str] = &["Unknown", "ü", "", "a"];
const BAD_SEGMENTS: &[&str] = &[":id", "*rest", "x y", "ü", "{", "a%20b"];

/// Prose, some of it markdown that must not become code or a doctest.
const DOCS: &[&str] = &[
    "A plain sentence.",
    "With `code`, <html> and [a link].",
    "A fence:\n```\nassert!(false);\n```",
    "An indented block:\n\n    assert!(false);",
    "Backslash \\ and *stars* and _underscores_.",
];

/// The service, error codes and error object every generated spec shares.
const BASE: &str = r#"service:
  title: Generated Service
  doc: A service drawn from a grammar.
  api_version: "1.0"
  base_path: /api
  auth: { header: X-API-Key, doc: The key header. }
  envelope:
    doc: The envelope.
    fields:
      - { name: success, type: boolean, doc: Success flag. }
      - { name: request_id, type: string, doc: Request id. }
      - { name: data, type: records, array: true, doc: The records. }
      - { name: error, type: ErrorObject, optional: true, doc: The error. }
error_codes:
  - { code: INVALID_PARAMETER, status: 400, doc: Bad parameter. }
  - { code: UNAUTHORIZED, status: 401, doc: Bad key. }
  - { code: RESOURCE_NOT_FOUND, status: 404, doc: Nothing matches. }
  - { code: ENDPOINT_REMOVED, status: 410, doc: Removed. }
  - { code: RATE_LIMITED, status: 429, doc: Too many requests. }
  - { code: INTERNAL_ERROR, status: 500, doc: Server failure. }
  - { code: NOT_IMPLEMENTED, status: 501, doc: The server does not serve the endpoint. }
records:
  ErrorObject:
    doc: Error.
    fields:
      - { name: code, type: ErrorCode, doc: Code. }
      - { name: message, type: string, doc: Message. }
      - { name: details, type: ErrorDetail, array: true, optional: true, doc: Details. }
      - { name: hint, type: string, optional: true, doc: Hint. }
  ErrorDetail:
    doc: Detail.
    fields:
      - { name: field, type: string, doc: Field. }
      - { name: got, type: string, doc: Got. }
      - { name: reason, type: string, doc: Reason. }
"#;

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Mapping::new();
    for (k, v) in entries {
        m.insert(k.to_owned(), v);
    }
    Value::Object(m)
}

/// Draws from `good`, or (in a spec drawing hazards, one time in four) from `bad`.
struct Draw {
    rng: Rng,
    hazards: bool,
}

impl Draw {
    fn from(&mut self, good: &[&'static str], bad: &[&'static str]) -> String {
        if self.hazards && self.rng.chance(25) {
            self.rng.word(bad).to_string()
        } else {
            self.rng.word(good).to_string()
        }
    }

    /// A name not in `taken` (unless a hazard repeats one on purpose).
    fn fresh(
        &mut self,
        taken: &[String],
        good: &[&'static str],
        bad: &[&'static str],
    ) -> Option<String> {
        for _ in 0..8 {
            let name = self.from(good, bad);
            if !taken.contains(&name) || (self.hazards && self.rng.chance(10)) {
                return Some(name);
            }
        }
        None
    }
}

/// A query parameter drawn for a spec: its wire name, kind and whether it may be absent.
struct Drawn {
    name: String,
    kind: Kind,
    optional: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Seconds,
    Rfc3339,
    Integer,
    Text,
    Boolean,
    Set(usize),
}

/// One spec as source files (name, YAML text): the shared base and one generated file.
pub fn spec(seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    let hazards = rng.chance(33);
    let mut d = Draw { rng, hazards };
    let mut root = Mapping::new();

    // Value sets (with their wire values), disjoint from records by name.
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    let mut value_sets = Mapping::new();
    let mut type_names: Vec<String> = Vec::new();
    for _ in 0..d.rng.below(3) {
        let Some(set) = d.fresh(&type_names, &["Mode", "Level", "Side", "Tone"], BAD_TYPES) else {
            continue;
        };
        type_names.push(set.clone());
        let mut values: Vec<String> = Vec::new();
        let mut entries = Vec::new();
        for _ in 0..1 + d.rng.below(3) {
            let Some(value) = d.fresh(&values, VALUES, BAD_VALUES) else {
                continue;
            };
            let mut entry = vec![("value", s(&value))];
            if value.starts_with(|c: char| c.is_ascii_digit()) || d.rng.chance(10) {
                entry.push(("rust", s(&format!("V{}", values.len()))));
            }
            if d.rng.chance(30) {
                entry.push(("doc", s(d.rng.word(DOCS))));
            }
            values.push(value);
            entries.push(map(entry));
        }
        value_sets.insert(
            set.clone(),
            map(vec![
                ("doc", s(d.rng.word(DOCS))),
                ("values", Value::Array(entries)),
            ]),
        );
        sets.push((set, values));
    }

    // Records; a field may hold a record (recursion included) or a value set.
    let mut records_drawn: Vec<String> = Vec::new();
    for _ in 0..1 + d.rng.below(3) {
        let mut taken = type_names.clone();
        taken.extend(records_drawn.iter().cloned());
        if let Some(r) = d.fresh(&taken, TYPES, BAD_TYPES) {
            records_drawn.push(r);
        }
    }
    let mut records = Mapping::new();
    for record in &records_drawn {
        let mut fields = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for _ in 0..1 + d.rng.below(4) {
            let Some(field) = d.fresh(&names, NAMES, BAD_NAMES) else {
                continue;
            };
            names.push(field.clone());
            let ty = match d.rng.below(7) {
                0 => "string".to_string(),
                1 => "integer".to_string(),
                2 => "number".to_string(),
                3 => "boolean".to_string(),
                4 => "any".to_string(),
                5 => d.rng.pick(&records_drawn).clone(),
                _ if !sets.is_empty() => d.rng.pick(&sets).0.clone(),
                _ => "string".to_string(),
            };
            let mut f = vec![
                ("name", s(&field)),
                ("type", s(&ty)),
                ("doc", s(d.rng.word(DOCS))),
            ];
            // Formats, the time ones above all: each gets a typed accessor (feature `jiff`).
            if ty == "string" && d.rng.chance(60) {
                f.push(("format", s(d.rng.word(STRING_FIELD_FORMATS))));
            } else if ty == "integer" && d.rng.chance(50) {
                f.push(("format", s("unix_seconds")));
            }
            if d.rng.chance(25) {
                f.push(("array", Value::Bool(true)));
            }
            // A record holding itself must be optional or an array to have a value at all;
            // the generator boxes it either way.
            if d.rng.chance(40) || ty == *record {
                f.push(("optional", Value::Bool(true)));
            }
            fields.push(map(f));
        }
        records.insert(
            record.to_string(),
            map(vec![
                ("doc", s(d.rng.word(DOCS))),
                ("fields", Value::Array(fields)),
            ]),
        );
    }

    // Endpoints.
    let mut endpoints = Mapping::new();
    let mut ids: Vec<String> = Vec::new();
    for _ in 0..1 + d.rng.below(3) {
        let Some(id) = d.fresh(&ids, IDS, BAD_IDS) else {
            continue;
        };
        ids.push(id.clone());
        let endpoint = endpoint(&mut d, &id, &sets, &records_drawn);
        endpoints.insert(id.clone(), endpoint);
    }

    if !value_sets.is_empty() {
        root.insert("value_sets".into(), Value::Object(value_sets));
    }
    // Every endpoint says why it has no sample data (the grammar draws no records).
    let samples: Mapping<String, Value> = ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                map(vec![("none", s("Drawn by the spec grammar."))]),
            )
        })
        .collect();
    root.insert("records".into(), Value::Object(records));
    root.insert("endpoints".into(), Value::Object(endpoints));
    root.insert("samples".into(), Value::Object(samples));
    let text = mrds_spec::yaml::to_string(&Value::Object(root));
    vec![
        ("base.yaml".to_string(), BASE.to_string()),
        (format!("spec_{seed}.yaml"), text),
    ]
}

/// One endpoint: a path unique to it, parameters of every kind, rules that fit them, paging.
fn endpoint(d: &mut Draw, id: &str, sets: &[(String, Vec<String>)], records: &[String]) -> Value {
    let mut segments = vec!["/v1".to_string(), id.to_string()];
    for _ in 0..d.rng.below(2) {
        segments.push(d.from(SEGMENTS, BAD_SEGMENTS));
    }
    let mut params = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    if d.rng.chance(30)
        && let Some(p) = d.fresh(
            &taken,
            &["id", "item", "type", "self", "raw", "v"],
            BAD_NAMES,
        )
    {
        segments.push(format!("{{{p}}}"));
        taken.push(p.clone());
        let (ty, format) = match d.rng.below(3) {
            0 => ("string", Some("uuid")),
            1 => ("string", None),
            _ => ("integer", None),
        };
        let mut entry = vec![
            ("name", s(&p)),
            ("in", s("path")),
            ("type", s(ty)),
            ("required", Value::Bool(true)),
            ("doc", s("A path parameter.")),
        ];
        if let Some(f) = format {
            entry.push(("format", s(f)));
        }
        params.push(map(entry));
    }
    let mut drawn: Vec<Drawn> = Vec::new();
    for _ in 0..d.rng.below(6) {
        let Some(name) = d.fresh(&taken, NAMES, BAD_NAMES) else {
            continue;
        };
        taken.push(name.clone());
        let required = d.rng.chance(25);
        let mut entry = vec![
            ("name", s(&name)),
            ("in", s("query")),
            ("doc", s(d.rng.word(DOCS))),
        ];
        let mut defaulted = false;
        let kind = match d.rng.below(6) {
            0 => Kind::Seconds,
            1 => Kind::Rfc3339,
            2 => Kind::Integer,
            3 => Kind::Boolean,
            4 if !sets.is_empty() => Kind::Set(d.rng.below(sets.len())),
            _ => Kind::Text,
        };
        match kind {
            Kind::Seconds => entry.extend([("type", s("integer")), ("format", s("unix_seconds"))]),
            Kind::Rfc3339 => entry.extend([("type", s("string")), ("format", s("rfc3339"))]),
            Kind::Integer => {
                entry.push(("type", s("integer")));
                if d.rng.chance(50) {
                    entry.push(("min", Value::from(d.rng.below(3) as i64)));
                }
                if d.rng.chance(50) {
                    entry.push(("max", Value::from(10 + d.rng.below(100) as i64)));
                }
                if !required && d.rng.chance(40) {
                    entry.push(("default", Value::from(5)));
                    defaulted = true;
                }
            }
            Kind::Text => {
                entry.push(("type", s("string")));
                match d.rng.below(5) {
                    0 => entry.push(("format", s("uuid"))),
                    1 => entry.push(("format", s("hex16"))),
                    2 => entry.push(("format", s("date"))),
                    _ => {}
                }
                if d.rng.chance(40) {
                    entry.push((
                        "pattern",
                        s(d.rng
                            .word(&["^[a-z]+$", "^.*\\S.*$", "^\\^?[A-Za-z0-9.]{1,15}$"])),
                    ));
                }
            }
            Kind::Boolean => {
                entry.push(("type", s("boolean")));
                if !required && d.rng.chance(40) {
                    entry.push(("default", Value::Bool(false)));
                    defaulted = true;
                }
            }
            Kind::Set(i) => entry.push(("type", s(&sets[i].0))),
        }
        if required {
            entry.push(("required", Value::Bool(true)));
        }
        params.push(map(entry));
        drawn.push(Drawn {
            name,
            kind,
            optional: !required && !defaulted,
        });
    }
    let mut endpoint = vec![
        ("method", s("GET")),
        ("summary", s(d.rng.word(DOCS))),
        (
            "auth",
            s(if d.rng.chance(50) {
                "required"
            } else {
                "optional"
            }),
        ),
        ("returns", s(d.rng.pick(records).as_str())),
    ];
    if d.rng.chance(30) {
        endpoint.push(("doc", s(d.rng.word(DOCS))));
    }
    if d.rng.chance(25) && !taken.iter().any(|n| n == "limit" || n == "offset") {
        params.push(map(vec![
            ("name", s("limit")),
            ("in", s("query")),
            ("type", s("integer")),
            ("min", Value::from(1)),
            ("max", Value::from(100)),
            ("default", Value::from(10)),
            ("doc", s("Page size.")),
        ]));
        params.push(map(vec![
            ("name", s("offset")),
            ("in", s("query")),
            ("type", s("integer")),
            ("min", Value::from(0)),
            ("default", Value::from(0)),
            ("doc", s("Records to skip.")),
        ]));
        endpoint.push((
            "paging",
            map(vec![("limit", s("limit")), ("offset", s("offset"))]),
        ));
    }
    let rules = rules(d, id, &drawn, sets);
    endpoint.extend([
        ("path", s(&segments.join("/"))),
        ("params", Value::Array(params)),
        ("rules", Value::Array(rules)),
    ]);
    if d.rng.chance(10) {
        endpoint.push(("rust", s(&format!("{id}_endpoint"))));
    }
    map(endpoint)
}

/// Rules over parameters that fit each kind (any parameters, in a spec drawing hazards).
fn rules(d: &mut Draw, id: &str, drawn: &[Drawn], sets: &[(String, Vec<String>)]) -> Vec<Value> {
    let of = |f: &dyn Fn(&Drawn) -> bool| {
        drawn
            .iter()
            .filter(|p| f(p))
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    };
    let seconds = of(&|p| p.kind == Kind::Seconds);
    let rfc = of(&|p| p.kind == Kind::Rfc3339);
    let optional = of(&|p| p.optional);
    let texts = of(&|p| p.kind == Kind::Text);
    let all = of(&|_| true);
    let mut out = Vec::new();
    for i in 0..d.rng.below(4) {
        let times = if d.rng.chance(50) { &seconds } else { &rfc };
        let pair = |d: &mut Draw, from: &[String]| -> Option<(String, String)> {
            let pool = if d.hazards && d.rng.chance(25) {
                &all
            } else {
                from
            };
            if pool.len() < 2 {
                return None;
            }
            let a = d.rng.pick(pool).clone();
            let b = pool.iter().find(|n| **n != a)?.clone();
            Some((a, b))
        };
        let check = match d.rng.below(6) {
            0 => pair(d, times)
                .map(|(a, b)| ("ordered", map(vec![("before", s(&a)), ("after", s(&b))]))),
            1 => pair(d, times).map(|(a, b)| {
                (
                    "max_span",
                    map(vec![
                        ("from", s(&a)),
                        ("to", s(&b)),
                        ("seconds", Value::from(86_400)),
                    ]),
                )
            }),
            2 => pair(d, &optional)
                .map(|(a, b)| ("requires", map(vec![("param", s(&a)), ("needs", s(&b))]))),
            3 => {
                pair(d, &optional).map(|(a, b)| ("at_least_one", Value::Array(vec![s(&a), s(&b)])))
            }
            4 => (!texts.is_empty()).then(|| {
                let p = d.rng.pick(&texts).clone();
                (
                    "matches",
                    map(vec![("param", s(&p)), ("pattern", s("^[a-z]+$"))]),
                )
            }),
            _ => drawn.iter().find_map(|p| match p.kind {
                Kind::Set(i) => Some((
                    "allowed_values",
                    map(vec![
                        ("param", s(&p.name)),
                        ("values", Value::Array(vec![s(&sets[i].1[0])])),
                    ]),
                )),
                _ => None,
            }),
        };
        let Some(check) = check else { continue };
        let mut rule = vec![
            ("id", s(&format!("{id}.rule_{i}"))),
            ("doc", s(d.rng.word(DOCS))),
            check,
        ];
        if d.rng.chance(30) && !texts.is_empty() {
            let p = d.rng.pick(&texts).clone();
            rule.push((
                "when",
                map(vec![("param", s(&p)), ("matches", s("^[a-z]"))]),
            ));
        }
        out.push(map(rule));
    }
    out
}
