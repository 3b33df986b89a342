//! The spec's regular expressions, compiled once: every pattern (a parameter's or a body
//! field's `pattern`, a rule's `matches`, a condition's `when: { matches }`) becomes one
//! [`Pattern`] when the checker reads it, holding the table of its automaton. Everything else
//! reads that value: the emitters write the table into the generated code
//! (`mrds_runtime::pattern!`), the checks of sample requests and the contract suite run it with
//! the runtime's own [`Automaton`] (so a text matches here exactly when it matches in the
//! generated crates), the contract suite takes its examples, and spec-diff compares two
//! patterns' languages by running their automata side by side. This is the one module that
//! compiles regular expressions.
//!
//! # The automaton
//!
//! `regex-automata` builds a dense DFA with the semantics the generated code has always had,
//! `regex::Regex::is_match` on the text (default syntax: Unicode classes, `^` and `$` at the
//! ends of the text, `.` not matching `\n`; a match anywhere, the spec anchoring its patterns
//! itself): an unanchored search, every match kind kept, built once. `walk.rs` then walks its
//! states from the start state over its byte classes, minimizes a small automaton (a large one
//! is kept as it is: the automata of the large patterns this meets barely shrink), numbers the
//! states (the dead state 0, the match states last, so the runtime tells a match by comparing
//! ids), merges the bytes no state tells apart into classes, and writes the table
//! `mrds_runtime::Pattern` documents. The runtime adds what the DFA leaves to its caller: a
//! match must end on a character boundary, as `regex` reports no empty match inside a
//! character.
//!
//! A table rather than generated matching code: a byte string is the cheapest thing for rustc
//! to compile (a `match` per state would cost the model crate's build far more for patterns
//! with Unicode classes), the table is checked when the `static` holding it is evaluated, and
//! the loop that runs it is written and tested once, in the runtime.
//!
//! What has no such automaton is refused by the checker at its spec line: a Unicode word
//! boundary (`\b`, which needs to look at whole characters on both sides), or an automaton
//! larger than [`MAX_TABLE_BYTES`] (large counted repetitions, especially of Unicode classes).

use std::fmt;
use std::sync::Arc;

use mrds_runtime::Automaton;
use regex_automata::MatchKind;
use regex_automata::dfa::{StartKind, dense};
use regex_syntax::hir::{Class, Hir, HirKind};

use product::Product;
use walk::Walk;

mod product;
mod walk;

/// The largest table a pattern may have (its transitions are most of it).
pub const MAX_TABLE_BYTES: usize = 64 * 1024;

/// Memory `regex-automata` may use while building one automaton, before giving up.
const BUILD_LIMIT: usize = 2 << 20;

/// The largest automaton (in `regex-automata`'s bytes) that is minimized: minimizing a larger
/// one costs more than building it, for tables that barely shrink.
const MINIMIZE_LIMIT: usize = 16 * 1024;

/// Bytes of the table before the transitions: width, columns, start, first match state, and
/// the class of each byte.
const HEADER: usize = 7 + 256;

/// The hint for what a valid pattern should never meet.
const LIMITATION: &str =
    "this is a limit of the generator, not of the spec; please report it with the pattern";

/// A regular expression of the spec with its automaton. Two are equal when their texts are.
#[derive(Clone)]
pub struct Pattern(Arc<Compiled>);

struct Compiled {
    source: String,
    table: Vec<u8>,
    examples: Vec<String>,
}

/// Why a text cannot be a pattern of the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// It is not a regular expression: the problem, as the parser words it.
    Syntax(String),
    /// It has no automaton the generated code can run.
    Unmatchable {
        /// What stands in the way, to follow "pattern `...` cannot be compiled to an
        /// automaton: ".
        reason: String,
        /// How to write the pattern so it can.
        hint: String,
    },
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Syntax(problem) => f.write_str(problem),
            PatternError::Unmatchable { reason, .. } => f.write_str(reason),
        }
    }
}

fn too_large(what: String) -> PatternError {
    PatternError::Unmatchable {
        reason: what,
        hint: "counted repetitions multiply the automaton's states, classes such as `\\w`, `\\d` \
               or `.` more so (they match thousands of characters); lower the count, or name \
               the characters (`[A-Za-z0-9_]` instead of `\\w`)"
            .into(),
    }
}

