#!/usr/bin/env bash
# The generator's speed, whole process: a full regeneration of every crate and the OpenAPI
# document (`xtask codegen` on a tree without generated files) against progenitor generating
# only a client for the same API (its OpenAPI document, version line set to 3.0.3), and the
# same regeneration at 7x the spec (`xtask synth --scale 7`). Release builds, each binary run
# directly (no `cargo` in front), ROUNDS rounds of RUNS runs each, the three commands
# interleaved round by round; prints the median of the per-round ratios of mean wall time and
# of CPU time (user + system).
#
#   ROUNDS=5 RUNS=20 bench/codegen-speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
need hyperfine
command -v cargo-progenitor >/dev/null || cargo install --locked cargo-progenitor
rounds=${ROUNDS:-5}
runs=${RUNS:-20}

cargo build --release -q -p xtask
xtask="$(target_dir)/release/xtask"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Two workspaces the generator can run in: the real spec and the 7x synthetic one.
for w in real x7; do
    mkdir -p "$scratch/$w"
    printf '[workspace]\n' >"$scratch/$w/Cargo.toml"
done
cp -r spec "$scratch/real/spec"
(cd "$scratch/real" && "$xtask" synth --scale 7 --out "$scratch/x7/spec" >/dev/null)
sed '0,/"openapi": "3.1.0"/s//"openapi": "3.0.3"/' crates/mrds-server/openapi.json >"$scratch/openapi.json"

echo "| round | xtask codegen (real) | progenitor client | ratio (wall) | ratio (CPU) | xtask codegen (7x) | 7x / 1x (wall) | 7x / 1x (CPU) |"
echo "|---|---|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
    json="$scratch/round.json"
    (cd "$scratch/real" && hyperfine -N -w 3 -r "$runs" --export-json "$json" \
        --prepare "rm -rf $scratch/real/crates" "$xtask codegen" \
        --prepare "rm -rf $scratch/prog" "cargo-progenitor progenitor -i $scratch/openapi.json -o $scratch/prog -n mrds-progenitor -v 0.1.0" \
        >/dev/null)
    json7="$scratch/round7.json"
    (cd "$scratch/x7" && hyperfine -N -w 1 -r "$runs" --export-json "$json7" \
        --prepare "rm -rf $scratch/x7/crates" "$xtask codegen" >/dev/null)
    python3 - "$json" "$json7" "$round" <<'EOF'
import json, sys
one = json.load(open(sys.argv[1]))["results"]
seven = json.load(open(sys.argv[2]))["results"][0]
ours, theirs = one
cpu = lambda r: r["user"] + r["system"]
ms = lambda s: f"{s * 1000:.1f} ms"
print(f"| {sys.argv[3]} | {ms(ours['mean'])} | {ms(theirs['mean'])} | {ours['mean'] / theirs['mean']:.3f} | "
      f"{cpu(ours) / cpu(theirs):.3f} | {ms(seven['mean'])} | {seven['mean'] / ours['mean']:.2f} | "
      f"{cpu(seven) / cpu(ours):.2f} |")
EOF
done
