#!/usr/bin/env bash
# Fuzzes every target (or the ones named) for SECONDS each and prints one line
# per target: executions, coverage, corpus size and failures.
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# Each target grows its working corpus fuzz/corpus/<target>/ (not kept in git),
# starting from it and from the kept inputs in fuzz/regressions/<target>.txt
# (unpacked into fuzz/corpus/.kept/<target>/ for libFuzzer). A failing input is
# saved to fuzz/artifacts/<target>/ and stops libFuzzer; the target is then
# restarted for the time left, so the counts cover the whole time. Every
# failing input is then appended to fuzz/regressions/<target>.txt under its
# artifact name (crash-..., timeout-..., oom-...), so that `cargo test` replays
# it at once; rename it there for the bug once it is understood. (libFuzzer's
# fork mode would carry on by itself, but re-runs corpus slices in every job
# and managed a third of the executions.) The full log of each target is
# fuzz/artifacts/<target>.log.
#
# It exits non-zero when any target found a failing input (after keeping it),
# so that CI fails on it.
#
# Environment:
#   FUZZ_JOBS       targets fuzzed at once (default 1)
#   FUZZ_SANITIZER  cargo fuzz's -s (default address; none where ASan does
#                   not link)
#
# Builds are optimized with debug assertions and overflow checks on, through
# cargo fuzz's nightly-only flags (RUSTC_BOOTSTRAP=1 allows them on stable).
set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS [TARGET...]" >&2
    exit 2
fi
seconds=$1
shift
dir=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(add sub mul div rem rescale text aggregate compare number_cast)
fi
jobs=${FUZZ_JOBS:-1}
sanitizer=${FUZZ_SANITIZER:-address}
export RUSTC_BOOTSTRAP=1

cargo_fuzz() {
    nice -n 15 cargo fuzz "$1" -O -a -s "$sanitizer" --fuzz-dir "$dir" "${@:2}"
}

# Build first, so that the time given is all fuzzing.
for target in "${targets[@]}"; do
    cargo_fuzz build "$target"
done

fuzz_one() {
    local target=$1 log="$dir/artifacts/$1.log"
    local start=$SECONDS deadline=$((SECONDS + seconds)) left
    local kept="$dir/corpus/.kept/$target"
    rm -rf "$kept"
    mkdir -p "$dir/corpus/$target" "$dir/artifacts/$target"
    "$dir/regressions.py" unpack "$target" "$kept"
    : >"$log"
    while left=$((deadline - SECONDS)); ((left > 0)); do
        local before
        before=$(wc -l <"$log")
        # The first directory receives what the run finds; the second only
        # seeds it.
        cargo_fuzz run "$target" "$dir/corpus/$target" "$kept" -- \
            -max_total_time="$left" -max_len=1024 -len_control=0 -timeout=60 \
            -print_final_stats=1 >>"$log" 2>&1 && break
        # A failure while replaying the corpus would recur on every restart.
        if ! tail -n +"$((before + 1))" "$log" | grep -q INITED; then
            echo "$target: failed before fuzzing began; see $log" >>"$log"
            break
        fi
    done
    echo "elapsed: $((SECONDS - start)) s" >>"$log"
}

for target in "${targets[@]}"; do
    while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do
        wait -n
    done
    fuzz_one "$target" &
done
wait

# How many inputs of a kind (crash, timeout, oom) the log says were saved.
written() {
    grep -cE "Test unit written to .*/$1-" "$log" || true
}

failed=()
for target in "${targets[@]}"; do
    log="$dir/artifacts/$target.log"
    # The inputs this run saved (the log names each), kept for `cargo test`.
    { grep -oE "Test unit written to [^ ]+" "$log" || true; } | cut -d' ' -f5 |
        while IFS= read -r input; do
            if [[ -f $input ]]; then
                "$dir/regressions.py" add "$target" "$input"
            fi
        done
    execs=$(awk '/^stat::number_of_executed_units:/ { n += $2 } END { print n + 0 }' "$log")
    elapsed=$(awk '/^elapsed:/ { print $2 }' "$log")
    elapsed=${elapsed:-0}
    # The last status line: #<runs> <event> cov: C ft: F corp: N/<bytes> ...
    status=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -n 1 || true)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$status")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$status")
    corp=$(sed -nE 's/.*corp: ([0-9]+).*/\1/p' <<<"$status")
    echo "$target: $elapsed s, $execs execs ($((execs / (elapsed > 0 ? elapsed : 1)))/s)," \
        "cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}," \
        "crashes $(written crash), timeouts $(written timeout), ooms $(written oom)"
    found=$(($(written crash) + $(written timeout) + $(written oom)))
    if ((found > 0)) || grep -q "failed before fuzzing began" "$log"; then
        failed+=("$target")
    fi
done
if ((${#failed[@]} > 0)); then
    echo "fuzzing found failing inputs in: ${failed[*]} (kept in fuzz/regressions/; logs in fuzz/artifacts/)" >&2
    exit 1
fi