impl Pattern {
    /// Compiles `source`.
    pub fn compile(source: &str) -> Result<Pattern, PatternError> {
        let hir = regex_syntax::parse(source).map_err(|e| PatternError::Syntax(syntax(&e)))?;
        if hir.properties().look_set().contains_word_unicode() {
            return Err(PatternError::Unmatchable {
                reason: "a Unicode word boundary (`\\b`, `\\B`, `\\<`, `\\>`, `\\b{start}`, ...) \
                         has no finite automaton"
                    .into(),
                hint: "use the ASCII word boundary `(?-u:\\b)`, or say what may stand on each \
                       side with classes"
                    .into(),
            });
        }
        let dfa = build(source)?;
        let mut walk = Walk::new(&dfa)?;
        if dfa.memory_usage() <= MINIMIZE_LIMIT {
            walk.minimize();
        }
        let table = walk.encode()?;
        if table.len() > MAX_TABLE_BYTES {
            return Err(too_large(format!(
                "its automaton takes {} bytes, more than the {MAX_TABLE_BYTES} allowed",
                table.len()
            )));
        }
        let mut compiled = Compiled {
            source: source.to_owned(),
            table,
            examples: Vec::new(),
        };
        compiled.examples = examples(&hir, |text| compiled.automaton().is_match(text));
        Ok(Pattern(Arc::new(compiled)))
    }

    /// The pattern matching exactly the texts `values`.
    pub fn exactly<S: AsRef<str>>(values: &[S]) -> Result<Pattern, PatternError> {
        let alternatives: Vec<String> = values
            .iter()
            .map(|v| regex_syntax::escape(v.as_ref()))
            .collect();
        Pattern::compile(&format!("^(?:{})$", alternatives.join("|")))
    }

    /// The regular expression as the spec writes it.
    pub fn source(&self) -> &str {
        &self.0.source
    }

    /// The automaton's table, laid out as `mrds_runtime::Pattern` reads it.
    pub fn table(&self) -> &[u8] {
        &self.0.table
    }

    /// The automaton, as the runtime runs it.
    pub fn automaton(&self) -> Automaton<'_> {
        self.0.automaton()
    }

    /// True when the pattern matches somewhere in `text`, as the generated code decides.
    pub fn is_match(&self, text: &str) -> bool {
        self.automaton().is_match(text)
    }

    /// A few texts the pattern matches, simplest first: one per branch of its alternations
    /// (all taking the same branch), each character class giving one character (a letter or
    /// digit when it has one), each repetition its fewest characters (one for `+`).
    pub fn examples(&self) -> &[String] {
        &self.0.examples
    }

    /// A short text the pattern does not match: one of a few simple ones (the empty text,
    /// punctuation, a space, a long run of letters), else the shortest one of printable ASCII
    /// (`AAAA…` past a length limit), else the shortest valid text; `None` when the pattern
    /// matches every text.
    pub fn counterexample(&self) -> Option<String> {
        self.counterexample_where(|_| true)
    }

    /// A short text the pattern does not match and `keep` takes, chosen as
    /// [`Pattern::counterexample`] chooses (an item of a comma list: not empty, no comma).
    pub fn counterexample_where(&self, keep: impl Fn(&str) -> bool) -> Option<String> {
        let simple = [
            "",
            "!",
            " ",
            "a b",
            "~~~~",
            "0",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ];
        if let Some(text) = simple.into_iter().find(|c| !self.is_match(c) && keep(c)) {
            return Some(text.to_owned());
        }
        let any = Pattern::anything();
        let printable = |b: u8| (0x20..0x7F).contains(&b);
        [Some(printable as fn(u8) -> bool), None]
            .into_iter()
            .find_map(|only| {
                Product::new(any.automaton(), self.automaton(), only)
                    .search()
                    .ok()
                    .flatten()
            })
            .filter(|text| keep(text))
    }

    /// The pattern every text matches (the empty one).
    pub fn anything() -> &'static Pattern {
        static ANY: std::sync::OnceLock<Pattern> = std::sync::OnceLock::new();
        ANY.get_or_init(|| Pattern::compile("").expect("the empty pattern compiles"))
    }

    /// Whether every text `self` matches is matched by `sup`: the two automata run side by
    /// side over valid UTF-8, breadth first, so a difference comes with the shortest text
    /// that shows it. An empty pattern matches everything.
    pub fn included_in(&self, sup: &Pattern) -> Inclusion {
        if self.source() == sup.source() || sup.source().is_empty() {
            return Inclusion::Yes;
        }
        match Product::new(self.automaton(), sup.automaton(), None).search() {
            Ok(None) => Inclusion::Yes,
            Ok(Some(witness)) => Inclusion::No(witness),
            Err(why) => Inclusion::Unknown(format!("`{}` and `{}`: {why}", self, sup)),
        }
    }
}

