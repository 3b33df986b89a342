//! [`Finding`]: one thing an answer held that the spec does not describe, as the client (or a
//! proxy) reports it, and its JSON-lines form.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::evidence::Evidence;
use super::json::{JsonKind, MAX_EXAMPLES};
use super::traffic::Traffic;

/// Who saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Source {
    /// A generated client decoding the service's answers.
    Client,
    /// A proxy between clients and the service, seeing requests and answers.
    Proxy,
    /// Traffic another tool recorded (a HAR file of a browser's developer tools or a
    /// proxy), read by `cargo xtask drift`.
    Recorded,
    /// `cargo xtask watch`: the contract suite's valid requests and the examples, sent to the
    /// service and checked as the proxy checks what it forwards.
    Watch,
    /// A source this version does not know.
    #[serde(other)]
    Other,
}

/// What was observed, and of what. Names are the spec's: a record's name in the spec
/// (`PITDividend`; `envelope` for the envelope's own fields), a field's wire name, a value
/// set's name (`ErrorCode` for the error codes), a rule's id.
///
/// In JSON its variant is the `kind` member, its fields members beside it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind")]
#[non_exhaustive]
pub enum Observed {
    /// A field the record does not declare (`field.undeclared`).
    #[serde(rename = "field.undeclared")]
    UndeclaredField {
        /// The record.
        record: String,
        /// The field's wire name.
        field: String,
    },
    /// A field of the envelope the spec's envelope does not have (`envelope.undeclared`).
    #[serde(rename = "envelope.undeclared")]
    UndeclaredEnvelopeField {
        /// The field's wire name.
        field: String,
    },
    /// A value outside the field's value set (`value.unknown`); the examples are the values.
    #[serde(rename = "value.unknown")]
    UnknownValue {
        /// The record.
        record: String,
        /// The field.
        field: String,
        /// The value set.
        value_set: String,
    },
    /// A field the spec calls required arriving `null` (`field.null`).
    #[serde(rename = "field.null")]
    RequiredNull {
        /// The record.
        record: String,
        /// The field.
        field: String,
    },
    /// A field the spec calls required missing (`field.missing`).
    #[serde(rename = "field.missing")]
    RequiredMissing {
        /// The record.
        record: String,
        /// The field.
        field: String,
    },
    /// A value of another JSON type than the field's (`field.type`): a number arriving as a
    /// string, say.
    #[serde(rename = "field.type")]
    WrongType {
        /// The record.
        record: String,
        /// The field.
        field: String,
        /// What the spec's type reads.
        expected: JsonKind,
        /// What arrived.
        got: JsonKind,
    },
    /// A rule of the spec refuses requests the service accepts (`rule.stricter`): the
    /// examples are such requests (method, path and query). Reported by a proxy, which sees
    /// both the spec's judgement and the service's answer.
    #[serde(rename = "rule.stricter")]
    RuleStricter {
        /// The rule id (`etf_flow.range_order`).
        rule: String,
        /// The status the service answered such a request with.
        status: u16,
    },
    /// The service refuses requests the spec accepts (`rule.looser`): the examples are such
    /// requests. Reported by a proxy, and by a client whose valid request is refused.
    #[serde(rename = "rule.looser")]
    RuleLooser {
        /// The rule of the spec the service's answer names, when it names one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        /// The status the service refused with.
        status: u16,
        /// The reason the service gave, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A value out of the format the spec gives its field (`field.format`): a date written
    /// `2026/11/16` where the spec says `format: date`. The examples are the values.
    #[serde(rename = "field.format")]
    WrongFormat {
        /// The record.
        record: String,
        /// The field.
        field: String,
        /// The format the spec gives the field, as the spec spells it (`date`).
        format: String,
    },
    /// A whole number written as a decimal in an integer field (`field.whole_number`): `12.0`,
    /// `1e3`. The generated client reads it as the integer it names; the examples keep the
    /// service's spelling. Not a change of type: the spec stays as it is.
    #[serde(rename = "field.whole_number")]
    WholeNumber {
        /// The record.
        record: String,
        /// The field.
        field: String,
    },
    /// An integer past the range of a 64-bit integer in an integer field
    /// (`field.out_of_range`): no integer type of the generated code holds it.
    #[serde(rename = "field.out_of_range")]
    OutOfRange {
        /// The record.
        record: String,
        /// The field.
        field: String,
    },
    /// Requests of a path no endpoint of the spec serves (`endpoint.undocumented`), with what
    /// their answers held ([`Finding::traffic`]): the makings of a draft of the endpoint.
    /// The finding's `endpoint` is the id a draft would take. Reported by a proxy.
    #[serde(rename = "endpoint.undocumented")]
    Undocumented {
        /// The request method (`GET`).
        method: String,
        /// The path template below the base path, identifier-like segments made parameters
        /// (`/v1/stocks/{stock_id}/profile`).
        path: String,
    },
}

impl Observed {
    /// The kind's id, as the JSON's `kind` spells it (`field.undeclared`).
    pub fn kind(&self) -> &'static str {
        match self {
            Observed::UndeclaredField { .. } => "field.undeclared",
            Observed::UndeclaredEnvelopeField { .. } => "envelope.undeclared",
            Observed::UnknownValue { .. } => "value.unknown",
            Observed::RequiredNull { .. } => "field.null",
            Observed::RequiredMissing { .. } => "field.missing",
            Observed::WrongType { .. } => "field.type",
            Observed::RuleStricter { .. } => "rule.stricter",
            Observed::RuleLooser { .. } => "rule.looser",
            Observed::WrongFormat { .. } => "field.format",
            Observed::WholeNumber { .. } => "field.whole_number",
            Observed::OutOfRange { .. } => "field.out_of_range",
            Observed::Undocumented { .. } => "endpoint.undocumented",
        }
    }

