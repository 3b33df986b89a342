//! Random provider releases: changes a provider may make, drawn from a seed with targets picked
//! from the resolved model, and written into the spec by the machinery of `cargo xtask drift
//! --apply`. A property over spec changes rather than a list of them: what a test of the
//! workspace assumes of the spec, the next release finds.
//!
//! What the provider changes in its answers or in what it accepts is traffic: the answers of a
//! drifted provider to the spec's example requests ([`traffic`]), as a HAR document, read as
//! recorded traffic is ([`crate::har::findings`]) and turned into edits by the report. What
//! traffic cannot show (a list parameter, an endpoint taking a body, a template overlapping
//! another, a removal) is written as the maintainer would write it ([`spec`]), as items of the
//! same report. One history row acknowledges the release, as for any `--apply`.

use std::collections::BTreeSet;

use mrds_spec::model::Api;

use super::cx::Cx;
use super::{Item, Options, Report, report};

mod spec;
mod traffic;

/// A kind of change a provider makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A required field missing from the answers: made optional.
    FieldOptional,
    /// A new field of text in the answers.
    FieldAdded,
    /// A new field holding an object: a nested record.
    NestedFieldAdded,
    /// A new field holding a list.
    ListFieldAdded,
    /// A field's values of another type (an integer's with fractions, a number's as text).
    FieldRetyped,
    /// A required field gone while one of another name holds its values.
    FieldRenamed,
    /// A value outside a value set of the answers.
    ValueAdded,
    /// A new error code, at a status that already has one.
    ErrorCodeAdded,
    /// A field's values in another format (a date as a timestamp).
    FormatChanged,
    /// A parameter's maximum narrowed: the service refuses values the spec accepts.
    BoundNarrowed,
    /// A parameter's maximum widened: the service accepts values the spec refuses.
    BoundWidened,
    /// A list parameter without `min_items`, its items checked by a pattern.
    ListParam,
    /// A list parameter with `min_items`.
    ListParamMinItems,
    /// An endpoint with a path parameter the spec does not have: a draft.
    EndpointWithPath,
    /// An endpoint taking a body (a `POST` under a value-set segment).
    EndpointWithBody,
    /// An endpoint whose template overlaps one of the spec's.
    EndpointOverlapping,
    /// An endpoint the provider removed.
    EndpointRemoved,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 17] = [
        Kind::FieldOptional,
        Kind::FieldAdded,
        Kind::NestedFieldAdded,
        Kind::ListFieldAdded,
        Kind::FieldRetyped,
        Kind::FieldRenamed,
        Kind::ValueAdded,
        Kind::ErrorCodeAdded,
        Kind::FormatChanged,
        Kind::BoundNarrowed,
        Kind::BoundWidened,
        Kind::ListParam,
        Kind::ListParamMinItems,
        Kind::EndpointWithPath,
        Kind::EndpointWithBody,
        Kind::EndpointOverlapping,
        Kind::EndpointRemoved,
    ];

    /// Its name (`field_optional`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::FieldOptional => "field_optional",
            Kind::FieldAdded => "field_added",
            Kind::NestedFieldAdded => "nested_field_added",
            Kind::ListFieldAdded => "list_field_added",
            Kind::FieldRetyped => "field_retyped",
            Kind::FieldRenamed => "field_renamed",
            Kind::ValueAdded => "value_added",
            Kind::ErrorCodeAdded => "error_code_added",
            Kind::FormatChanged => "format_changed",
            Kind::BoundNarrowed => "bound_narrowed",
            Kind::BoundWidened => "bound_widened",
            Kind::ListParam => "list_param",
            Kind::ListParamMinItems => "list_param_min_items",
            Kind::EndpointWithPath => "endpoint_with_path",
            Kind::EndpointWithBody => "endpoint_with_body",
            Kind::EndpointOverlapping => "endpoint_overlapping",
            Kind::EndpointRemoved => "endpoint_removed",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One release: what it changed, the traffic that showed it, and the report of its edits.
