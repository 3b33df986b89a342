//! The spec's patterns, compiled when the crates are generated: each becomes the table of a
//! deterministic finite automaton, which `mrds_runtime::Pattern` runs. The model crate
//! compiles no regular expression engine.
//!
//! `regex-automata` builds a dense DFA with the semantics the generated code has always had,
//! `regex::Regex::is_match` on the text (default syntax: Unicode classes, `^` and `$` at the
//! ends of the text, `.` not matching `\n`; a match anywhere, the spec anchoring its patterns
//! itself): an unanchored search, every match kind kept, minimized. This module then walks its
//! states from the start state, numbers them (the dead state 0, the match states last, so the
//! runtime tells a match by comparing ids), merges the bytes no state tells apart into
//! classes, and writes the table `mrds_runtime::Pattern` documents. The runtime adds what the
//! DFA leaves to its caller: a match must end on a character boundary, as `regex` reports no
//! empty match inside a character.
//!
//! A table rather than generated matching code: a byte string is the cheapest thing for rustc
//! to compile (a `match` per state would cost the model crate's build far more for patterns
//! with Unicode classes), the table is checked when the `static` holding it is evaluated, and
//! the loop that runs it is written and tested once, in the runtime.
//!
//! What has no such automaton is refused by the checker at its spec line ([`table`] is what it
//! calls): a Unicode word boundary (`\b`, which needs to look at whole characters on both
//! sides), or an automaton larger than [`MAX_TABLE_BYTES`] (large counted repetitions,
//! especially of Unicode classes).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

/// The largest table a pattern may have (its transitions are most of it).
pub const MAX_TABLE_BYTES: usize = 64 * 1024;

/// Memory `regex-automata` may use while building one automaton, before giving up.
const BUILD_LIMIT: usize = 2 << 20;

/// Bytes of the table before the transitions: width, columns, start, first match state, and
/// the class of each byte.
const HEADER: usize = 7 + 256;

/// The hint for what a valid pattern should never meet.
const LIMITATION: &str =
    "this is a limit of the generator, not of the spec; please report it with the pattern";

/// Why a pattern has no matcher the generator can emit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatchable {
    /// What stands in the way, to follow "pattern `...` cannot be compiled to an automaton: ".
    pub reason: String,
    /// How to write the pattern so it can.
    pub hint: String,
}

impl fmt::Display for Unmatchable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

fn too_large(what: String) -> Unmatchable {
    Unmatchable {
        reason: what,
        hint: "counted repetitions multiply the automaton's states, classes such as `\\w`, `\\d` \
               or `.` more so (they match thousands of characters); lower the count, or name \
               the characters (`[A-Za-z0-9_]` instead of `\\w`)"
            .into(),
    }
}

/// The expression the generated code checks a text with: `mrds_runtime::pattern!(SOURCE,
/// TABLE)`, a `&'static mrds_runtime::Pattern`.
///
/// # Panics
///
/// When `pattern` has no table: the checker refuses such a spec before anything is emitted.
pub fn pattern(pattern: &str) -> TokenStream {
    let table = table(pattern).expect("the checker compiled every pattern");
    let table = Literal::byte_string(&table);
    quote!(mrds_runtime::pattern!(#pattern, #table))
}

/// The automaton of `pattern` (a valid regular expression) as `mrds_runtime::Pattern` reads it.
pub fn table(pattern: &str) -> Result<Vec<u8>, Unmatchable> {
    if let Ok(hir) = regex_syntax::parse(pattern)
        && hir.properties().look_set().contains_word_unicode()
    {
        return Err(Unmatchable {
            reason: "a Unicode word boundary (`\\b`, `\\B`, `\\<`, `\\>`, `\\b{start}`, ...) has \
                     no finite automaton"
                .into(),
            hint: "use the ASCII word boundary `(?-u:\\b)`, or say what may stand on each side \
                   with classes"
                .into(),
        });
    }
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Unanchored)
                .match_kind(MatchKind::All)
                .minimize(true)
                .dfa_size_limit(Some(BUILD_LIMIT))
                .determinize_size_limit(Some(BUILD_LIMIT)),
        )
        .build(pattern)
        .map_err(|e| {
            if e.is_size_limit_exceeded() {
                too_large(format!(
                    "its automaton grows past the {} MiB the generator allows while building it",
                    BUILD_LIMIT >> 20
                ))
            } else {
                Unmatchable {
                    reason: error_chain(&e),
                    hint: "write it with the regular expression syntax's basic features: \
                           classes, alternation, repetition, `^` and `$`"
                        .into(),
                }
            }
        })?;
    let table = Walk::new(&dfa)?.encode();
    if table.len() > MAX_TABLE_BYTES {
        return Err(too_large(format!(
            "its automaton takes {} bytes, more than the {MAX_TABLE_BYTES} allowed",
            table.len()
        )));
    }
    Ok(table)
}

