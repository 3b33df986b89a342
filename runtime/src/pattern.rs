//! The spec's regular expressions, compiled by the generator: each pattern arrives as the
//! table of a deterministic finite automaton (DFA) that the generator built with
//! `regex-automata`, and [`Pattern::is_match`] runs it over the text's bytes. No regular
//! expression engine is compiled into the generated crates.
//!
//! # The table
//!
//! Written by `mrds-spec` (`codegen/spec/src/model/pattern/walk.rs`), read only here:
//!
//! | bytes | what |
//! |---|---|
//! | `0` | the width of a state id: 1 or 2 bytes |
//! | `1..3` | the number of columns (the byte classes, then one for the end of the text), `u16` little-endian |
//! | `3..5` | the start state |
//! | `5..7` | the first match state: every state from it on is a match state |
//! | `7..263` | the class of each byte value |
//! | `263..` | the transitions, one row of columns per state, each a state id (little-endian) |
//!
//! State 0 is the dead state: no match can follow. A match is seen one byte late, as in
//! `regex-automata`'s DFAs: entering a match state on the byte at offset `i` means a match ends
//! at `i`, and the last column gives the state after the end of the text. Matches are searched
//! anywhere in the text (the spec's patterns are anchored with `^` and `$` themselves), and a
//! match must end on a character boundary: `regex` reports no empty match inside a character,
//! and every other match ends on a boundary anyway.

use std::fmt;

/// Bytes before the transitions.
const HEADER: usize = 7 + 256;

/// A regular expression of the spec with its automaton. Made with a `const fn` that checks
/// the table, so a generated `static` holding a malformed one fails to compile instead of
/// failing at run time.
pub struct Pattern {
    source: &'static str,
    automaton: Automaton<'static>,
}

impl Pattern {
    /// The pattern `source` and its automaton `table` (laid out as the comment at the top of
    /// `runtime/src/pattern.rs` describes).
    ///
    /// # Panics
    ///
    /// When the table is malformed: a state id out of range, a row cut short. In a `static`
    /// (as the generated code and [`pattern!`](crate::pattern!) use it), that is a compile
    /// error.
    pub const fn new(source: &'static str, table: &'static [u8]) -> Self {
        Self {
            source,
            automaton: Automaton::new(table),
        }
    }

    /// The regular expression as the spec writes it.
    pub fn as_str(&self) -> &'static str {
        self.source
    }

    /// True when the pattern matches somewhere in `text`, as `regex::Regex::is_match` decides.
    pub fn is_match(&self, text: &str) -> bool {
        self.automaton.is_match(text)
    }

    /// The automaton.
    pub fn automaton(&self) -> &Automaton<'static> {
        &self.automaton
    }
}

/// The automaton of a pattern: a table (laid out as the comment at the top of
/// `runtime/src/pattern.rs` describes) and what its header says, read once. What runs a
/// pattern, in the generated crates ([`Pattern`]) and in the generator, which compares
/// patterns and finds texts they match by walking the same states.
#[derive(Clone, Copy)]
pub struct Automaton<'t> {
    table: &'t [u8],
    width: usize,
    stride: usize,
    start: usize,
    first_match: usize,
}

/// A little-endian `u16` at `at`.
const fn u16_at(table: &[u8], at: usize) -> usize {
    u16::from_le_bytes([table[at], table[at + 1]]) as usize
}

impl<'t> Automaton<'t> {
    /// The automaton of `table`.
    ///
    /// # Panics
    ///
    /// When the table is malformed: a state id out of range, a row cut short.
    pub const fn new(table: &'t [u8]) -> Self {
        assert!(table.len() >= HEADER, "the table has no header");
        let width = table[0] as usize;
        assert!(width == 1 || width == 2, "a state id is 1 or 2 bytes");
        let stride = u16_at(table, 1);
        assert!(stride >= 1 && stride <= 257, "1 to 257 columns");
        let row = stride * width;
        assert!(
            (table.len() - HEADER).is_multiple_of(row),
            "the transitions are whole rows"
        );
        let states = (table.len() - HEADER) / row;
        assert!(states >= 1, "the dead state is there");
        let start = u16_at(table, 3);
        let first_match = u16_at(table, 5);
        assert!(start < states && first_match >= 1 && first_match <= states);
        let mut i = 7;
        while i < HEADER {
            assert!(
                (table[i] as usize) < stride - 1,
                "a byte's class has a column"
            );
            i += 1;
        }
        let mut at = HEADER;
        while at < table.len() {
            let id = if width == 1 {
                table[at] as usize
            } else {
                u16_at(table, at)
            };
            assert!(id < states, "a transition leads to a state of the table");
            at += width;
        }
        Self {
            table,
            width,
            stride,
            start,
            first_match,
        }
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        (self.table.len() - HEADER) / (self.stride * self.width)
    }

