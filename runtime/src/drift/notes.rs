//! What one answer held ([`Noticed`]) and what a client saw over its life ([`Drift`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use super::evidence::Evidence;
use super::finding::{Finding, Observed, Source};
use super::json::{EXAMPLE_LIMIT, JsonKind, MAX_EXAMPLES, NAME_LIMIT, cut};
use crate::shapes::Shapes;
use crate::{Format, JsonValue};

/// The most occurrences of one observation in one answer whose value is kept as an example
/// candidate; later ones are only counted (a field every record carries costs one copy per
/// record only this often).
const CAPTURES_PER_ANSWER: u32 = 8;

/// The most distinct observations one answer records: an answer this far from the spec says
/// so with the first ones.
const MAX_PER_ANSWER: usize = 256;

/// The most findings a [`Drift`] keeps; later new ones are counted in
/// [`Drift::dropped`] only, so a service answering with ever new field names cannot grow it
/// without bound.
pub const MAX_FINDINGS: usize = 1024;

/// Where a field is: the envelope, or the record at an index of [`Shapes::records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    Envelope,
    Record(u32),
}

/// What was seen of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum What {
    Undeclared,
    /// Outside the value set at this index.
    Value(usize),
    Null,
    Missing,
    Type {
        expected: JsonKind,
        got: JsonKind,
    },
    /// Out of the field's format.
    Format(Format),
    /// A whole number written as a decimal in an integer field.
    WholeNumber,
    /// An integer past the 64-bit range.
    OutOfRange,
}

#[derive(Debug)]
struct Entry {
    what: What,
    owner: Owner,
    field: String,
    count: u64,
    captured: u32,
    examples: Vec<JsonValue>,
}

/// What one answer held that the spec does not describe: observations by field (not by
/// record), each with a count and examples. Made by [`decode_noticing`](super::decode_noticing)
/// and [`check_answer`](super::check_answer); [`Noticed::findings`] turns it into
/// [`Finding`]s, [`Drift::absorb`] into a client's record.
#[derive(Debug)]
pub struct Noticed {
    shapes: &'static Shapes,
    entries: Vec<Entry>,
    /// The answer's status, when known: the evidence of an unknown error code.
    status: Option<u16>,
    /// Whole numbers written as decimals that the decoding read as integers.
    whole_numbers: u64,
}

impl Noticed {
    pub(crate) fn new(shapes: &'static Shapes) -> Self {
        Self {
            shapes,
            entries: Vec::new(),
            status: None,
            whole_numbers: 0,
        }
    }

    /// How many whole numbers written as decimals (`12.0`) the decoding read as integers
    /// ([`crate::whole_number`]): they are told, not seen, so their findings (with the
    /// service's spelling) come from walking the answer ([`check_answer`](super::check_answer)),
    /// which a client does when this is not 0.
    pub fn whole_numbers(&self) -> u64 {
        self.whole_numbers
    }

    pub(crate) fn told_whole_numbers(&mut self, count: u64) {
        self.whole_numbers = count;
    }