    /// The record it is about, if any (`envelope` for the envelope's fields).
    pub fn record(&self) -> Option<&str> {
        match self {
            Observed::UndeclaredField { record, .. }
            | Observed::UnknownValue { record, .. }
            | Observed::RequiredNull { record, .. }
            | Observed::RequiredMissing { record, .. }
            | Observed::WrongType { record, .. }
            | Observed::WrongFormat { record, .. }
            | Observed::WholeNumber { record, .. }
            | Observed::OutOfRange { record, .. } => Some(record),
            Observed::UndeclaredEnvelopeField { .. } => Some("envelope"),
            Observed::RuleStricter { .. }
            | Observed::RuleLooser { .. }
            | Observed::Undocumented { .. } => None,
        }
    }

    /// The field it is about, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            Observed::UndeclaredField { field, .. }
            | Observed::UndeclaredEnvelopeField { field }
            | Observed::UnknownValue { field, .. }
            | Observed::RequiredNull { field, .. }
            | Observed::RequiredMissing { field, .. }
            | Observed::WrongType { field, .. }
            | Observed::WrongFormat { field, .. }
            | Observed::WholeNumber { field, .. }
            | Observed::OutOfRange { field, .. } => Some(field),
            Observed::RuleStricter { .. }
            | Observed::RuleLooser { .. }
            | Observed::Undocumented { .. } => None,
        }
    }

    /// The value set it is about, if any.
    pub fn value_set(&self) -> Option<&str> {
        match self {
            Observed::UnknownValue { value_set, .. } => Some(value_set),
            _ => None,
        }
    }

    /// The rule it is about, if any.
    pub fn rule(&self) -> Option<&str> {
        match self {
            Observed::RuleStricter { rule, .. } => Some(rule),
            Observed::RuleLooser { rule, .. } => rule.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for Observed {
    /// One line: `PITDividend.currency: a field the record does not declare`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Observed::UndeclaredField { record, field } => {
                write!(f, "{record}.{field}: a field the record does not declare")
            }
            Observed::UndeclaredEnvelopeField { field } => {
                write!(f, "envelope.{field}: a field the envelope does not declare")
            }
            Observed::UnknownValue {
                record,
                field,
                value_set,
            } => write!(
                f,
                "{record}.{field}: a value outside the value set {value_set}"
            ),
            Observed::RequiredNull { record, field } => {
                write!(f, "{record}.{field}: required, arrived null")
            }
            Observed::RequiredMissing { record, field } => {
                write!(f, "{record}.{field}: required, arrived without it")
            }
            Observed::WrongType {
                record,
                field,
                expected,
                got,
            } => write!(f, "{record}.{field}: {expected} expected, arrived as {got}"),
            Observed::RuleStricter { rule, status } => write!(
                f,
                "rule {rule} refuses a request the service answered {status}"
            ),
            Observed::RuleLooser {
                rule,
                status,
                reason,
            } => {
                write!(
                    f,
                    "the service refused ({status}) a request the spec accepts"
                )?;
                if let Some(rule) = rule {
                    write!(f, " (naming rule {rule})")?;
                }
                if let Some(reason) = reason {
                    write!(f, ": {reason}")?;
                }
                Ok(())
            }
            Observed::WrongFormat {
                record,
                field,
                format,
            } => write!(f, "{record}.{field}: a value out of the format {format}"),
            Observed::WholeNumber { record, field } => {
                write!(f, "{record}.{field}: a whole number written as a decimal")
            }
            Observed::OutOfRange { record, field } => {
                write!(f, "{record}.{field}: an integer past the 64-bit range")
            }
            Observed::Undocumented { method, path } => {
                write!(f, "{method} {path}: a path no endpoint of the spec serves")
            }
        }
    }
}

