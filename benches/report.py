#!/usr/bin/env python3
"""Prints the README's benchmark table from criterion's results.

Reads target/criterion/<group>/<case>_<side>/<size>/new/estimates.json (the
median of the last `cargo bench --bench kernels` run) and pairs each of our
cases with its peer (`arrow`, or `wrapping_loop` for the add limit).
Then prints the goals table: each goal of the speed issue at 8,192 and
1,048,576 rows, the add against the plain loop, and every case whose time
with 10% nulls exceeds 1.15 times its time without.
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

# Goals of the speed issue: (label, goal text, [(group, case)], minimum speedup).
GOALS = [
    ("Decimal64 add, mul", "≥ 1.0×", [("d64_15_2", "add"), ("d64_15_2", "mul")], 1.0),
    ("Decimal64 div", "≥ 1.5×", [("d64_15_2", "div")], 1.5),
    ("Decimal128 add", "≥ 1.5×", [("d128_15_2", "add")], 1.5),
    ("Decimal128 mul", "≥ 2×", [("d128_15_2", "mul")], 2.0),
    ("Decimal128 div", "≥ 5×", [("d128_15_2", "div")], 5.0),
    ("Decimal128 array ÷ scalar", "≥ 8×", [("d128_15_2", "div_scalar")], 8.0),
    ("Decimal256 money add", "≥ 4×", [("d256_40_2", "add")], 4.0),
    ("Decimal256 money mul", "≥ 5×", [("d256_40_2", "mul")], 5.0),
    ("Decimal256 money div", "≥ 10×", [("d256_40_2", "div")], 10.0),
    ("Decimal256 wide add", "≥ 3×", [("d256_60_10_by_40_10", "add")], 3.0),
    ("Decimal256 wide div", "≥ 3×", [("d256_60_10_by_40_10", "div")], 3.0),
    ("FixedPoint HalfUp mul vs `multiply_fixed_point_checked`", "≥ 5×",
     [("fixed_38_2_half_up", "mul")], 5.0),
]
SIZES = (8192, 1048576)


def speedup(group, case, size):
    sides = rows.get((group, case, size), {})
    peer = next((v for k, v in sides.items() if k != "ours"), None)
    return None if peer is None or "ours" not in sides else peer / sides["ours"]


def verdict(oks):
    if all(oks):
        return "met"
    if oks[0]:
        return "met for 8,192-row batches"
    return "not met"


print()
print("| case | goal | 8,192 | 1M | |")
print("|---|---|---:|---:|---|")
for label, goal, cases, minimum in GOALS:
    cells, oks = [], []
    for size in SIZES:
        values = [speedup(g, c, size) for g, c in cases]
        if None in values:
            cells.append("–")
            oks.append(False)
            continue
        cells.append(", ".join(f"{v:.2f}×" for v in values))
        oks.append(all(v >= minimum for v in values))
    print(f"| {label} | {goal} | {cells[0]} | {cells[1]} | {verdict(oks)} |")

# Our add against the plain wrapping loop: at most 1.3 times its time.
cells, oks = [], []
for size in SIZES:
    s = speedup("d128_15_2_add_limit", "add", size)
    cells.append("–" if s is None else f"{1 / s:.2f}×")
    oks.append(s is not None and 1 / s <= 1.3)
print(f"| Decimal128 add vs the plain `wrapping_add` loop | ≤ 1.3× its time | {cells[0]} | {cells[1]} | {verdict(oks)} |")

# Nulls: our time with 10% nulls over our time without, for every case.
worst = []
for (group, case, size), sides in sorted(rows.items()):
    if not group.endswith("_nulls") or "ours" not in sides:
        continue
    plain = rows.get((group[: -len("_nulls")], case, size), {}).get("ours")
    if plain is not None:
        worst.append((sides["ours"] / plain, f"{group[: -len('_nulls')]} {case} at {size}"))
over = [f"{name} {ratio:.2f}×" for ratio, name in sorted(worst, reverse=True) if ratio > 1.15]
if not worst:
    summary, verdict_nulls = "not measured", "–"
elif over:
    summary, verdict_nulls = "over the goal: " + "; ".join(over), "not met everywhere"
else:
    summary, verdict_nulls = f"at most {max(worst)[0]:.2f}×", "met"
print(f"| 10% nulls vs no nulls | ≤ 1.15× | {summary} | | {verdict_nulls} |")
