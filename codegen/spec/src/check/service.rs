//! The service section, the error codes, and the shapes the runtime relies on: the envelope
//! and the error object are written and read by `mrds-runtime`, so the spec must declare the
//! fields it uses, with their types.

use std::collections::{BTreeMap, BTreeSet};

use super::{Cx, Def, TypeNames};
use crate::ast::{self, Spanned};
use crate::diag::{Diagnostic, Span};
use crate::model::{Envelope, ErrorCode, ErrorShapes, Field, Provenance, Record, TypeRef};
use crate::naming;

/// How a field the runtime uses must be declared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `boolean`, present.
    Boolean,
    /// `string`, present.
    Text,
    /// `string`, optional.
    OptionalText,
    /// `ErrorCode`, present.
    Code,
    /// The endpoint's records, an array.
    Records,
    /// The error object record, optional.
    ErrorObject,
    /// An array of records with `field`, `got` and `reason`.
    Details,
}

impl Shape {
    fn text(self) -> &'static str {
        match self {
            Shape::Boolean => "`type: boolean`",
            Shape::Text => "`type: string`",
            Shape::OptionalText => "`type: string` and `optional: true`",
            Shape::Code => "`type: ErrorCode`",
            Shape::Records => "`type: records` and `array: true`",
            Shape::ErrorObject => "the error object record and `optional: true`",
            Shape::Details => "a record with `field`, `got` and `reason`, and `array: true`",
        }
    }

    fn fits(self, f: &Field, records: &[Record]) -> bool {
        match self {
            Shape::Boolean => f.ty == TypeRef::Boolean && !f.array && !f.optional,
            Shape::Text => f.ty == TypeRef::String && !f.array && !f.optional,
            Shape::OptionalText => f.ty == TypeRef::String && !f.array && f.optional,
            Shape::Code => f.ty == TypeRef::ErrorCode && !f.array && !f.optional,
            Shape::Records => f.ty == TypeRef::Records && f.array,
            Shape::ErrorObject => matches!(f.ty, TypeRef::Record(_)) && !f.array && f.optional,
            Shape::Details => {
                f.array
                    && matches!(f.ty, TypeRef::Record(id) if {
                        let r = &records[id.index()];
                        DETAIL.iter().all(|(w, s)| r.fields.iter().any(|x| x.wire == *w && s.fits(x, records)))
                    })
            }
        }
    }
}

/// The envelope fields the runtime writes and reads.
const ENVELOPE: &[(&str, Shape)] = &[
    ("success", Shape::Boolean),
    ("request_id", Shape::Text),
    ("data", Shape::Records),
    ("error", Shape::ErrorObject),
];

/// The error object fields the runtime writes and reads.
const ERROR_OBJECT: &[(&str, Shape)] = &[
    ("code", Shape::Code),
    ("message", Shape::Text),
    ("details", Shape::Details),
    ("hint", Shape::OptionalText),
];

/// The fields of a `details` entry the runtime writes.
const DETAIL: &[(&str, Shape)] = &[
    ("field", Shape::Text),
    ("got", Shape::Text),
    ("reason", Shape::Text),
];

