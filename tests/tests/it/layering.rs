//! The crates are rooms, and the compiler holds their walls only as far as the dependency
//! graph does: this test reads the graph (`cargo metadata`) and fails when a crate reaches a
//! layer it must not, naming the path by which it does.
//!
//! - `mrds-spec` (the spec: YAML, AST, loading, checking, the model) knows nothing of the Rust it
//!   becomes: no `quote`, `syn`, `proc-macro2` or `prettyplease` in its normal dependencies (a
//!   derive macro's own dependencies are the compiler's business, not the crate's), and none of
//!   the rooms that stand on it.
//! - The emitters (`mrds-emit`), spec-diff (`mrds-diff`) and the contract suite's probes
//!   (`mrds-probes`) stand on the spec and never on each other; following the provider
//!   (`mrds-follow`) stands on the spec, spec-diff and the probes, never on the emitters.
//! - The language server (`mrds-lsp`) stands on the spec and spec-diff, never on the emitters.
//! - The runtime and the generated crates know no crate of the generator.
//! - `xtask`, which every `cargo xtask codegen` builds, has neither the contract runner (and its
//!   HTTP stack) nor an LSP crate.
//!
//! The graph is the workspace's with features unified (`cargo metadata`), so a wall of the
//! runtime's optional dependencies (the model crate without axum) is not a wall here: the
//! packaged crates' own builds hold those (`weight`, `.ci/downstream-check`).

use std::collections::{BTreeMap, BTreeSet};

/// The normal dependencies of every package of the workspace's graph (proc-macro crates are
/// leaves: what a derive needs to run is not what the crate using it links), by name.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(mrds_tests::workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let names: BTreeMap<&str, &str> = (json["packages"].as_array().into_iter().flatten())
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let proc_macro: BTreeSet<&str> = (json["packages"].as_array().into_iter().flatten())
        .filter(|p| {
            (p["targets"].as_array().into_iter().flatten()).any(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "proc-macro"))
            })
        })
        .filter_map(|p| p["id"].as_str())
        .collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in json["resolve"]["nodes"].as_array().into_iter().flatten() {
        let Some(id) = node["id"].as_str() else {
            continue;
        };
        let deps: BTreeSet<String> = (node["deps"].as_array().into_iter().flatten())
            .filter(|d| {
                (d["dep_kinds"].as_array().into_iter().flatten()).any(|k| k["kind"].is_null())
            })
            .filter_map(|d| d["pkg"].as_str())
            .filter(|_| !proc_macro.contains(id))
            .filter_map(|pkg| names.get(pkg).map(|n| n.to_string()))
            .collect();
        if let Some(name) = names.get(id) {
            out.entry(name.to_string()).or_default().extend(deps);
        }
    }
    out
}

/// A path of normal dependencies from `from` to `to`, if there is one.
fn path(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut queue = std::collections::VecDeque::from([vec![from.to_string()]]);
    while let Some(route) = queue.pop_front() {
        let last = route.last().expect("a route has a start");
        if last == to {
            return Some(route);
        }
        for next in graph.get(last).into_iter().flatten() {
            if seen.insert(next.clone()) {
                let mut longer = route.clone();
                longer.push(next.clone());
                queue.push_back(longer);
            }
        }
    }
    None
}

/// Each crate and the crates it must not reach.
const WALLS: &[(&str, &[&str])] = &[
    (
        "mrds-spec",
        &[
            "quote",
            "syn",
            "proc-macro2",
            "prettyplease",
            "mrds-emit",
            "mrds-diff",
            "mrds-probes",
            "mrds-follow",
            "mrds-lsp",
        ],
    ),
    (
        "mrds-emit",
        &["mrds-diff", "mrds-probes", "mrds-follow", "mrds-lsp"],
    ),
    (
        "mrds-diff",
        &[
            "quote",
            "syn",
            "prettyplease",
            "mrds-emit",
            "mrds-probes",
            "mrds-follow",
            "mrds-lsp",
        ],
    ),
    (
        "mrds-probes",
        &[
            "quote",
            "syn",
            "prettyplease",
            "mrds-emit",
            "mrds-diff",
            "mrds-follow",
            "mrds-lsp",
        ],
    ),
    (
        "mrds-follow",
        &["quote", "syn", "prettyplease", "mrds-emit", "mrds-lsp"],
    ),
    (
        "mrds-lsp",
        &["mrds-emit", "quote", "syn", "prettyplease", "mrds-follow"],
    ),
    (
        "mrds-runtime",
        &[
            "mrds-spec",
            "mrds-emit",
            "mrds-diff",
            "mrds-probes",
            "mrds-follow",
        ],
    ),
    ("mrds-model", &["mrds-spec", "mrds-emit"]),
    ("mrds-client", &["mrds-spec", "mrds-emit"]),
    ("mrds-server", &["mrds-spec", "mrds-emit"]),
    ("mrds-mock", &["mrds-spec", "mrds-emit"]),
    (
        "xtask",
        &["mrds-contract", "lsp-server", "lsp-types", "mrds-lsp"],
    ),
];

#[test]
fn no_crate_reaches_a_layer_it_must_not() {
    let graph = graph();
    let mut breaches = Vec::new();
    for (from, walls) in WALLS {
        assert!(
            graph.contains_key(*from),
            "no package `{from}` in the workspace"
        );
        for wall in *walls {
            if let Some(route) = path(&graph, from, wall) {
                breaches.push(format!("{from} reaches {wall}: {}", route.join(" -> ")));
            }
        }
    }
    assert!(breaches.is_empty(), "{}", breaches.join("\n"));
}

/// The test itself tells a reaching crate: the generator's crates do reach `syn` and each other.
#[test]
fn a_crate_reaching_a_layer_is_found() {
    let graph = graph();
    assert!(path(&graph, "mrds-emit", "syn").is_some());
    assert!(path(&graph, "mrds-follow", "mrds-diff").is_some());
    assert!(path(&graph, "xtask", "mrds-emit").is_some());
    assert!(path(&graph, "mrds-spec", "mrds-emit").is_none());
}
