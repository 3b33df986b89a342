//! The texts a parameter (or a rule's condition) accepts, and whether one such language
//! includes another.
//!
//! Patterns are compared exactly where the regular-expression engine can build a DFA for both
//! (every pattern the checker accepts has one: it refuses those without, such as Unicode word
//! boundaries, see `emit::matcher`): the two DFAs run side by side
//! over valid UTF-8 (a product construction, breadth first), with the runtime's semantics (a
//! match anywhere, as `Regex::is_match` decides; the spec's patterns are anchored), so a
//! difference comes with the shortest text that shows it. Integer ranges, booleans and value
//! sets are compared by their values; a format (`uuid`, `date`, ...) is compared by name, and a
//! question that comes down to what a format and a pattern have in common is answered "cannot
//! be decided" rather than guessed.

use std::collections::{HashMap, VecDeque};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use crate::model::{Literal, ParamType, StringFormat};

/// Whether every value of one language is also a value of another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inclusion {
    /// Every value is.
    Yes,
    /// This value is not (the shortest or simplest found).
    No(String),
    /// It cannot be decided; the reason.
    Unknown(String),
}

impl Inclusion {
    /// True only when inclusion is proven.
    pub fn holds(&self) -> bool {
        matches!(self, Inclusion::Yes)
    }
}

/// The texts a parameter of some type accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lang {
    /// What it is, for explanations (`integer 1..=100`).
    pub what: String,
    /// Every value matches this regular expression (a match anywhere, as the runtime checks).
    regex: String,
    /// Integers: the value parses as an `i64` within these bounds.
    ints: Option<(i64, i64)>,
    /// Strings: the value is in this format.
    format: Option<StringFormat>,
    /// A finite language: exactly these values.
    finite: Option<Vec<String>>,
}

/// The regular expression of the texts `i64::from_str` reads.
const INTEGER_TEXT: &str = "^[+-]?[0-9]+$";

impl Lang {
    /// The texts a parameter of type `ty` accepts.
    pub fn of_param(ty: &ParamType) -> Lang {
        match ty {
            ParamType::Integer(t) => Lang {
                what: match (t.min, t.max) {
                    (None, None) => "integer".into(),
                    (min, max) => format!(
                        "integer {}..={}",
                        min.map_or(String::new(), |m| m.to_string()),
                        max.map_or(String::new(), |m| m.to_string())
                    ),
                },
                regex: INTEGER_TEXT.into(),
                ints: Some((t.min.unwrap_or(i64::MIN), t.max.unwrap_or(i64::MAX))),
                format: None,
                finite: None,
            },
            ParamType::String(t) => Lang {
                what: match (&t.pattern, t.format) {
                    (None, None) => "string".into(),
                    (Some(p), None) => format!("string matching `{}`", p.regex),
                    (None, Some(f)) => format!("string in format {}", format_name(f)),
                    (Some(p), Some(f)) => {
                        format!("string in format {} matching `{}`", format_name(f), p.regex)
                    }
                },
                regex: t
                    .pattern
                    .as_ref()
                    .map_or(String::new(), |p| p.regex.clone()),
                ints: None,
                format: t.format,
                finite: None,
            },
            ParamType::Boolean => Lang::values("boolean", ["true", "false"]),
            ParamType::Enum(e) => Lang::values(&format!("value set {}", e.name), &e.values),
        }
    }

    /// Exactly `values`.
    pub fn values<S: AsRef<str>>(what: &str, values: impl IntoIterator<Item = S>) -> Lang {
        let values: Vec<String> = values.into_iter().map(|v| v.as_ref().to_owned()).collect();
        let alternatives: Vec<String> = values.iter().map(|v| regex::escape(v)).collect();
        Lang {
            what: what.to_owned(),
            regex: format!("^(?:{})$", alternatives.join("|")),
            ints: None,
            format: None,
            finite: Some(values),
        }
    }

    /// Exactly the wire spellings of `literals`.
    pub fn literals(what: &str, literals: &[Literal]) -> Lang {
        Lang::values(what, literals.iter().map(Literal::wire))
    }

