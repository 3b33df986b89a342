//! The automata the generator compiles the spec's patterns into (`mrds_spec::model::Pattern`,
//! run by `mrds_runtime::Automaton`, as the generated code's `mrds_runtime::Pattern` runs them)
//! decide exactly as `regex::Regex::is_match` does, the engine the generated code used before.
//!
//! Patterns: every pattern of the real spec, of the fixtures and of specs drawn from the
//! grammar (parameters' `pattern`, rules' `matches`, conditions' `when: { matches }`), and
//! hand-picked hard ones (Unicode classes, alternations, counted repetition, empty matches,
//! flags, ASCII word boundaries). Texts: edge cases (empty, single characters, the pattern's
//! own examples and their one-character mutations, the ends of its classes) and random texts
//! over an alphabet built from the pattern with tricky characters added (Unicode letters,
//! digits and spaces, `\n`, `\r`, multi-byte characters). `MRDS_MATCHER_SEED` and
//! `MRDS_MATCHER_TEXTS` (random texts per pattern, 150 by default) run a longer search.

use std::collections::BTreeSet;

use mrds_spec::model::{Api, Pattern, PatternError};
use mrds_tests::spec_gen::{self, Rng};
use regex_syntax::hir::{Class, Hir, HirKind};

/// Patterns no spec holds yet, chosen for what makes automata hard.
const HARD: &[&str] = &[
    // Unicode classes.
    r"^\p{L}+$",
    r"^\w+$",
    r"^[\p{Greek}\d]{2,3}$",
    r"^\S+$",
    r"^.*\S.*$",
    r"^\d{1,4}$",
    r"^[^a-z]+$",
    r"(?i)^straße$",
    r"(?i)^k$",
    r"^[\p{Lu}&&[^A-Z]]$",
    // Alternations, overlapping and unanchored in part.
    r"^(ab|a|abc)$",
    r"^a|b$",
    r"^(foo|foobar)(bar)?$",
    r"^(?:[A-Z]+_(?:SPOT|PERP)|FX_[A-Z]{3})$",
    // Counted repetition.
    r"^a{2,5}$",
    r"^(ab){3}$",
    r"^[0-9]{1,20}$",
    r"^(a|bc){2,4}d?$",
    r"^x{0}$",
    // Empty matches, prefixes, unanchored patterns.
    "",
    "^",
    "$",
    "^$",
    "a*",
    "^a*",
    "^OPT_",
    r"(?-u:\B)",
    r"^(?-u:\B)",
    r"(?-u:\b)x(?-u:\b)",
    // Lines, dots and flags.
    "(?m)^$",
    "(?m)^a$",
    "(?s)^.+$",
    "^.$",
    "(?Rm)^b$",
    "^a+?$",
    r"^\^?[A-Za-z0-9.]{1,15}$",
    "^[é-ü]{2}$",
    "^😀+$",
];

/// Characters every random text may hold: ASCII of every kind, line ends, Unicode letters,
/// digits and spaces of one to four bytes.
const TRICKY: &[char] = &[
    'a', 'b', 'c', 'x', 'A', 'B', 'K', 'Z', '0', '1', '9', '_', '.', '-', '^', '$', ' ', '\t',
    '\n', '\r', 'é', 'ß', 'ẞ', 'Σ', 'σ', 'K', '٣', '中', '\u{a0}', '\u{2003}', '\u{3000}', '😀',
    '\u{301}', '\u{7f}', '\0',
];

fn patterns_of(api: &Api, out: &mut BTreeSet<String>) {
    out.extend(api.patterns().iter().map(|p| p.source().to_owned()));
}

/// The patterns of the real spec, of every fixture, and of the first specs of the grammar.
fn spec_patterns() -> BTreeSet<String> {
    let root = mrds_tests::workspace_root();
    let mut out = BTreeSet::new();
    let api = mrds_spec::load_spec(&root.join("spec")).expect("the spec loads");
    patterns_of(&api, &mut out);
    let spec_patterns = out.len();
    assert!(spec_patterns > 0, "the real spec has patterns");
    for (_, sources) in mrds_tests::fixture_specs() {
        if let Ok(api) = mrds_spec::load_sources(&sources) {
            patterns_of(&api, &mut out);
        }
    }
    let before_grammar = out.len();
    for seed in 0..60 {
        if let Ok(api) = mrds_spec::load_sources(&spec_gen::spec(seed)) {
            patterns_of(&api, &mut out);
        }
    }
    assert!(
        before_grammar > spec_patterns && out.len() > before_grammar,
        "the fixtures and the grammar add patterns of their own"
    );
    out
}

