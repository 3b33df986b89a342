#!/usr/bin/env bash
# What building costs a newcomer and a downstream team: the number of crates compiled and the
# cold build's CPU time (user + system) and wall time, each in a fresh target directory, dev
# profile (what `cargo build` does), crates already downloaded. Prints a Markdown table.
#
# The shipped crates (model and client cases) are built as a downstream team builds them: as
# path dependencies of an empty project outside this workspace, with the workspace's lock file,
# so this workspace's `[profile.dev.package]` overrides (which speed up the generator's tests)
# do not apply, as they do not to progenitor's client in its own workspace. Cases:
#
#   codegen          `cargo xtask codegen` on a fresh clone: the generator and xtask
#   test             `cargo test --workspace` on a fresh clone, the README's test command:
#                    every build it makes and every test it runs (a newcomer's first run)
#   model            mrds-model alone
#   client           mrds-client, default features (rustls with ring)
#   client-aws-lc-rs mrds-client, rustls with aws-lc-rs
#   client-native    mrds-client, native-tls (OpenSSL; needs its development package)
#   client-no-tls    mrds-client without TLS (plain http only), like progenitor's default
#   mock             mrds-mock, default features: the sample server a downstream test serves
#   mock-proxy       mrds-mock with `proxy`: the checking proxy (the client's stack, rustls)
#   generator        mrds-spec and mrds-emit: what `cargo xtask codegen` needs to generate
#   lsp              the spec's language server (`mrds-lsp`), dev profile
#   lsp-release      the same, release profile (what `cargo xtask lsp` builds)
#   progenitor       the client cargo-progenitor generates for the same API (OpenAPI 3.0.3;
#                    its reqwest has no TLS feature: plain http only)
#   progenitor-ring  the same with the TLS of mrds-client's default added to its manifest
#                    (reqwest's rustls-no-provider, rustls with ring, the platform verifier)
#
#   bench/build-cost.sh                      # every case, once
#   ROUNDS=2 bench/build-cost.sh model progenitor   # some cases, interleaved rounds
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(codegen model client client-aws-lc-rs client-native progenitor progenitor-ring)
rounds="${ROUNDS:-1}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# progenitor's client for the same API: the OpenAPI document with its version line set to
# 3.0.3 (progenitor reads 3.0), generated into a crate of its own.
progenitor_crate() {
    command -v cargo-progenitor >/dev/null || cargo install --quiet --locked cargo-progenitor
    sed 's/"openapi": "3.1.0"/"openapi": "3.0.3"/' crates/mrds-server/openapi.json >"$scratch/openapi.json"
    cargo progenitor -i "$scratch/openapi.json" -o "$scratch/progenitor" -n mrds-progenitor -v 0.1.0 >/dev/null
    # With TLS as mrds-client's default has it (its `[dependencies]` table is the last).
    cp -r "$scratch/progenitor" "$scratch/progenitor-ring"
    sed -i 's/"stream"\]/"stream", "rustls-no-provider"]/' "$scratch/progenitor-ring/Cargo.toml"
    grep -q rustls-no-provider "$scratch/progenitor-ring/Cargo.toml"
    printf '%s\n' 'rustls = { version = "0.23", default-features = false, features = ["ring", "std", "tls12"] }' \
        'rustls-platform-verifier = "0.7"' >>"$scratch/progenitor-ring/Cargo.toml"
    # Each its own workspace, outside this one.
    for crate in progenitor progenitor-ring; do
        printf '\n[workspace]\n' >>"$scratch/$crate/Cargo.toml"
        (cd "$scratch/$crate" && cargo fetch --quiet)
    done
}

# A downstream project of its own (outside this workspace, this workspace's lock file) whose
# one dependency is $2 = `crate = { ... }`: $scratch/downstream-$1.
downstream_crate() {
    local dir="$scratch/downstream-$1"
    mkdir -p "$dir/src"
    : >"$dir/src/lib.rs"
    printf '[package]\nname = "cost-probe"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' "$2" >"$dir/Cargo.toml"
    cp Cargo.lock "$dir/Cargo.lock"
    (cd "$dir" && cargo fetch --quiet)
}

# The dependency line of a shipped-crate case; nothing for the other cases.
dependency_of() {
    local root="$PWD/crates"
    case "$1" in
        model) echo "mrds-model = { path = \"$root/mrds-model\" }" ;;
        client) echo "mrds-client = { path = \"$root/mrds-client\" }" ;;
        client-aws-lc-rs) echo "mrds-client = { path = \"$root/mrds-client\", default-features = false, features = [\"rustls-aws-lc-rs\"] }" ;;
        client-native) echo "mrds-client = { path = \"$root/mrds-client\", default-features = false, features = [\"native-tls\"] }" ;;
        client-no-tls) echo "mrds-client = { path = \"$root/mrds-client\", default-features = false }" ;;
        mock) echo "mrds-mock = { path = \"$root/mrds-mock\" }" ;;
        mock-proxy) echo "mrds-mock = { path = \"$root/mrds-mock\", features = [\"proxy\"] }" ;;
    esac
}

# The cargo arguments of a case (run from the workspace root); `--message-format json` goes
# after the first (the subcommand).
command_of() {
    case "$1" in
        codegen) echo "run --quiet -p xtask -- codegen --check" ;;
        test) echo "test --quiet --workspace" ;;
        generator) echo "build --quiet -p mrds-spec -p mrds-emit" ;;
        lsp) echo "build --quiet -p mrds-lsp --bin mrds-lsp" ;;
        lsp-release) echo "build --quiet --release -p mrds-lsp --bin mrds-lsp" ;;
        progenitor | progenitor-ring) echo "build --quiet --manifest-path $scratch/$1/Cargo.toml" ;;
        *)
            [ -n "$(dependency_of "$1")" ] || { echo "unknown case $1" >&2; exit 2; }
            echo "build --quiet --manifest-path $scratch/downstream-$1/Cargo.toml" ;;
    esac
}

cargo fetch --quiet
for c in "${cases[@]}"; do
    command_of "$c" >/dev/null
    dependency="$(dependency_of "$c")"
    if [ -n "$dependency" ]; then
        downstream_crate "$c" "$dependency"
    elif [[ "$c" = progenitor* && ! -d "$scratch/progenitor" ]]; then
        progenitor_crate
    fi
done
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
    # The downstream probe is not a crate of the case.
    if m.get("reason") == "compiler-artifact" and "cost-probe" not in m["package_id"]:
        names.add(m["package_id"])
print(len(names))' "$dir.json")"
        cpu="$(awk '{printf "%.1f s", $1 + $2}' <<<"$times")"
        wall="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f s", b - a}')"
        echo "| $c (round $round) | $crates | $cpu | $wall |"
        rm -rf "$dir" "$dir.json"
    done
done
