#!/usr/bin/env bash
# Throughput and latency of the generated server against a hand-written axum handler, with
# wrk over loopback: the generated router through `mrds_server::serve` (the serving layers an
# implementer gets) and on plain `axum::serve`, with compression off and with a rate limit, so
# each layer's cost shows; the hand-written handler both ways; and a 1.7 MB answer with and
# without gzip. Prints a Markdown table and the ratios (the ones in BENCHMARKS.md).
#
#   bench/server.sh                        # system allocator, 6 s per run, 32 connections
#   ALLOCATOR=mimalloc bench/server.sh     # the servers on mimalloc
#   DURATION=30s CONNECTIONS=64 ROUNDS=5 bench/server.sh
#
# Needs wrk (Debian package `wrk`; installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

duration="${DURATION:-6s}"
connections="${CONNECTIONS:-32}"
rounds="${ROUNDS:-5}"
# Servers on core 0, wrk on core 1, when the machine has two cores and taskset: less noise.
server_cpu=() client_cpu=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    server_cpu=(taskset -c 0) client_cpu=(taskset -c 1)
fi

need wrk

allocator="${ALLOCATOR:-system}"
case "$allocator" in
    system) features=() ;;
    mimalloc) features=(--features mimalloc) ;;
    *) echo "ALLOCATOR is system or mimalloc" >&2; exit 2 ;;
esac
cargo build --quiet --release -p mrds-bench --features bench --bin bench-server "${features[@]}"
target_dir="$(target_dir)"
server="$target_dir/release/bench-server"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
start() { # mode port name
    "${server_cpu[@]}" "$server" "$1" "127.0.0.1:$2" >"$target_dir/bench-server-$3.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then return; fi
        sleep 0.1
    done
    echo "bench-server $1 did not start" >&2
    exit 1
}
# Servers by name (the mode they run, name=mode). The 1.7 MB answers get a server of their own:
# a run of them leaves work behind (answers still being written when wrk stops) that would
# otherwise count against the next case.
declare -A server_port server_pid
for server_mode in generated=generated generated-plain=generated-plain \
    generated-nogzip=generated-nogzip generated-notimeout=generated-notimeout \
    generated-limited=generated-limited \
    kline=generated baseline=baseline baseline-serve=baseline-serve static=static; do
    name="${server_mode%%=*}"
    server_port[$name]="$(free_port)"
    start "${server_mode#*=}" "${server_port[$name]}" "$name"
    server_pid[$name]="${pids[-1]}"
done
# CPU time (user + system, in clock ticks) a server process has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
tick_us="$((1000000 / $(getconf CLK_TCK)))"

constant() { sed -n "s/^pub const $1: &str = \"\(.*\)\";$/\1/p" bench/src/lib.rs; }
valid="$(constant VALID)"
invalid="$(constant INVALID)"
kline="$(constant KLINE)"
key="$(constant KEY)"

# The cases: server mode, path, extra header ("-" for none), title.
cases=(valid valid_gzip plain nogzip notimeout limited invalid baseline baseline_serve static kline kline_gzip)
declare -A mode=([valid]=generated [valid_gzip]=generated [plain]=generated-plain [nogzip]=generated-nogzip
    [notimeout]=generated-notimeout [limited]=generated-limited [invalid]=generated [baseline]=baseline
    [baseline_serve]=baseline-serve [static]=static [kline]=generated [kline_gzip]=generated)
declare -A path=([valid]="$valid" [valid_gzip]="$valid" [plain]="$valid" [nogzip]="$valid" [notimeout]="$valid"
    [limited]="$valid" [invalid]="$invalid" [baseline]="$valid" [baseline_serve]="$valid" [static]="$valid"
    [kline]="$kline" [kline_gzip]="$kline")
