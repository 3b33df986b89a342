//! At catalog size: the provider's catalog has more than 100 endpoints. A synthetic spec seven
//! times the real one (`cargo xtask synth --scale 7`: 112 endpoints) goes through generation,
//! a build of the generated crates and the contract suite against its sample server, with
//! the time of each stage printed; the real spec goes through the same stages for comparison.
//! Both are explicit runs (CI runs them in `.ci/exhaustive`; BENCHMARKS.md has the times):
//!
//! ```sh
//! cargo test -p mrds-tests --test it catalog -- --ignored --nocapture --test-threads 1
//! ```
//!
//! The crates are built in a scratch workspace (`mrds_tests::write_workspace`) with a crate
//! whose test serves the generated sample server in process and runs the contract suite
//! (`mrds_contract::run`) against it, every endpoint required.

use std::path::Path;
use std::time::Instant;

use mrds_tests::{cargo_in, for_generated_crates, workspace_root, write_workspace};

/// The crate that serves the generated sample server and runs the contract suite against it.
fn catalog_check_toml() -> String {
    let root = workspace_root().canonicalize().unwrap();
    format!(
        r#"[package]
name = "catalog-check"
version = "0.0.0"
edition.workspace = true
publish = false

[dependencies]
mrds-spec = {{ path = "{spec}" }}
mrds-contract = {{ path = "{contract}" }}
mrds-mock = {{ path = "../crates/mrds-mock" }}
mrds-server = {{ path = "../crates/mrds-server" }}
tokio = {{ version = "1", features = ["macros", "net", "rt-multi-thread"] }}
"#,
        spec = root.join("codegen/spec").display(),
        contract = root.join("contract").display(),
    )
}

const CATALOG_CHECK_LIB: &str = r#"//! The contract suite against the generated sample server, in process.
#[tokio::test(flavor = "multi_thread")]
async fn the_contract_suite_passes_against_the_sample_server() {
    let spec = std::env::var("MRDS_CATALOG_SPEC").expect("MRDS_CATALOG_SPEC names the spec");
    let api = mrds_spec::load_spec(spec.as_ref()).unwrap_or_else(|d| panic!("{d}"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = mrds_mock::router(mrds_server::StaticKeys::new(["catalog-key"]));
    tokio::spawn(async move { mrds_server::axum::serve(listener, router).await });
    let options = mrds_contract::Options {
        base_url: format!("http://{addr}"),
        api_key: Some("catalog-key".into()),
        require_all: true,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let outcomes = mrds_contract::run(&api, &options).await.unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    let totals = mrds_contract::Totals::of(&outcomes);
    println!(
        "catalog-check: {} checks of {} endpoints in {elapsed:.1} s",
        totals.checks, totals.endpoints
    );
    assert_eq!(totals.endpoints, api.endpoints.len());
    assert!(totals.passed(true), "{}", mrds_contract::text_report(&api, &outcomes));
}
"#;

/// Sets the modification time of every file below `dir` to now.
fn touch_all(dir: &Path) {
    let now = std::time::SystemTime::now();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            touch_all(&path);
        } else if path.symlink_metadata().is_ok_and(|m| m.is_file()) {
            let file = std::fs::File::options().append(true).open(&path).unwrap();
            file.set_modified(now).unwrap();
        }
    }
}

/// Runs a stage, printing how long it took.
fn stage<T>(scale: usize, what: &str, f: impl FnOnce() -> Result<T, String>) -> T {
    let started = Instant::now();
    let out = f().unwrap_or_else(|e| panic!("{scale}x, {what}: {e}"));
    println!(
        "catalog {scale}x: {what}: {:.2} s",
        started.elapsed().as_secs_f64()
    );
    out
}

/// The stages for the real spec `scale` times over.
fn catalog(scale: usize) {
    let root = workspace_root();
    let sources = mrds_spec::load::read_dir(&root.join("spec")).unwrap();
    let sources = xtask::synth::scale(&sources, scale).unwrap();
    let api = stage(scale, "load and check", || {
        mrds_spec::load_sources(&sources).map_err(|d| d.to_string())
    });
    let live = api.endpoints.iter().filter(|e| e.removed.is_none()).count();
    println!(
        "catalog {scale}x: {} endpoints ({live} live), {} records",
        api.endpoints.len(),
        api.records.len()
    );
    let files = stage(scale, "generate", || {
        mrds_emit::all(&api).map_err(|e| e.to_string())
    });

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("catalog-{scale}x"));
    let lib = CATALOG_CHECK_LIB.to_owned();
    let toml = catalog_check_toml();
    write_workspace(
        &dir,
        &files,
        "catalog-check",
        &[
            ("catalog-check/Cargo.toml", &toml),
            ("catalog-check/src/lib.rs", &lib),
        ],
    )
    .unwrap();
    let spec = dir.join("spec");
    if spec.exists() {
        std::fs::remove_dir_all(&spec).unwrap();
    }
    for (name, text) in &sources {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    let crates = for_generated_crates(&["build", "--lib"]);
    // A full build of the four crates each time, their dependencies (the runtime included)
    // already built: their sources newer than any earlier build, no incremental cache.
    touch_all(&dir.join("crates"));
    stage(scale, "build the generated crates", || {
        cargo_in(&dir, &crates, &[("CARGO_INCREMENTAL", "0")])
    });
    let spec = spec.display().to_string();
    let out = stage(
        scale,
        "the contract suite (its crate built and run)",
        || {
            cargo_in(
                &dir,
                &["test", "-p", "catalog-check", "--", "--nocapture"],
                &[("MRDS_CATALOG_SPEC", &spec)],
            )
        },
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("catalog-check:"))
        .unwrap_or_else(|| panic!("the contract run said nothing:\n{out}"));
    println!("catalog {scale}x: {line}");
}

#[test]
#[ignore = "exhaustive: the real spec seven times over, built and checked; .ci/exhaustive runs it"]
fn seven_times_the_spec_generates_builds_and_passes_the_contract_suite() {
    catalog(7);
}

#[test]
#[ignore = "exhaustive: the same stages for the real spec, to compare; .ci/exhaustive runs it"]
fn the_real_spec_through_the_same_stages() {
    catalog(1);
}
