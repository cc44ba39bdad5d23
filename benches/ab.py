#!/usr/bin/env python3
"""Interleaved A/B comparison of two builds of the `kernels` bench.

Runs bench binary A, then B, then A again, ... (ROUNDS times each), in the
bench's paired mode (`DK_BENCH_PAIRED=1`) with the same filter, each writing
its results to its own JSON-lines file (`DK_BENCH_OUT`), and prints one
table: per case, the median over rounds of A's and B's median time for our
kernel, B/A, and each side's ratio against the peer (arrow-arith, a plain
loop, or our own favourable case) as the bench measured it in the same
process, from alternating sample pairs (the median over rounds of the
per-pair median ratio).

The filter is a regular expression over `group/case/rows/ours` and
`group/case/rows/PEER`. A build from before the bench had a criterion mode
pairs without being asked, ignores DK_BENCH_PAIRED, and reads the filter as
`|`-separated substrings of `group/case`: the same cases for a filter such
as `d128_15_2/div|spark`.

Build each side first (`cargo bench --bench kernels --no-run` in each
checkout) and pass the executables it prints.

Usage: python3 benches/ab.py A_BINARY B_BINARY [ROUNDS] [FILTER]
Environment: DK_BENCH_QUICK=1 (8,192 rows, no nulls) and DK_BENCH_SAMPLES
(sample pairs per case) are passed through.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

a_bin, b_bin = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
filt = sys.argv[4] if len(sys.argv) > 4 else ""


def run(binary, out):
    """{(group, case, rows): record} of one run of `binary`."""
    args = [binary, "--bench"] + ([filt] if filt else [])
    env = dict(os.environ, DK_BENCH_OUT=out, DK_BENCH_PAIRED="1")
    subprocess.run(args, stdout=subprocess.DEVNULL, env=env, check=True)
    results = {}
    with open(out) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                results[(r["group"], r["case"], r["rows"])] = r
    return results


samples = {"A": [], "B": []}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rounds):
        for side, binary in (("A", a_bin), ("B", b_bin)):
            out = os.path.join(tmp, f"{side}{r}.jsonl")
            samples[side].append(run(binary, out))
            print(f"round {r + 1} {side}: {len(samples[side][-1])} cases", file=sys.stderr)


def median(side, key, field):
    values = [field(s[key]) for s in samples[side] if key in s]
    return statistics.median(values) if values else None


def ours(r):
    return r["ours_ns"]["median"]


def pair_ratio(r):
    return r["pair_ratio"]["median"]


keys = sorted(set().union(*samples["A"], *samples["B"]))
print("| case | rows | peer | A ours ns/row | B ours ns/row | B/A | A peer/ours | B peer/ours |")
print("|---|---:|---|---:|---:|---:|---:|---:|")
for key in keys:
    group, case, rows = key
    a, b = median("A", key, ours), median("B", key, ours)
    if a is None or b is None:
        continue
    peer = next(s[key]["peer"] for s in samples["A"] if key in s)
    print(f"| {group}/{case} | {rows} | {peer} | {a:.3f} | {b:.3f} | {b / a:.2f} "
          f"| {median('A', key, pair_ratio):.2f}× | {median('B', key, pair_ratio):.2f}× |")
