#!/usr/bin/env bash
# What depending on the generated crates costs a downstream team: the cold build time and the
# number of crates compiled for mrds-model alone and for mrds-client (each in a fresh target
# directory, release profile, crates already downloaded). Prints a Markdown table.
#
#   bench/build-cost.sh                 # mrds-model and mrds-client
#   bench/build-cost.sh mrds-server     # any workspace packages
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fetch --quiet
echo "| package | crates compiled | cold build (release), wall | cpu (user+sys) |"
echo "|---|---|---|---|"
for package in "${@:-mrds-model mrds-client}"; do
    for p in $package; do
        dir="$(mktemp -d)"
        start=$(date +%s.%N)
        # `time` on the subshell: user and system CPU seconds of the whole build.
        times="$( { TIMEFORMAT='%U %S'; time CARGO_TARGET_DIR="$dir" cargo build --release --quiet -p "$p" --message-format json >"$dir/messages.json"; } 2>&1 )"
        end=$(date +%s.%N)
        crates="$(python3 -c '
import json, sys
names = set()
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact":
        names.add(m["package_id"])
print(len(names))' "$dir/messages.json")"
        cpu="$(awk '{printf "%.1f s", $1 + $2}' <<<"$times")"
        wall="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f s", b - a}')"
        echo "| $p | $crates | $wall | $cpu |"
        rm -rf "$dir"
    done
done