declare -A extra=([valid_gzip]="Accept-Encoding: gzip" [kline_gzip]="Accept-Encoding: gzip")
declare -A title=(
    [valid]="generated server through \`serve\` (defaults), valid dividends request"
    [valid_gzip]="generated server through \`serve\`, valid request with Accept-Encoding: gzip (answer below the threshold)"
    [plain]="generated server on plain \`axum::serve\` (no serving layers), valid request"
    [nogzip]="generated server through \`serve\`, compression off, valid request"
    [notimeout]="generated server through \`serve\`, no per-request timeout, valid request"
    [limited]="generated server through \`serve\` with a rate limit (never reached), valid request"
    [invalid]="generated server through \`serve\`, request failing validation (400)"
    [baseline]="hand-written axum handler, same records serialized, no validation"
    [baseline_serve]="hand-written axum handler through \`serve\` (defaults)"
    [static]="hand-written axum handler, bytes serialized once (floor)"
    [kline]="generated server through \`serve\`, 10,000 candles (1.7 MB), no Accept-Encoding"
    [kline_gzip]="generated server through \`serve\`, 10,000 candles, Accept-Encoding: gzip"
)

# One wrk run: prints "rps p50 p90 p99 non2xx cpu_us_per_request". The server's CPU time per
# request is steadier than throughput on a shared machine: time the server waits for a core
# does not count.
measure() { # case [duration]
    local c="$1" d="${2:-$duration}" out before after headers=(-H "X-API-Key: $key")
    local pid="${server_pid[${mode[$c]}]}"
    if [ -n "${extra[$c]:-}" ]; then headers+=(-H "${extra[$c]}"); fi
    before="$(cpu_ticks "$pid")"
    out="$("${client_cpu[@]}" wrk -t1 -c"$connections" -d"$d" --latency "${headers[@]}" \
        "http://127.0.0.1:${server_port[${mode[$c]}]}/api${path[$c]}")"
    after="$(cpu_ticks "$pid")"
    awk -v ticks="$((after - before))" -v tick_us="$tick_us" \
        '/requests in/ {n = $1} /^Requests\/sec/ {rps = $2} $1 == "50%" {p50 = $2} $1 == "90%" {p90 = $2} $1 == "99%" {p99 = $2}
         /Non-2xx/ {bad = $5} END {printf "%s %s %s %s %s %.2f\n", rps, p50, p90, p99, (bad == "" ? 0 : bad), ticks * tick_us / (n > 0 ? n : 1)}' <<<"$out"
}

for c in "${cases[@]}"; do measure "$c" 2s >/dev/null; done # warm-up
results="$target_dir/bench-server-results.txt"
: >"$results"
# Rounds interleave the cases, so a slow moment of the machine hits all of them.
for round in $(seq "$rounds"); do
    for c in "${cases[@]}"; do
        echo "$c $(measure "$c")" >>"$results"
        # Let the large answers still in flight finish before the next case.
        if [[ "$c" == kline* ]]; then sleep 2; fi
    done
done
kline_url="http://127.0.0.1:${server_port[kline]}/api$kline"
kline_bytes="$(curl -s -o /dev/null -w '%{size_download}' -H "X-API-Key: $key" "$kline_url")"
kline_gzip_bytes="$(curl -s -o /dev/null -w '%{size_download}' -H "X-API-Key: $key" -H 'Accept-Encoding: gzip' "$kline_url")"

echo "wrk: 1 thread, $connections connections, $duration per run, median of $rounds interleaved rounds;"
echo "servers on 1 worker thread${server_cpu:+ (server on core 0, wrk on core 1)}, $allocator allocator"
echo
echo "| case | requests/s | p50 | p90 | p99 | non-2xx | server CPU per request |"
echo "|---|---|---|---|---|---|---|"
titles=()
for c in "${cases[@]}"; do titles+=("$c=${title[$c]}"); done
python3 - "$results" "$kline_bytes" "$kline_gzip_bytes" "${titles[@]}" <<'PY'
import statistics, sys
rows = {}
cpu = {}
for line in open(sys.argv[1]):
    case, rps, p50, p90, p99, bad, us = line.split()
    rows.setdefault(case, []).append((float(rps), p50, p90, p99, bad))
    cpu.setdefault(case, []).append(float(us))