#[derive(Debug)]
pub struct Release {
    /// The seed it was drawn from.
    pub seed: u64,
    /// What it was asked to change, and what it changed (`kind: target`), or why a kind had no
    /// target in this spec.
    pub changes: Vec<String>,
    /// The traffic of the drifted provider, a HAR document.
    pub har: String,
    /// The edits, as `cargo xtask drift --apply` writes them.
    pub report: Report,
}

/// A release of `kinds` drawn from `seed`, on the spec `api` loaded from `sources` (the files as
/// the loader names them). A kind with no target in this spec (a removal in a spec with one
/// endpoint left) is skipped, saying so in [`Release::changes`].
pub fn release(
    api: &Api,
    sources: &[(String, String)],
    kinds: &[Kind],
    seed: u64,
    options: &Options,
) -> Result<Release, String> {
    let cx = Cx::new(api, sources, options);
    let mut draw = Draw::new(seed);
    let mut traffic = traffic::Traffic::default();
    let mut items: Vec<Item> = Vec::new();
    let mut changes = Vec::new();
    for &kind in kinds {
        let done = match kind {
            Kind::ListParam
            | Kind::ListParamMinItems
            | Kind::EndpointWithBody
            | Kind::EndpointOverlapping
            | Kind::EndpointRemoved => spec::change(&cx, &mut draw, kind).map(|(what, item)| {
                items.push(item);
                what
            }),
            _ => traffic::change(api, &mut draw, kind, &mut traffic),
        };
        changes.push(match done {
            Some(what) => format!("{}: {what}", kind.name()),
            None => format!("{}: no target in this spec", kind.name()),
        });
    }
    let har = traffic::har(traffic.entries(api));
    let findings = super::har::findings(api, &har)?;
    let report = report::build(&cx, &findings, items);
    Ok(Release {
        seed,
        changes,
        har,
        report,
    })
}

/// The seeded choices of one release, and the names and targets it has taken (so that two
/// changes of one release never touch one thing).
pub(crate) struct Draw {
    state: u64,
    /// A number of the release its new names carry (`rel42_...`).
    pub(crate) tag: u64,
    /// `record.field`, `endpoint.param`, endpoint ids and new names taken.
    pub(crate) taken: BTreeSet<String>,
}

impl Draw {
    fn new(seed: u64) -> Self {
        let mut draw = Self {
            state: seed ^ 0x5DEE_CE66_D1CE_4E5B,
            tag: 0,
            taken: BTreeSet::new(),
        };
        draw.tag = draw.below(1000);
        draw
    }

    /// The next number (splitmix64).
    pub(crate) fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// One of `items`, if any.
    pub(crate) fn pick<T>(&mut self, items: Vec<T>) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(items.len() as u64) as usize;
        items.into_iter().nth(i)
    }

    /// The release's tag in letters (`bjf` for 195): for names in paths, where digits would
    /// read as an identifier's.
    pub(crate) fn word(&self) -> String {
        format!("{:03}", self.tag)
            .bytes()
            .map(|d| char::from(b'a' + (d - b'0')))
            .collect()
    }

    /// `base`, or `base` with letters after it (`bjfb`, `bjfc`...): the first that `taken`
    /// refuses not and no change of this release took; taken.
    pub(crate) fn fresh(&mut self, base: &str, taken: impl Fn(&str) -> bool) -> String {
        let mut name = base.to_string();
        let mut n = 0u32;
        while taken(&name) || self.taken.contains(&name) {
            n += 1;
            let mut suffix = String::new();
            let mut k = n;
            while k > 0 {
                suffix.insert(0, char::from(b'a' + ((k - 1) % 26) as u8));
                k = (k - 1) / 26;
            }
            name = format!("{base}{suffix}");
        }
        self.taken.insert(name.clone());
        name
    }

    /// Takes `what` (a target or a name); false when a change of this release took it.
    pub(crate) fn take(&mut self, what: impl Into<String>) -> bool {
        self.taken.insert(what.into())
    }
}