    /// What was noticed of an answer with HTTP `status`.
    pub(crate) fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Keeps only what `keep` says of each observation (what a second pass over an answer
    /// adds to a first one that saw the rest).
    pub fn retain(&mut self, keep: impl Fn(&Observed) -> bool) {
        let shapes = self.shapes;
        let observed = |e: &Entry| Self::observed_of(shapes, e);
        self.entries
            .retain(|e| observed(e).is_some_and(|o| keep(&o)));
    }

    /// Nothing was noticed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `what` at `owner.field` (its name cut to [`NAME_LIMIT`]), counted once
    /// more; `None` when the answer has too many already.
    fn count(&mut self, what: What, owner: Owner, field: &str) -> Option<usize> {
        let field = match field.char_indices().nth(NAME_LIMIT) {
            Some(_) => Cow::Owned(cut(field.to_string(), NAME_LIMIT)),
            None => Cow::Borrowed(field),
        };
        let found = self
            .entries
            .iter()
            .position(|e| e.what == what && e.owner == owner && e.field == field);
        let index = match found {
            Some(index) => index,
            None if self.entries.len() < MAX_PER_ANSWER => {
                self.entries.push(Entry {
                    what,
                    owner,
                    field: field.into_owned(),
                    count: 0,
                    captured: 0,
                    examples: Vec::new(),
                });
                self.entries.len() - 1
            }
            None => return None,
        };
        let entry = &mut self.entries[index];
        entry.count += 1;
        Some(index)
    }

    /// Counts `what` at `owner.field`; `Some(entry)` when the value should be kept as an
    /// example (pass it to [`example`](Self::example)).
    pub(crate) fn observe(&mut self, what: What, owner: Owner, field: &str) -> Option<usize> {
        let index = self.count(what, owner, field)?;
        let entry = &mut self.entries[index];
        if entry.captured < CAPTURES_PER_ANSWER && entry.examples.len() < MAX_EXAMPLES {
            entry.captured += 1;
            Some(index)
        } else {
            None
        }
    }

    /// Keeps `value` as an example of the entry `index`, unless it has it.
    pub(crate) fn example(&mut self, index: usize, value: JsonValue) {
        if let Some(entry) = self.entries.get_mut(index)
            && entry.examples.len() < MAX_EXAMPLES
            && !entry.examples.contains(&value)
        {
            entry.examples.push(value);
        }
    }

    /// A string outside the value set `set`, in `owner.field`: counted, and kept as an example
    /// when it is a new one (every distinct value is worth a line of the spec).
    pub(crate) fn unknown_value(&mut self, set: usize, owner: Owner, field: &str, value: &str) {
        let Some(index) = self.count(What::Value(set), owner, field) else {
            return;
        };
        let entry = &mut self.entries[index];
        if entry.examples.len() < MAX_EXAMPLES
            && !entry
                .examples
                .iter()
                .any(|e| e.as_str().is_some_and(|s| s == value))
        {
            entry.examples.push(JsonValue::String(value.to_string()));
        }
    }

    /// `count` values outside the value set `set` in `owner.field`, the first distinct ones
    /// `values`.
    pub(crate) fn unknown_values(
        &mut self,
        set: usize,
        owner: Owner,
        field: &str,
        count: u64,
        values: Vec<String>,
    ) {
        let Some(index) = self.count(What::Value(set), owner, field) else {
            return;
        };
        let entry = &mut self.entries[index];
        entry.count += count - 1;
        for value in values {
            if entry.examples.len() < MAX_EXAMPLES
                && !entry
                    .examples
                    .iter()
                    .any(|e| e.as_str() == Some(value.as_str()))
            {
                entry.examples.push(JsonValue::String(value));
            }
        }
    }

    /// The findings of this answer, for `endpoint`, seen by `source`, in the order first seen.
    pub fn findings(&self, endpoint: &str, source: Source) -> Vec<Finding> {
        self.entries
            .iter()
            .filter_map(|e| {
                let observed = Self::observed_of(self.shapes, e)?;
                let status = match &observed {
                    Observed::UnknownValue { value_set, .. } if value_set == "ErrorCode" => {
                        self.status
                    }
                    _ => None,
                };
                let examples = e
                    .examples
                    .iter()
                    .map(|v| match v {
                        // A number as the service spelt it.
                        JsonValue::String(text)
                            if matches!(e.what, What::WholeNumber | What::OutOfRange) =>
                        {
                            text.clone()
                        }
                        v => v.to_string(),
                    })
                    .map(|text| cut(text, EXAMPLE_LIMIT))
                    .collect();
                Some(Finding {
                    count: e.count,
                    evidence: status.map(|status| Evidence {
                        status: Some(status),
                        ..Evidence::default()
                    }),
                    ..Finding::new(source, endpoint, observed, examples)
                })
            })
            .collect()
    }

    fn observed_of(shapes: &Shapes, e: &Entry) -> Option<Observed> {
        let record = match e.owner {
            Owner::Envelope => "envelope".to_string(),
            Owner::Record(i) => shapes.record(i as usize)?.name.to_string(),
        };
        let field = e.field.clone();
        Some(match e.what {
            What::Undeclared if e.owner == Owner::Envelope => {
                Observed::UndeclaredEnvelopeField { field }
            }
            What::Undeclared => Observed::UndeclaredField { record, field },
            What::Value(set) => Observed::UnknownValue {
                record,
                field,
                value_set: shapes.value_set(set)?.name.to_string(),
            },
            What::Null => Observed::RequiredNull { record, field },
            What::Missing => Observed::RequiredMissing { record, field },
            What::Type { expected, got } => Observed::WrongType {
                record,
                field,
                expected,
                got,
            },
            What::Format(format) => Observed::WrongFormat {
                record,
                field,
                format: format.name().to_string(),
            },
            What::WholeNumber => Observed::WholeNumber { record, field },
            What::OutOfRange => Observed::OutOfRange { record, field },
        })
    }
}

/// What a client (or a proxy) has seen of the service that the spec does not describe: one
/// [`Finding`] per endpoint and observation, with the count and examples summed over every
/// answer. Shared by the clones of a client; safe to read while calls run.
#[derive(Debug)]
pub struct Drift {
    source: Source,
    state: Mutex<DriftState>,
}

#[derive(Debug, Default)]
struct DriftState {
    findings: BTreeMap<(String, Observed), Finding>,
    dropped: u64,
}

impl Drift {
    /// An empty record of what `source` sees.
    pub fn new(source: Source) -> Self {
        Self {
            source,
            state: Mutex::new(DriftState::default()),
        }
    }

