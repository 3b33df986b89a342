#!/usr/bin/env bash
# Client decoding against plain serde_json, interleaved: ROUNDS rounds (default 7), each
# running the three cases of `benches/decode.rs` one after the other (criterion, 1 s warm-up,
# 3 s measurement), so a noisy neighbour slows all three cases of a round alike. Prints each
# round and the median of the per-round ratios as Markdown.
#
#   bench/decode.sh            # ROUNDS=3 bench/decode.sh for a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${ROUNDS:-7}"
cases=(client model plain_struct)
cargo bench -q -p mrds-bench --bench decode --no-run 2>/dev/null

# The criterion estimate (the middle of `time: [low estimate high]`) in milliseconds.
estimate() {
    cargo bench -q -p mrds-bench --bench decode -- "decode_10k_candles/$1\$" \
        --warm-up-time 1 --measurement-time 3 --noplot 2>/dev/null |
        awk '/time:/ {
            v = $4; u = $5
            if (u == "µs" || u == "us") v /= 1000; else if (u == "s") v *= 1000
            printf "%.3f", v; exit
        }'
}

echo "| round | client (ms) | model (ms) | plain serde_json (ms) | client / plain | model / plain |"
echo "|---|---|---|---|---|---|"
ratios=()
for round in $(seq 1 "$rounds"); do
    declare -A t=()
    for c in "${cases[@]}"; do
        t[$c]="$(estimate "$c")"
    done
    client_ratio="$(awk -v a="${t[client]}" -v b="${t[plain_struct]}" 'BEGIN {printf "%.3f", a / b}')"
    model_ratio="$(awk -v a="${t[model]}" -v b="${t[plain_struct]}" 'BEGIN {printf "%.3f", a / b}')"
    ratios+=("$client_ratio $model_ratio")
    echo "| $round | ${t[client]} | ${t[model]} | ${t[plain_struct]} | $client_ratio | $model_ratio |"
    unset t
done
median() { sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
client_median="$(printf '%s\n' "${ratios[@]}" | awk '{print $1}' | median)"
model_median="$(printf '%s\n' "${ratios[@]}" | awk '{print $2}' | median)"
echo
echo "Median of the rounds: client / plain **${client_median}**, model / plain ${model_median}."
