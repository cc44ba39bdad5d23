#!/usr/bin/env bash
# Chooses the inputs kept in fuzz/regressions/<target>.txt for every target (or
# the ones named), from its working corpus fuzz/corpus/<target>/ and what is
# kept already.
#
#   fuzz/minimize.sh [TARGET...]
#
# Named inputs (the lines with a name) always stay: ones that exposed a bug,
# named for it, and hand-made ones for what the fuzzer seldom reaches
# (failures past the first block, on chunk and block edges). The rest are
# replaced by at most a target's budget of inputs
# that together reach as many code edges as possible, chosen greedily (the one
# adding the most edges not yet reached, the shorter on a tie) from libFuzzer's
# per-input coverage. `cargo fuzz cmin` would keep every input that adds any
# feature: a thousand or more per operator, each a separate monomorphized
# kernel path, more than `cargo test` should replay. The budgets keep the
# replay of all targets, in a debug build, to a few seconds.
set -euo pipefail

dir=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(add sub mul div rem rescale text aggregate compare number_cast)
fi
declare -A budget=([add]=250 [sub]=250 [mul]=320 [div]=380 [rem]=300 [rescale]=320 [text]=100 [aggregate]=200 [compare]=150 [number_cast]=150)
export RUSTC_BOOTSTRAP=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for target in "${targets[@]}"; do
    kept="$work/$target.kept"
    mkdir -p "$dir/corpus/$target" "$work/$target"
    "$dir/regressions.py" unpack "$target" "$kept"
    # Edges only (-use_counters=0): how often an edge runs is no reason to
    # keep an input here.
    nice -n 15 cargo fuzz run -O -a -s "${FUZZ_SANITIZER:-address}" --fuzz-dir "$dir" \
        "$target" "$work/$target" "$dir/corpus/$target" "$kept" -- \
        -merge=1 -use_counters=0 -merge_control_file="$work/$target.control" \
        >"$work/$target.log" 2>&1 || {
        cat "$work/$target.log" >&2
        exit 1
    }
    python3 - "$work/$target.control" "${budget[$target]}" >"$work/$target.chosen" <<'EOF'
import heapq, os, sys

# The control file: the number of inputs, the number in the first directory,
# their paths, then per input "FT <index> <features>" and "COV <index> <edges>".
lines = open(sys.argv[1]).read().split("\n")
count = int(lines[0])
paths = lines[2 : 2 + count]
edges = {}
for line in lines[2 + count :]:
    if line.startswith("COV "):
        index, *pcs = line.split()[1:]
        edges[int(index)] = set(pcs)
size = {i: os.path.getsize(paths[i]) for i in edges}
# Lazy greedy: an input's gain only shrinks as others are chosen.
heap = [(-len(e), size[i], i) for i, e in edges.items()]
heapq.heapify(heap)
reached, chosen = set(), []
while heap and len(chosen) < int(sys.argv[2]):
    _, length, i = heapq.heappop(heap)
    gain = len(edges[i] - reached)
    if gain == 0:
        continue
    if heap and (-gain, length) > heap[0][:2]:
        heapq.heappush(heap, (-gain, length, i))
        continue
    chosen.append(i)
    reached |= edges[i]
every = set().union(*edges.values()) if edges else set()
print(f"{len(chosen)} inputs reach {len(reached)} of {len(every)} edges", file=sys.stderr)
for i in chosen:
    print(paths[i])
EOF
    # The named lines stay; the chosen inputs replace the unnamed ones.
    mapfile -t chosen <"$work/$target.chosen"
    "$dir/regressions.py" replace-unnamed "$target" "${chosen[@]}"
    echo "$target: $(grep -cv '^#' "$dir/regressions/$target.txt") inputs kept"
done