impl Compiled {
    fn automaton(&self) -> Automaton<'_> {
        Automaton::new(&self.table)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source() == other.source()
    }
}

impl Eq for Pattern {}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source()).finish()
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source())
    }
}

/// The message of a syntax error: its last line, without the `error: ` prefix.
fn syntax(e: &regex_syntax::Error) -> String {
    let text = e.to_string();
    let last = text.lines().last().unwrap_or("invalid").trim();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

type Dfa = dense::DFA<Vec<u32>>;

/// The DFA of `pattern`.
fn build(pattern: &str) -> Result<Dfa, PatternError> {
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Unanchored)
                .match_kind(MatchKind::All)
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
                PatternError::Unmatchable {
                    reason: error_chain(&e),
                    hint: "write it with the regular expression syntax's basic features: \
                           classes, alternation, repetition, `^` and `$`"
                        .into(),
                }
            }
        })
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

/// Up to eight texts the pattern of `hir` matches (as `matches` decides), one per branch.
fn examples(hir: &Hir, matches: impl Fn(&str) -> bool) -> Vec<String> {
    let branches = max_branches(hir).max(1);
    let mut out: Vec<String> = Vec::new();
    for branch in 0..branches.min(8) {
        let mut text = String::new();
        example(hir, branch, &mut text);
        if matches(&text) && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

fn max_branches(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Alternation(alts) => alts
            .len()
            .max(alts.iter().map(max_branches).max().unwrap_or(0)),
        HirKind::Concat(parts) => parts.iter().map(max_branches).max().unwrap_or(0),
        HirKind::Capture(c) => max_branches(&c.sub),
        HirKind::Repetition(r) => max_branches(&r.sub),
        _ => 0,
    }
}

fn example(hir: &Hir, branch: usize, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(class) => {
            if let Some(c) = class_char(class) {
                out.push(c);
            }
        }
        HirKind::Repetition(r) => {
            for _ in 0..r.min {
                example(&r.sub, branch, out);
            }
        }
        HirKind::Capture(c) => example(&c.sub, branch, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| example(p, branch, out)),
        HirKind::Alternation(alts) => example(&alts[branch.min(alts.len() - 1)], branch, out),
    }
}