    /// The state before the first byte.
    pub fn start(&self) -> usize {
        self.start
    }

    /// The state after `byte` in `state`.
    pub fn next(&self, state: usize, byte: u8) -> usize {
        self.column(state, self.table[7 + byte as usize] as usize)
    }

    /// The state after the end of the text in `state`.
    pub fn next_end(&self, state: usize) -> usize {
        self.column(state, self.stride - 1)
    }

    /// True for the states entered when a match ends just before the byte (or the end of the
    /// text) that led there.
    pub fn is_match_state(&self, state: usize) -> bool {
        state >= self.first_match
    }

    /// True for the state no match can follow.
    pub fn is_dead_state(&self, state: usize) -> bool {
        state == 0
    }

    /// The class of `byte`: bytes of one class lead every state to the same state.
    pub fn class(&self, byte: u8) -> u8 {
        self.table[7 + byte as usize]
    }

    /// The state after `state` in column `column`.
    fn column(&self, state: usize, column: usize) -> usize {
        let at = HEADER + (state * self.stride + column) * self.width;
        if self.width == 1 {
            self.table[at] as usize
        } else {
            u16_at(self.table, at)
        }
    }

    /// True when the pattern matches somewhere in `text`, as `regex::Regex::is_match` decides.
    pub fn is_match(&self, text: &str) -> bool {
        let mut state = self.start;
        for &byte in text.as_bytes() {
            state = self.next(state, byte);
            // A match ending before `byte`, which must not be inside a character.
            if self.is_match_state(state) && !is_continuation(byte) {
                return true;
            }
            if self.is_dead_state(state) {
                return false;
            }
        }
        self.is_match_state(self.next_end(state))
    }
}

/// A byte in the middle of a UTF-8 character.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// A `&'static` [`Pattern`] from the spec's text and the generator's table, held by a `static`
/// scoped to the expression, so no name leaks into the code around it:
/// `issues.pattern(rule, field, value, mrds_runtime::pattern!("^[A-Z]{6}$", b"..."), reason)`.
#[macro_export]
macro_rules! pattern {
    ($regex:literal, $table:expr) => {{
        static PATTERN: $crate::Pattern = $crate::Pattern::new($regex, $table);
        &PATTERN
    }};
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

impl fmt::Debug for Automaton<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Automaton")
            .field("states", &self.states())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table by hand: `^a+$` over the classes `a` (0), anything else (1), end (2). States:
    /// 0 dead, 1 start, 2 after one or more `a`, 3 match (seen at the end).
    const A_PLUS: &[u8] = &{
        let mut t = [0u8; HEADER + 4 * 3];
        t[0] = 1;
        t[1] = 3;
        t[3] = 1;
        t[5] = 3;
        let mut b = 0;
        while b < 256 {
            t[7 + b] = if b == b'a' as usize { 0 } else { 1 };
            b += 1;
        }
        // start: `a` → 2; else dead; end → dead.
        t[HEADER + 3] = 2;
        // after `a`: `a` → 2; else dead; end → match.
        t[HEADER + 6] = 2;
        t[HEADER + 8] = 3;
        t
    };

    static SOME_A: Pattern = Pattern::new("^a+$", A_PLUS);

    #[test]
    fn runs_the_table_over_the_whole_text() {
        assert!(SOME_A.is_match("a") && SOME_A.is_match("aaa"));
        assert!(!SOME_A.is_match("") && !SOME_A.is_match("ab") && !SOME_A.is_match("ba"));
        assert_eq!(SOME_A.as_str(), "^a+$");
        assert_eq!(format!("{SOME_A:?}"), "Pattern(\"^a+$\")");
        let same: &'static Pattern = crate::pattern!("^a+$", A_PLUS);
        assert!(same.is_match("aa") && !same.is_match("a\n"));
    }

    #[test]
    #[should_panic(expected = "a transition leads to a state of the table")]
    fn refuses_a_transition_out_of_range() {
        let mut t = A_PLUS.to_vec();
        t[HEADER + 3] = 9;
        Pattern::new("^a+$", t.leak());
    }

    #[test]
    #[should_panic(expected = "whole rows")]
    fn refuses_a_short_row() {
        Pattern::new("^a+$", &A_PLUS[..A_PLUS.len() - 1]);
    }
}