    /// The texts matching `pattern`.
    pub fn pattern(pattern: &str) -> Lang {
        Lang {
            what: format!("`{pattern}`"),
            regex: pattern.to_owned(),
            ints: None,
            format: None,
            finite: None,
        }
    }

    /// True when `text` is in the language.
    pub fn accepts(&self, text: &str) -> bool {
        if let Some(values) = &self.finite {
            return values.iter().any(|v| v == text);
        }
        let shaped = self.regex.is_empty()
            || regex::Regex::new(&self.regex).is_ok_and(|re| re.is_match(text));
        let in_range = self
            .ints
            .is_none_or(|(lo, hi)| text.parse::<i64>().is_ok_and(|n| lo <= n && n <= hi));
        let formatted = self.format.is_none_or(|f| f.runtime().holds(text));
        shaped && in_range && formatted
    }

    /// Whether every text of `self` is a text of `sup`.
    pub fn included_in(&self, sup: &Lang) -> Inclusion {
        if self.regex == sup.regex
            && self.format == sup.format
            && self.ints == sup.ints
            && self.finite == sup.finite
        {
            return Inclusion::Yes;
        }
        // A finite language: value by value.
        if let Some(values) = &self.finite {
            return match values.iter().find(|v| !sup.accepts(v)) {
                Some(v) => Inclusion::No(v.clone()),
                None => Inclusion::Yes,
            };
        }
        // Integers: by their bounds, or against a finite or textual language by candidates.
        if let Some((lo, hi)) = self.ints {
            if let Some((lo2, hi2)) = sup.ints
                && sup.regex == INTEGER_TEXT
            {
                return if lo < lo2 {
                    Inclusion::No(lo2.saturating_sub(1).min(hi).to_string())
                } else if hi > hi2 {
                    Inclusion::No(hi2.saturating_add(1).max(lo).to_string())
                } else {
                    Inclusion::Yes
                };
            }
            if let Some(w) = int_candidates(lo, hi, sup).find(|w| !sup.accepts(w)) {
                return Inclusion::No(w);
            }
            if sup.ints.is_none() && sup.format.is_none() {
                return match patterns_included(INTEGER_TEXT, &sup.regex) {
                    Inclusion::Yes => Inclusion::Yes,
                    _ => Inclusion::Unknown(format!(
                        "whether every integer matches `{}` cannot be decided",
                        sup.regex
                    )),
                };
            }
            return Inclusion::Unknown(format!(
                "whether every {} is a {} cannot be decided",
                self.what, sup.what
            ));
        }
        // Text: the patterns decide, the formats must agree.
        match patterns_included(&self.regex, &sup.regex) {
            Inclusion::No(w) => {
                if self.accepts(&w) {
                    Inclusion::No(w)
                } else if let Some(v) = text_candidates(self).find(|v| !sup.accepts(v)) {
                    Inclusion::No(v)
                } else {
                    Inclusion::Unknown(format!(
                        "whether every {} is a {} cannot be decided: the shortest text that tells the patterns apart, {w:?}, is not a valid {}",
                        self.what,
                        sup.what,
                        self.format.map_or("value", format_name)
                    ))
                }
            }
            Inclusion::Unknown(why) => Inclusion::Unknown(why),
            Inclusion::Yes => {
                let formats_agree = sup.format.is_none() || sup.format == self.format;
                if formats_agree && sup.ints.is_none() && sup.finite.is_none() {
                    Inclusion::Yes
                } else if let Some(w) = text_candidates(self).find(|w| !sup.accepts(w)) {
                    Inclusion::No(w)
                } else {
                    Inclusion::Unknown(format!(
                        "whether every {} is a {} cannot be decided",
                        self.what, sup.what
                    ))
                }
            }
        }
    }
}

/// The spec's name of a string format.
pub fn format_name(f: StringFormat) -> &'static str {
    match f {
        StringFormat::Rfc3339 => "rfc3339",
        StringFormat::Uuid => "uuid",
        StringFormat::Hex16 => "hex16",
        StringFormat::Date => "date",
    }
}