impl<'a> Cx<'a> {
    /// The `service` section of the one file holding it.
    pub(super) fn service_section(&mut self) -> Option<&'a Spanned<ast::Service>> {
        let mut services = self.files.iter().filter_map(|f| f.ast.service.as_ref());
        let service = services.next();
        for again in services {
            let first = service.map(|s| self.loc(s.key_at()));
            let d = self.err(again.key_at(), "the `service` section is given twice");
            if let Some(first) = first {
                Self::hint(d, format!("the first one is at {first}"));
            }
        }
        if service.is_none() {
            self.errors.push(
                Diagnostic::global("no spec file has a `service` section").with_hint(
                    "add `service:` with title, doc, api_version, base_path, auth and envelope",
                ),
            );
        }
        service
    }

    pub(super) fn service_ok(&mut self, s: &ast::Service) -> bool {
        let before = self.errors.len();
        if !s.base_path.starts_with('/')
            || s.base_path.ends_with('/')
            || s.base_path.contains(['?', '#', '{'])
        {
            let d = self.err(s.base_path.at(), format!("base path `{}` must start with `/`, not end with `/`, and hold no `?`, `#` or `{{`", s.base_path));
            Self::hint(d, "for example `/api`");
        }
        if !is_header_name(&s.auth.header) {
            self.err(
                s.auth.header.at(),
                format!("`{}` is not a valid HTTP header name", s.auth.header),
            );
        }
        self.errors.len() == before
    }

    /// The envelope's fields; the runtime writes and reads `success`, `request_id`, `data`
    /// and `error`, and never sets any other field.
    pub(super) fn envelope(&mut self, s: &ast::Service, types: &TypeNames<'_>) -> Envelope {
        let declared = &s.envelope.fields;
        let fields = self.fields(declared, types, super::types::Owner::Envelope);
        let n = fields.iter().filter(|f| f.ty == TypeRef::Records).count();
        if n != 1 {
            self.err(
                declared.at(),
                format!("the envelope needs exactly one field of type `records` (the endpoint's records); it has {n}"),
            );
        }
        // A missing or repeated records field is reported just above.
        let need: Vec<(&str, Shape)> = ENVELOPE
            .iter()
            .copied()
            .filter(|(_, shape)| n == 1 || *shape != Shape::Records)
            .collect();
        let subject = Subject {
            what: "the envelope",
            declared,
            fields: &fields,
        };
        self.shape(&subject, &need, &[]);
        Envelope {
            doc: s.envelope.doc.clone(),
            fields,
        }
    }

    /// The error object (the record of the envelope's `error`) and its `details` entries
    /// have the fields the runtime writes and reads.
    pub(super) fn protocol_shapes(
        &mut self,
        defs: &BTreeMap<&'a str, Def<'a, ast::Record>>,
        records: &[Record],
        envelope: &Envelope,
    ) -> Option<ErrorShapes> {
        // Not a record: reported with the envelope.
        let object = record_of(records, &envelope.fields, "error")?;
        let def = defs.get(object.spec_name.as_str())?;
        let what = format!("the error object `{}`", object.spec_name);
        let subject = Subject {
            what: &what,
            declared: &def.fields,
            fields: &object.fields,
        };
        let before = self.errors.len();
        self.shape(&subject, ERROR_OBJECT, records);
        let detail = record_of(records, &object.fields, "details")?;
        let ddef = defs.get(detail.spec_name.as_str())?;
        let what = format!("the error detail `{}`", detail.spec_name);
        let subject = Subject {
            what: &what,
            declared: &ddef.fields,
            fields: &detail.fields,
        };
        self.shape(&subject, DETAIL, records);
        (self.errors.len() == before).then_some(ErrorShapes {
            object: object.id,
            detail: detail.id,
        })
    }

    /// Reports every field of `need` that the subject lacks or declares otherwise, and every
    /// other field that is neither optional nor an array (the runtime cannot fill it).
    fn shape(&mut self, subject: &Subject<'_>, need: &[(&str, Shape)], records: &[Record]) {
        let Subject {
            what,
            declared,
            fields,
        } = subject;
        for (wire, shape) in need {
            match declared.iter().find(|f| f.name == *wire) {
                None => {
                    let d = self.err(
                        declared.key_at(),
                        format!(
                            "{what} lacks the field `{wire}`, which the runtime writes and reads"
                        ),
                    );
                    Self::hint(
                        d,
                        format!("add `{{ name: {wire}, ... }}` with {}", shape.text()),
                    );
                }
                Some(declared_field) => {
                    if let Some(f) = fields.iter().find(|f| f.wire == *wire)
                        && !shape.fits(f, records)
                    {
                        let d = self.err(
                            declared_field.at(),
                            format!(
                                "field `{wire}` of {what} must be declared with {}",
                                shape.text()
                            ),
                        );
                        Self::hint(
                            d,
                            "the runtime writes and reads this field as declared there",
                        );
                    }
                }
            }
        }
        for f in declared.iter() {
            if !f.optional && !f.array && !need.iter().any(|(w, _)| f.name == *w) {
                let d = self.err(
                    f.at(),
                    format!("field `{}` of {what} must be `optional: true`", f.name),
                );
                Self::hint(
                    d,
                    "the runtime builds this shape without it; make it optional or an array",
                );
            }
        }
    }

    pub(super) fn error_codes(&mut self) -> Vec<ErrorCode> {
        let mut out: Vec<ErrorCode> = Vec::new();
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        // Codes marked `default: true`: status, code, where.
        let mut defaults: Vec<(u16, String, Span)> = Vec::new();
        for file in self.files {
            for e in file.ast.error_codes.iter().flat_map(|c| c.iter()) {
                if !(400..=599).contains(&*e.status) {
                    let d = self.err(
                        e.status.at(),
                        format!(
                            "error code `{}` has HTTP status {}, outside 400..=599",
                            e.code, e.status
                        ),
                    );
                    Self::hint(
                        d,
                        "error codes answer with a client (4xx) or server (5xx) status",
                    );
                }
                let variant = match naming::variant_name(&e.code, None) {
                    Ok(v) => v,
                    Err(msg) => {
                        self.err(e.code.at(), msg);
                        continue;
                    }
                };
                if variant == naming::CATCH_ALL {
                    self.err(e.code.at(), format!("error code `{}` takes the name `{}`, reserved for codes the spec does not know", e.code, naming::CATCH_ALL));
                    continue;
                }
                if let Some(other) = seen.get(&variant) {
                    let msg = if *other == e.code {
                        format!("error code `{}` is listed twice", e.code)
                    } else {
                        format!(
                            "error codes `{other}` and `{}` both become the Rust name `{variant}`",
                            e.code
                        )
                    };
                    self.err(e.code.at(), msg);
                    continue;
                }
                seen.insert(variant.clone(), e.code.to_string());
                let marked = e.default.as_ref().filter(|d| ***d);
                if let Some(d) = marked {
                    defaults.push((*e.status, e.code.to_string(), d.at()));
                }
                out.push(ErrorCode {
                    at: self.loc(e.at()),
                    code: e.code.to_string(),
                    variant,
                    status: *e.status,
                    answers_status: marked.is_some(),
                    doc: e.doc.clone(),
                    provenance: Provenance::from_reason(e.assumed.as_ref()),
                });
            }
        }
        self.status_answers(&mut out, &defaults);
        if self.purpose == super::Purpose::Generate
            && self.files.iter().any(|f| f.ast.service.is_some())
        {
            let bodies =
                (self.files.iter()).any(|f| f.ast.endpoints.values().any(|e| e.body.is_some()));
            let missing: Vec<&str> = mrds_runtime::ErrorKind::ALL
                .iter()
                .filter(|k| bodies || !k.bodies_only())
                .map(|k| k.code())
                .filter(|code| !out.iter().any(|e| e.code == *code))
                .collect();
            if !missing.is_empty() {
                let list = missing.join(", ");
                let at = self
                    .files
                    .iter()
                    .find_map(|f| f.ast.error_codes.as_ref().filter(|c| !c.is_empty()))
                    .map(|c| self.loc(c.key_at()));
                let message =
                    format!("the error codes lack {list}, which the generated server answers with");
                let d = match at {
                    Some(at) => Diagnostic::at(at, message),
                    None => Diagnostic::global(message),
                };
                self.errors.push(d.with_hint(format!(
                    "add `error_codes:` entries for {list} with their HTTP status"
                )));
            }
        }
        // The codes of every file together, by status, the one answering a status first:
        // never by the order files are read.
        out.sort_by(|a, b| {
            (a.status, !a.answers_status, &a.code).cmp(&(b.status, !b.answers_status, &b.code))
        });
        out
    }

    /// Decides the code each status answers with: the one marked `default: true` (two of one
    /// status are refused, naming both), else the first declared (by file name, then line).
    fn status_answers(&mut self, codes: &mut [ErrorCode], defaults: &[(u16, String, Span)]) {
        for (i, (status, code, at)) in defaults.iter().enumerate() {
            if let Some((_, first, first_at)) = defaults[..i].iter().find(|d| d.0 == *status) {
                let first_at = self.loc(*first_at);
                let d = self.err(
                    *at,
                    format!(
                        "error codes `{first}` ({first_at}) and `{code}` both say `default: true` for HTTP {status}"
                    ),
                );
                Self::hint(
                    d,
                    "one code answers a status: keep `default: true` on one of them",
                );
            }
        }
        let statuses: BTreeSet<u16> = codes.iter().map(|c| c.status).collect();
        for status in statuses {
            if codes.iter().any(|c| c.status == status && c.answers_status) {
                continue;
            }
            let first = (codes.iter_mut())
                .filter(|c| c.status == status)
                .min_by(|a, b| (&a.at.file, a.at.line).cmp(&(&b.at.file, b.at.line)));
            if let Some(c) = first {
                c.answers_status = true;
            }
        }
    }
}

/// The record a field of `fields` named `wire` holds, if it holds one.
fn record_of<'r>(records: &'r [Record], fields: &[Field], wire: &str) -> Option<&'r Record> {
    match fields.iter().find(|f| f.wire == wire)?.ty {
        TypeRef::Record(id) => records.get(id.index()),
        _ => None,
    }
}

/// What a shape is checked on: `what` (`the envelope`), its fields as declared and as
/// resolved.
struct Subject<'s> {
    what: &'s str,
    declared: &'s Spanned<Vec<Spanned<ast::Field>>>,
    fields: &'s [Field],
}

/// A header name: letters, digits, `-` and `_`.
fn is_header_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}
