//! Never down: hostile buffers and random edit sequences get diagnostics or nothing, never a
//! panic or a hang, and the next valid edit is answered correctly (`mrds_lsp::fuzz`, the
//! property the `lsp_edits` fuzz target checks). `MRDS_PROPERTY_SEED` and
//! `MRDS_PROPERTY_CASES` draw other or more sequences.

use mrds_lsp::fuzz::{VALID, edit_sequence, edit_texts};

/// A small generator (xorshift64*): the same seed, the same sequences.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_edit_sequences_never_bring_the_server_down() {
    let seed = env("MRDS_PROPERTY_SEED", 42);
    let cases = env("MRDS_PROPERTY_CASES", 12);
    let mut rng = Rng(seed.max(1));
    for case in 0..cases {
        let len = (rng.next() % 400) as usize;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                let b = rng.next() as u8;
                // Separators often enough for a few edits per sequence.
                if b.is_multiple_of(23) { 0xFF } else { b }
            })
            .collect();
        let outcome = std::panic::catch_unwind(|| edit_sequence(&data));
        assert!(outcome.is_ok(), "seed {seed}, case {case}: {data:?}");
    }
}

#[test]
fn binary_bytes_an_alias_bomb_unterminated_quotes_and_half_typed_yaml() {
    let api = VALID[0].1;
    let binary: String = (0u8..=255).map(char::from).collect::<String>().repeat(8);
    let mut edits = vec![
        (0, binary),
        (0, mrds_lsp::fuzz::VALID[0].1.replacen("default: 10,", "default: [&a [lol, lol, lol, lol, lol, lol, lol, lol, lol], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], &c [*b, *b, *b, *b, *b, *b, *b, *b, *b], &d [*c, *c, *c, *c, *c, *c, *c, *c, *c], &e [*d, *d, *d, *d, *d, *d, *d, *d, *d], &f [*e, *e, *e, *e, *e, *e, *e, *e, *e], &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]],", 1)),
        (0, api.replacen("summary: Bars of one symbol.", "summary: \"Bars of one", 1)),
        (1, "samples:\n  bars:\n    example: '/v1/bars?symbol=".to_owned()),
    ];
    // Every prefix of a line of the endpoints, as typed.
    let at = api.find("    paging:").expect("a paging line");
    for end in at..at + 20 {
        edits.push((0, api[..end].to_owned() + &api[at + 20..]));
    }
    edit_texts(&edits);
}

/// A 5 MB buffer: checked (or refused) within the property's patience, then the valid text.
#[test]
fn a_five_megabyte_buffer() {
    let line = "# a comment line that takes room, as a generated or pasted file would\n";
    let big = format!(
        "{}{}",
        line.repeat(5 * 1024 * 1024 / line.len()),
        VALID[0].1
    );
    edit_texts(&[(0, big)]);
}

/// The fuzz target's committed corpus (`lsp/tests/fuzz-corpus/`), replayed on stable.
#[test]
fn the_fuzz_corpus_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus");
    let mut inputs: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "the corpus has seeds");
    for input in inputs {
        edit_sequence(&std::fs::read(&input).expect("readable"));
    }
}