/// One thing the service's answers held that the spec does not describe, on one endpoint:
/// what (with the spec's names), how often, and examples. Noticed once per endpoint, kind and
/// field, however many records carried it.
///
/// Written as one line of JSON (a client's [`Drift::to_json_lines`](super::Drift::to_json_lines),
/// a proxy's log), the members flat:
///
/// ```json
/// {"source":"client","endpoint":"stock_dividends","kind":"field.undeclared","record":"PITDividend","field":"currency","count":41,"examples":["\"USD\""]}
/// ```
///
/// `cargo xtask drift FILE` reads such lines and prints the spec edits that would describe
/// them. A reader ignores members it does not know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Who saw it.
    pub source: Source,
    /// The endpoint whose answers held it (its id).
    pub endpoint: String,
    /// What was seen.
    #[serde(flatten)]
    pub observed: Observed,
    /// How many times: values, records or requests.
    pub count: u64,
    /// Examples: the JSON text of values seen (the unknown values themselves, for
    /// `value.unknown`), or requests for the rule kinds; at most [`MAX_EXAMPLES`], each at
    /// most [`EXAMPLE_LIMIT`](super::EXAMPLE_LIMIT) characters
    /// ([`REQUEST_EXAMPLE_LIMIT`](super::REQUEST_EXAMPLE_LIMIT) for a request).
    #[serde(default)]
    pub examples: Vec<String>,
    /// What the traffic showed of the values at stake, when the kind says more than examples:
    /// the extents of the values of the requests the service accepted and refused, the most
    /// records an answer held (the rule kinds), an error code's status (`value.unknown` of
    /// `ErrorCode`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// What the requests and answers of an undocumented endpoint showed
    /// (`endpoint.undocumented`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<Box<Traffic>>,
}

impl Finding {
    /// One sighting of `observed` on `endpoint` by `source`, with `examples` and nothing more.
    pub fn new(
        source: Source,
        endpoint: impl Into<String>,
        observed: Observed,
        examples: Vec<String>,
    ) -> Self {
        Self {
            source,
            endpoint: endpoint.into(),
            observed,
            count: 1,
            examples,
            evidence: None,
            traffic: None,
        }
    }

    /// The first example, if any.
    pub fn example(&self) -> Option<&str> {
        self.examples.first().map(String::as_str)
    }

    /// Adds what `other` (the same observation on the same endpoint) saw: its count, and its
    /// examples this one does not have yet, within [`MAX_EXAMPLES`].
    pub fn merge(&mut self, other: &Finding) {
        self.count = self.count.saturating_add(other.count);
        for example in &other.examples {
            add_example(&mut self.examples, example.clone());
        }
        if let Some(theirs) = &other.evidence {
            self.evidence
                .get_or_insert_with(Evidence::default)
                .merge(theirs);
        }
        if let Some(theirs) = &other.traffic {
            match &mut self.traffic {
                Some(ours) => ours.merge(theirs),
                None => self.traffic = Some(theirs.clone()),
            }
        }
    }

