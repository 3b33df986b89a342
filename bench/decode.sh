#!/usr/bin/env bash
# Client decoding against plain serde_json, interleaved: ROUNDS rounds (default 7), each
# running the cases of `benches/decode.rs` one after the other (criterion, 1 s warm-up, 3 s
# measurement), so a noisy neighbour slows every case of a round alike. Prints each round and
# the median of the per-round ratios as Markdown: the client (noticing drift, its default, and
# not), the model's envelope and a plain struct on clean candles; then the client without and
# with noticing on candles that each carry a field the spec does not declare, and on
# commentary rows (three value-set fields each).
#
#   bench/decode.sh            # ROUNDS=3 bench/decode.sh for a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${ROUNDS:-7}"
cases=(decode_10k_candles/client decode_10k_candles/client_noticing decode_10k_candles/model
    decode_10k_candles/plain_struct decode_10k_drifted/client decode_10k_drifted/client_noticing
    decode_2k_commentary/client decode_2k_commentary/client_noticing)
cargo bench -q -p mrds-bench --features bench --bench decode --no-run 2>/dev/null

# The criterion estimate (the middle of `time: [low estimate high]`) in milliseconds.
estimate() {
    cargo bench -q -p mrds-bench --features bench --bench decode -- "$1\$" \
        --warm-up-time 1 --measurement-time 3 --noplot 2>/dev/null |
        awk '/time:/ {
            v = $4; u = $5
            if (u == "µs" || u == "us") v /= 1000; else if (u == "s") v *= 1000
            printf "%.3f", v; exit
        }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

echo "| round | client, noticing (ms) | client, not noticing (ms) | model (ms) | plain serde_json (ms) | noticing / not | client / plain | model / plain | drifted: not noticing (ms) | drifted: noticing (ms) | drifted: noticing / not | commentary: not noticing (ms) | commentary: noticing (ms) | commentary: noticing / not |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
ratios=()
for round in $(seq 1 "$rounds"); do
    declare -A t=()
    for c in "${cases[@]}"; do
        t[$c]="$(estimate "$c")"
    done
    noticing="${t[decode_10k_candles/client_noticing]}"
    client="${t[decode_10k_candles/client]}"
    model="${t[decode_10k_candles/model]}"
    plain="${t[decode_10k_candles/plain_struct]}"
    drifted="${t[decode_10k_drifted/client]}"
    drifted_noticing="${t[decode_10k_drifted/client_noticing]}"
    rows="${t[decode_2k_commentary/client]}"
    rows_noticing="${t[decode_2k_commentary/client_noticing]}"
    r=("$(ratio "$noticing" "$client")" "$(ratio "$client" "$plain")" "$(ratio "$model" "$plain")"
        "$(ratio "$drifted_noticing" "$drifted")" "$(ratio "$rows_noticing" "$rows")")
    ratios+=("${r[*]}")
    echo "| $round | $noticing | $client | $model | $plain | ${r[0]} | ${r[1]} | ${r[2]} | $drifted | $drifted_noticing | ${r[3]} | $rows | $rows_noticing | ${r[4]} |"
    unset t
done
median() { sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
column() { printf '%s\n' "${ratios[@]}" | awk -v c="$1" '{print $c}' | median; }
echo
echo "Median of the rounds: noticing / not **$(column 1)**, client / plain **$(column 2)**, model / plain $(column 3); with a field the spec does not declare in every record, noticing / not $(column 4); commentary rows, noticing / not $(column 5)."
