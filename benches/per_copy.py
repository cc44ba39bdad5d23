#!/usr/bin/env python3
"""One table of every case's ratio in each compiled copy of the loops.

Run the bench once per copy, each into its own results file, then tabulate:

    for isa in portable avx2 avx512; do
        DECIMAL_KERNELS_ISA=$isa DK_BENCH_OUT=target/paired/$isa.jsonl \\
            cargo bench --bench kernels -- --paired
    done
    python3 benches/per_copy.py target/paired/{portable,avx2,avx512}.jsonl

A copy the CPU lacks falls back to the best it has, so run only the copies
`decimal_kernels::active_isa()` can name on the machine. Each file's name
(without `.jsonl`) heads its column; each cell is the median of the per-pair
ratios (peer time / ours) of the latest line of the case in that file, and
ours in ns/row. A case below 1.0× in some copy is marked `<1`; a division,
remainder or rescale below 2.0× `<2`.
"""
import json
import os
import sys

files = sys.argv[1:]
if not files:
    sys.exit(__doc__)
names = [os.path.basename(f).removesuffix(".jsonl") for f in files]
cases = {}
order = []
for name, path in zip(names, files):
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            key = (r["group"], r["case"], r["rows"])
            if key not in cases:
                cases[key] = {}
                order.append(key)
            cases[key][name] = r

header = " | ".join(f"{n}" for n in names)
print(f"| case | rows | peer | {header} | |")
print("|---|---:|---|" + "---:|" * len(names) + "---|")
for key in order:
    group, case, rows = key
    cells, ratios = [], []
    for n in names:
        r = cases[key].get(n)
        if r is None:
            cells.append("")
            continue
        ratio = r["pair_ratio"]["median"]
        ratios.append(ratio)
        cells.append(f"{ratio:.2f}× ({r['ours_ns']['median']:.2f} ns)")
    peer = next(iter(cases[key].values()))["peer"]
    dividing = any(w in case for w in ("div", "rem", "rescale"))
    mark = ""
    if ratios and min(ratios) < 1.0:
        mark = "<1"
    elif ratios and dividing and peer == "arrow" and min(ratios) < 2.0:
        mark = "<2"
    print(f"| {group}/{case} | {rows} | {peer} | " + " | ".join(cells) + f" | {mark} |")