/// Characters at and just beyond the ends of the pattern's classes and its literals.
fn pattern_chars(hir: &Hir, out: &mut BTreeSet<char>) {
    let mut near = |c: u32| {
        for d in [c.wrapping_sub(1), c, c + 1] {
            if let Some(ch) = char::from_u32(d) {
                out.insert(ch);
            }
        }
    };
    match hir.kind() {
        HirKind::Literal(lit) => String::from_utf8_lossy(&lit.0)
            .chars()
            .for_each(|c| near(c as u32)),
        HirKind::Class(Class::Unicode(class)) => {
            // A large class (`\w`) gives its first and last ranges and a few in between.
            let ranges = class.ranges();
            let step = (ranges.len() / 8).max(1);
            for r in ranges.iter().step_by(step).chain(ranges.last()) {
                near(r.start() as u32);
                near(r.end() as u32);
            }
        }
        HirKind::Class(Class::Bytes(class)) => {
            for r in class.ranges() {
                near(u32::from(r.start()));
                near(u32::from(r.end()));
            }
        }
        HirKind::Repetition(r) => pattern_chars(&r.sub, out),
        HirKind::Capture(c) => pattern_chars(&c.sub, out),
        HirKind::Concat(parts) | HirKind::Alternation(parts) => {
            parts.iter().for_each(|p| pattern_chars(p, out))
        }
        HirKind::Empty | HirKind::Look(_) => {}
    }
}

/// The texts one pattern is tried on.
fn texts(pattern: &Pattern, rng: &mut Rng, random: usize) -> Vec<String> {
    let mut alphabet: BTreeSet<char> = TRICKY.iter().copied().collect();
    if let Ok(hir) = regex_syntax::parse(pattern.source()) {
        pattern_chars(&hir, &mut alphabet);
    }
    let alphabet: Vec<char> = alphabet.into_iter().collect();
    let mut out = vec![String::new()];
    out.extend(alphabet.iter().map(|c| c.to_string()));
    for example in pattern.examples().iter().cloned() {
        let chars: Vec<char> = example.chars().collect();
        for i in 0..=chars.len() {
            let (head, tail) = chars.split_at(i);
            let (head, tail): (String, String) = (head.iter().collect(), tail.iter().collect());
            out.push(format!(
                "{head}{}{tail}",
                alphabet[rng.below(alphabet.len())]
            ));
            if let Some(rest) = tail.chars().next() {
                let after: String = tail.chars().skip(1).collect();
                out.push(format!("{head}{after}"));
                out.push(format!(
                    "{head}{}{after}",
                    alphabet[rng.below(alphabet.len())]
                ));
                out.push(format!("{head}{rest}{rest}{after}"));
            }
        }
        out.push(format!("{example}\n"));
        out.push(format!("\n{example}"));
        out.push(example.repeat(2));
        out.push(example);
    }
    for _ in 0..random {
        let len = rng.below(14);
        out.push(
            (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect(),
        );
    }
    out
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name} is a number")))
        .unwrap_or(default)
}

#[test]
fn generated_matchers_decide_as_regex_does() {
    let seed = env_number("MRDS_MATCHER_SEED", 22);
    let random = env_number("MRDS_MATCHER_TEXTS", 150) as usize;
    let mut rng = Rng::new(seed);
    let mut patterns = spec_patterns();
    patterns.extend(HARD.iter().map(|p| p.to_string()));
    let mut failures = Vec::new();
    let (mut tried, mut matched) = (0, 0);
    for source in &patterns {
        let regex = regex::Regex::new(source).expect("a valid pattern");
        let pattern = Pattern::compile(source).unwrap_or_else(|e| panic!("`{source}`: {e}"));
        for text in texts(&pattern, &mut rng, random) {
            let (want, got) = (regex.is_match(&text), pattern.is_match(&text));
            tried += 1;
            matched += usize::from(want);
            if want != got {
                failures.push(format!(
                    "`{source}` on {text:?}: regex says {want}, the automaton {got}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "seed {seed}: {} of {tried} texts decided differently:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{tried} texts, {matched} matched");
    // Both answers are well represented, so agreement says something.
    assert!(
        matched * 10 > tried && matched * 10 < tried * 9,
        "{matched} of {tried} texts matched"
    );
}

/// A pattern the generated code could not run (no automaton within the limit) is refused with
/// the reason and a hint: a Unicode word boundary.
#[test]
fn patterns_without_a_small_automaton_are_refused_with_a_reason() {
    refused(&[(r"^\bx\b$", "Unicode word boundary")]);
}

/// The same for automata that grow past the limit: building them up to it takes a while in a
/// debug build.
#[test]
#[ignore = "slow: builds automata up to their size limit; .ci/exhaustive runs it"]
fn patterns_whose_automaton_grows_past_the_limit_are_refused_with_a_reason() {
    refused(&[
        (r"^\w{1,40}$", "allow"),
        (r"^[a-z]{12000}$", "allow"),
        (r"^\p{L}{1,10}$", "allow"),
    ]);
}

/// Each source is refused as unmatchable, its reason holding the text given, with a hint.
fn refused(cases: &[(&str, &str)]) {
    for (source, says) in cases {
        match Pattern::compile(source) {
            Err(PatternError::Unmatchable { reason, hint }) => {
                assert!(reason.contains(says), "`{source}`: {reason}");
                assert!(!hint.is_empty(), "`{source}` has a hint");
            }
            other => panic!("`{source}`: {other:?}"),
        }
    }
}
