//! Endpoints: their paths, parameters, body, paging and ordering, and the inputs of their
//! requests.

use std::fmt;

use super::{
    AuthMode, BODY, FieldId, ListForm, Literal, Location, Method, Operand, ParamId, ParamLocation,
    Provenance, Record, RecordId, Rule, Samples, TimeFormat, ValueCheck, ValueType,
};
use crate::naming::EndpointNames;

/// An endpoint.
#[derive(Clone, Debug)]
pub struct Endpoint {
    /// Where the spec defines it.
    pub at: Location,
    /// Operation id (snake case).
    pub id: String,
    /// Every Rust name the emitters give this endpoint.
    pub names: EndpointNames,
    /// HTTP method.
    pub method: Method,
    /// Path below the base path.
    pub path: PathTemplate,
    /// One line.
    pub summary: String,
    /// More explanation.
    pub doc: Option<String>,
    /// Documented ordering of records.
    pub ordering: Option<String>,
    /// Key requirement.
    pub auth: AuthMode,
    /// Provenance of the key requirement.
    pub auth_provenance: Provenance,
    /// The record in `data`.
    pub returns: RecordId,
    /// The request body (a `POST`).
    pub body: Option<Body>,
    /// Sending the request twice has the effect of sending it once (every `GET`; a `POST`
    /// the spec marks so): a client may repeat it.
    pub idempotent: bool,
    /// Provenance.
    pub provenance: Provenance,
    /// Parameters in documented order.
    pub params: Vec<Param>,
    /// Rules across the request's inputs (parameters and body fields), in the spec's order.
    pub rules: Vec<Rule>,
    /// The parameters that cap and page the records.
    pub paging: Option<Paging>,
    /// The documented ordering, machine-readable.
    pub order: Option<Order>,
    /// The parameter naming the one thing asked for; a value naming nothing answers 404.
    pub lookup: Option<ParamId>,
    /// Removal, when the change history lists one.
    pub removed: Option<Removal>,
    /// Sample data of the sample-data server.
    pub samples: Option<Samples>,
}

impl Endpoint {
    /// The parameter `id`.
    pub fn param(&self, id: ParamId) -> &Param {
        &self.params[id.index()]
    }

    /// The parameter whose wire name is `name`: for tools and tests (and the wire: a request's
    /// parameters come by name), never for a reference.
    pub fn param_named(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.wire == name)
    }

    /// The id of one of a parameter's own checks (`stock_dividends.limit.range`).
    pub fn param_rule(&self, param: &Param, check: ValueCheck) -> String {
        self.value_rule(&param.wire, check)
    }

    /// The id of one of an input's own checks: `<endpoint>.<input>.<check>`, the input named
    /// as its issues name it (`social_handles.body.handle.pattern`).
    pub fn value_rule(&self, input: &str, check: ValueCheck) -> String {
        format!("{}.{input}.{}", self.id, check.as_str())
    }

    /// The id of the rule a body of the wrong shape breaks (not JSON, a required field
    /// missing, a field of another type): `<endpoint>.body`.
    pub fn body_rule(&self) -> String {
        format!("{}.{BODY}", self.id)
    }

    /// True when the endpoint pages with both a page size and an offset.
    pub fn offset_paged(&self) -> bool {
        self.paging.as_ref().is_some_and(|p| p.offset.is_some())
    }
}

/// The JSON body of a request.
#[derive(Clone, Debug)]
pub struct Body {
    /// Where the spec names it.
    pub at: Location,
    /// The record it holds; its fields carry their checks ([`Field::checks`]).
    pub record: RecordId,
}

/// A path below the base path: literal segments and `{name}` placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathTemplate {
    /// The segments, in order.
    pub segments: Vec<Segment>,
}

