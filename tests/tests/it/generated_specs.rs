//! The property test of the generator: specs produced from a grammar (`mrds_tests::spec_gen`)
//! whose names include keywords, the generated code's own names, prelude names, unicode,
//! separators and near-collisions, and every parameter kind and rule kind. Whatever the checker
//! does with them, it must not panic, and it must point every rejection at a file, line and
//! column; every spec it accepts must generate crates that compile without a warning, whose
//! docs hold no failing doctest, and whose router builds.
//!
//! The default run is small and fixed (seed 20261121: a few hundred specs loaded, the first
//! three accepted ones compiled). A long run:
//!
//! ```sh
//! MRDS_SPEC_SEED=1 MRDS_SPEC_CASES=5000 MRDS_SPEC_COMPILE=100 \
//!     cargo test -p mrds-tests --test it generated_specs -- --nocapture
//! ```
//!
//! A failure names its seed; `mrds_tests::spec_gen::spec(seed)` rebuilds the spec.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use mrds_tests::{Checks, check_generated, spec_gen};

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn specs_from_the_grammar_are_rejected_with_a_place_or_generate_crates_that_compile() {
    let first = env_number("MRDS_SPEC_SEED", 20_261_121);
    let cases = env_number("MRDS_SPEC_CASES", 400);
    let compile = env_number("MRDS_SPEC_COMPILE", 3);
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-specs");

    let (mut accepted, mut compiled) = (0, 0);
    let mut problems = Vec::new();
    for seed in first..first + cases {
        let sources = spec_gen::spec(seed);
        let loaded = panic::catch_unwind(AssertUnwindSafe(|| mrds_codegen::load_sources(&sources)));
        let api = match loaded {
            Err(_) => {
                problems.push(format!("seed {seed}: loading panicked"));
                continue;
            }
            Ok(Err(diags)) => {
                for d in &diags.0 {
                    match &d.location {
                        Some(loc) if loc.line > 0 && loc.column > 0 => {}
                        _ => {
                            problems.push(format!("seed {seed}: a diagnostic without a place: {d}"))
                        }
                    }
                }
                continue;
            }
            Ok(Ok(api)) => api,
        };
        accepted += 1;
        let files = match panic::catch_unwind(AssertUnwindSafe(|| mrds_codegen::generate(&api))) {
            Ok(Ok(files)) => files,
            Ok(Err(e)) => {
                problems.push(format!("seed {seed}: {e}"));
                continue;
            }
            Err(_) => {
                problems.push(format!("seed {seed}: generating panicked"));
                continue;
            }
        };
        if compiled < compile {
            compiled += 1;
            let checks = Checks {
                doctests: true,
                router: true,
            };
            if let Err(e) = check_generated(&scratch, &files, checks) {
                problems.push(format!("seed {seed} (spec:\n{}\n): {e}", sources[1].1));
            }
        }
    }
    println!("{cases} specs: {accepted} accepted, {compiled} compiled");
    assert!(
        compiled >= compile.min(1),
        "the grammar produced only {accepted} accepted specs of {cases}: the test would prove nothing"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