/// An error and its sources, on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

type Dfa = dense::DFA<Vec<u32>>;

/// The states reachable from the start state, numbered for the table.
struct Walk {
    /// `next[s][b]`: the state after byte `b` in state `s` (new ids); `next[s][256]` after the
    /// end of the text.
    next: Vec<[u16; 257]>,
    start: u16,
    first_match: u16,
}

impl Walk {
    fn new(dfa: &Dfa) -> Result<Walk, Unmatchable> {
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::No))
            .map_err(|e| Unmatchable {
                reason: error_chain(&e),
                hint: LIMITATION.into(),
            })?;
        // Breadth first, in the order bytes are tried, so the numbering is deterministic.
        let mut order: Vec<StateID> = Vec::new();
        let mut seen: HashMap<StateID, usize> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        seen.insert(start, 0);
        let mut edges: Vec<[StateID; 257]> = Vec::new();
        while let Some(s) = queue.pop_front() {
            if dfa.is_quit_state(s) {
                return Err(Unmatchable {
                    reason: "its automaton gives up on some texts".into(),
                    hint: LIMITATION.into(),
                });
            }
            order.push(s);
            let mut row = [s; 257];
            for (b, slot) in row.iter_mut().enumerate().take(256) {
                *slot = dfa.next_state(s, b as u8);
            }
            row[256] = dfa.next_eoi_state(s);
            for &t in &row {
                if !seen.contains_key(&t) {
                    seen.insert(t, seen.len());
                    queue.push_back(t);
                }
            }
            edges.push(row);
        }
        // New ids: the dead state, the other states that are no match, the match states.
        let dead = (0..order.len()).find(|&i| dfa.is_dead_state(order[i]));
        let mut ids: Vec<usize> = Vec::with_capacity(order.len());
        ids.extend(dead);
        let others = (0..order.len()).filter(|&i| Some(i) != dead);
        let (matches, plain): (Vec<usize>, Vec<usize>) =
            others.partition(|&i| dfa.is_match_state(order[i]));
        if dead.is_none() {
            // A pattern that never dies still needs state 0 to be one that leads nowhere.
            ids.push(usize::MAX);
        }
        ids.extend(&plain);
        let first_match = ids.len();
        ids.extend(&matches);
        if ids.len() > usize::from(u16::MAX) {
            return Err(too_large(format!(
                "its automaton has {} states, more than the {} a table can number",
                ids.len(),
                u16::MAX
            )));
        }
        let mut new_id: HashMap<StateID, u16> = HashMap::new();
        for (n, &i) in ids.iter().enumerate() {
            if i != usize::MAX {
                new_id.insert(order[i], n as u16);
            }
        }
        let next = ids
            .iter()
            .map(|&i| {
                let mut row = [0u16; 257];
                if i != usize::MAX {
                    for (slot, t) in row.iter_mut().zip(&edges[i]) {
                        *slot = new_id[t];
                    }
                }
                row
            })
            .collect();
        Ok(Walk {
            next,
            start: new_id[&start],
            first_match: first_match as u16,
        })
    }

    /// The table: bytes that no state tells apart share a column.
    fn encode(&self) -> Vec<u8> {
        let mut classes: BTreeMap<Vec<u16>, u8> = BTreeMap::new();
        let mut class_of = [0u8; 256];
        let mut representatives: Vec<usize> = Vec::new();
        for (b, class) in class_of.iter_mut().enumerate() {
            let column: Vec<u16> = self.next.iter().map(|row| row[b]).collect();
            let n = classes.len();
            *class = *classes.entry(column).or_insert_with(|| {
                representatives.push(b);
                n as u8
            });
        }
        representatives.push(256);
        let stride = representatives.len() as u16;
        let wide = self.next.len() > 256;
        let mut out = Vec::with_capacity(HEADER + self.next.len() * representatives.len() * 2);
        out.push(if wide { 2 } else { 1 });
        out.extend(stride.to_le_bytes());
        out.extend(self.start.to_le_bytes());
        out.extend(self.first_match.to_le_bytes());
        out.extend(class_of);
        for row in &self.next {
            for &r in &representatives {
                if wide {
                    out.extend(row[r].to_le_bytes());
                } else {
                    out.push(row[r] as u8);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a table as `mrds_runtime::Pattern` does (the runtime's own copy is tested against
    /// `regex` in the tests crate; this one keeps the encoder's unit tests self-contained).
    fn run(table: &[u8], text: &str) -> bool {
        let wide = table[0] == 2;
        let stride = u16::from_le_bytes([table[1], table[2]]) as usize;
        let first_match = u16::from_le_bytes([table[5], table[6]]) as usize;
        let next = |s: usize, c: usize| {
            let at = HEADER + (s * stride + c) * if wide { 2 } else { 1 };
            if wide {
                u16::from_le_bytes([table[at], table[at + 1]]) as usize
            } else {
                table[at] as usize
            }
        };
        let mut s = u16::from_le_bytes([table[3], table[4]]) as usize;
        for &b in text.as_bytes() {
            s = next(s, table[7 + b as usize] as usize);
            if s >= first_match && b & 0xC0 != 0x80 {
                return true;
            }
        }
        next(s, stride - 1) >= first_match
    }

    #[test]
    fn a_small_pattern_has_a_small_table() {
        let t = table("^[A-Z]{6}$").unwrap();
        // Dead, the start, six letters read, the match after the end: 9 states, 3 columns.
        assert_eq!(t[0], 1);
        assert_eq!(u16::from_le_bytes([t[1], t[2]]), 3);
        assert_eq!(t.len(), HEADER + 9 * 3);
        assert!(run(&t, "EURUSD") && !run(&t, "EURUS") && !run(&t, "EURUSDX"));
    }

    #[test]
    fn the_semantics_are_a_match_anywhere() {
        let prefix = table("^[A-Z]+_OPTION_").unwrap();
        assert!(run(&prefix, "BTC_OPTION_X") && !run(&prefix, "x_OPTION_"));
        let either = table("^a|b$").unwrap();
        assert!(run(&either, "ax") && run(&either, "xb") && !run(&either, "xa"));
        let empty = table("").unwrap();
        assert!(run(&empty, "") && run(&empty, "anything"));
        // `regex` reports no empty match inside a character.
        let inside = table(r"(?-u:\B)").unwrap();
        assert!(!run(&inside, "aéa") && run(&inside, "é"));
    }

    #[test]
    fn refuses_what_has_no_small_automaton() {
        let word = table(r"^\bx$").unwrap_err();
        assert!(word.reason.contains("Unicode word boundary"), "{word:?}");
        let big = table(r"^\w{1,400}$").unwrap_err();
        assert!(big.reason.contains("allow"), "{big:?}");
        assert!(table(r"^(?-u:\b)x$").is_ok());
    }

    #[test]
    fn the_emitted_expression_names_the_pattern() {
        let tokens = pattern("^BTC$").to_string();
        assert!(
            tokens.starts_with("mrds_runtime :: pattern ! (\"^BTC$\" , b\""),
            "{tokens}"
        );
    }
}
