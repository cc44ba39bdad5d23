#!/usr/bin/env python3
"""Interleaved A/B comparison of two builds of the `kernels` bench.

Runs bench binary A, then B, then A again, ... (ROUNDS times each), with
the same criterion filter and settings, parses every case's median time from
criterion's output, and prints one table: per case, the median over rounds
of A's and B's time for our kernel, B/A, and each side's speedup against the
peer measured in the same process (arrow-arith or the plain loop).

Build each side first (`cargo bench --bench kernels --no-run` in each
checkout) and pass the executables it prints.

Usage: python3 benches/ab.py A_BINARY B_BINARY [ROUNDS] [FILTER]
Environment: DK_BENCH_QUICK=1 (8,192 rows, no nulls) is passed through.
"""
import re
import statistics
import subprocess
import sys

a_bin, b_bin = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
filt = sys.argv[4] if len(sys.argv) > 4 else ""

UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
LINE = re.compile(r"^(\S+)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]")


def run(binary):
    args = [binary, "--bench", "--noplot", "--warm-up-time", "1", "--measurement-time", "2"]
    if filt:
        args.append(filt)
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    times, name = {}, None
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            name = m.group(1)
            times[name] = float(m.group(2)) * UNITS[m.group(3)]
            continue
        stripped = line.strip()
        if stripped.startswith("time:") and name is None:
            continue
        if not stripped.startswith("time:") and stripped and " " not in stripped:
            name = stripped
        elif stripped.startswith("time:") and name:
            m = re.match(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", stripped)
            if m:
                times[name] = float(m.group(1)) * UNITS[m.group(2)]
    return times


samples = {"A": [], "B": []}
for r in range(rounds):
    for side, binary in (("A", a_bin), ("B", b_bin)):
        samples[side].append(run(binary))
        print(f"round {r + 1} {side}: {len(samples[side][-1])} cases", file=sys.stderr)


def median(side, name):
    values = [s[name] for s in samples[side] if name in s]
    return statistics.median(values) if values else None


names = sorted(set().union(*samples["A"], *samples["B"]))
print("| case | rows | A ours ns/row | B ours ns/row | B/A | A speedup vs peer | B speedup vs peer |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name in names:
    parts = name.split("/")
    if len(parts) != 4 or parts[2] != "ours":
        continue
    group, case, _, rows = parts
    peer = next((f"{group}/{case}/{p}/{rows}" for p in ("arrow", "wrapping_loop")
                 if f"{group}/{case}/{p}/{rows}" in names), None)
    a, b = median("A", name), median("B", name)
    if a is None or b is None:
        continue
    n = int(rows)
    speed = lambda side, ours: (median(side, peer) / ours) if peer and median(side, peer) else float("nan")
    print(f"| {group} {case} | {n} | {a / n:.2f} | {b / n:.2f} | {b / a:.2f} "
          f"| {speed('A', a):.2f}x | {speed('B', b):.2f}x |")