/// A character of `class`: `A`, `a` or `0` when it holds one, else its first one.
fn class_char(class: &Class) -> Option<char> {
    match class {
        Class::Unicode(u) => {
            let ranges: Vec<(char, char)> = u.iter().map(|r| (r.start(), r.end())).collect();
            ['A', 'a', '0']
                .into_iter()
                .find(|c| ranges.iter().any(|(a, b)| a <= c && c <= b))
                .or_else(|| ranges.first().map(|(a, _)| *a))
        }
        Class::Bytes(b) => b.iter().next().map(|r| char::from(r.start())),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(source: &str) -> Pattern {
        Pattern::compile(source).unwrap_or_else(|e| panic!("{source}: {e}"))
    }

    fn included(sub: &str, sup: &str) -> Inclusion {
        pattern(sub).included_in(&pattern(sup))
    }

    #[test]
    fn a_small_pattern_has_a_small_table() {
        let t = pattern("^[A-Z]{6}$");
        let table = t.table();
        // Dead, the start, six letters read, the match after the end: 9 states, 3 columns.
        assert_eq!(table[0], 1);
        assert_eq!(u16::from_le_bytes([table[1], table[2]]), 3);
        assert_eq!(table.len(), HEADER + 9 * 3);
        assert!(t.is_match("EURUSD") && !t.is_match("EURUS") && !t.is_match("EURUSDX"));
    }

    #[test]
    fn a_table_depends_on_the_language_only() {
        // The same language written three ways: one minimal automaton, one numbering.
        let table = |source: &str| pattern(source).table().to_vec();
        assert_eq!(table("^(?:ab|ab)$"), table("^ab$"));
        assert_eq!(table("^(?:a|b)c$"), table("^[ab]c$"));
        // States the walk tells apart only by their past are merged: `a` or `b` then `c`.
        let merged = pattern("^(?:ac|bc)$");
        assert_eq!(merged.table().len(), HEADER + 5 * 4);
        assert!(merged.is_match("ac") && merged.is_match("bc") && !merged.is_match("ab"));
    }

    #[test]
    fn the_semantics_are_a_match_anywhere() {
        let prefix = pattern("^[A-Z]+_OPTION_");
        assert!(prefix.is_match("BTC_OPTION_X") && !prefix.is_match("x_OPTION_"));
        let either = pattern("^a|b$");
        assert!(either.is_match("ax") && either.is_match("xb") && !either.is_match("xa"));
        let empty = pattern("");
        assert!(empty.is_match("") && empty.is_match("anything"));
        // `regex` reports no empty match inside a character.
        let inside = pattern(r"(?-u:\B)");
        assert!(!inside.is_match("aéa") && inside.is_match("é"));
    }

    #[test]
    fn refuses_what_has_no_small_automaton_and_what_is_no_regex() {
        let reason = |source: &str| match Pattern::compile(source) {
            Err(PatternError::Unmatchable { reason, hint }) => {
                assert!(!hint.is_empty());
                reason
            }
            other => panic!("{source}: {other:?}"),
        };
        assert!(reason(r"^\bx$").contains("Unicode word boundary"));
        assert!(reason(r"^\w{1,400}$").contains("allow"));
        assert!(Pattern::compile(r"^(?-u:\b)x$").is_ok());
        assert_eq!(
            Pattern::compile("^[a-$"),
            Err(PatternError::Syntax(
                "invalid character class range, the start must be <= the end".into()
            ))
        );
    }

    #[test]
    fn examples_match_their_patterns() {
        let examples = |source: &str| pattern(source).examples().to_vec();
        let pair = "^[A-Z0-9]+_(SPOT|PERP|OPTION|FUTURE)_[A-Z0-9]+_[A-Z0-9]+$";
        assert_eq!(
            examples(pair),
            vec!["A_SPOT_A_A", "A_PERP_A_A", "A_OPTION_A_A", "A_FUTURE_A_A"]
        );
        assert_eq!(examples("^[A-Z]{6}$"), vec!["AAAAAA"]);
        assert_eq!(examples("^\\^?[A-Za-z0-9.]{1,15}$"), vec!["A"]);
        assert_eq!(examples("^.*\\S.*$"), vec!["A"]);
        let option = "^[A-Z0-9]+_OPTION_[A-Z]{1,6}[0-9]{6}[CP][0-9]{8}_[A-Z0-9]+$";
        assert_eq!(examples(option), vec!["A_OPTION_A000000C00000000_A"]);
        let counter = |source: &str| pattern(source).counterexample();
        assert_eq!(counter("^[A-Z]{6}$").as_deref(), Some(""));
        assert_eq!(counter("^.*\\S.*$").as_deref(), Some(""));
        // Past a length limit, in printable text; else the shortest text of all.
        assert_eq!(counter("^.{0,40}$"), Some("A".repeat(41)));
        assert_eq!(counter("^.*$").as_deref(), Some("\n"));
        assert_eq!(counter("(?s)^.*$"), None);
    }

    #[test]
    fn narrower_patterns_are_included_with_witnesses_the_other_way() {
        assert_eq!(included("^[A-Z]{1,4}$", "^[A-Z]{1,5}$"), Inclusion::Yes);
        assert_eq!(
            included("^[A-Z]{1,5}$", "^[A-Z]{1,4}$"),
            Inclusion::No("AAAAA".into())
        );
        assert_eq!(included("^[A-Z]+$", "^[A-Za-z]+$"), Inclusion::Yes);
        assert_eq!(
            included("^[A-Za-z]+$", "^[A-Z]+$"),
            Inclusion::No("a".into())
        );
        // A match anywhere, as the runtime decides: `^a|b$` matches "ax" and "xb".
        assert_eq!(included("^ax$", "^a|b$"), Inclusion::Yes);
        assert_eq!(included("^xb$", "^a|b$"), Inclusion::Yes);
        let values = Pattern::exactly(&["a", "b.c"]).unwrap();
        assert!(values.is_match("b.c") && !values.is_match("bxc"));
    }

    #[test]
    fn unicode_witnesses_are_valid_text() {
        match included("^\\p{Greek}$", "^[a-zα]$") {
            Inclusion::No(w) => {
                assert_eq!(w.chars().count(), 1, "{w:?}");
                assert!(w != "α" && !w.is_ascii(), "{w:?}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(included("^.+$", "^[ -~]+$"), Inclusion::No("\0".into()));
        assert_eq!(included("^.*\\S.*$", "^.+$"), Inclusion::Yes);
    }

    #[test]
    fn the_emitted_table_is_what_the_runtime_reads() {
        let t = pattern("^BTC$");
        let runtime = mrds_runtime::Automaton::new(t.table());
        assert!(runtime.is_match("BTC") && !runtime.is_match("BTCX"));
    }
}