/// One segment of a path. Two are equal when they read the same (a placeholder by its name),
/// whatever their models number the parameter: so paths of two versions compare.
#[derive(Clone, Debug, Eq)]
pub enum Segment {
    /// Fixed text.
    Literal(String),
    /// A path parameter.
    Param {
        /// The parameter.
        param: ParamId,
        /// Its name, as the template writes it.
        name: String,
    },
}

impl PartialEq for Segment {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Segment::Literal(a), Segment::Literal(b)) => a == b,
            (Segment::Param { name: a, .. }, Segment::Param { name: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl PathTemplate {
    /// The path parameters, in order.
    pub fn params(&self) -> impl Iterator<Item = ParamId> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Param { param, .. } => Some(*param),
            Segment::Literal(_) => None,
        })
    }

    /// True when the path has no placeholder.
    pub fn is_fixed(&self) -> bool {
        self.params().next().is_none()
    }

    /// The first literal segment after the version (`stocks` of `/v1/stocks/dividends`),
    /// used to group endpoints.
    pub fn group(&self) -> Option<&str> {
        match self.segments.get(1) {
            Some(Segment::Literal(s)) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for PathTemplate {
    /// `/v1/persons/{person_id}/commentary`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.segments {
            match s {
                Segment::Literal(l) => write!(f, "/{l}")?,
                Segment::Param { name, .. } => write!(f, "/{{{name}}}")?,
            }
        }
        Ok(())
    }
}

/// When an endpoint was removed.
#[derive(Clone, Debug)]
pub struct Removal {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Release tag.
    pub version: String,
}

/// How an endpoint's records are ordered.
#[derive(Clone, Debug)]
pub struct Order {
    /// Where the spec defines it.
    pub at: Location,
    /// The field of the returned record ordered by.
    pub field: FieldId,
    /// Largest first, unless `direction` says otherwise.
    pub descending: bool,
    /// A parameter (`asc`/`desc`) choosing the direction.
    pub direction: Option<ParamId>,
}

/// The parameters that cap and page an endpoint's records.
#[derive(Clone, Debug)]
pub struct Paging {
    /// Where the spec defines it.
    pub at: Location,
    /// The integer parameter capping the number of records.
    pub limit: ParamId,
    /// The integer parameter giving how many records to skip.
    pub offset: Option<ParamId>,
}

/// A request parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its id.
    pub id: ParamId,
    /// Where the spec defines it.
    pub at: Location,
    /// Wire name.
    pub wire: String,
    /// Rust field name (raw identifier text such as `r#type` where needed).
    pub ident: String,
    /// Where it travels.
    pub location: ParamLocation,
    /// Value type and its constraints (of each item, for a list).
    pub ty: ValueType,
    /// A list: how it travels and how many items it takes.
    pub list: Option<ListForm>,
    /// Required on every request (a list: with at least one item).
    pub required: bool,
    /// Value used when absent.
    pub default: Option<Literal>,
    /// Explanation.
    pub doc: String,
    /// Provenance.
    pub provenance: Provenance,
}

impl Param {
    /// True when the parameter always has a value (required, or defaulted).
    pub fn always(&self) -> bool {
        self.required || self.default.is_some()
    }

    /// The identifier without its escape (`type` for `r#type`, `self` for `self_`), for
    /// derived names.
    pub fn bare_ident(&self) -> &str {
        crate::naming::bare(&self.ident)
    }

    /// True when the value is a point in time (Unix seconds or RFC 3339 text).
    pub fn is_instant(&self) -> bool {
        self.time_format().is_some()
    }

    /// The time format, when the value is a point in time.
    pub fn time_format(&self) -> Option<TimeFormat> {
        self.ty.time_format()
    }
}

/// The name a field of the body goes by in issues and rule ids: `body.<field>`.
pub fn body_field_name(wire: &str) -> String {
    format!("{BODY}.{wire}")
}

/// Where an input of a request travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// The query string.
    Query,
    /// A `{name}` segment of the path.
    Path,
    /// A field of the JSON body.
    Body,
}

