#!/usr/bin/env bash
# Release build time of this crate's two libraries against arrow-arith's own,
# measured the way an engine pays it: a throwaway app depends on
# decimal-kernels (by path) and on arrow-arith; with every dependency built,
# each round rebuilds only our two crates, then only arrow-arith, and prints
# both times, their ratio and the rlib sizes.
#
#   benches/build_time.sh [ROUNDS] [REPO...]
#
# REPO defaults to this checkout; several REPOs (e.g. an older commit's
# worktree) are measured round by round, interleaved, each in its own app.
set -euo pipefail
rounds=${1:-2}
shift || true
repos=("$@")
[ ${#repos[@]} -gt 0 ] || repos=("$(cd "$(dirname "$0")/.." && pwd)")

# The lock holds both arrow majors (dev-dependencies); compare with the newest.
arrow_version=$(awk '$0 == "name = \"arrow-arith\"" { getline; gsub(/[^0-9.]/, "", $3); print $3 }' \
    "${repos[0]}/Cargo.lock" | sort -V | tail -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

apps=()
for i in "${!repos[@]}"; do
    app="$work/app$i"
    mkdir -p "$app/src"
    cat >"$app/Cargo.toml" <<EOF
[package]
name = "build-time-app"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
decimal-kernels = { path = "${repos[$i]}" }
arrow-arith = "=$arrow_version"

[workspace]
EOF
    echo 'fn main() {}' >"$app/src/main.rs"
    cp "${repos[$i]}/Cargo.lock" "$app/Cargo.lock"
    (cd "$app" && cargo build --release --quiet 2>/dev/null || cargo build --release --quiet)
    apps+=("$app")
done

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

for round in $(seq "$rounds"); do
    for i in "${!apps[@]}"; do
        app=${apps[$i]}
        cd "$app"
        cargo clean --release -p decimal-kernels -p decimal-kernels-native >/dev/null 2>&1
        ours=$(seconds cargo build --release)
        cargo clean --release -p arrow-arith >/dev/null 2>&1
        theirs=$(seconds cargo build --release)
        ours_rlib=$(stat -c %s target/release/deps/libdecimal_kernels-*.rlib | head -1)
        native_rlib=$(stat -c %s target/release/deps/libdecimal_kernels_native-*.rlib | head -1)
        arith_rlib=$(stat -c %s target/release/deps/libarrow_arith-*.rlib | head -1)
        printf 'round %s %s: ours %.1f s, arrow-arith %.1f s, ratio %.2f; rlibs: decimal_kernels %s B, native %s B, arrow_arith %s B\n' \
            "$round" "${repos[$i]}" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)" \
            "$ours_rlib" "$native_rlib" "$arith_rlib"
    done
done