/// Integers of `lo..=hi` worth trying against `sup`: the bounds, small numbers, and enough
/// consecutive values to get past a finite language.
fn int_candidates(lo: i64, hi: i64, sup: &Lang) -> impl Iterator<Item = String> {
    let extra = sup.finite.as_ref().map_or(0, Vec::len) as i64 + 1;
    let mut out: Vec<i64> = vec![lo, hi, 0, 1, -1, 10, 100];
    out.extend((0..extra).map(|i| lo.saturating_add(i)));
    out.retain(|n| lo <= *n && *n <= hi);
    out.dedup();
    out.into_iter().map(|n| n.to_string())
}

/// Texts of `lang` worth trying: samples of each format, from different years and cases.
fn text_candidates(lang: &Lang) -> impl Iterator<Item = String> + '_ {
    [
        "a",
        "0",
        "2026-07-01",
        "1999-12-31",
        "2026-07-01T00:00:00Z",
        "1999-12-31T23:59:59+01:00",
        "123e4567-e89b-12d3-a456-426614174000",
        "0123456789abcdef",
        "FEDCBA9876543210",
    ]
    .into_iter()
    .map(str::to_owned)
    .filter(|w| lang.accepts(w))
}

/// The most states the product of two patterns may have before the question is given up.
const MAX_STATES: usize = 200_000;

/// Whether every text matching `sub` also matches `sup` (each as `Regex::is_match` decides: a
/// match anywhere). An empty pattern matches everything.
pub fn patterns_included(sub: &str, sup: &str) -> Inclusion {
    if sub == sup || sup.is_empty() {
        return Inclusion::Yes;
    }
    let build = |pattern: &str| {
        dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Unanchored)
                    .match_kind(MatchKind::All)
                    .dfa_size_limit(Some(8 << 20))
                    .determinize_size_limit(Some(8 << 20)),
            )
            .build(pattern)
            .map_err(|e| {
                Inclusion::Unknown(format!(
                    "`{pattern}` cannot be compared as a finite automaton ({})",
                    first_line(&e.to_string())
                ))
            })
    };
    let a = match build(sub) {
        Ok(a) => a,
        Err(unknown) => return unknown,
    };
    let b = match build(sup) {
        Ok(b) => b,
        Err(unknown) => return unknown,
    };
    match Product::new(&a, &b).search() {
        Ok(None) => Inclusion::Yes,
        Ok(Some(witness)) => Inclusion::No(witness),
        Err(why) => Inclusion::Unknown(format!("`{sub}` and `{sup}`: {why}")),
    }
}

fn first_line(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(text)
        .trim()
}

type Dfa = dense::DFA<Vec<u32>>;

/// Where a UTF-8 decoder stands: how many continuation bytes it still needs, and the range
/// the next one must fall in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Utf8 {
    need: u8,
    lo: u8,
    hi: u8,
}

impl Utf8 {
    const BOUNDARY: Utf8 = Utf8 {
        need: 0,
        lo: 0,
        hi: 0,
    };