/// One value of a request that checks read, resolved from its [`Operand`]: a parameter, or a
/// field of the body that has checks. What every back end asks of an operand, whichever it
/// is.
#[derive(Clone, Copy, Debug)]
pub struct Input<'m> {
    /// What it is.
    pub operand: Operand,
    /// Where the spec defines it.
    pub at: &'m Location,
    /// Its own wire name (a parameter's, or the field's within the body).
    pub wire: &'m str,
    /// Its Rust field name (raw identifier text such as `r#type` where needed).
    pub ident: &'m str,
    /// Where it travels.
    pub place: Place,
    /// Its type and constraints (of each item, for a list).
    pub ty: &'m ValueType,
    /// A list parameter's form.
    pub list: Option<&'m ListForm>,
    /// A parameter required on every request; a body field that is not optional.
    pub required: bool,
    /// The value a parameter takes when absent.
    pub default: Option<&'m Literal>,
    /// Explanation.
    pub doc: &'m str,
}

impl Input<'_> {
    /// The name its issues give it: a parameter's wire name (`limit`), a body field's
    /// prefixed (`body.handle`).
    pub fn name(&self) -> String {
        match self.place {
            Place::Query | Place::Path => self.wire.to_owned(),
            Place::Body => body_field_name(self.wire),
        }
    }

    /// True when it always has a value (required, or defaulted).
    pub fn always(&self) -> bool {
        self.required || self.default.is_some()
    }

    /// The identifier without its escape, for derived names.
    pub fn bare_ident(&self) -> &str {
        crate::naming::bare(self.ident)
    }

    /// The time format, when the value is a point in time.
    pub fn time_format(&self) -> Option<TimeFormat> {
        self.ty.time_format()
    }
}

/// The inputs of one endpoint's requests: its parameters and the fields of its body record
/// (`body`) that have checks. Resolves an [`Operand`] to what it stands for.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'m> {
    /// The endpoint's parameters.
    pub params: &'m [Param],
    /// The record of its body.
    pub body: Option<&'m Record>,
}

impl<'m> Inputs<'m> {
    /// The input `op` stands for; `None` for a field without checks (which no rule reads), or
    /// an operand of another endpoint.
    pub fn get(&self, op: Operand) -> Option<Input<'m>> {
        match op {
            Operand::Param(id) => {
                let p = self.params.get(id.index())?;
                Some(Input {
                    operand: op,
                    at: &p.at,
                    wire: &p.wire,
                    ident: &p.ident,
                    place: match p.location {
                        ParamLocation::Query => Place::Query,
                        ParamLocation::Path => Place::Path,
                    },
                    ty: &p.ty,
                    list: p.list.as_ref(),
                    required: p.required,
                    default: p.default.as_ref(),
                    doc: &p.doc,
                })
            }
            Operand::Field(id) => {
                let f = self.body?.field(id);
                Some(Input {
                    operand: op,
                    at: &f.at,
                    wire: &f.wire,
                    ident: &f.ident,
                    place: Place::Body,
                    ty: f.checks.as_ref()?,
                    list: None,
                    required: !f.optional,
                    default: None,
                    doc: &f.doc,
                })
            }
        }
    }

    /// Every input: the parameters in documented order, then the body's fields with checks
    /// in wire order.
    pub fn all(self) -> impl Iterator<Item = Input<'m>> {
        let params = self.params.iter().map(|p| Operand::Param(p.id));
        let fields = self
            .body
            .into_iter()
            .flat_map(|r| (0..r.fields.len()).map(|i| Operand::Field(FieldId::new(i))));
        params.chain(fields).filter_map(move |op| self.get(op))
    }

    /// The input whose name (as [`Input::name`] gives it) is `name`: for tools and tests.
    pub fn named(&self, name: &str) -> Option<Input<'m>> {
        self.all().find(|i| i.name() == name)
    }
}
