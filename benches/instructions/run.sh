#!/usr/bin/env bash
# Instruction counts of the hot cases per loop copy (`benches/instructions.rs`
# says which), by gungraun under callgrind, against the committed baseline in
# `baseline/`: gungraun fails the run (exit code 3) when a case's
# instructions grow more than 5%, and prints each case's change.
#
#   benches/instructions/run.sh           compare with the baseline (.ci/run)
#   benches/instructions/run.sh --record  count anew and write `baseline/`
#
# Record after a change that moves a count on purpose, and commit the new
# `baseline/` with that change, saying why in its message. The baseline keeps
# what gungraun compares of each callgrind profile (its header and totals),
# not the per-function profile: `--record` on a machine, then
# `callgrind_annotate` on `target/gungraun`, shows where the instructions go.
#
# Counts repeat exactly on any load. Valgrind emulates no AVX-512, so the
# copies counted are `avx2` and `portable`; on a machine without AVX2 only
# `portable` is compared.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_INCREMENTAL=0

# The runner must be the version of the `gungraun` library in Cargo.toml.
version=$(sed -n 's/^gungraun = "=\(.*\)"$/\1/p' Cargo.toml)
command -v valgrind >/dev/null || {
    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
}
if [ "$(gungraun-runner --version 2>/dev/null)" != "gungraun-runner $version" ]; then
    cargo install gungraun-runner --version "$version" --locked --quiet
fi

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
filter=()
if ! grep -qw avx2 /proc/cpuinfo; then
    echo "instructions: no AVX2 here; comparing the portable copy only"
    filter=(portable::)
fi

if [ "${1:-}" = --record ]; then
    cargo bench --locked --bench instructions -- --home="$home" --save-baseline=committed
    rm -rf baseline
    # Each profile's header and its `summary:`/`totals:` lines: what gungraun
    # reads of a baseline. The command names the bench binary by its name,
    # not the path of the build that recorded it.
    (cd "$home" && find . -name '*.out.base@committed') | while read -r out; do
        mkdir -p "baseline/$(dirname "$out")"
        sed -n -e '/^fl=\|^ob=\|^fn=/q' \
            -e 's|^cmd: .*/\(instructions-[0-9a-f]*\)|cmd: \1|' -e p "$home/$out" |
            grep -v '^$' >"baseline/$out"
        grep -h '^totals:' "$home/$out" >>"baseline/$out" || true
    done
    echo "instructions: baseline/ written; commit it with the change that moved it"
else
    cp -R baseline/. "$home"/
    cargo bench --locked --bench instructions -- --home="$home" --baseline=committed \
        ${filter[@]+"${filter[@]}"}
fi