kline_bytes, gzip_bytes = int(sys.argv[2]), int(sys.argv[3])
titles = dict(arg.split("=", 1) for arg in sys.argv[4:])
for case, runs in rows.items():
    m = sorted(runs)[len(runs) // 2]  # the median run by throughput, with its latencies
    us = statistics.median(cpu[case])
    print(f"| {titles[case]} | {m[0]:,.0f} | {m[1]} | {m[2]} | {m[3]} | {m[4]} | {us:,.1f} µs |")
# Runs of one round are minutes apart at most; their ratio is steadier than the medians'.
def ratio(a, b):
    r = [x[0] / y[0] for x, y in zip(rows[a], rows[b])]
    return f"median {100 * statistics.median(r):.1f}% (rounds: {', '.join(f'{100 * x:.0f}%' for x in r)})"
print()
print(f"- generated valid path through `serve`, against the hand-written handler: {ratio('valid', 'baseline')}")
print(f"- generated valid path through `serve`, against the hand-written handler through `serve`: {ratio('valid', 'baseline_serve')}")
print(f"- the same on plain `axum::serve`, against the hand-written handler: {ratio('plain', 'baseline')}")
print(f"- `serve` (all default layers) against plain `axum::serve`: {ratio('valid', 'plain')}")
print(f"- `serve` with compression on against off, request without Accept-Encoding: {ratio('valid', 'nogzip')}")
print(f"- the same request with Accept-Encoding: gzip (answer below the threshold) against without: {ratio('valid_gzip', 'valid')}")
print(f"- `serve` with the per-request timeout against without: {ratio('valid', 'notimeout')}")
print(f"- `serve` with the rate limit against without: {ratio('limited', 'valid')}")
print(f"- generated valid path against the fixed-bytes floor: {ratio('valid', 'static')}")
print(f"- 10,000 candles gzipped against sent as they are: {ratio('kline_gzip', 'kline')}; "
      f"{kline_bytes:,} bytes plain, {gzip_bytes:,} gzipped ({kline_bytes / max(gzip_bytes, 1):.1f}x smaller)")
# Server CPU time per request, median over rounds: what each layer adds.
def us(case):
    return statistics.median(cpu[case])
print()
print("server CPU per request (median of rounds), and what each layer adds:")
for a, b, what in [
    ("valid", "baseline", "generated through `serve` over the hand-written handler"),
    ("valid", "baseline_serve", "generated through `serve` over the hand-written handler through `serve`"),
    ("plain", "baseline", "generated on plain `axum::serve` over the hand-written handler"),
    ("valid", "plain", "`serve`'s layers (timers, cap, per-connection service), generated router"),
    ("baseline_serve", "baseline", "`serve`'s layers, hand-written handler"),
    ("valid", "nogzip", "compression on, for a request without Accept-Encoding (skips the layer)"),
    ("valid_gzip", "valid", "the compression layer, for a request with Accept-Encoding: gzip and an answer below the threshold"),
    ("valid", "notimeout", "the per-request timeout (an implementation that answers at once)"),
    ("limited", "valid", "the rate limit (never reached: the bookkeeping)"),
    ("kline_gzip", "kline", "gzip of 1.7 MB"),
]:
    print(f"- {what}: {us(a) - us(b):+,.1f} µs ({us(a):,.1f} against {us(b):,.1f}; "
          f"generated/hand-written ratio {100 * us(b) / us(a):.1f}% of the work)" if a in ("valid", "plain") and b.startswith("baseline")
          else f"- {what}: {us(a) - us(b):+,.1f} µs ({us(a):,.1f} against {us(b):,.1f})")
PY