    /// After `byte`, or `None` when the text would not be valid UTF-8.
    fn step(self, byte: u8) -> Option<Utf8> {
        let next = |need, lo, hi| Some(Utf8 { need, lo, hi });
        if self.need > 0 {
            return if !(self.lo..=self.hi).contains(&byte) {
                None
            } else if self.need == 1 {
                Some(Utf8::BOUNDARY)
            } else {
                next(self.need - 1, 0x80, 0xBF)
            };
        }
        match byte {
            0x00..=0x7F => Some(Utf8::BOUNDARY),
            0xC2..=0xDF => next(1, 0x80, 0xBF),
            0xE0 => next(2, 0xA0, 0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => next(2, 0x80, 0xBF),
            0xED => next(2, 0x80, 0x9F),
            0xF0 => next(3, 0x90, 0xBF),
            0xF1..=0xF3 => next(3, 0x80, 0xBF),
            0xF4 => next(3, 0x80, 0x8F),
            _ => None,
        }
    }
}

/// Bytes the UTF-8 decoder cannot tell apart.
fn utf8_class(byte: u8) -> u8 {
    match byte {
        0x00..=0x7F => 0,
        0x80..=0x8F => 1,
        0x90..=0x9F => 2,
        0xA0..=0xBF => 3,
        0xC0..=0xC1 => 4,
        0xC2..=0xDF => 5,
        0xE0 => 6,
        0xE1..=0xEC => 7,
        0xED => 8,
        0xEE..=0xEF => 9,
        0xF0 => 10,
        0xF1..=0xF3 => 11,
        0xF4 => 12,
        0xF5..=0xFF => 13,
    }
}

/// The order bytes are tried in, so witnesses read well: letters, digits, other printable
/// ASCII, space, control characters, then the bytes of longer UTF-8 sequences.
fn byte_preference() -> Vec<u8> {
    let mut out: Vec<u8> = (b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .chain(b'0'..=b'9')
        .collect();
    out.extend((0x21..=0x7E).filter(|b: &u8| !b.is_ascii_alphanumeric()));
    out.push(b' ');
    out.extend((0x00..0x20).chain([0x7F]));
    out.extend(0x80..=0xFF);
    out
}

/// One state of the two DFAs run side by side; `m` is set once the DFA has seen a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    a: StateID,
    a_matched: bool,
    b: StateID,
    b_matched: bool,
    utf8: Utf8,
}

struct Product<'d> {
    a: &'d Dfa,
    b: &'d Dfa,
    /// One byte of each class the two DFAs and the UTF-8 decoder can tell apart.
    bytes: Vec<u8>,
}

impl<'d> Product<'d> {
    fn new(a: &'d Dfa, b: &'d Dfa) -> Self {
        let mut seen = std::collections::HashSet::new();
        let bytes = byte_preference()
            .into_iter()
            .filter(|&byte| {
                seen.insert((
                    a.byte_classes().get(byte),
                    b.byte_classes().get(byte),
                    utf8_class(byte),
                ))
            })
            .collect();
        Self { a, b, bytes }
    }

    /// True when the text read so far matches (a match seen, or one ending at its end).
    fn accepts(dfa: &Dfa, state: StateID, matched: bool) -> bool {
        matched || dfa.is_match_state(dfa.next_eoi_state(state))
    }

    /// The shortest valid text `a` matches and `b` does not, if there is one.
    fn search(&self) -> Result<Option<String>, String> {
        let config = start::Config::new().anchored(Anchored::No);
        let start_a = self.a.start_state(&config).map_err(|e| e.to_string())?;
        let start_b = self.b.start_state(&config).map_err(|e| e.to_string())?;
        let root = Node {
            a: start_a,
            a_matched: false,
            b: start_b,
            b_matched: false,
            utf8: Utf8::BOUNDARY,
        };
        let mut parent: HashMap<Node, Option<(Node, u8)>> = HashMap::from([(root, None)]);
        let mut queue = VecDeque::from([root]);
        // The empty text is a poor example: it is kept only when no other text tells the two
        // apart.
        let mut empty = false;
        while let Some(node) = queue.pop_front() {
            if node.utf8 == Utf8::BOUNDARY
                && Self::accepts(self.a, node.a, node.a_matched)
                && !Self::accepts(self.b, node.b, node.b_matched)
            {
                if node != root {
                    return Ok(Some(Self::path(&parent, node)));
                }
                empty = true;
            }
            for &byte in &self.bytes {
                let Some(utf8) = node.utf8.step(byte) else {
                    continue;
                };
                let next = self.step(node, byte, utf8);
                // `b` matched: every longer text matches it too. `a` dead without a match:
                // no longer text matches it.
                if next.b_matched || (!next.a_matched && self.a.is_dead_state(next.a)) {
                    continue;
                }
                if parent.contains_key(&next) {
                    continue;
                }
                if parent.len() >= MAX_STATES {
                    return Err("too many states to compare".into());
                }
                parent.insert(next, Some((node, byte)));
                queue.push_back(next);
            }
        }
        Ok(empty.then(String::new))
    }

    fn step(&self, node: Node, byte: u8, utf8: Utf8) -> Node {
        let (a, a_matched) = if node.a_matched {
            (node.a, true)
        } else {
            let a = self.a.next_state(node.a, byte);
            (a, self.a.is_match_state(a))
        };
        let b = self.b.next_state(node.b, byte);
        Node {
            a,
            a_matched,
            b,
            b_matched: node.b_matched || self.b.is_match_state(b),
            utf8,
        }
    }

