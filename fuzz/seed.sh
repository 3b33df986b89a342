#!/usr/bin/env bash
# Regenerates the fuzz targets' seed corpora (fuzz/corpus/<target>/seed-*) and dictionaries
# (fuzz/dict/*.dict) from the project's sources: the spec's files and samples (example requests
# and the sample server's answers to them), the broken-spec corpus, the contract suite's probes
# and the serving tests' hostile requests. The other inputs of a corpus (those kept from runs)
# are left alone. See tests/src/fuzz/seeds.rs for what each target gets.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet -p mrds-tests --bin mrds-fuzz-seeds -- fuzz