    /// Who sees what it records.
    pub fn source(&self) -> Source {
        self.source
    }

    fn state(&self) -> MutexGuard<'_, DriftState> {
        // A panic while the lock was held left whole findings behind: keep using them.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every finding so far, sorted by endpoint, then kind and names.
    pub fn findings(&self) -> Vec<Finding> {
        self.state().findings.values().cloned().collect()
    }

    /// Every finding so far, sorted, leaving the record empty: a program that appends
    /// findings to a file now and then writes each sighting once (`cargo xtask drift` sums
    /// what several lines say of one thing).
    pub fn take(&self) -> Vec<Finding> {
        let mut state = self.state();
        state.dropped = 0;
        std::mem::take(&mut state.findings).into_values().collect()
    }

    /// Nothing noticed yet.
    pub fn is_empty(&self) -> bool {
        self.state().findings.is_empty()
    }

    /// New findings not kept because [`MAX_FINDINGS`] were kept already.
    pub fn dropped(&self) -> u64 {
        self.state().dropped
    }

    /// Every finding so far as JSON lines (each line ends in a newline): what
    /// `cargo xtask drift FILE` reads.
    pub fn to_json_lines(&self) -> String {
        self.findings()
            .iter()
            .map(|f| f.to_json_line() + "\n")
            .collect()
    }

    /// Adds one finding (a proxy's rule findings, say); true when it is new.
    pub fn record(&self, finding: Finding) -> bool {
        let mut state = self.state();
        let key = (finding.endpoint.clone(), finding.observed.clone());
        if let Some(known) = state.findings.get_mut(&key) {
            known.merge(&finding);
            return false;
        }
        if state.findings.len() >= MAX_FINDINGS {
            state.dropped += 1;
            return false;
        }
        state.findings.insert(key, finding);
        true
    }

    /// Adds what one answer of `endpoint` held; returns the findings seen for the first time
    /// (to report them as they appear: the client traces each once).
    pub fn absorb(&self, endpoint: &str, noticed: &Noticed) -> Vec<Finding> {
        let mut new = Vec::new();
        for finding in noticed.findings(endpoint, self.source) {
            let copy = finding.clone();
            if self.record(finding) {
                new.push(copy);
            }
        }
        new
    }
}

impl Default for Drift {
    /// An empty record of what a client sees.
    fn default() -> Self {
        Self::new(Source::Client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{FieldShape, FieldType, RecordShape, ValueSetShape};

    static SHAPES: Shapes = Shapes {
        envelope: RecordShape::new("envelope", &[]),
        records: &[RecordShape::new(
            "Row",
            &[FieldShape::new("kind", FieldType::ValueSet(0))],
        )],
        value_sets: &[ValueSetShape {
            name: "Kind",
            values: &["a", "b"],
        }],
        endpoints: &[],
        error_object: 0,
    };

    #[test]
    fn observations_are_counted_per_field_with_distinct_examples() {
        let mut noticed = Noticed::new(&SHAPES);
        for i in 0..20 {
            if let Some(entry) = noticed.observe(What::Undeclared, Owner::Record(0), "extra") {
                noticed.example(entry, JsonValue::Unsigned(i % 3));
            }
            noticed.unknown_value(
                0,
                Owner::Record(0),
                "kind",
                if i % 2 == 0 { "c" } else { "d" },
            );
        }
        noticed.observe(What::Undeclared, Owner::Envelope, "warnings");
        let findings = noticed.findings("rows", Source::Client);
        assert_eq!(findings.len(), 3);
        assert_eq!(findings[0].count, 20);
        // Only the first few occurrences are looked at for examples.
        assert_eq!(findings[0].examples, ["0", "1", "2"]);
        assert_eq!(findings[1].examples, ["\"c\"", "\"d\""]);
        assert_eq!(
            findings[2].observed,
            Observed::UndeclaredEnvelopeField {
                field: "warnings".into()
            }
        );

        let drift = Drift::default();
        assert_eq!(drift.absorb("rows", &noticed).len(), 3);
        assert!(drift.absorb("rows", &noticed).is_empty());
        let all = drift.findings();
        // Sorted: the record's field, the envelope's, the value.
        assert_eq!(all.iter().map(|f| f.count).collect::<Vec<_>>(), [40, 2, 40]);
        assert_eq!(drift.take().len(), 3);
        assert!(drift.is_empty());
    }

    #[test]
    fn a_drift_keeps_a_bounded_number_of_findings() {
        let drift = Drift::default();
        for i in 0..MAX_FINDINGS + 10 {
            drift.record(Finding::new(
                Source::Client,
                "e",
                Observed::UndeclaredEnvelopeField {
                    field: format!("f{i}"),
                },
                Vec::new(),
            ));
        }
        assert_eq!(drift.findings().len(), MAX_FINDINGS);
        assert_eq!(drift.dropped(), 10);
    }
}
