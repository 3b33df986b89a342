#!/usr/bin/env bash
# Throughput and latency of the generated server against a hand-written axum handler, with
# wrk over loopback. Prints a Markdown table (the one in BENCHMARKS.md).
#
#   bench/server.sh               # 10 s per case, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/server.sh
#
# Needs wrk (Debian package `wrk`; installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

duration="${DURATION:-10s}"
connections="${CONNECTIONS:-32}"

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
    else
        echo "bench/server.sh needs wrk (apt-get install wrk)" >&2
        exit 1
    fi
fi

cargo build --quiet --release -p mrds-bench --bin bench-server
target_dir="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
server="$target_dir/release/bench-server"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start() {
    local port
    port="$(free_port)"
    "$server" "$1" "127.0.0.1:$port" &
    pids+=("$!")
    for _ in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
        sleep 0.1
    done
    echo "$port"
}
generated="$(start generated)"
baseline="$(start baseline)"

valid="$(sed -n 's/^pub const VALID: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"
invalid="$(sed -n 's/^pub const INVALID: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"
key="$(sed -n 's/^pub const KEY: &str = "\(.*\)";$/\1/p' bench/src/lib.rs)"

run() { # name port path
    local out
    # A short warm-up, then the measured run.
    wrk -t1 -c"$connections" -d2s -H "X-API-Key: $key" "http://127.0.0.1:$2/api$3" >/dev/null
    out="$(wrk -t1 -c"$connections" -d"$duration" --latency -H "X-API-Key: $key" "http://127.0.0.1:$2/api$3")"
    local rps p50 p90 p99 non2xx
    rps="$(awk '/^Requests\/sec/ {print $2}' <<<"$out")"
    p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
    p90="$(awk '$1 == "90%" {print $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
    non2xx="$(awk '/Non-2xx/ {print $4}' <<<"$out")"
    printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$rps" "$p50" "$p90" "$p99" "${non2xx:-0}"
    echo "$rps" >"$target_dir/bench-$4.rps"
}

echo "wrk: 1 thread, $connections connections, $duration per case; servers on 1 worker thread"
echo
echo "| case | requests/s | p50 | p90 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|"
run "generated server, valid dividends request" "$generated" "$valid" valid
run "generated server, request failing validation (400)" "$generated" "$invalid" invalid
run "hand-written axum handler, same bytes, no validation" "$baseline" "$valid" baseline
echo
python3 - "$target_dir" <<'PY'
import sys
d = sys.argv[1]
valid, base = (float(open(f"{d}/bench-{n}.rps").read()) for n in ("valid", "baseline"))
print(f"generated valid path: {100 * valid / base:.1f}% of the hand-written throughput")
PY
