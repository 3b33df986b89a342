//! The property test of the generator: specs produced from a grammar (`mrds_tests::spec_gen`)
//! whose names include keywords, the generated code's own names, prelude names, unicode,
//! separators and near-collisions, and every parameter kind and rule kind. Whatever the checker
//! does with them, it must not panic, and it must point every rejection at a file, line and
//! column; every spec it accepts must generate crates that compile without a warning, whose
//! docs hold no failing doctest, and whose router builds.
//!
//! The default run is small and fixed (seed 20261121: 60 specs loaded and generated, none
//! compiled). Compiling is explicit (the first three accepted specs, about half
//! a minute; CI runs it in `.ci/exhaustive`), and so is a long run:
//!
//! ```sh
//! cargo test -p mrds-tests --test it generated_specs -- --ignored
//! MRDS_SPEC_SEED=1 MRDS_SPEC_CASES=5000 MRDS_SPEC_COMPILE=100 \
//!     cargo test -p mrds-tests --test it generated_specs -- --ignored --nocapture
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

/// Loading and generating every spec: a rejection has a place, an accepted spec generates.
#[test]
fn specs_from_the_grammar_are_rejected_with_a_place_or_generate() {
    run(60, 0);
}

/// The same, and the crates of the first accepted specs compile, pass their doctests and build
/// their router.
#[test]
#[ignore = "exhaustive: compiles generated crates in a scratch workspace; .ci/exhaustive runs it"]
fn specs_from_the_grammar_are_rejected_with_a_place_or_generate_crates_that_compile() {
    run(400, env_number("MRDS_SPEC_COMPILE", 3));
}

/// Loads `cases` specs from the seed on (both overridden by the environment) and compiles the
/// crates of the first `compile` accepted ones.
fn run(cases: u64, compile: u64) {
    let first = env_number("MRDS_SPEC_SEED", 20_261_121);
    let cases = env_number("MRDS_SPEC_CASES", cases);
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-specs");

    let (mut accepted, mut compiled) = (0, 0);
    let mut problems = Vec::new();
    for seed in first..first + cases {
        let sources = spec_gen::spec(seed);
        let loaded = panic::catch_unwind(AssertUnwindSafe(|| mrds_spec::load_sources(&sources)));
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
        let files = match panic::catch_unwind(AssertUnwindSafe(|| mrds_emit::all(&api))) {
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
        accepted >= 1 && compiled >= compile.min(1),
        "the grammar produced only {accepted} accepted specs of {cases}: the test would prove nothing"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
