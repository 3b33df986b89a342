# Shared by the bench scripts: `source "$(dirname "$0")/lib.sh"` from the workspace root.

# Makes sure the command $1 (Debian package $1) is there: installs it with apt-get when it is
# missing and the script runs as root, and stops with a message otherwise.
need() {
    command -v "$1" >/dev/null && return
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$1" >/dev/null; }
    else
        echo "$0 needs $1 (apt-get install $1)" >&2
        exit 1
    fi
}

# The workspace's target directory (CARGO_TARGET_DIR or the configured one included).
target_dir() {
    cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

# Instructions per unit of `$bin MODE COUNT` (callgrind): the program run for $2 and then 2 x $2
# units of mode $1, the difference divided by $2, so that start-up does not count.
# Deterministic: a change of a few hundred instructions shows where wall time moves by ±10 %.
per_unit() {
    local mode="$1" n="$2" once twice
    once=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$mode" "$n" 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d ,)
    twice=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$mode" $((2 * n)) 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d ,)
    echo $(((twice - once) / n))
}
