#!/usr/bin/env bash
# Instructions per valid request through the whole serving path (`mrds_server::serve` over a
# real socket: hyper, the connection's timers, the router), counted by callgrind with the
# server process under valgrind. bench/instructions.sh counts the router alone, in process;
# this one also sees the connection layer. One client on one kept-alive connection sends N
# requests one at a time, then 2N in a second run; the difference divided by N leaves start-up
# and shutdown out. Repeated runs agree within about ±40 instructions; builds of one change
# can differ by ±150 (inlining and allocation sizes move), so compare several builds' counts
# with care and look at the functions that changed (callgrind_annotate on the kept outputs).
#
#   bench/serve-instructions.sh                  # the generated router, 2,000 and 4,000 requests
#   N=1000 MODE=baseline-serve bench/serve-instructions.sh
#   OUT=/tmp/cg bench/serve-instructions.sh      # keep the callgrind outputs in /tmp/cg
#
# Needs valgrind and python3 (Debian packages `valgrind`, `python3`).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

n="${N:-2000}"
mode="${MODE:-generated}"
need valgrind
need python3
cargo build --quiet --release -p mrds-bench --features bench --bin bench-server
bin="$(target_dir)/release/bench-server"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT

constant() { sed -n "s/^pub const $1: &str = \"\(.*\)\";$/\1/p" bench/src/lib.rs; }
path="/api$(constant VALID)"
key="$(constant KEY)"

# One kept-alive connection, $2 requests one after the other, each answer read whole.
client() {
    python3 - "$@" <<'PY'
import socket, sys
port, n, path, key = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = socket.create_connection(("127.0.0.1", port))
request = f"GET {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\r\n".encode()
buf = b""
for _ in range(n):
    s.sendall(request)
    while True:
        end = buf.find(b"\r\n\r\n")
        if end >= 0:
            head = buf[:end].decode().lower().split("\r\n")
            assert head[0].startswith("http/1.1 200"), head[0]
            length = next(int(l.split(":")[1]) for l in head if l.startswith("content-length:"))
            if len(buf) >= end + 4 + length:
                buf = buf[end + 4 + length:]
                break
        chunk = s.recv(65536)
        assert chunk, "closed early"
        buf += chunk
s.close()
PY
}

# Instructions of a whole server run answering $1 requests.
count() {
    local port pid
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind-$1" "$bin" "$mode" "127.0.0.1:$port" \
        >"$out/log-$1" 2>&1 &
    pid=$!
    for _ in $(seq 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
        sleep 0.1
    done
    client "$port" "$1" "$path" "$key"
    kill -INT "$pid"
    wait "$pid" || true
    sed -n 's/.*Collected : *//p' "$out/log-$1" | tr -d ,
}
first="$(count "$n")"
second="$(count $((2 * n)))"
echo "| serving path ($mode) | instructions per valid request |"
echo "|---|---|"
echo "| $n and $((2 * n)) requests, one connection | $(((second - first) / n)) |"