    /// The finding as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        // Strings, numbers and enums only: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl fmt::Display for Finding {
    /// One line: the endpoint, what, how often and the first example.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (seen {}",
            self.endpoint, self.observed, self.count
        )?;
        if let Some(example) = self.example() {
            write!(f, ", e.g. {example}")?;
        }
        f.write_str(")")
    }
}

/// Adds `example` unless it is there already or the list is full.
pub(crate) fn add_example(examples: &mut Vec<String>, example: String) {
    if examples.len() < MAX_EXAMPLES && !examples.contains(&example) {
        examples.push(example);
    }
}

/// Reads findings written as JSON lines: the findings, and for each line that is not one (not
/// JSON, or of a kind this version does not know) its number (from 1) and why. Blank lines
/// are skipped.
pub fn parse_json_lines(text: &str) -> (Vec<Finding>, Vec<(usize, String)>) {
    let mut findings = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<Finding>(line) {
            Ok(finding) => findings.push(finding),
            Err(e) => {
                // The line is named already: its column is what is left to say.
                let text = e.to_string();
                let message = match text.rsplit_once(" at line ") {
                    Some((message, _)) => message,
                    None => &text,
                };
                problems.push((i + 1, format!("{message} (column {})", e.column())));
            }
        }
    }
    (findings, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::EXAMPLE_LIMIT;
    use crate::drift::json::cut;

    fn undeclared() -> Finding {
        Finding {
            count: 41,
            ..Finding::new(
                Source::Client,
                "stock_dividends",
                Observed::UndeclaredField {
                    record: "PITDividend".into(),
                    field: "currency".into(),
                },
                vec!["\"USD\"".into()],
            )
        }
    }

    #[test]
    fn findings_are_flat_json_lines() {
        let line = undeclared().to_json_line();
        assert_eq!(
            line,
            r#"{"source":"client","endpoint":"stock_dividends","kind":"field.undeclared","record":"PITDividend","field":"currency","count":41,"examples":["\"USD\""]}"#
        );
        let looser = Finding::new(
            Source::Proxy,
            "etf_flow",
            Observed::RuleLooser {
                rule: None,
                status: 400,
                reason: Some("too long".into()),
            },
            vec!["GET /v1/etf/flow?symbol=IBIT".into()],
        );
        let text = format!(
            "{line}\n\n{}\nnot json\n{{\"kind\":\"x.y\"}}\n",
            looser.to_json_line()
        );
        let (findings, problems) = parse_json_lines(&text);
        assert_eq!(findings, vec![undeclared(), looser]);
        assert_eq!(
            problems.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            vec![4, 5]
        );
    }

    #[test]
    fn readers_ignore_members_they_do_not_know_and_sources_they_do_not_know() {
        let line = r#"{"source":"crawler","endpoint":"e","kind":"field.null","record":"R","field":"f","count":2,"examples":["null"],"since":"2026-12-01"}"#;
        let (findings, problems) = parse_json_lines(line);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(findings[0].source, Source::Other);
        assert_eq!(findings[0].observed.kind(), "field.null");
    }

    #[test]
    fn merging_adds_counts_and_new_examples_within_the_limit() {
        let mut a = undeclared();
        let mut b = undeclared();
        b.examples = (0..20).map(|i| format!("\"{i}\"")).collect();
        b.examples.insert(0, "\"USD\"".into());
        a.merge(&b);
        assert_eq!(a.count, 82);
        assert_eq!(a.examples.len(), MAX_EXAMPLES);
        assert_eq!(a.examples[..2], ["\"USD\"", "\"0\""]);
    }

    #[test]
    fn examples_are_cut_on_a_character_boundary() {
        let long = "é".repeat(EXAMPLE_LIMIT + 5);
        let shown = cut(long, EXAMPLE_LIMIT);
        assert_eq!(shown.chars().count(), EXAMPLE_LIMIT + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(cut("short".into(), EXAMPLE_LIMIT), "short");
    }
}
