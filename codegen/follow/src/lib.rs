//! The report of `cargo xtask drift`: what a client (or a proxy) saw of the service that the
//! spec does not describe ([`mrds_runtime::drift::Finding`]s, read from JSON lines or from HAR
//! files of recorded traffic, [`har`]), turned into the spec edits that would describe it,
//! each with the `spec-diff` check id the edit will be reported as, the place in `spec/` and
//! the YAML, and the edits themselves: splices of the spec's files at the places of the one
//! parse ([`splice`]), which keep comments, key order and layout, bringing along the samples
//! and example requests an edit would break, and a history row naming the breaking changes.
//! Edits keep the samples' meaning: every served example request that answered sample records
//! still answers some (its range rewritten when the engine reads the brought-along values as
//! other instants), or the report says which is to be rewritten by hand.
//! Undocumented endpoints get a draft file each. The report says whether the edited spec
//! loads; `cargo xtask drift --apply` writes it, and prints the same as a unified diff without.
//!
//! The findings are read against the spec as it is now: what the spec has come to describe
//! since they were written is a note (so a second run over the same findings asks for no
//! edit), and so is what names something the spec does not have (findings of another
//! version). Findings of one thing on several endpoints, from several lines or sources, are
//! one item, their counts summed.

use std::collections::{BTreeMap, BTreeSet};

use mrds_runtime::drift::{Evidence, Finding, Observed, Source};

use mrds_diff::ChangeKind;
use mrds_spec::model::Api;

mod bounds;
mod cx;
mod draft;
mod examples;
mod fields;
mod formats;
pub mod har;
mod new_rule;
pub mod release;
mod rename;
mod report;
mod rules;
mod samples;
pub mod splice;

use cx::Cx;
use splice::Splice;

/// How a report is made.
#[derive(Clone, Debug)]
pub struct Options {
    /// The date of the history rows the edits add (`YYYY-MM-DD`): today, unless a test fixes
    /// it.
    pub today: String,
}

impl Default for Options {
    fn default() -> Self {
        let days = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        let (y, m, d) = mrds_runtime::text::civil_from_days(days as i64);
        Self {
            today: format!("{y:04}-{m:02}-{d:02}"),
        }
    }
}

/// The report, the edits and what they make of the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The text printed.
    pub text: String,
    /// Items that ask for a spec edit.
    pub edits: usize,
    /// Items the spec already describes, that name what the spec does not have, or that no
    /// edit would describe.
    pub notes: usize,
    /// The spec's files the edits change or add, with their new text (names as the loader
    /// gives them: `spec/records.yaml`), sorted by name.
    pub files: Vec<(String, String)>,
    /// The same edits as a unified diff of the spec's files.
    pub diff: String,
    /// The `spec-diff` check ids the edits will be reported as, sorted.
    pub predicted: Vec<&'static str>,
    /// Why the edited spec does not load, when it does not.
    pub problems: Option<String>,
    /// Edits left to be written by hand (a name Rust cannot take, a fact the findings lack), and
    /// example requests the edits leave answering no sample records that the report cannot
    /// rewrite (a `when` spelling or a filter they no longer match).
    pub by_hand: usize,
}

impl Report {
    /// `sources` (the spec's files as the loader names them) with the edits' files written over
    /// them and the new ones added, sorted: the spec `--apply` leaves.
    pub fn applied_to(&self, sources: &[(String, String)]) -> Vec<(String, String)> {
        let mut out = sources.to_vec();
        for (name, text) in &self.files {
            match out.iter_mut().find(|(n, _)| n == name) {
                Some(file) => file.1 = text.clone(),
                None => out.push((name.clone(), text.clone())),
            }
        }
        out.sort();
        out
    }
}

/// One thing observed, summed over endpoints, lines and sources.
pub(crate) struct Group {
    observed: Observed,
    /// Count per endpoint.
    endpoints: BTreeMap<String, u64>,
    sources: BTreeSet<Source>,
    count: u64,
    examples: Vec<String>,
    evidence: Evidence,
}

