//! Requests with a JSON body, every method, lists and overlapping paths, end to end: the crates
//! generated from the body fixture (`tests/fixtures/body.yaml`, a `POST` under a `{platform}`
//! segment restricted to a value set) and the methods fixture (`tests/fixtures/methods.yaml`: a
//! `PUT` and a `DELETE` on one path, overlapping templates, a lookup integer with both bounds,
//! lists in both forms) run the tests of `tests/body_e2e/` in a scratch workspace: the client,
//! the server, the sample server, the proxy and the contract suite. Slow (it builds the generated crates, the
//! generator and the contract runner there): an explicit run,
//! `cargo test -p mrds-tests --test it bodies -- --ignored`, which CI makes.

use std::path::Path;

#[test]
#[ignore = "builds a scratch workspace; run explicitly (see the module docs)"]
fn a_post_with_a_body_works_end_to_end() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let read = |name: &str| {
        let text = std::fs::read_to_string(fixtures.join(name)).unwrap();
        (name.to_string(), text)
    };
    let spec = [read("base.yaml"), read("body.yaml"), read("methods.yaml")];
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("body-e2e");
    if let Err(e) = mrds_tests::run_generated_tests(&scratch, &spec, "body_e2e") {
        panic!("{e}");
    }
}
