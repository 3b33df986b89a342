#!/usr/bin/env bash
# What building costs a newcomer and a downstream team: the number of crates compiled and the
# cold build's CPU time (user + system) and wall time, each in a fresh target directory, dev
# profile (what `cargo build` does), crates already downloaded. Prints a Markdown table. Cases:
#
#   codegen          `cargo xtask codegen` on a fresh clone: the generator and xtask
#   model            mrds-model alone
#   client           mrds-client, default features (rustls with ring)
#   client-aws-lc-rs mrds-client, rustls with aws-lc-rs
#   client-native    mrds-client, native-tls (OpenSSL; needs its development package)
#   client-no-tls    mrds-client without TLS (plain http only), like progenitor's default
#   generator        mrds-codegen alone: what `cargo xtask codegen` needs besides xtask's own
#   progenitor       the client cargo-progenitor generates for the same API (OpenAPI 3.0.3;
#                    its reqwest has no TLS feature: plain http only)
#
#   bench/build-cost.sh                      # every case, once
#   ROUNDS=2 bench/build-cost.sh model progenitor   # some cases, interleaved rounds
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(codegen model client client-aws-lc-rs client-native progenitor)
rounds="${ROUNDS:-1}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# progenitor's client for the same API: the OpenAPI document with its version line set to
# 3.0.3 (progenitor reads 3.0), generated into a crate of its own.
progenitor_crate() {
    command -v cargo-progenitor >/dev/null || cargo install --quiet --locked cargo-progenitor
    sed 's/"openapi": "3.1.0"/"openapi": "3.0.3"/' crates/mrds-server/openapi.json >"$scratch/openapi.json"
    cargo progenitor -i "$scratch/openapi.json" -o "$scratch/progenitor" -n mrds-progenitor -v 0.1.0 >/dev/null
    # Its own workspace, outside this one.
    printf '\n[workspace]\n' >>"$scratch/progenitor/Cargo.toml"
    (cd "$scratch/progenitor" && cargo fetch --quiet)
}

# The cargo arguments of a case (run from the workspace root); `--message-format json` goes
# after the first (the subcommand).
command_of() {
    case "$1" in
        codegen) echo "run --quiet -p xtask -- codegen --check" ;;
        model) echo "build --quiet -p mrds-model" ;;
        client) echo "build --quiet -p mrds-client" ;;
        client-aws-lc-rs) echo "build --quiet -p mrds-client --no-default-features --features rustls-aws-lc-rs" ;;
        client-native) echo "build --quiet -p mrds-client --no-default-features --features native-tls" ;;
        client-no-tls) echo "build --quiet -p mrds-client --no-default-features" ;;
        generator) echo "build --quiet -p mrds-codegen" ;;
        progenitor) echo "build --quiet --manifest-path $scratch/progenitor/Cargo.toml" ;;
        *) echo "unknown case $1" >&2; exit 2 ;;
    esac
}

cargo fetch --quiet
for c in "${cases[@]}"; do [ "$c" = progenitor ] && progenitor_crate; done
echo "| case | crates compiled | cold CPU (user+sys) | cold wall |"
echo "|---|---|---|---|"
for round in $(seq "$rounds"); do
    for c in "${cases[@]}"; do
        dir="$scratch/target-$c-$round"
        # `time` on the subshell: user and system CPU seconds of the whole build.
        start=$(date +%s.%N)
        read -r sub args <<<"$(command_of "$c")"
        # shellcheck disable=SC2086 # the arguments split on purpose
        times="$( { TIMEFORMAT='%U %S'; time CARGO_TARGET_DIR="$dir" cargo "$sub" --message-format json $args >"$dir.json"; } 2>&1 )"
        end=$(date +%s.%N)
        crates="$(python3 -c '
import json, sys
names = set()
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact":
        names.add(m["package_id"])
print(len(names))' "$dir.json")"
        cpu="$(awk '{printf "%.1f s", $1 + $2}' <<<"$times")"
        wall="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f s", b - a}')"
        echo "| $c (round $round) | $crates | $cpu | $wall |"
        rm -rf "$dir" "$dir.json"
    done
done