    fn path(parent: &HashMap<Node, Option<(Node, u8)>>, mut node: Node) -> String {
        let mut bytes = Vec::new();
        while let Some(Some((prev, byte))) = parent.get(&node) {
            bytes.push(*byte);
            node = *prev;
        }
        bytes.reverse();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{IntegerType, Pattern, StringType};

    fn text(pattern: Option<&str>, format: Option<StringFormat>) -> Lang {
        Lang::of_param(&ParamType::String(StringType {
            pattern: pattern.map(|p| Pattern {
                regex: p.into(),
                doc: None,
            }),
            format,
        }))
    }

    fn int(min: Option<i64>, max: Option<i64>) -> Lang {
        Lang::of_param(&ParamType::Integer(IntegerType {
            min,
            max,
            format: None,
        }))
    }

    #[test]
    fn narrower_patterns_are_included_with_witnesses_the_other_way() {
        assert_eq!(
            patterns_included("^[A-Z]{1,4}$", "^[A-Z]{1,5}$"),
            Inclusion::Yes
        );
        assert_eq!(
            patterns_included("^[A-Z]{1,5}$", "^[A-Z]{1,4}$"),
            Inclusion::No("AAAAA".into())
        );
        assert_eq!(patterns_included("^[A-Z]+$", "^[A-Za-z]+$"), Inclusion::Yes);
        assert_eq!(
            patterns_included("^[A-Za-z]+$", "^[A-Z]+$"),
            Inclusion::No("a".into())
        );
        // A match anywhere, as the runtime decides: `^a|b$` matches "ax" and "xb".
        assert_eq!(patterns_included("^ax$", "^a|b$"), Inclusion::Yes);
        assert_eq!(patterns_included("^xb$", "^a|b$"), Inclusion::Yes);
    }

    #[test]
    fn unicode_witnesses_are_valid_text() {
        match patterns_included("^\\p{Greek}$", "^[a-zα]$") {
            Inclusion::No(w) => {
                assert_eq!(w.chars().count(), 1, "{w:?}");
                assert!(w != "α" && !w.is_ascii(), "{w:?}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            patterns_included("^.+$", "^[ -~]+$"),
            Inclusion::No("\0".into())
        );
        assert_eq!(patterns_included("^.*\\S.*$", "^.+$"), Inclusion::Yes);
    }

    #[test]
    fn word_boundaries_cannot_be_decided() {
        assert!(matches!(
            patterns_included("^\\bAB$", "^[A-Z]+$"),
            Inclusion::Unknown(_)
        ));
    }

    #[test]
    fn types_compare_by_their_values() {
        assert_eq!(
            int(Some(1), Some(100)).included_in(&int(Some(1), Some(10))),
            Inclusion::No("11".into())
        );
        assert_eq!(
            int(Some(1), Some(10)).included_in(&int(Some(0), None)),
            Inclusion::Yes
        );
        assert_eq!(
            int(None, None).included_in(&text(None, None)),
            Inclusion::Yes
        );
        assert!(matches!(
            text(None, None).included_in(&int(None, None)),
            Inclusion::No(_)
        ));
        let set = Lang::values("value set", ["a", "b"]);
        assert_eq!(
            set.included_in(&text(Some("^[a-z]$"), None)),
            Inclusion::Yes
        );
        assert_eq!(
            text(Some("^[a-c]$"), None).included_in(&set),
            Inclusion::No("c".into())
        );
        assert_eq!(
            text(None, Some(StringFormat::Date)).included_in(&text(None, None)),
            Inclusion::Yes
        );
        assert!(matches!(
            text(None, None).included_in(&text(None, Some(StringFormat::Uuid))),
            Inclusion::No(_)
        ));
        assert!(matches!(
            text(None, Some(StringFormat::Uuid))
                .included_in(&text(None, Some(StringFormat::Hex16))),
            Inclusion::No(_)
        ));
    }
}
