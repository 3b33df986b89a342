#!/usr/bin/env bash
# What the checking proxy adds to a request, in instructions (callgrind): N and then 2N valid
# dividends requests sent one at a time to a provider on a loopback socket, directly and
# through the proxy's router in process (`bench/examples/proxied.rs`); the difference of the
# two runs divided by N leaves start-up out, and proxied minus direct is the proxy's own work
# (routing, the spec's judgement of the request, forwarding, checking the answer, findings).
# The decoding of the client's answers is counted the same way by
# bench/decode-instructions.sh.
#
#   bench/proxy-instructions.sh          # 500 and 1,000 requests per mode
#   N=2000 bench/proxy-instructions.sh
#
# Needs valgrind (Debian package `valgrind`; installed with apt-get when missing, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

n="${N:-500}"
need valgrind
cargo build --quiet --release -p mrds-bench --features bench --example proxied
bin="$(target_dir)/release/examples/proxied"
declare -A per
for mode in direct proxied; do
    per[$mode]=$(per_unit "$mode" "$n")
done
echo "| path | instructions per request |"
echo "|---|---|"
echo "| direct | ${per[direct]} |"
echo "| through the proxy | ${per[proxied]} |"
echo
echo "The proxy adds $(( per[proxied] - per[direct] )) instructions per request."
