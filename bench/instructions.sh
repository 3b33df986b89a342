#!/usr/bin/env bash
# Instructions per valid request through the generated router and through the hand-written
# handler, in process (no sockets), counted by callgrind. Deterministic: a change of a few
# hundred instructions shows here on a machine where wrk's throughput moves by ±10 % from one
# minute to the next. It does not see what only a loaded server pays (cache misses between
# the kernel's socket work and the handler): confirm with bench/server.sh.
#
#   bench/instructions.sh                 # 1,000 and 2,000 requests per mode
#   N=5000 bench/instructions.sh
#
# Needs valgrind (Debian package `valgrind`; installed with apt-get when missing, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

n="${N:-1000}"
need valgrind
cargo build --quiet --release -p mrds-bench --features bench --example requests
target_dir="$(target_dir)"
bin="$target_dir/release/examples/requests"
declare -A per
for mode in generated handwritten; do
    per[$mode]=$(per_unit "$mode" "$n")
done
echo "| router | instructions per valid request |"
echo "|---|---|"
echo "| generated | ${per[generated]} |"
echo "| hand-written | ${per[handwritten]} |"
awk -v g="${per[generated]}" -v h="${per[handwritten]}" \
    'BEGIN {printf "\nhand-written / generated: %.1f %% (the generated path adds %d instructions)\n", 100 * h / g, g - h}'
