#!/usr/bin/env python3
"""Prints the README's benchmark table from criterion's results.

Reads target/criterion/<group>/<case>_<side>/<size>/new/estimates.json (the
median of the last `cargo bench --bench kernels` run) and pairs each of our
cases with its peer (`arrow`, or `wrapping_loop` for the add limit).
Usage: python3 benches/report.py [target/criterion]
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
rows = {}
for dirpath, _dirs, files in os.walk(root):
    if "estimates.json" not in files or not dirpath.endswith(os.path.join("new")):
        continue
    parts = os.path.relpath(dirpath, root).split(os.sep)
    if len(parts) != 4:
        continue
    group, function, size, _ = parts
    side = next((x for x in ("ours", "arrow", "wrapping_loop") if function.endswith("_" + x)), None)
    if side is None:
        continue
    case = function[: -len(side) - 1]
    with open(os.path.join(dirpath, "estimates.json")) as f:
        median_ns = json.load(f)["median"]["point_estimate"]
    rows.setdefault((group, case, int(size)), {})[side] = median_ns / int(size)

print("| case | rows | ours ns/row | peer ns/row | peer | speedup |")
print("|---|---:|---:|---:|---|---:|")
for (group, case, size), sides in sorted(rows.items()):
    ours = sides.get("ours")
    peer_name, peer = next(((k, v) for k, v in sides.items() if k != "ours"), (None, None))
    if ours is None or peer is None:
        continue
    print(f"| {group} {case} | {size} | {ours:.2f} | {peer:.2f} | {peer_name} | {peer / ours:.2f}x |")
