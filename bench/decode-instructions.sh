#!/usr/bin/env bash
# The client's decoding in instructions (callgrind): one answer decoded N and then 2N times
# (`bench/examples/decodes.rs`), the difference divided by N. Deterministic where
# bench/decode.sh's times move with the machine's load: 10,000 candles and 2,000 commentary
# rows, each without and with noticing drift (the client's default).
#
#   bench/decode-instructions.sh        # 5 and 10 decodes per case
#
# Needs valgrind (Debian package `valgrind`; installed with apt-get when missing, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

n="${N:-5}"
need valgrind
cargo build --quiet --release -p mrds-bench --features bench --example decodes
bin="$(target_dir)/release/examples/decodes"
echo "| case | instructions per decode |"
echo "|---|---|"
for case in candles candles_noticing commentary commentary_noticing; do
    echo "| $case | $(per_unit "$case" "$n") |"
done