/// What the report says of one group.
pub(crate) enum Item {
    /// A spec edit.
    Edit(Edit),
    /// Nothing to do, or nothing an edit would describe: why.
    Note(String),
}

/// A spec edit: what it describes, the checks, where, the YAML shown, and the splices.
pub(crate) struct Edit {
    headline: String,
    check: Vec<ChangeKind>,
    place: String,
    change: Vec<String>,
    splices: Vec<Splice>,
    /// Files the edit adds (name, text).
    files: Vec<(String, String)>,
    /// What it brings along (samples, example requests).
    brings: Vec<String>,
    /// What it changes, as `spec-diff` names the subject of its findings (`Quote.ask`,
    /// `bars.limit`, a rule id): what a history row acknowledging a breaking edit names.
    subjects: Vec<String>,
    /// The endpoints it adds or removes, as the history row lists them (`{ action: added,
    /// method: GET, path: /v1/x }`).
    history: Vec<String>,
}

impl Edit {
    fn new(headline: String, check: Vec<ChangeKind>, place: String, change: Vec<String>) -> Self {
        Self {
            headline,
            check,
            place,
            change,
            splices: Vec::new(),
            files: Vec::new(),
            brings: Vec::new(),
            subjects: Vec::new(),
            history: Vec::new(),
        }
    }

    fn by_hand(&self) -> bool {
        self.splices.is_empty() && self.files.is_empty()
    }
}
/// The spec edits that would describe `findings`, read against `api` (loaded from `sources`,
/// the spec's files as the loader names them).
pub fn report(
    api: &Api,
    sources: &[(String, String)],
    findings: &[Finding],
    options: &Options,
) -> Report {
    let cx = Cx::new(api, sources, options);
    report::build(&cx, findings, Vec::new())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A YAML scalar: plain when it reads back as the same text, else double-quoted.
pub(crate) fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text.chars().any(|c| c.is_ascii_alphabetic())
        && text.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '-' | '.' | '/' | '?' | '=' | '&' | '%' | '+')
        })
        && !text.starts_with(['-', '.', '?', '&', '%', '+', '='])
        && text.parse::<f64>().is_err()
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        text.to_string()
    } else {
        serde_json::Value::String(text.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_stay_plain_only_when_they_read_back_as_text() {
        assert_eq!(scalar("2h"), "2h");
        assert_eq!(scalar("currency"), "currency");
        assert_eq!(scalar("IPO Date"), "\"IPO Date\"");
        assert_eq!(scalar("10"), "\"10\"");
        assert_eq!(scalar("1e5"), "\"1e5\"");
        assert_eq!(scalar("yes"), "\"yes\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar(""), "\"\"");
        assert_eq!(scalar("/v1/x?a=1&b=%20"), "/v1/x?a=1&b=%20");
        assert_eq!(scalar("?a"), "\"?a\"");
    }

    #[test]
    fn a_new_field_takes_the_type_its_examples_say() {
        let ex = |v: &[&str]| fields::infer(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(ex(&["\"USD\"", "\"EUR\""]), ("string", false, None));
        assert_eq!(ex(&["1", "2"]), ("integer", false, None));
        assert_eq!(ex(&["1", "2.5"]), ("number", false, None));
        assert_eq!(ex(&["true"]), ("boolean", false, None));
        assert_eq!(ex(&["[\"a\"]", "[]"]), ("string", true, None));
        assert_eq!(ex(&["\"2026-01-02\""]), ("string", false, Some("date")));
        assert_eq!(ex(&["{\"a\":1}"]), ("any", false, None));
        assert_eq!(ex(&["1", "\"a\""]), ("any", false, None));
        assert_eq!(ex(&["\"a long text cut…"]), ("string", false, None));
        assert_eq!(ex(&[]), ("any", false, None));
    }
}
