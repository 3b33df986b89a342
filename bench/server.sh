#!/usr/bin/env bash
# Throughput and latency of the generated server against a hand-written axum handler, with
# wrk over loopback. Prints a Markdown table (the one in BENCHMARKS.md).
#
#   bench/server.sh                        # system allocator, 10 s per run, 32 connections
#   ALLOCATOR=mimalloc bench/server.sh     # the servers on mimalloc
#   DURATION=30s CONNECTIONS=64 ROUNDS=5 bench/server.sh
#
# Needs wrk (Debian package `wrk`; installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

duration="${DURATION:-6s}"
connections="${CONNECTIONS:-32}"
rounds="${ROUNDS:-5}"
# Servers on core 0, wrk on core 1, when the machine has two cores and taskset: less noise.
server_cpu=() client_cpu=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    server_cpu=(taskset -c 0) client_cpu=(taskset -c 1)
fi

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
    else
        echo "bench/server.sh needs wrk (apt-get install wrk)" >&2
        exit 1
    fi
fi

allocator="${ALLOCATOR:-system}"
case "$allocator" in
    system) features=() ;;
    mimalloc) features=(--features mimalloc) ;;
    *) echo "ALLOCATOR is system or mimalloc" >&2; exit 2 ;;
esac
cargo build --quiet --release -p mrds-bench --bin bench-server "${features[@]}"
target_dir="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
server="$target_dir/release/bench-server"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start() { # mode port
    "${server_cpu[@]}" "$server" "$1" "127.0.0.1:$2" >"$target_dir/bench-server-$1.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then return; fi
        sleep 0.1
    done
    echo "bench-server $1 did not start" >&2
    exit 1
}
generated="$(free_port)"
start generated "$generated"
baseline="$(free_port)"
start baseline "$baseline"
fixed="$(free_port)"
start static "$fixed"

valid="$(sed -n 's/^pub const VALID: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"
invalid="$(sed -n 's/^pub const INVALID: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"
key="$(sed -n 's/^pub const KEY: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"

# One measured wrk run: prints "rps p50 p90 p99 non2xx".
measure() { # port path
    local out
    out="$("${client_cpu[@]}" wrk -t1 -c"$connections" -d"$duration" --latency -H "X-API-Key: $key" "http://127.0.0.1:$1/api$2")"
    awk '/^Requests\/sec/ {rps = $2} $1 == "50%" {p50 = $2} $1 == "90%" {p90 = $2} $1 == "99%" {p99 = $2}
         /Non-2xx/ {bad = $5} END {print rps, p50, p90, p99, (bad == "" ? 0 : bad)}' <<<"$out"
}

cases=(valid invalid baseline static)
declare -A port=([valid]="$generated" [invalid]="$generated" [baseline]="$baseline" [static]="$fixed")
declare -A path=([valid]="$valid" [invalid]="$invalid" [baseline]="$valid" [static]="$valid")
declare -A title=(
    [valid]="generated server, valid dividends request"
    [invalid]="generated server, request failing validation (400)"
    [baseline]="hand-written axum handler, same records serialized, no validation"
    [static]="hand-written axum handler, bytes serialized once (floor)"
)
for c in "${cases[@]}"; do # warm-up
    "${client_cpu[@]}" wrk -t1 -c"$connections" -d2s -H "X-API-Key: $key" "http://127.0.0.1:${port[$c]}/api${path[$c]}" >/dev/null
done
results="$target_dir/bench-server-results.txt"
: >"$results"
# Rounds interleave the cases, so a slow moment of the machine hits all of them.
for round in $(seq "$rounds"); do
    for c in "${cases[@]}"; do
        echo "$c $(measure "${port[$c]}" "${path[$c]}")" >>"$results"
    done
done

echo "wrk: 1 thread, $connections connections, $duration per run, median of $rounds interleaved rounds;"
echo "servers on 1 worker thread${server_cpu:+ (server on core 0, wrk on core 1)}, $allocator allocator"
echo
echo "| case | requests/s | p50 | p90 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|"
python3 - "$results" "${title[valid]}" "${title[invalid]}" "${title[baseline]}" "${title[static]}" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    case, rps, p50, p90, p99, bad = line.split()
    rows.setdefault(case, []).append((float(rps), p50, p90, p99, bad))
titles = dict(zip(["valid", "invalid", "baseline", "static"], sys.argv[2:]))
for case, runs in rows.items():
    m = sorted(runs)[len(runs) // 2]  # the median run by throughput, with its latencies
    print(f"| {titles[case]} | {m[0]:,.0f} | {m[1]} | {m[2]} | {m[3]} | {m[4]} |")
# Runs of one round are minutes apart at most; their ratio is steadier than the medians'.
ratios = [v[0] / b[0] for v, b in zip(rows["valid"], rows["baseline"])]
floors = [v[0] / f[0] for v, f in zip(rows["valid"], rows["static"])]
print()
print(f"generated valid path: median {100 * statistics.median(ratios):.1f}% of the hand-written "
      f"handler's throughput (rounds: {', '.join(f'{100 * r:.0f}%' for r in ratios)}); "
      f"{100 * statistics.median(floors):.1f}% of the fixed-bytes floor")
PY
